/* Binomial-tree gather (MPICH2's MPIR_Gather_intra_binomial; the default of
 * MPICH2 and, per Kandalla et al. 2010, Section 4.1, of MVAPICH2 at their
 * scale; docs/papers.md, "Kandalla: the baselines"). Relative rank vr = (rank - root) mod p; for mask =
 * 1, 2, 4, ...: a process with bit `mask` clear receives the blocks of vr +
 * mask's subtree, one with it set sends its subtree's blocks to vr - mask and
 * stops. ceil(log2 p) steps; the root receives 1, 2, 4, ... blocks.
 *
 * Cost: ceil(log2 p) α + (p-1) N β at the root (Kandalla's K2 splits the
 * steps by the level each crosses: analysis/cost_model.c). Memory: an inner
 * node keeps its subtree's blocks in scratch; the root receives in relative
 * order into its receive buffer and rotates it (a local move).
 * Restrictions: none; any root, any p; contiguous types; MPI_IN_PLACE at the
 * root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm)
{
    return rooted_gather_alg(collsim_gather_binomial, ROOTED_BINOMIAL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, root, comm, collsim_gather_binomial_msg_blocks);
}
