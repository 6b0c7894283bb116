/* Building a communicator's region info from a rank map (coll_locality.h,
 * coll_loc_set_rank_map): every process derives the regions by itself, and
 * each region makes its communicator among its members only. Internal to
 * coll_locality.c. */
#ifndef COLLSIM_COLL_LOCALITY_MAP_H
#define COLLSIM_COLL_LOCALITY_MAP_H

#include "coll_locality.h"

/* The tag of the region communicators' creation (and of the set-up messages
 * of coll_locality.c). */
#define COLL_TAG_LOC_SETUP 25470

/* Fills info (whose comm, level, rank and size are set) from map.
 * MPI_COMM_WORLD's layout is computed once per OS process and kept for this
 * `generation` of the map; another communicator's is computed by each process
 * for itself. The tables and the region groups go through coll_share.h. */
int coll_loc_build_info_map(coll_loc_info *info, coll_loc_rank_map map, unsigned generation);

#endif
