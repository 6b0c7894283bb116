/* Reduce, then scatter, of equal blocks (Thakur, Rabenseifner, Gropp 2005,
 * Section 4, "Reduce-Scatter"): reduce_scatter's reduce_scatterv with every
 * block recvcount elements (reduce_scatter_reduce_scatterv.c has the
 * schedule): collsim's binomial reduce to rank 0, then a binomial scatter.
 *
 * Cost: ceil(log2 p)(α + n β + n γ) + ceil(log2 p) α + ((p-1)/p) n β, n = p
 * recvcount. Restrictions: none; any operation (rank order kept), any p,
 * recvcount >= 0; MPI_IN_PLACE; contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int collsim_reduce_scatter_block_reduce_scatterv(const void *sendbuf, void *recvbuf,
                                                 int recvcount, MPI_Datatype datatype, MPI_Op op,
                                                 MPI_Comm comm)
{
    return coll_rs_reduce_scatterv(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm);
}
