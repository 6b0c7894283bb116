/* Binomial-tree scatter (MPICH2's MPIR_Scatter_intra_binomial;
 * docs/papers.md, "Kandalla: the baselines"), the mirror of gather/binomial: relative rank vr = (rank - root) mod
 * p; a process receives its subtree's blocks from vr - lowbit(vr), then sends
 * each child vr + mask (mask from lowbit(vr)/2 down to 1) its subtree's, the
 * largest first. The root sends, for p = 296, 40, 128, 64, ..., 1 blocks.
 *
 * Cost: ceil(log2 p) α + (p-1) N β at the root. Memory: an inner node keeps
 * its subtree's blocks in scratch; a root other than rank 0 copies its send
 * buffer in relative order (a local move). Restrictions: none; any root, any
 * p; contiguous types; MPI_IN_PLACE (as recvbuf) at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm)
{
    return rooted_scatter_alg(collsim_scatter_binomial, ROOTED_BINOMIAL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, root, comm, collsim_scatter_binomial_msg_blocks);
}
