/* Pairwise-exchange alltoall (Thakur, Rabenseifner, Gropp 2005): p-1 steps of
 * one MPI_Sendrecv each. Partner of step i: for a power-of-two p, rank XOR i
 * (both sides exchange with each other, so every step is a set of disjoint
 * pairs); otherwise send to (rank+i) mod p and receive from (rank-i) mod p.
 * The own block is a local copy. MPI_IN_PLACE: MPI_ERR_ARG.
 *
 * Cost (analysis/cost_model.c, spread_out; Thakur et al.'s pairwise
 * exchange): (p-1)(α + N β), N the block. Memory: the buffers only.
 * Restrictions: any p (the XOR partners for powers of two only); contiguous
 * types; no MPI_IN_PLACE. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <string.h>

int collsim_alltoall_pairwise(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_alltoall_begin(collsim_alltoall_pairwise, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              comm, collsim_alltoall_pairwise_msg_blocks, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;
    coll_copy(coll_block(recvbuf, rank, bb), coll_cblock(sendbuf, rank, bb), bb);

    const int pow2 = (p & (p - 1)) == 0;
    for (int i = 1; i < p; i++) {
        const int dst = pow2 ? rank ^ i : coll_mod(rank + i, p);
        const int src = pow2 ? rank ^ i : coll_mod(rank - i, p);
        err = MPI_Sendrecv(coll_cblock(sendbuf, dst, bb), sendcount, sendtype, dst,
                           COLL_TAG_ALLTOALL, coll_block(recvbuf, src, bb), recvcount,
                           recvtype, src, COLL_TAG_ALLTOALL, comm, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}
