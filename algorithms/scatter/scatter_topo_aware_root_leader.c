/* The topology-aware scatter of Kandalla et al. 2010 with the root leading
 * its own switch (Section 4.2's simplifying assumption; docs/papers.md,
 * "Kandalla: the topology-aware algorithms"): as topo_aware without the root's first message to its
 * switch leader.
 *
 * Cost: Kandalla's K4 plus the binomial scatter of the largest switch.
 * Memory and restrictions: as topo_aware. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_topo_aware_root_leader(const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                           MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_region(1);
    return rooted_hier_scatter(collsim_scatter_topo_aware_root_leader, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, collsim_scatter_topo_aware_root_leader_msg_blocks);
}
