/* The SMPI locality provider: each simulated rank's region at every locality
 * level its platform declares (platforms/README.md, "Locality levels"),
 * derived from SimGrid's zone tree and installed through coll_locality.h's
 * provider hook. Only the driver calls SimGrid; the algorithms see colours.
 *
 * Levels are named finest first; level 0 is the SimGrid host itself ("node"
 * on most platforms, "socket" where hosts are sockets). A colour is equal for
 * two ranks exactly when they share the region, for any mapping: it is a
 * property of the rank's host, not of its rank.
 *
 * Without privatization all ranks share this module's tables: the host table
 * is built by the first rank to call drv_loc_init(), and every rank writes its
 * own row of the per-rank table. Read other ranks' rows only after every rank
 * has called drv_loc_init() (e.g. after a barrier). */
#ifndef COLLSIM_DRIVER_LOCALITY_H
#define COLLSIM_DRIVER_LOCALITY_H

#define DRV_LOC_MAX_LEVELS 6

/* Collective in effect (every rank calls it once, after MPI_Init): reads the
 * platform's levels, records this rank's colours, installs the provider
 * (coll_loc_set_provider). Returns 0, or -1 after printing why (a platform
 * whose declarations the host-side check would also reject). */
int drv_loc_init(void);

int drv_loc_nlevels(void);
const char *drv_loc_level_name(int level);
int drv_loc_node_level(void); /* index of "node" */

/* Colour of MPI_COMM_WORLD rank `wrank` at `level`. */
long drv_loc_colour(int level, int wrank);

#endif
