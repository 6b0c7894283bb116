/* MVAPICH2's node-level two-level gather with a binomial inner step: as
 * two_level_direct (docs/papers.md, "Kandalla: the baselines"), but the gather inside each node is
 * MPICH2's binomial tree (MVAPICH2's MV2_Gather_intra_node_function set to
 * binomial); the leaders' step stays direct. Always the "node" level.
 *
 * Cost: ceil(log2 s) α_l + (s-1) N β_l in the largest node of s processes,
 * then as two_level_direct. Memory: as two_level_direct, plus an inner
 * node's subtree in scratch. Restrictions: none; contiguous types;
 * MPI_IN_PLACE at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_two_level_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                      int root, MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_node(ROOTED_BINOMIAL, ROOTED_DIRECT);
    return rooted_hier_gather(collsim_gather_two_level_binomial, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, collsim_gather_two_level_binomial_msg_blocks);
}
