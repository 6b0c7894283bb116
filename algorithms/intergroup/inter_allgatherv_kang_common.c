/* Algorithm 2 of Kang, Traff et al. 2019 (Section 4.1), the part its two
 * variants share; the steps are described in inter_allgatherv_kang_segmented.c
 * and the order in inter_allgatherv_kang_segmented_ordered.c. */
#include "inter_allgatherv_kang_common.h"

#include <stdlib.h>
#include <string.h>

#include "coll_util.h"

/* One exchange message: len bytes at buf, to or from comm rank peer; multi:
 * a sender whose block reaches beyond this receiver's interval (it sends to
 * several receivers). */
typedef struct {
    char *buf;
    int len, peer, multi;
} ig_msg;

/* The paper's receive order (Section 4.1): the higher-ranked multi-target
 * sender, then the senders between the two in rank order, then the
 * lower-ranked multi-target sender. Only the first and the last of a
 * receiver's senders (rank order) can send to several receivers. */
static void paper_order(ig_msg *r, int n)
{
    if (n < 2)
        return;
    const int lo_multi = r[0].multi, hi_multi = r[n - 1].multi;
    if (hi_multi) { /* the last to the front */
        const ig_msg hi = r[n - 1];
        coll_copy(r + 1, r, sizeof *r * (size_t)(n - 1));
        r[0] = hi;
    }
    if (lo_multi) { /* the first sender (now at hi_multi) to the end */
        const ig_msg lo = r[hi_multi];
        coll_copy(r + hi_multi, r + hi_multi + 1, sizeof *r * (size_t)(n - 1 - hi_multi));
        r[n - 1] = lo;
    }
}

static int post(const ig_msg *x, int send, int tag, MPI_Comm comm, MPI_Request *rq)
{
    return send ? MPI_Isend(x->buf, x->len, MPI_BYTE, x->peer, tag, comm, rq)
                : MPI_Irecv(x->buf, x->len, MPI_BYTE, x->peer, tag, comm, rq);
}

/* The sends (list 0) and receives (list 1) in list order, at most one of
 * each under way: the next send starts when the previous one has completed,
 * the next receive is posted when the previous one has. The dependencies run
 * from a multi-target sender's first receiver (which takes it first) to its
 * last (which takes it last), so there is no cycle (Theorem 3's argument). */
static int exchange_in_order(const ig_msg *const list[2], const int len[2], const int tag[2],
                             MPI_Comm comm)
{
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int next[2] = {0, 0}, e = MPI_SUCCESS, k;
    for (k = 0; k < 2 && e == MPI_SUCCESS; k++)
        if (len[k])
            e = post(&list[k][next[k]++], k == 0, tag[k], comm, &rq[k]);
    while (e == MPI_SUCCESS) {
        e = MPI_Waitany(2, rq, &k, MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS || k == MPI_UNDEFINED)
            break;
        if (next[k] < len[k])
            e = post(&list[k][next[k]++], k == 0, tag[k], comm, &rq[k]);
    }
    return e;
}

/* Every send and receive posted at once, then one Waitall. */
static int exchange_posted(const ig_msg *const list[2], const int len[2], const int tag[2],
                           MPI_Comm comm)
{
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(len[0] + len[1] + 1));
    if (!rq)
        return MPI_ERR_NO_MEM;
    int nq = 0, e = MPI_SUCCESS;
    for (int k = 1; k >= 0; k--) /* the receives first */
        for (int i = 0; i < len[k] && e == MPI_SUCCESS; i++, nq++)
            e = post(&list[k][i], k == 0, tag[k], comm, &rq[nq]);
    int w = MPI_Waitall(nq, rq, MPI_STATUSES_IGNORE);
    free(rq);
    return e != MPI_SUCCESS ? e : w;
}

/* Step 1's receive map: receiver me's interval of the remote stream (KH
 * bytes cut for n receivers) from every one of the m remote blocks that
 * overlaps it (recvcounts in units of `unit` bytes), in remote rank order or
 * in the paper's; into stream at the interval's offsets (NULL: no buffers),
 * from ranks[j] (NULL: j). Empty parts are not received. Returns their
 * number. */
static int receive_list(const int *recvcounts, size_t unit, int m, size_t KH, int n, int me,
                        char *stream, const int *ranks, ig_exchange_order order, ig_msg *r)
{
    int nr = 0;
    const size_t lo = ig_piece_start(KH, n, me), hi = lo + ig_piece_len(KH, n, me);
    size_t from = 0, a;
    for (int j = 0; j < m; j++) { /* remote block j covers [from, from + c) */
        const size_t c = (size_t)recvcounts[j] * unit, len = ig_overlap(KH, n, me, from, c, &a);
        if (len)
            r[nr++] = (ig_msg){stream ? stream + a : NULL, (int)len, ranks ? ranks[j] : j,
                               from < lo || from + c > hi};
        from += c;
    }
    if (order == IG_ORDERED)
        paper_order(r, nr);
    return nr;
}

int ig_kang_receive_order(const int *counts, int m, int n, int t, ig_exchange_order order,
                          int *senders)
{
    size_t K = 0;
    for (int j = 0; j < m; j++)
        K += (size_t)counts[j];
    ig_msg *r = malloc(sizeof(ig_msg) * (size_t)(m > 0 ? m : 1));
    if (!r)
        return -1;
    const int nr = receive_list(counts, 1, m, K, n, t, NULL, NULL, order, r);
    for (int k = 0; k < nr; k++)
        senders[k] = r[k].peer;
    free(r);
    return nr;
}

/* Step 1: the receive map and the send map (my part [R, R + mine) of my
 * stream, K bytes cut for the m remote members, in increasing receiver
 * rank; empty parts are not sent), exchanged in the given order. */
static int exchange(const char *sendbuf, size_t mine, size_t R, size_t K, char *stream, size_t KH,
                    const int *recvcounts, size_t unit, const collsim_intergroup *ig,
                    ig_exchange_order order)
{
    const int m = ig->remote_size;
    ig_msg *s = malloc(sizeof(ig_msg) * 2 * (size_t)m), *r = s + m;
    if (!s)
        return MPI_ERR_NO_MEM;
    int ns = 0;
    const int nr = receive_list(recvcounts, unit, m, KH, ig->local_size, ig->local_rank, stream,
                                ig->remote_ranks, order, r);
    size_t a;
    for (int t = 0; t < m && mine; t++) {
        const size_t len = ig_overlap(K, m, t, R, mine, &a);
        if (len)
            s[ns++] = (ig_msg){(char *)sendbuf + (a - R), (int)len, ig->remote_ranks[t], 0};
    }
    const ig_msg *const list[2] = {s, r};
    const int len[2] = {ns, nr};
    const int tag[2] = {ig->group ? IG_TAG_B2A : IG_TAG_A2B, ig->group ? IG_TAG_A2B : IG_TAG_B2A};
    const int e = order == IG_ORDERED ? exchange_in_order(list, len, tag, ig->comm)
                                      : exchange_posted(list, len, tag, ig->comm);
    free(s);
    return e;
}

int ig_kang_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                       const collsim_intergroup *ig, ig_exchange_order order)
{
    size_t mine, unit;
    int e = ig_allgatherv_begin(sendbuf, sendcount, sendtype, recvcounts, displs, recvtype, ig,
                                &mine, &unit);
    if (e != MPI_SUCCESS)
        return e;
    const int n = ig->local_size, m = ig->remote_size;
    long long before, total;
    e = ig_scan_total((long long)mine, ig->local, &before, &total);
    if (e != MPI_SUCCESS)
        return e;
    /* the remote stream: its total, and whether the caller's displs are its prefix sums */
    int packed;
    const size_t KH = ig_remote_stream(recvcounts, displs, unit, ig, &packed);
    char *stream = recvbuf;
    if (!packed && KH && !(stream = coll_scratch_alloc(KH)))
        return MPI_ERR_NO_MEM;
    e = exchange(sendbuf, mine, (size_t)before, (size_t)total, stream, KH, recvcounts, unit, ig,
                 order);
    size_t *cnt = e == MPI_SUCCESS ? malloc(sizeof(size_t) * 2 * (size_t)n) : NULL;
    if (e == MPI_SUCCESS && !cnt)
        e = MPI_ERR_NO_MEM;
    if (e == MPI_SUCCESS) { /* step 2: the intervals, in stream order */
        for (int t = 0; t < n; t++) {
            cnt[t] = ig_piece_len(KH, n, t);
            cnt[n + t] = ig_piece_start(KH, n, t);
        }
        e = ig_ring_allgatherv(stream, cnt, cnt + n, ig->local);
    }
    free(cnt);
    if (stream != recvbuf) {
        size_t at = 0;
        for (int j = 0; j < m && e == MPI_SUCCESS; j++) {
            const size_t c = (size_t)recvcounts[j] * unit;
            coll_copy((char *)recvbuf + (size_t)displs[j] * unit, stream + at, c);
            at += c;
        }
        coll_scratch_free(stream);
    }
    return e;
}
