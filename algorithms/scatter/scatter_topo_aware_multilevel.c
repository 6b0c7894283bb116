/* The multilevel topology-aware scatter (the recursive generalisation of
 * Kandalla et al. 2010, Section 4.2; collsim's reading, docs/papers.md,
 * "Kandalla: the topology-aware algorithms"): the
 * reverse of gather/topo_aware_multilevel, coarsest level first: the root's
 * blocks go to the leader of its coarsest region, are scattered among the
 * coarsest regions' leaders, then inside each region among its next-finer
 * regions' leaders, and so on down to a binomial scatter in each finest
 * region. Levels: the region level and every finer one.
 *
 * Cost: no closed form. Memory: each leader keeps its subtree's blocks at
 * each level it leads. Restrictions: none; contiguous types; MPI_IN_PLACE at
 * the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_topo_aware_multilevel(const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                          MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_multilevel();
    return rooted_hier_scatter(collsim_scatter_topo_aware_multilevel, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, collsim_scatter_topo_aware_multilevel_msg_blocks);
}
