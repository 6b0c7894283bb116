/* Reduce, then scatter (Thakur, Rabenseifner, Gropp 2005, Section 4,
 * "Reduce-Scatter": the operation as a reduce followed by a scatterv, what
 * MPICH's reduce-scatter falls back to where its own schedules do not
 * apply): collsim's binomial reduce of the whole vector to rank 0 (any
 * operation: its tree keeps rank order), then a binomial scatter of the
 * blocks from rank 0, each process receiving its subtree's blocks (a
 * contiguous range) and passing the upper halves on. Empty ranges are not
 * sent.
 *
 * Cost: ceil(log2 p)(α + n β + n γ) + ceil(log2 p) α + ((p-1)/p) n β (n the
 * whole vector, equal blocks). Memory: the binomial reduce's and one vector
 * of scratch. Restrictions: none; any operation (rank order kept), any p,
 * counts >= 0; MPI_IN_PLACE; contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int coll_rs_reduce_scatterv(COLL_RS_ARGS)
{
    int rank = 0, p = 0, err;
    size_t elem;
    coll_rs_layout L;
    void *vec = NULL, *none = NULL;
    if ((err = coll_rs_begin(COLL_RS_CALL, 0, &rank, &p, &elem, &L)) != MPI_SUCCESS || !elem)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    const int total = (int)coll_rs_start(&L, p);
    if ((err = coll_rs_scratch((size_t)total * elem, 0, &vec, &none)) != MPI_SUCCESS)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    err = collsim_reduce_binomial(coll_rs_input(sendbuf, recvbuf), vec, total, datatype, op, 0,
                                  comm);
    /* the scatter: this process's subtree is ranks [rank, rank + its lowest bit) */
    int mask = 1;
    while (mask < p && !(rank & mask))
        mask <<= 1;
    if (err == MPI_SUCCESS && mask < p) {
        const int hi = rank + mask < p ? rank + mask : p;
        const long at = coll_rs_start(&L, rank), n = coll_rs_start(&L, hi) - at;
        if (n > 0)
            err = MPI_Recv(coll_elems(vec, at, elem), (int)n, datatype, rank - mask,
                           COLL_TAG_REDUCE_SCATTER, comm, MPI_STATUS_IGNORE);
    }
    for (mask >>= 1; err == MPI_SUCCESS && mask > 0; mask >>= 1) {
        if (rank + mask >= p)
            continue;
        const int child = rank + mask, hi = child + mask < p ? child + mask : p;
        const long at = coll_rs_start(&L, child), n = coll_rs_start(&L, hi) - at;
        if (n > 0)
            err = MPI_Send(coll_elems(vec, at, elem), (int)n, datatype, child,
                           COLL_TAG_REDUCE_SCATTER, comm);
    }
    return coll_rs_end(err, rank, recvbuf, vec, elem, &L, vec, NULL);
}

int collsim_reduce_scatter_reduce_scatterv(const void *sendbuf, void *recvbuf,
                                           const int *recvcounts, MPI_Datatype datatype,
                                           MPI_Op op, MPI_Comm comm)
{
    return coll_rs_reduce_scatterv(sendbuf, recvbuf, recvcounts, COLL_RS_COUNTS, datatype, op,
                                   comm);
}
