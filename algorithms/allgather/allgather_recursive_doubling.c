/* Recursive doubling allgather (Thakur, Rabenseifner, Gropp 2005; Sparbit paper
 * Section II-A): log2 p pairwise steps with partner rank ^ mask, each exchanging
 * the contiguous window of the mask blocks gathered so far.
 *
 * For p not a power of two (algorithms.def): with pof2 the largest power of two
 * <= p and rem = p - pof2, ranks r >= pof2 first hand their block to r - pof2;
 * the first pof2 ranks then run recursive doubling in which rank r carries, next
 * to its window [base, base+w), the blocks [base+pof2, base+pof2+w) that exist
 * (< p); finally ranks r < rem send the whole result to r + pof2. The two pieces
 * travel in one message per step, so the step count stays log2(pof2) + 2.
 *
 * The two pieces are packed by the algorithm into a scratch buffer (a
 * contiguous recvtype; otherwise an hindexed type over it). SMPI would pack a
 * derived type into a temporary buffer of its own, host memory and memcpy
 * that the driver's folded buffers cannot spare (253 ranks at 1 MiB: about
 * 34 GB); the message, and so its predicted time, is the same (the regression
 * baseline, recorded with the hindexed type, still matches bit for bit).
 *
 * Cost (analysis/cost_model.c, recursive_doubling; Sparbit paper II-A):
 * power-of-two p, log2(p) α + (p-1)(m/p) β; other p, with q = pof2,
 * (log2(q)+2) α + (q + p-1 + sum_k min(2^k, p-q))(m/p) β (busiest pair per
 * step). Memory: the receive buffer, plus a step's two runs (at most p blocks)
 * in a scratch buffer (coll_scratch_alloc); no per-rank state. Restrictions:
 * power-of-two p (other p: the pre- and post-step above); MPI_IN_PLACE
 * accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <string.h>

/* A message made of up to two runs of blocks of recvbuf. A single run is sent
 * as plain (count, recvtype) from recvbuf; two runs from a packed scratch
 * buffer, or as an hindexed type when recvtype has gaps. */
struct span {
    void *buf;
    int count;
    MPI_Datatype type;
    int derived;
    unsigned char *scratch; /* packed: runs [first0, +n0) and [first1, +n1) */
    int first0, n0, first1, n1;
};

/* recvtype without gaps: its blocks can be moved with memcpy */
static int dense_type(MPI_Datatype type)
{
    int size;
    MPI_Aint lb, extent;
    MPI_Type_size(type, &size);
    MPI_Type_get_extent(type, &lb, &extent);
    return lb == 0 && (MPI_Aint)size == extent;
}

static int make_span(void *recvbuf, size_t bb, int recvcount, MPI_Datatype recvtype,
                     int first0, int n0, int first1, int n1, struct span *s)
{
    s->derived = 0;
    s->scratch = NULL;
    s->type = recvtype;
    if (n1 <= 0 || n0 <= 0) {
        const int first = n0 > 0 ? first0 : first1, n = n0 > 0 ? n0 : n1;
        s->buf = coll_block(recvbuf, first, bb);
        s->count = n > 0 ? n * recvcount : 0;
        return MPI_SUCCESS;
    }
    if (dense_type(recvtype)) {
        s->scratch = coll_scratch_alloc((size_t)(n0 + n1) * bb);
        if (s->scratch == NULL)
            return MPI_ERR_NO_MEM;
        s->buf = s->scratch;
        s->count = (n0 + n1) * recvcount;
        s->first0 = first0;
        s->n0 = n0;
        s->first1 = first1;
        s->n1 = n1;
        return MPI_SUCCESS;
    }
    int lens[2] = {n0 * recvcount, n1 * recvcount};
    MPI_Aint disps[2] = {(MPI_Aint)((size_t)first0 * bb), (MPI_Aint)((size_t)first1 * bb)};
    int err = MPI_Type_create_hindexed(2, lens, disps, recvtype, &s->type);
    if (err != MPI_SUCCESS)
        return err;
    if ((err = MPI_Type_commit(&s->type)) != MPI_SUCCESS) {
        MPI_Type_free(&s->type);
        return err;
    }
    s->derived = 1;
    s->buf = recvbuf;
    s->count = 1;
    return MPI_SUCCESS;
}

/* Packed spans: copy the runs into (pack) or out of (unpack) the scratch
 * buffer (not on the host when local moves are off: folded buffers hold no
 * data). */
static void span_move(struct span *s, void *recvbuf, size_t bb, int pack)
{
    if (s->scratch == NULL)
        return;
    unsigned char *run0 = coll_block(recvbuf, s->first0, bb), *run1 = coll_block(recvbuf, s->first1, bb);
    const size_t l0 = (size_t)s->n0 * bb, l1 = (size_t)s->n1 * bb;
    if (pack) {
        coll_copy_data(s->scratch, run0, l0);
        coll_copy_data(s->scratch + l0, run1, l1);
    } else {
        coll_copy_data(run0, s->scratch, l0);
        coll_copy_data(run1, s->scratch + l0, l1);
    }
}

static void free_span(struct span *s)
{
    if (s->derived)
        MPI_Type_free(&s->type);
    if (s->scratch)
        coll_scratch_free(s->scratch);
    s->derived = 0;
    s->scratch = NULL;
}

/* The blocks held by a rank whose window starts at `base`: [base, base+w) plus
 * the folded-in blocks [base+pof2, base+pof2+w) below p. */
static int window_span(void *recvbuf, size_t bb, int recvcount, MPI_Datatype recvtype,
                       int base, int w, int pof2, int p, struct span *s)
{
    int extra = p - (base + pof2);
    if (extra > w)
        extra = w;
    return make_span(recvbuf, bb, recvcount, recvtype, base, w, base + pof2, extra, s);
}

int collsim_allgather_recursive_doubling(const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf,
                                         int recvcount, MPI_Datatype recvtype,
                                         MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;
    struct span snd, rcv;

    err = coll_allgather_begin(collsim_allgather_recursive_doubling, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, collsim_allgather_recursive_doubling_msg_blocks,
                               &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;

    const int pof2 = coll_floor_pow2(p), rem = p - pof2;

    if (rank >= pof2) {
        /* Extra rank: hand the block over, then get everything else back. */
        err = MPI_Send(coll_block(recvbuf, rank, bb), recvcount, recvtype, rank - pof2,
                       COLL_TAG_ALLGATHER, comm);
        if (err != MPI_SUCCESS)
            return err;
        err = make_span(recvbuf, bb, recvcount, recvtype, 0, rank, rank + 1,
                        p - rank - 1, &rcv);
        if (err != MPI_SUCCESS)
            return err;
        err = MPI_Recv(rcv.buf, rcv.count, rcv.type, rank - pof2, COLL_TAG_ALLGATHER,
                       comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            span_move(&rcv, recvbuf, bb, 0);
        free_span(&rcv);
        return err;
    }

    if (rank < rem) {
        err = MPI_Recv(coll_block(recvbuf, rank + pof2, bb), recvcount, recvtype,
                       rank + pof2, COLL_TAG_ALLGATHER, comm, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            return err;
    }

    for (int mask = 1; mask < pof2; mask <<= 1) {
        const int partner = rank ^ mask;
        /* Both windows are mask-aligned: they start at the rank with the low
         * bits cleared. */
        err = window_span(recvbuf, bb, recvcount, recvtype, rank & ~(mask - 1), mask,
                          pof2, p, &snd);
        if (err != MPI_SUCCESS)
            return err;
        err = window_span(recvbuf, bb, recvcount, recvtype, partner & ~(mask - 1), mask,
                          pof2, p, &rcv);
        if (err != MPI_SUCCESS) {
            free_span(&snd);
            return err;
        }
        span_move(&snd, recvbuf, bb, 1);
        err = MPI_Sendrecv(snd.buf, snd.count, snd.type, partner, COLL_TAG_ALLGATHER,
                           rcv.buf, rcv.count, rcv.type, partner, COLL_TAG_ALLGATHER,
                           comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            span_move(&rcv, recvbuf, bb, 0);
        free_span(&snd);
        free_span(&rcv);
        if (err != MPI_SUCCESS)
            return err;
    }

    if (rank < rem) {
        /* Everything except the partner's own block, which it already has. */
        const int extra = rank + pof2;
        err = make_span(recvbuf, bb, recvcount, recvtype, 0, extra, extra + 1,
                        p - extra - 1, &snd);
        if (err != MPI_SUCCESS)
            return err;
        span_move(&snd, recvbuf, bb, 1);
        err = MPI_Send(snd.buf, snd.count, snd.type, extra, COLL_TAG_ALLGATHER, comm);
        free_span(&snd);
    }
    return err;
}
