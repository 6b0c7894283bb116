/* MVAPICH2's node-level two-level scatter with a binomial inner step: as
 * two_level_direct, but each node leader scatters its node's blocks with
 * MPICH2's binomial tree (SMPI's port uses MPICH's scatter inside the node
 * too); the leaders' step stays direct. Always the "node" level.
 *
 * Cost: as two_level_direct with ceil(log2 s) α_l + (s-1) N β_l inside the
 * node. Memory: as two_level_direct, plus an inner node's subtree.
 * Restrictions: none; contiguous types; MPI_IN_PLACE at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_two_level_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                       int root, MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_node(ROOTED_BINOMIAL, ROOTED_DIRECT);
    return rooted_hier_scatter(collsim_scatter_two_level_binomial, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, collsim_scatter_two_level_binomial_msg_blocks);
}
