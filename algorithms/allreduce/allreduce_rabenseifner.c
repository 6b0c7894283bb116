/* Rabenseifner's allreduce (Rabenseifner 2004; Thakur, Rabenseifner, Gropp
 * 2005, Section 4, "Allreduce", MPICH's long-message allreduce): a
 * reduce-scatter by recursive vector halving and distance doubling, then an
 * allgather by recursive vector doubling and distance halving. On p not a
 * power of two the first 2 rem ranks fold in first (the even rank hands its
 * vector to the odd one above it) and get the result back last
 * (coll_fold_of), the paper's non-power-of-two step. The vector is cut into
 * pof2 segments as even as they go; in halving step k a process keeps the
 * half of its current segment range on its side of its partner (2^k away),
 * sends the other half and combines the half it receives; the allgather
 * retraces the steps backwards.
 *
 * Cost: 2 log2(p) α + 2 ((p-1)/p) m β + ((p-1)/p) m γ on a power of two;
 * otherwise two more steps of α + m β and one m γ. Memory: one vector of
 * scratch. Restrictions: commutative operations only
 * (the halves are combined in the order of the exchanges): MPI_ERR_OP for a
 * non-commutative one; any p, counts >= 0 (fewer elements than pof2: some
 * segments empty, their messages zero-length); MPI_IN_PLACE; contiguous
 * types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

int collsim_allreduce_rabenseifner(const void *sendbuf, void *recvbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = coll_allreduce_begin(sendbuf, recvbuf, count, datatype, op, 1, comm, &rank, &p,
                                    &elem)) != MPI_SUCCESS || !elem)
        return err;
    void *tmp = coll_scratch_alloc((size_t)count * elem);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    const coll_fold f = coll_fold_of(rank, p);
    err = coll_fold_in(&f, rank, recvbuf, tmp, count, datatype, op, comm);
    const int pof2 = f.pof2, nr = f.newrank;
    /* [lo, hi): the segments this process is responsible for */
    int lo = 0, hi = 0, mask = 0;
    if (err == MPI_SUCCESS)
        err = coll_halving_reduce_scatter(&f, NULL, recvbuf, tmp, count, datatype, elem, op,
                                          COLL_TAG_ALLREDUCE, comm, &lo, &hi, &mask);
    /* allgather: the steps backwards, each doubling the range held */
#define SEG(i) coll_seg_start(count, pof2, (i))
    for (mask >>= 1; err == MPI_SUCCESS && nr >= 0 && mask > 0; mask >>= 1) {
        const int dst = coll_fold_real(&f, nr ^ mask), width = hi - lo;
        const int other_lo = nr < (nr ^ mask) ? hi : lo - width;
        err = MPI_Sendrecv(coll_elems(recvbuf, SEG(lo), elem), (int)(SEG(hi) - SEG(lo)), datatype,
                           dst, COLL_TAG_ALLREDUCE, coll_elems(recvbuf, SEG(other_lo), elem),
                           (int)(SEG(other_lo + width) - SEG(other_lo)), datatype, dst,
                           COLL_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
        if (nr < (nr ^ mask))
            hi += width;
        else
            lo -= width;
    }
#undef SEG
    if (err == MPI_SUCCESS)
        err = coll_fold_out(&f, rank, recvbuf, count, datatype, comm);
    coll_scratch_free(tmp);
    return err;
}
