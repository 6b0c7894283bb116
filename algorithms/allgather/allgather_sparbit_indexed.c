/* Sparbit allgather with one message per step (Loch and Koslovski, Sparbit
 * paper Section III-B, Algorithm 1): the blocks sparbit sends in a step
 * travel as one message described by an indexed datatype. Its last step has
 * 1 message per rank instead of p/2, which is what makes 32K ranks simulable
 * (SMPI 3.32's cost grows with the number of messages in flight). The
 * schedule is in allgather_sparbit_common.h.
 *
 * Cost (analysis/cost_model.c, sparbit): ceil(log2 p) α + (p-1)(m/p) β.
 * Memory: the receive buffer, and per rank (plain malloc) p+1 int
 * displacements. The messages are derived datatypes: SMPI packs each into a
 * temporary buffer of its own even from folded memory (32K ranks: killed at
 * 20.6 GB), which folding does not bound (sim/host/case/registry.h).
 * Restrictions: any p; contiguous types; MPI_IN_PLACE accepted. */
#include "allgather_sparbit_common.h"

#include "../coll_util.h"

#include <stdlib.h>

static int indexed(const sparbit_plan *plan, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    const int rank = plan->rank, p = plan->p;
    int err = MPI_SUCCESS;

    /* displacements in elements of recvtype: block index x recvcount, up to
     * (p-1) x recvcount, which coll_allgather_begin checked (msg_blocks) */
    int *sdisp = malloc(sizeof(int) * (size_t)(p + 1));
    if (sdisp == NULL)
        return MPI_ERR_NO_MEM;
    int *rdisp = sdisp + (p + 1) / 2;

    for (int s = 0; s < plan->nsteps && err == MPI_SUCCESS; s++) {
        const int d = plan->steps[s].d, n = plan->steps[s].n;
        int sblk = rank;
        for (int j = 0; j < n; j++) {
            sdisp[j] = sblk * recvcount;
            rdisp[j] = coll_mod(sblk - d, p) * recvcount;
            sblk = coll_mod(sblk - 2 * d, p);
        }
        MPI_Datatype stype, rtype;
        MPI_Request req[2];
        err = MPI_Type_create_indexed_block(n, recvcount, sdisp, recvtype, &stype);
        if (err != MPI_SUCCESS)
            break;
        err = MPI_Type_create_indexed_block(n, recvcount, rdisp, recvtype, &rtype);
        if (err != MPI_SUCCESS) {
            MPI_Type_free(&stype);
            break;
        }
        MPI_Type_commit(&stype);
        MPI_Type_commit(&rtype);
        err = MPI_Irecv(recvbuf, 1, rtype, coll_mod(rank - d, p), COLL_TAG_ALLGATHER, comm, &req[0]);
        if (err == MPI_SUCCESS) {
            err = MPI_Isend(recvbuf, 1, stype, coll_mod(rank + d, p), COLL_TAG_ALLGATHER, comm,
                            &req[1]);
            const int werr = MPI_Waitall(err == MPI_SUCCESS ? 2 : 1, req, MPI_STATUSES_IGNORE);
            if (err == MPI_SUCCESS)
                err = werr;
        }
        MPI_Type_free(&stype);
        MPI_Type_free(&rtype);
    }
    free(sdisp);
    return err;
}

int collsim_allgather_sparbit_indexed(COLLSIM_ALLGATHER_ARGS)
{
    return sparbit_allgather(collsim_allgather_sparbit_indexed, indexed, collsim_allgather_sparbit_indexed_msg_blocks, sendbuf,
                             sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
