/* Spread-out alltoallv (Fan et al. 2022, Section 4.1, "Spread-out": the
 * MPI_Isend/MPI_Irecv baseline; as Open MPI's basic linear and MPICH's
 * scattered alltoallv): every receive and every send is posted at once, each
 * rank starting at a different partner, rank r receiving from (r-i) mod p and
 * sending to (r+i) mod p for i = 1..p-1. A block of zero bytes sends no
 * message (sender and receiver agree on that, the block's signature being
 * the same on both sides), as those libraries do. The own block is a local
 * copy. MPI_IN_PLACE: MPI_ERR_ARG.
 *
 * Cost (analysis/cost_model.c, spread_out_v; the paper states no equation):
 * (p-1)(α + n̄ β), n̄ the mean block (N/2 for the uniform distribution).
 * Memory: the buffers; per rank 2 (p-1) request handles (plain malloc).
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <stdlib.h>

int collsim_alltoallv_spread_out(COLLSIM_ALLTOALLV_ARGS)
{
    coll_v_args a;
    int err = coll_alltoallv_begin(collsim_alltoallv_spread_out, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, &a);
    if (err != MPI_SUCCESS || a.done)
        return err;

    const int p = a.size, r = a.rank;
    /* Requests are per-rank state: plain malloc, not the folding scratch. */
    MPI_Request *req = malloc(sizeof *req * 2 * (size_t)(p - 1));
    if (req == NULL)
        return MPI_ERR_NO_MEM;
    int n = 0;
    for (int i = 1; i < p && err == MPI_SUCCESS; i++) {
        const int src = coll_mod(r - i, p);
        if (coll_v_recv_bytes(&a, src) > 0)
            err = MPI_Irecv(coll_v_recv_block(&a, src), recvcounts[src], recvtype, src,
                            COLL_TAG_ALLTOALLV, comm, &req[n++]);
    }
    for (int i = 1; i < p && err == MPI_SUCCESS; i++) {
        const int dst = coll_mod(r + i, p);
        if (coll_v_send_bytes(&a, dst) > 0)
            err = MPI_Isend(coll_v_send_block(&a, dst), sendcounts[dst], sendtype, dst,
                            COLL_TAG_ALLTOALLV, comm, &req[n++]);
    }
    if (err != MPI_SUCCESS)
        n--; /* the failed call produced no request */
    const int werr = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(req);
    return err != MPI_SUCCESS ? err : werr;
}
