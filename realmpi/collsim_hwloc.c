/* Regions of a real machine for the locality-aware algorithms (collsim_hwloc.h):
 * node = the processes sharing memory, socket = those of a node bound inside
 * the same package (hwloc). */
#include "collsim_hwloc.h"

#include <mpi.h>

#include "coll_locality.h"

#ifdef COLLSIM_HAVE_HWLOC
#include <hwloc.h>
#endif

static long node_colour, socket_colour;

/* The package (socket) this process is bound inside, or -1: not bound, bound
 * across packages, or no package in the topology. A process that may migrate
 * has no stable socket, so it is not given one. */
static int bound_package(void)
{
    int package = -1;
#ifdef COLLSIM_HAVE_HWLOC
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return -1;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_topology_load(topo) == 0 &&
        hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(set)) {
        const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
        for (int i = 0; i < n && package < 0; i++) {
            hwloc_obj_t obj = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, i);
            if (obj && hwloc_bitmap_isincluded(set, obj->cpuset))
                package = (int)obj->logical_index;
        }
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
#endif
    return package;
}

static int provider(int level, long *colour)
{
    *colour = level == 0 ? socket_colour : node_colour;
    return MPI_SUCCESS;
}

int collsim_hwloc_regions(int *sockets_known)
{
    static const char *const names[] = {"socket", "node"};
    MPI_Comm shm;
    int err, wrank, lowest, package, all_bound;

    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if ((err = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm)))
        return err;
    /* node: its lowest world rank; socket: its package, when every process of the node knows
     * its own (else the node is one socket: a partial answer would make false regions) */
    package = bound_package();
    int known = package >= 0;
    if (!(err = MPI_Allreduce(&wrank, &lowest, 1, MPI_INT, MPI_MIN, shm)))
        err = MPI_Allreduce(&known, &all_bound, 1, MPI_INT, MPI_MIN, shm);
    MPI_Comm_free(&shm);
    if (err)
        return err;
    node_colour = lowest;
    socket_colour = (long)lowest * 4096 + (all_bound ? package % 4096 : 4095);
    if (sockets_known)
        *sockets_known = all_bound;
    return coll_loc_set_provider(2, names, provider);
}
