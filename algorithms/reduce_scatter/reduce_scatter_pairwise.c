/* Reduce-scatter by pairwise exchange (Thakur, Rabenseifner, Gropp 2005,
 * Section 4, "Reduce-Scatter", MPICH's algorithm for commutative operations
 * and long messages): in step i = 1..p-1 a process sends the block of
 * process rank + i to it, receives its own block of process rank - i and
 * combines it into its result.
 *
 * Cost: (p-1) α + ((p-1)/p) n β + ((p-1)/p) n γ (n the whole vector, equal
 * blocks). Memory: two blocks of scratch. Restrictions: commutative
 * operations only (the blocks are combined in the order they arrive):
 * MPI_ERR_OP for a non-commutative one; any p, counts >= 0; MPI_IN_PLACE;
 * contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int coll_rs_pairwise(COLL_RS_ARGS)
{
    int rank = 0, p = 0, err;
    size_t elem;
    coll_rs_layout L;
    void *acc = NULL, *tmp = NULL;
    if ((err = coll_rs_begin(COLL_RS_CALL, 1, &rank, &p, &elem, &L)) != MPI_SUCCESS || !elem)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    const int mine = coll_rs_count(&L, rank);
    const void *in = coll_rs_input(sendbuf, recvbuf);
    /* the result apart from recvbuf: in place, recvbuf holds blocks still to send */
    if ((err = coll_rs_scratch((size_t)mine * elem, (size_t)mine * elem, &acc, &tmp)) != MPI_SUCCESS)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    coll_copy_data(acc, coll_elems((void *)in, coll_rs_start(&L, rank), elem), (size_t)mine * elem);
    for (int i = 1; err == MPI_SUCCESS && i < p; i++) {
        const int dst = (rank + i) % p, src = coll_mod(rank - i, p);
        err = MPI_Sendrecv(coll_elems((void *)in, coll_rs_start(&L, dst), elem),
                           coll_rs_count(&L, dst), datatype, dst, COLL_TAG_REDUCE_SCATTER, tmp,
                           mine, datatype, src, COLL_TAG_REDUCE_SCATTER, comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(tmp, acc, mine, datatype, op);
    }
    if (err == MPI_SUCCESS)
        coll_copy_data(recvbuf, acc, (size_t)mine * elem);
    return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, acc, tmp);
}

int collsim_reduce_scatter_pairwise(const void *sendbuf, void *recvbuf, const int *recvcounts,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return coll_rs_pairwise(sendbuf, recvbuf, recvcounts, COLL_RS_COUNTS, datatype, op, comm);
}
