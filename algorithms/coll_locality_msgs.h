/* Building a communicator's region info from a provider (coll_locality.h,
 * coll_loc_set_provider): each process tells its colour by messages over the
 * communicator. Internal to coll_locality.c. */
#ifndef COLLSIM_COLL_LOCALITY_MSGS_H
#define COLLSIM_COLL_LOCALITY_MSGS_H

#include "coll_locality.h"

/* Collective over info->comm: fills info (whose comm, level, rank and size
 * are set) from the colours fn gives each process. */
int coll_loc_build_info_msgs(coll_loc_info *info, coll_loc_provider fn);

#endif
