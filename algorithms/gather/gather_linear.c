/* Direct (linear) gather: the root posts a receive from every other process
 * and waits for all (MVAPICH2's MPIR_Gather_MV2_Direct, "direct" in
 * Kandalla et al. 2010, Section 2.4; docs/papers.md, "Kandalla: the
 * baselines"). Unlike SMPI's
 * ompi_basic_linear, which receives from one rank after the other, every
 * message is in flight at once.
 *
 * Cost: (p-1)(α + N β) at the root. Memory: p request handles at the root.
 * Restrictions: none; any root, any p; contiguous types; MPI_IN_PLACE at the
 * root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm)
{
    return rooted_gather_alg(collsim_gather_linear, ROOTED_DIRECT, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, root, comm, collsim_gather_linear_msg_blocks);
}
