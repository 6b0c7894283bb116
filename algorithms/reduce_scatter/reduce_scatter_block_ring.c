/* Ring reduce-scatter of equal blocks (Patarasuk and Yuan 2009, the first
 * phase of the logical-ring allreduce): reduce_scatter's ring with every
 * block recvcount elements (reduce_scatter_ring.c has the schedule).
 *
 * Cost: (p-1)(α + recvcount β + recvcount γ). Memory: one vector and one
 * block of scratch. Restrictions: commutative operations only (MPI_ERR_OP
 * otherwise); any p, recvcount >= 0; MPI_IN_PLACE; contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int collsim_reduce_scatter_block_ring(const void *sendbuf, void *recvbuf, int recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return coll_rs_ring(sendbuf, recvbuf, NULL, recvcount, datatype, op, comm);
}
