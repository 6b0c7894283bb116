/* Reduce-scatter of equal blocks by pairwise exchange (Thakur, Rabenseifner,
 * Gropp 2005, Section 4, "Reduce-Scatter"): reduce_scatter's pairwise
 * exchange with every block recvcount elements (reduce_scatter_pairwise.c
 * has the schedule).
 *
 * Cost: (p-1)(α + recvcount β + recvcount γ). Memory: two blocks of scratch.
 * Restrictions: commutative operations only (MPI_ERR_OP otherwise); any p,
 * recvcount >= 0; MPI_IN_PLACE; contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int collsim_reduce_scatter_block_pairwise(const void *sendbuf, void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return coll_rs_pairwise(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm);
}
