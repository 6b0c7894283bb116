/* The SMPI locality provider: each simulated rank's region at every locality
 * level its platform declares (platforms/README.md, "Locality levels"), read
 * from the locality file the host writes for the case (sim/host/mapping.h,
 * cs_write_case_files; the driver's --locality) and installed through
 * coll_locality.h's provider hook. The host resolves the declarations once,
 * from the XML, so the driver never walks SimGrid's zone tree for them.
 *
 * Levels are named finest first; level 0 is the SimGrid host itself ("node"
 * on most platforms, "socket" where hosts are sockets). A colour is equal for
 * two ranks exactly when they share the region, for any mapping: it is a
 * property of the rank's host, not of its rank.
 *
 * Without privatization all ranks share this module's tables: the first rank
 * to call drv_loc_init() reads the file for every rank. */
#ifndef COLLSIM_DRIVER_LOCALITY_H
#define COLLSIM_DRIVER_LOCALITY_H

#define DRV_LOC_MAX_LEVELS 6

/* Collective in effect (every rank calls it once, after MPI_Init): reads the
 * locality file at `path` (first caller), installs the provider
 * (coll_loc_set_provider). Returns 0, or -1 after printing why (no path, an
 * unreadable or malformed file, or one for another number of ranks). */
int drv_loc_init(const char *path);

int drv_loc_nlevels(void);
const char *drv_loc_level_name(int level);
int drv_loc_node_level(void); /* index of "node" */

/* Colour of MPI_COMM_WORLD rank `wrank` at `level`. */
long drv_loc_colour(int level, int wrank);

#endif
