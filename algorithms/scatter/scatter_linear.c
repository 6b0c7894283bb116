/* Direct (linear) scatter: the root posts a send to every other process and
 * waits for all (MVAPICH2's MPIR_Scatter_MV2_Direct; docs/papers.md,
 * "Kandalla: the baselines").
 *
 * Cost: (p-1)(α + N β) at the root. Memory: p request handles at the root;
 * a root other than rank 0 copies its send buffer in relative order.
 * Restrictions: none; any root, any p; contiguous types; MPI_IN_PLACE (as
 * recvbuf) at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm)
{
    return rooted_scatter_alg(collsim_scatter_linear, ROOTED_DIRECT, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, root, comm, collsim_scatter_linear_msg_blocks);
}
