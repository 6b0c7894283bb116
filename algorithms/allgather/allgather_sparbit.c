/* Sparbit allgather (Loch and Koslovski, Sparbit paper Section III-B,
 * Algorithm 1), as the paper gives it: one Isend/Irecv per block per step (the
 * message count is part of what is simulated). The schedule, shared with
 * sparbit_indexed and sparbit_packed, is in allgather_sparbit_common.h.
 *
 * Cost (analysis/cost_model.c, sparbit; the Sparbit paper's II-A/III-B terms):
 *   ceil(log2 p) α + (p-1)(m/p) β, a step's messages all in flight at once,
 *   so a step pays α once; m/p is the block.
 * Memory: the receive buffer only; per rank (plain malloc, never folded)
 * 2 ceil(p/2) request handles. The last step has p/2 messages per rank in
 * flight: p^2/2 in all, which SMPI 3.32 cannot hold at 32K ranks (use
 * sparbit_packed there).
 * Restrictions: any p (the schedule follows the bits of p); contiguous
 * types; MPI_IN_PLACE accepted. */
#include "allgather_sparbit_common.h"

#include "../coll_util.h"

#include <stdlib.h>

static int per_block(const sparbit_plan *plan, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    const int rank = plan->rank, p = plan->p;
    const size_t bb = plan->bb;
    int err = MPI_SUCCESS;

    /* A step sends at most p/2 blocks (the last: data - ignore = (p - ignore)/2).
     * Requests are per-rank state, so plain malloc, never the (possibly
     * folding) scratch allocator. */
    const int max_req = 2 * ((p + 1) / 2);
    MPI_Request *req = malloc(sizeof *req * (size_t)max_req);
    if (req == NULL)
        return MPI_ERR_NO_MEM;

    for (int s = 0; s < plan->nsteps && err == MPI_SUCCESS; s++) {
        const int d = plan->steps[s].d;
        const int to = coll_mod(rank + d, p), from = coll_mod(rank - d, p);
        int nreq = 0, sblk = rank;

        for (int j = 0; j < plan->steps[s].n && err == MPI_SUCCESS; j++) {
            /* Walk the held blocks rank - 2jd incrementally: no p*p overflow. */
            const int rblk = coll_mod(sblk - d, p);
            err = MPI_Irecv(coll_block(recvbuf, rblk, bb), recvcount, recvtype, from,
                            COLL_TAG_ALLGATHER, comm, &req[nreq]);
            if (err == MPI_SUCCESS)
                nreq++;
            if (err == MPI_SUCCESS)
                err = MPI_Isend(coll_block(recvbuf, sblk, bb), recvcount, recvtype, to,
                                COLL_TAG_ALLGATHER, comm, &req[nreq]);
            if (err == MPI_SUCCESS)
                nreq++;
            sblk = coll_mod(sblk - 2 * d, p);
        }
        /* Complete what was posted even after an error: the buffers stay ours. */
        const int werr = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (err == MPI_SUCCESS)
            err = werr;
    }
    free(req);
    return err;
}

int collsim_allgather_sparbit(COLLSIM_ALLGATHER_ARGS)
{
    return sparbit_allgather(collsim_allgather_sparbit, per_block, collsim_allgather_sparbit_msg_blocks, sendbuf, sendcount,
                             sendtype, recvbuf, recvcount, recvtype, comm);
}
