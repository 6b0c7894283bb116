/* Reduce-scatter by recursive halving (Thakur, Rabenseifner, Gropp 2005,
 * Section 4, "Reduce-Scatter", MPICH's algorithm for commutative operations
 * and short to medium messages). In the first step each process exchanges
 * with the process pof2/2 away the half of the vector that the other's half
 * of the processes needs and combines the half it keeps; each later step
 * halves the distance and the data, so that after log2(pof2) steps a
 * process holds its own block fully reduced. On p not a power of two (the
 * paper's non-power-of-two step) the first 2 rem ranks fold in pairs first
 * (the even rank hands its whole vector to the odd one above it,
 * coll_fold_of), the odd one then stands for both ranks' blocks, and sends
 * the even rank its block at the end. Blocks may differ in size
 * (MPI_Reduce_scatter's counts): a schedule rank's part of the vector is its
 * ranks' blocks, and the halves are cut at block boundaries.
 *
 * Cost: log2(p) α + ((p-1)/p) n β + ((p-1)/p) n γ (n the whole vector, equal
 * blocks, p a power of two); otherwise + α + n β + n γ before and α + (n/p) β
 * after. Memory: two vectors of scratch. Restrictions: commutative
 * operations only (the halves are combined in the order of the exchanges):
 * MPI_ERR_OP for a non-commutative one; any p, counts >= 0 (empty blocks);
 * MPI_IN_PLACE; contiguous types. */
#include "../collsim_algorithms.h"
#include "rs_common.h"

int coll_rs_recursive_halving(COLL_RS_ARGS)
{
    int rank = 0, p = 0, err;
    size_t elem;
    coll_rs_layout L;
    void *work = NULL, *tmp = NULL;
    if ((err = coll_rs_begin(COLL_RS_CALL, 1, &rank, &p, &elem, &L)) != MPI_SUCCESS || !elem)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    const int total = (int)coll_rs_start(&L, p);
    const size_t bytes = (size_t)total * elem;
    if ((err = coll_rs_scratch(bytes, bytes, &work, &tmp)) != MPI_SUCCESS)
        return coll_rs_end(err, rank, recvbuf, NULL, 0, &L, NULL, NULL);
    coll_copy_data(work, coll_rs_input(sendbuf, recvbuf), bytes);
    const coll_fold f = coll_fold_of(rank, p);
    err = coll_fold_in(&f, rank, work, tmp, total, datatype, op, comm);
    const int nr = f.newrank;
    /* schedule rank k's part starts at its first real rank's block */
#define SEG(k) ((k) >= f.pof2 ? (long)total : coll_rs_start(&L, (k) < f.rem ? 2 * (k) : (k) + f.rem))
    int lo = 0, hi = f.pof2;
    for (int mask = f.pof2 / 2; err == MPI_SUCCESS && nr >= 0 && mask > 0; mask >>= 1) {
        const int dst = coll_fold_real(&f, nr ^ mask), mid = lo + mask;
        const int lower = !(nr & mask);
        const int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        const int send_lo = lower ? mid : lo, send_hi = lower ? hi : mid;
        err = MPI_Sendrecv(coll_elems(work, SEG(send_lo), elem), (int)(SEG(send_hi) - SEG(send_lo)),
                           datatype, dst, COLL_TAG_REDUCE_SCATTER,
                           coll_elems(tmp, SEG(keep_lo), elem), (int)(SEG(keep_hi) - SEG(keep_lo)),
                           datatype, dst, COLL_TAG_REDUCE_SCATTER, comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(coll_elems(tmp, SEG(keep_lo), elem),
                                    coll_elems(work, SEG(keep_lo), elem),
                                    (int)(SEG(keep_hi) - SEG(keep_lo)), datatype, op);
        lo = keep_lo;
        hi = keep_hi;
    }
#undef SEG
    /* the folded pairs: the odd rank holds both blocks, the even one's goes back */
    const int even_folded = rank < 2 * f.rem && rank % 2 == 0;
    if (err == MPI_SUCCESS && even_folded)
        err = MPI_Recv(recvbuf, coll_rs_count(&L, rank), datatype, rank + 1,
                       COLL_TAG_REDUCE_SCATTER, comm, MPI_STATUS_IGNORE);
    else if (err == MPI_SUCCESS && rank < 2 * f.rem)
        err = MPI_Send(coll_elems(work, coll_rs_start(&L, rank - 1), elem),
                       coll_rs_count(&L, rank - 1), datatype, rank - 1, COLL_TAG_REDUCE_SCATTER,
                       comm);
    return coll_rs_end(err, rank, recvbuf, even_folded ? NULL : work, elem, &L, work, tmp);
}

int collsim_reduce_scatter_recursive_halving(const void *sendbuf, void *recvbuf,
                                             const int *recvcounts, MPI_Datatype datatype,
                                             MPI_Op op, MPI_Comm comm)
{
    return coll_rs_recursive_halving(sendbuf, recvbuf, recvcounts, COLL_RS_COUNTS, datatype, op,
                                     comm);
}
