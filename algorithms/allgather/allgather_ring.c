/* Ring allgather (Thakur, Rabenseifner, Gropp 2005; Sparbit paper Section II-A):
 * p-1 steps; each step forwards to rank+1 the block received from rank-1 on the
 * step before (the own block on the first step).
 *
 * Cost (analysis/cost_model.c, ring; Sparbit paper II-A): (p-1)(α + (m/p) β),
 * m/p the block. Memory: the receive buffer only. Restrictions: any p;
 * contiguous types; MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

int collsim_allgather_ring(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_allgather_begin(collsim_allgather_ring, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, collsim_allgather_ring_msg_blocks, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;

    const int right = coll_mod(rank + 1, p), left = coll_mod(rank - 1, p);
    for (int i = 0; i < p - 1; i++) {
        /* Step i sends block rank-i and receives block rank-i-1. */
        err = coll_sendrecv_blocks(recvbuf, bb, recvcount, recvtype,
                                   coll_mod(rank - i, p), 1, right,
                                   coll_mod(rank - i - 1, p), 1, left, comm);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}
