/* Spread-out alltoall (as in Open MPI's basic linear alltoall and MPICH's
 * "scattered" one): every receive and every send is posted at once, each rank
 * starting at a different partner so that no rank is hit by all others first:
 * rank r sends to (r+i) mod p and receives from (r-i) mod p for i = 1..p-1.
 * The own block is a local copy. MPI_IN_PLACE: MPI_ERR_ARG.
 *
 * Cost (analysis/cost_model.c, spread_out; the linear model): (p-1)(α + N β),
 * N the block. Memory: the buffers; per rank 2 (p-1) request handles (plain
 * malloc). Restrictions: any p; contiguous types; no MPI_IN_PLACE. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <stdlib.h>
#include <string.h>

int collsim_alltoall_spread_out(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_alltoall_begin(collsim_alltoall_spread_out, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              comm, collsim_alltoall_spread_out_msg_blocks, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;
    coll_copy(coll_block(recvbuf, rank, bb), coll_cblock(sendbuf, rank, bb), bb);
    if (p == 1)
        return MPI_SUCCESS;

    /* Requests are per-rank state: plain malloc, not the folding scratch. */
    MPI_Request *req = malloc(sizeof *req * 2 * (size_t)(p - 1));
    if (req == NULL)
        return MPI_ERR_NO_MEM;
    int n = 0;
    for (int i = 1; i < p && err == MPI_SUCCESS; i++) {
        const int src = coll_mod(rank - i, p);
        err = MPI_Irecv(coll_block(recvbuf, src, bb), recvcount, recvtype, src,
                        COLL_TAG_ALLTOALL, comm, &req[n++]);
    }
    for (int i = 1; i < p && err == MPI_SUCCESS; i++) {
        const int dst = coll_mod(rank + i, p);
        err = MPI_Isend(coll_cblock(sendbuf, dst, bb), sendcount, sendtype, dst,
                        COLL_TAG_ALLTOALL, comm, &req[n++]);
    }
    if (err != MPI_SUCCESS)
        n--; /* the failed call produced no request */
    const int werr = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(req);
    return err != MPI_SUCCESS ? err : werr;
}
