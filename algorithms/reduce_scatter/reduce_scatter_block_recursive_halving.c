/* Reduce-scatter of equal blocks by recursive halving (Thakur, Rabenseifner,
 * Gropp 2005, Section 4, "Reduce-Scatter"): reduce_scatter's recursive
 * halving with every block recvcount elements (reduce_scatter_recursive_halving.c
 * has the schedule, its cost and memory).
 *
 * Cost: log2(p) α + ((p-1)/p) n β + ((p-1)/p) n γ, n = p recvcount, p a
 * power of two; otherwise + α + n β + n γ before and α + (n/p) β after.
 * Restrictions: commutative operations only (MPI_ERR_OP otherwise); any p,
 * recvcount >= 0; MPI_IN_PLACE; contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int collsim_reduce_scatter_block_recursive_halving(const void *sendbuf, void *recvbuf,
                                                   int recvcount, MPI_Datatype datatype,
                                                   MPI_Op op, MPI_Comm comm)
{
    return coll_rs_recursive_halving(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm);
}
