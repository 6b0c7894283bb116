/* Locality for the locality-aware algorithms (Bienz, Gautam, Kharel 2022,
 * Section 2.1: a "region" is a group of processes within which communication
 * is cheap; the paper's regions are nodes on Quartz and sockets on Lassen).
 * Plain MPI: it builds against any MPI as well as against SMPI.
 *
 * Levels. Locality comes in levels, named and indexed finest first (e.g. 0
 * "socket", 1 "node", 2 "switch"). A process's region at a level is given by a
 * colour (a long): processes with equal colours share the region. The
 * colours come from a provider:
 *
 *   typedef int (*coll_loc_provider)(int level, long *color);
 *
 * returns MPI_SUCCESS and this process's colour at `level`. Colours need only
 * tell regions apart within the communicator being split, and a finer level's
 * colours only within a region of the next coarser one (the algorithms split
 * a region again, never MPI_COMM_WORLD).
 *
 * The default provider has one level, "node": the processes that share memory,
 * i.e. MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED), coloured by
 * the smallest MPI_COMM_WORLD rank of that group. It is computed once by the
 * collective coll_loc_init(), which the application (collsim's driver) calls
 * right after MPI_Init. Under SMPI it groups ranks by simulated host. Finer or
 * coarser levels (sockets, switches, ...) are supplied by installing a provider
 * with coll_loc_set_provider(), under a real MPI (e.g. from hwloc or the host
 * name) as under SMPI (from the platform), before the first collective that
 * uses them.
 *
 * Region level. The algorithms use one level as their "region": by default
 * "node", changed by coll_loc_set_region_level() (collsim's driver: --region).
 *
 * Process-wide settings. The provider, the level names and the region level
 * are process-wide state. Under SMPI without privatization all simulated ranks
 * share it: every rank must set the same values, at a point where no rank is
 * inside a collective that uses them (before the first one, as the driver
 * does, or between two barriers). Installing a provider invalidates the
 * caches. What differs per process (the default provider's colour, the cached
 * communicators) is kept per process even then: on MPI_COMM_SELF, and on a
 * communicator per rank of it (SMPI's MPI_COMM_WORLD is one object shared by
 * all ranks). Not thread-safe.
 *
 * Caching. coll_loc_split() and coll_loc_info_get() derive a region
 * communicator and tables from a communicator once and cache them on it as an
 * MPI attribute; they are freed by the attribute's delete callback when the
 * communicator is freed (MPI_COMM_WORLD's at MPI_Finalize). The first call on
 * a communicator is collective over it: with a provider, one MPI_Comm_split,
 * an allreduce in each region and one Bruck allgather over the communicator of
 * a record per region (point-to-point, logarithmic depth); with a rank map,
 * only one MPI_Comm_create_group per region; later calls are local lookups.
 * (collsim's driver calls coll_loc_prepare() before it times, so the
 * timings measure the collective, not the set-up.) Memory per process: O(number of
 * regions) for the tables, O(p) only for a layout that is neither blocks nor
 * cyclic (a program whose processes share an address space may keep one
 * copy of identical tables and region groups: coll_share.h); a rank map adds
 * O(p) per process for MPI_COMM_WORLD's table (once per OS process). What each path costs to simulate:
 * docs/simulation-cost.md. */
#ifndef COLLSIM_COLL_LOCALITY_H
#define COLLSIM_COLL_LOCALITY_H

#include <mpi.h>

#define COLL_LOC_MAX_LEVELS 8

typedef int (*coll_loc_provider)(int level, long *color);

/* Installs a provider of `nlevels` levels named names[0..nlevels-1], finest
 * first (the names are copied). fn == NULL restores the default provider (one
 * level, "node"). The region level is reset to "node" if there is such a
 * level, else to the coarsest. Returns MPI_SUCCESS, or MPI_ERR_ARG for a bad
 * count, a missing or repeated name. Communicators already cached keep their
 * regions until they are used again, when they are rebuilt. */
int coll_loc_set_provider(int nlevels, const char *const *names, coll_loc_provider fn);

/* A rank map: the colour at `level` of any process of MPI_COMM_WORLD, given
 * its rank there. It describes the whole job and must be the same function on
 * every process (under SMPI, the platform's placement; under a real MPI, e.g.
 * regions given by the environment as a block size). Installed instead of a
 * provider (same names, same rules; coll_loc_set_provider() removes it), it
 * lets every process derive the regions of a communicator by itself: the
 * set-up sends no message over the communicator, only each region's
 * MPI_Comm_create_group among its members. The regions, tables and
 * communicators are the same as a provider of the same colours gives. */
typedef int (*coll_loc_rank_map)(int level, int world_rank, long *color);
int coll_loc_set_rank_map(int nlevels, const char *const *names, coll_loc_rank_map fn);

/* Collective over MPI_COMM_WORLD: computes this process's "node" colour for
 * the default provider. Call it once after MPI_Init. */
int coll_loc_init(void);

int coll_loc_level_count(void);
const char *coll_loc_level_name(int level); /* NULL when out of range */
int coll_loc_level_index(const char *name); /* -1 when unknown */

/* The level the algorithms use as their region: 0, or -1 for an unknown
 * name (nothing changes). */
int coll_loc_set_region_level(const char *name);
int coll_loc_region_level(void);
const char *coll_loc_region_level_name(void);

/* Region layouts (how regions lie in the communicator's rank order), so that
 * "which rank is member h of region j" needs no table in the common cases. */
enum {
    COLL_LOC_BLOCK = 0,   /* region j = ranks first[j] .. first[j] + size[j] - 1 */
    COLL_LOC_CYCLIC = 1,  /* member h of region j is rank j + h * nregions */
    COLL_LOC_GENERAL = 2  /* anything else: a table of size entries */
};

/* What the algorithms need to know of `comm`'s regions at one level. Regions
 * are numbered 0..nregions-1 by their lowest rank in `comm`; members of a
 * region by their rank order in `comm` (their rank in comm_region). The
 * "virtual order" lists the members region by region: member h of region j
 * has virtual index first[j] + h. */
typedef struct coll_loc_info {
    MPI_Comm comm;         /* the communicator it describes (not owned) */
    MPI_Comm comm_region;  /* my region, in comm's rank order (owned) */
    int rank, size;        /* in comm */
    int level;
    int region, nregions;  /* my region's number, number of regions */
    int local_rank, local_size;
    int max_size, min_size;     /* over the regions */
    int *region_size;           /* [nregions] */
    int *first;                 /* [nregions + 1]: virtual index of each region's member 0 */
    int layout;                 /* COLL_LOC_BLOCK, _CYCLIC or _GENERAL */
    int *vrank;                 /* GENERAL only: [size], virtual index -> rank in comm */
} coll_loc_info;

/* comm must be an intracommunicator: the functions below return MPI_ERR_COMM
 * for an intercommunicator (coll_check_intracomm, coll_util.h).
 *
 * The region sub-communicator of `comm` at `level` (comm's rank order kept).
 * Collective the first time on a communicator, then cached. The communicator
 * belongs to the cache: do not free it. */
int coll_loc_split(MPI_Comm comm, int level, MPI_Comm *region);

/* Everything of coll_loc_info, cached the same way (*info stays valid until
 * comm is freed or the provider changes). */
int coll_loc_info_get(MPI_Comm comm, int level, const coll_loc_info **info);

/* Collective over comm: builds and caches, ahead of time, what the
 * locality-aware algorithms derive on their first call: comm's regions at the
 * region level, and inside my region each finer level's in turn (what
 * loc_bruck_multilevel splits). A benchmark calls it before it times, as
 * the paper's code builds its locality communicators when it creates its
 * communicator (MPIX_Comm_init in MPI Advance), so that a first call costs
 * what the others do. */
int coll_loc_prepare(MPI_Comm comm);

/* Rank in info->comm of member h of region j. */
static inline int coll_loc_rank_of(const coll_loc_info *info, int j, int h)
{
    switch (info->layout) {
    case COLL_LOC_BLOCK:
        return info->first[j] + h;
    case COLL_LOC_CYCLIC:
        return j + h * info->nregions;
    default:
        return info->vrank[info->first[j] + h];
    }
}

/* Rank in info->comm of the member with virtual index v. */
int coll_loc_rank_of_virtual(const coll_loc_info *info, int v);

/* The region holding virtual index v (a bisection of first[]). */
int coll_loc_region_of_virtual(const coll_loc_info *info, int v);

#endif
