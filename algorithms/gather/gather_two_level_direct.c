/* MVAPICH2's node-level two-level gather (MPIR_Gather_MV2_two_level_Direct,
 * what Kandalla et al. 2010 extend, Section 2.4; docs/papers.md, "Kandalla:
 * the baselines"): a direct
 * gather inside every node to its leader (local rank 0), a direct gather of
 * the nodes' vectors among the leaders to the root's node's leader (a
 * gatherv when nodes hold different numbers of processes), and that leader's
 * one message of everything to the root when the root is not a leader.
 * Always the "node" level, whatever --region says.
 *
 * Cost: (s-1)(α_l + N β_l) in the largest node of s processes, then
 * (n-1) α + (p - s) N β among the n node leaders, plus α_l + p N β_l when the
 * root is not a leader. Memory: a leader keeps its node's blocks (the root's
 * leader all p) in scratch; the region tables of coll_locality.h.
 * Restrictions: none; any root, any node sizes and placement; contiguous
 * types; MPI_IN_PLACE at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_two_level_direct(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                    MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_node(ROOTED_DIRECT, ROOTED_DIRECT);
    return rooted_hier_gather(collsim_gather_two_level_direct, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, collsim_gather_two_level_direct_msg_blocks);
}
