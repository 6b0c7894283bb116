/* Ring reduce-scatter (Patarasuk and Yuan 2009, the first phase of the
 * bandwidth-optimal logical-ring allreduce): in step s = 0..p-2 a process
 * sends its partial block rank - s - 1 to its right neighbour and combines
 * the block rank - s - 2 it receives from its left one; after p-1 steps it
 * holds its own block fully reduced. Empty blocks are not sent.
 *
 * Cost: (p-1) α + ((p-1)/p) n β + ((p-1)/p) n γ (n the whole vector, equal
 * blocks), the bandwidth term optimal (Patarasuk and Yuan). Memory: one
 * vector and the largest block of scratch. Restrictions: commutative
 * operations only (each block is combined starting from a different rank):
 * MPI_ERR_OP for a non-commutative one; any p, counts >= 0; MPI_IN_PLACE;
 * contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int coll_rs_ring(COLL_RS_ARGS)
{
    int rank = 0, p = 0, err;
    size_t elem;
    coll_rs_layout L;
    void *work = NULL, *tmp = NULL;
    if ((err = coll_rs_begin(COLL_RS_CALL, 1, &rank, &p, &elem, &L)) != MPI_SUCCESS || !elem)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    int largest = 0;
    for (int j = 0; j < p; j++)
        if (coll_rs_count(&L, j) > largest)
            largest = coll_rs_count(&L, j);
    const size_t bytes = (size_t)coll_rs_start(&L, p) * elem;
    if ((err = coll_rs_scratch(bytes, (size_t)largest * elem, &work, &tmp)) != MPI_SUCCESS)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    coll_copy_data(work, coll_rs_input(sendbuf, recvbuf), bytes);
    const int right = (rank + 1) % p, left = coll_mod(rank - 1, p);
    for (int s = 0; s < p - 1 && err == MPI_SUCCESS; s++) {
        const int sj = coll_mod(rank - s - 1, p), rj = coll_mod(rank - s - 2, p);
        const int sn = coll_rs_count(&L, sj), rn = coll_rs_count(&L, rj);
        MPI_Request req[2];
        int nreq = 0;
        if (rn > 0)
            err = MPI_Irecv(tmp, rn, datatype, left, COLL_TAG_REDUCE_SCATTER, comm, &req[nreq++]);
        if (err == MPI_SUCCESS && sn > 0)
            err = MPI_Isend(coll_elems(work, coll_rs_start(&L, sj), elem), sn, datatype, right,
                            COLL_TAG_REDUCE_SCATTER, comm, &req[nreq++]);
        if (err == MPI_SUCCESS)
            err = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(tmp, coll_elems(work, coll_rs_start(&L, rj), elem), rn,
                                    datatype, op);
    }
    return coll_rs_end(err, rank, recvbuf, work, elem, &L, work, tmp);
}

int collsim_reduce_scatter_ring(const void *sendbuf, void *recvbuf, const int *recvcounts,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return coll_rs_ring(sendbuf, recvbuf, recvcounts, COLL_RS_COUNTS, datatype, op, comm);
}
