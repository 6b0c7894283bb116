/* The multilevel generalisation of Kandalla et al.'s topology-aware gather
 * (Section 3 builds chassis communicators and Section 4.2 says the operation
 * can be done "in a recursive manner", but the paper evaluates two levels;
 * collsim's reading, docs/papers.md, "Kandalla: the topology-aware
 * algorithms"): the same scheme level by level, finest
 * first, over the region level and every finer level the platform declares
 * (e.g. node, switch on kandalla-testbed with --region switch; node, chassis,
 * rack on ranger with --region rack; socket, node, switch on lassen): a
 * binomial gather in each finest region to its leader, then among the leaders
 * of each coarser level, leaders being the lowest ranks, and one message to
 * the root if it leads no region. With the region level the finest, it is
 * topo_aware.
 *
 * Cost: no closed form (the levels' binomial gathers in sequence). Memory:
 * each leader keeps its subtree's blocks at each level it leads.
 * Restrictions: none; contiguous types; MPI_IN_PLACE at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_topo_aware_multilevel(const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                         MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_multilevel();
    return rooted_hier_gather(collsim_gather_topo_aware_multilevel, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, collsim_gather_topo_aware_multilevel_msg_blocks);
}
