/* A locality file: every MPI_COMM_WORLD rank's region at each locality level.
 * collsim's host writes one per simulated case (sim/host/platform/mapping.h,
 * cs_write_case_files; the driver's --locality), from the levels the platform
 * declares (platforms/README.md, "Locality levels"), so the driver never walks
 * SimGrid's zone tree; under a real MPI the PMPI layer reads one named by
 * COLLSIM_LOCALITY (docs/real-mpi.md), so a measured run can use the regions of
 * the simulated one. The format:
 *   levels L0 L1 ...         (finest first; one of them is "node")
 *   c0 c1 ...                (rank 0's region at each level: integers)
 *   ...                      (one line per rank of MPI_COMM_WORLD)
 * Two ranks share a region at a level exactly when their colours there are
 * equal. The file is installed as coll_locality.h's rank map: every rank's
 * colours are known, so region set-up sends no message.
 *
 * Process-wide tables (under SMPI, without privatization, the first rank to
 * call coll_loc_file_init reads the file for every rank). */
#ifndef COLLSIM_COLL_LOCALITY_FILE_H
#define COLLSIM_COLL_LOCALITY_FILE_H

#include <stddef.h>

#define COLL_LOC_FILE_MAX_LEVELS 6

/* Collective in effect (every rank calls it once, after MPI_Init): reads the
 * file at `path` (first caller) and installs the rank map
 * (coll_loc_set_rank_map). Returns 0, or -1 with why in err (no path, an
 * unreadable or malformed file, or one for another number of ranks). */
int coll_loc_file_init(const char *path, char *err, size_t errsize);

int coll_loc_file_nlevels(void);
const char *coll_loc_file_level_name(int level);
int coll_loc_file_node_level(void); /* index of "node" */

/* Colour of MPI_COMM_WORLD rank `wrank` at `level`. */
long coll_loc_file_colour(int level, int wrank);

#endif
