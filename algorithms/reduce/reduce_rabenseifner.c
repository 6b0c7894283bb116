/* Rabenseifner's reduce (Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005,
 * Section 4, "Reduce", MPICH's long-message reduce): a reduce-scatter by
 * recursive vector halving and distance doubling, as in Rabenseifner's
 * allreduce, then a binomial gather of the reduced segments to the root by
 * recursive vector doubling and distance halving: in each step of the gather
 * the process on the far side of the root's bit sends every segment it holds
 * to its partner and leaves. On p not a power of two the first 2 rem ranks
 * fold in first (coll_fold_of); a root that sat out gets the result from the
 * odd rank above it, which gathered in its place.
 *
 * Cost: 2 log2(p) α + 2 ((p-1)/p) m β + ((p-1)/p) m γ on a power of two;
 * otherwise one step of α + m β + m γ before and one of α + m β after.
 * Memory: two vectors of scratch (one at the root). Restrictions:
 * commutative operations only (the halves are combined in the order of the
 * exchanges): MPI_ERR_OP for a non-commutative one; any root, any p, counts
 * >= 0 (fewer elements than pof2: some segments empty, their messages
 * zero-length); MPI_IN_PLACE at the root; contiguous types. */
#include "../collsim_algorithms.h"
#include "reduce_common.h"

int collsim_reduce_rabenseifner(const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = reduce_begin(sendbuf, recvbuf, count, datatype, op, root, 1, comm, &rank, &p,
                            &elem)) != MPI_SUCCESS || !elem)
        return err;
    const size_t bytes = (size_t)count * elem;
    /* the vector being reduced: the root's receive buffer, scratch elsewhere */
    void *work = rank == root ? recvbuf : coll_scratch_alloc(bytes);
    void *tmp = coll_scratch_alloc(bytes);
    if (!work || !tmp) {
        if (work != recvbuf)
            coll_scratch_free(work);
        coll_scratch_free(tmp);
        return MPI_ERR_NO_MEM;
    }
    if (sendbuf != MPI_IN_PLACE)
        coll_copy_data(work, sendbuf, bytes);
    const coll_fold f = coll_fold_of(rank, p);
    err = coll_fold_in(&f, rank, work, tmp, count, datatype, op, comm);
    const int pof2 = f.pof2, nr = f.newrank;
    /* the schedule rank that gathers: the root's, or the odd rank above it */
    const coll_fold froot = coll_fold_of(root, p);
    const int nroot = froot.newrank >= 0 ? froot.newrank : coll_fold_of(root + 1, p).newrank;
    int lo = 0, hi = 0, mask = 0; /* [lo, hi): the segments this process holds */
    if (err == MPI_SUCCESS)
        err = coll_halving_reduce_scatter(&f, NULL, work, tmp, count, datatype, elem, op, COLL_TAG_REDUCE,
                                          comm, &lo, &hi, &mask);
#define SEG(i) coll_seg_start(count, pof2, (i))
    /* the gather: the steps backwards; a process whose bit differs from the
     * gathering rank's sends what it holds and leaves */
    int active = nr >= 0;
    for (mask >>= 1; err == MPI_SUCCESS && active && mask > 0; mask >>= 1) {
        const int partner = nr ^ mask, dst = coll_fold_real(&f, partner), width = hi - lo;
        if ((nr & mask) != (nroot & mask)) {
            err = MPI_Send(coll_elems(work, SEG(lo), elem), (int)(SEG(hi) - SEG(lo)), datatype,
                           dst, COLL_TAG_REDUCE, comm);
            active = 0;
        } else {
            const int other_lo = nr < partner ? hi : lo - width;
            err = MPI_Recv(coll_elems(work, SEG(other_lo), elem),
                           (int)(SEG(other_lo + width) - SEG(other_lo)), datatype, dst,
                           COLL_TAG_REDUCE, comm, MPI_STATUS_IGNORE);
            if (nr < partner)
                hi += width;
            else
                lo -= width;
        }
    }
#undef SEG
    /* a root that sat out: the result from the rank that gathered for it */
    const int gatherer = coll_fold_real(&f, nroot);
    if (err == MPI_SUCCESS && gatherer != root) {
        if (rank == gatherer)
            err = MPI_Send(work, count, datatype, root, COLL_TAG_REDUCE, comm);
        else if (rank == root)
            err = MPI_Recv(recvbuf, count, datatype, gatherer, COLL_TAG_REDUCE, comm,
                           MPI_STATUS_IGNORE);
    }
    if (work != recvbuf)
        coll_scratch_free(work);
    coll_scratch_free(tmp);
    return err;
}
