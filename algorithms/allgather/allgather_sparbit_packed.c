/* Sparbit allgather with one packed message per step (Loch and Koslovski,
 * Sparbit paper Section III-B, Algorithm 1): sparbit_indexed's messages,
 * packed by the algorithm into a scratch buffer and sent contiguous. SMPI
 * packs a derived-datatype message into a temporary buffer of its own even
 * from folded memory; a folded scratch buffer avoids that, and folded bytes
 * need no packing: the Sparbit variant for 32K ranks. The schedule is in
 * allgather_sparbit_common.h.
 *
 * Cost (analysis/cost_model.c, sparbit): ceil(log2 p) α + (p-1)(m/p) β.
 * Memory: the receive buffer, plus a scratch of 2 ceil(p/2) blocks
 * (coll_scratch_alloc, folded with the buffers); no per-rank state.
 * Restrictions: any p; contiguous types; MPI_IN_PLACE accepted. */
#include "allgather_sparbit_common.h"

#include "../coll_util.h"

#include <string.h>

static int packed(const sparbit_plan *plan, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    const int rank = plan->rank, p = plan->p;
    const size_t bb = plan->bb;
    int err = MPI_SUCCESS;

    /* a step moves at most ceil(p/2) blocks each way */
    const size_t half = (size_t)(p + 1) / 2;
    unsigned char *out = coll_scratch_alloc(2 * half * bb);
    if (out == NULL)
        return MPI_ERR_NO_MEM;
    unsigned char *in = out + half * bb;

    for (int s = 0; s < plan->nsteps && err == MPI_SUCCESS; s++) {
        const int d = plan->steps[s].d, n = plan->steps[s].n;
        coll_gather_blocks(out, recvbuf, rank, -2 * d, n, p, bb);
        MPI_Request req[2];
        err = MPI_Irecv(in, n * recvcount, recvtype, coll_mod(rank - d, p), COLL_TAG_ALLGATHER, comm,
                        &req[0]);
        if (err == MPI_SUCCESS) {
            err = MPI_Isend(out, n * recvcount, recvtype, coll_mod(rank + d, p), COLL_TAG_ALLGATHER,
                            comm, &req[1]);
            const int werr = MPI_Waitall(err == MPI_SUCCESS ? 2 : 1, req, MPI_STATUSES_IGNORE);
            if (err == MPI_SUCCESS)
                err = werr;
        }
        if (err == MPI_SUCCESS)
            coll_scatter_blocks(recvbuf, in, rank - d, -2 * d, n, p, bb);
    }
    coll_scratch_free(out);
    return err;
}

int collsim_allgather_sparbit_packed(COLLSIM_ALLGATHER_ARGS)
{
    return sparbit_allgather(collsim_allgather_sparbit_packed, packed, collsim_allgather_sparbit_packed_msg_blocks, sendbuf,
                             sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
