/* MVAPICH2's node-level two-level scatter (MPIR_Scatter_MV2_two_level_Direct;
 * docs/papers.md, "Kandalla: the baselines"): the root sends all p blocks to its node's leader (local
 * rank 0) if it is not one, the leaders scatter the nodes' vectors directly
 * (a scatterv when nodes hold different numbers of processes), each leader
 * scatters its node's blocks directly. Always the "node" level. The word
 * names the inner (intra-node) step, as for gather/two_level_*; MVAPICH2's
 * own two_level_binomial varies the leaders' step instead (SMPI's
 * native:mvapich2_two_level_binomial).
 *
 * Cost: (n-1) α + (p - s) N β among the n node leaders, then (s-1)(α_l + N
 * β_l) in the largest node of s processes, plus α_l + p N β_l when the root
 * is not a leader. Memory: a leader keeps its node's blocks (the root's
 * leader all p) in scratch; the root packs its blocks in node order.
 * Restrictions: none; contiguous types; MPI_IN_PLACE at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_two_level_direct(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                     MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_node(ROOTED_DIRECT, ROOTED_DIRECT);
    return rooted_hier_scatter(collsim_scatter_two_level_direct, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, collsim_scatter_two_level_direct_msg_blocks);
}
