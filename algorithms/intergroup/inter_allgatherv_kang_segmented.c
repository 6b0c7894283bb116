/* Intergroup allgatherv by stream segmentation: Kang, Traff et al., Parallel
 * Computing 2019, Section 4.1, Algorithm 2 (Theorems 3 and 4).
 *
 * Each group's blocks, concatenated in rank order, form one byte stream
 * (K_A, K_B bytes). A's stream is cut into q nearly equal consecutive
 * intervals, one per member of B, and B's stream into p intervals, one per
 * member of A (the first K mod n intervals one byte longer: lines 5-11 and
 * 15-21, with the typo of line 3 read as K_A mod q and line 23's "b_k" as
 * a_k). Steps:
 * 0. Sizes: this process's offset R_i in its group's stream and the total K
 *    (lines 1-2 and the text's Exscan): ig_scan_total, a scan and a
 *    broadcast over the local group, 2 ceil(log2 n) messages of 8 bytes. The
 *    remote stream's sizes are the caller's recvcounts: no message.
 * 1. Exchange (lines 12-14, 22-24): the parts of my block that fall in each
 *    remote member's interval go to it; my interval of the remote stream
 *    arrives from the remote members whose blocks overlap it. Every send and
 *    receive is posted at once (the authors' code; the paper's receive order
 *    is not reproduced). Empty parts are not sent.
 * 2. Ring allgatherv of the intervals in my group (lines 25-26), in place:
 *    the intervals are in stream order, so the stream is the caller's
 *    recvbuf when displs are the packed prefix sums of recvcounts; otherwise
 *    a scratch stream of K bytes is copied to the displs at the end.
 *
 * Cost (Eq. (4)): transfer <= M + max block + log(pq) (the scan), with
 * M = max(K_A, K_B). Memory: 2 n size_t of counts, and the scratch stream
 * for displs that are not packed. Any p, q >= 1, any counts >= 0 including
 * zeros and all-zero groups. */
#include <stdlib.h>
#include <string.h>

#include "coll_intergroup.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

int collsim_inter_allgatherv_kang_segmented(COLLSIM_INTER_ALLGATHERV_ARGS)
{
    size_t mine, unit;
    int e = ig_allgatherv_begin(sendbuf, sendcount, sendtype, recvcounts, displs, recvtype, ig,
                                &mine, &unit);
    if (e != MPI_SUCCESS)
        return e;
    const int n = ig->local_size, m = ig->remote_size, me = ig->local_rank;
    long long before, total;
    e = ig_scan_total((long long)mine, ig->local, &before, &total);
    if (e != MPI_SUCCESS)
        return e;
    const size_t R = (size_t)before, K = (size_t)total;
    /* the remote stream: its total, and whether the caller's displs are its prefix sums */
    int packed;
    const size_t KH = ig_remote_stream(recvcounts, displs, unit, ig, &packed);
    char *stream = recvbuf;
    if (!packed && KH && !(stream = coll_scratch_alloc(KH)))
        return MPI_ERR_NO_MEM;
    /* receive map: my interval of the remote stream, cut for my n group
     * members; send map: my part [R, R + mine) of my stream, cut for the m
     * remote members */
    int nreq = 0, cap = 0;
    for (int pass = 0; pass < 2; pass++) { /* pass 0 counts the messages */
        MPI_Request *rq = NULL;
        if (pass == 1 && cap && !(rq = malloc(sizeof(MPI_Request) * (size_t)cap))) {
            e = MPI_ERR_NO_MEM;
            break;
        }
        nreq = 0;
        size_t from = 0, a;
        for (int j = 0; j < m; j++) { /* remote block j covers [from, from + c) */
            const size_t c = (size_t)recvcounts[j] * unit, len = ig_overlap(KH, n, me, from, c, &a);
            if (len && pass)
                MPI_Irecv(stream + a, (int)len, MPI_BYTE, ig->remote_ranks[j],
                          ig->group ? IG_TAG_A2B : IG_TAG_B2A, ig->comm, &rq[nreq]);
            nreq += len > 0;
            from += c;
        }
        for (int t = 0; t < m && mine; t++) {
            const size_t len = ig_overlap(K, m, t, R, mine, &a);
            if (len && pass)
                MPI_Isend((const char *)sendbuf + (a - R), (int)len, MPI_BYTE, ig->remote_ranks[t],
                          ig->group ? IG_TAG_B2A : IG_TAG_A2B, ig->comm, &rq[nreq]);
            nreq += len > 0;
        }
        if (pass == 0)
            cap = nreq;
        else
            e = MPI_Waitall(nreq, rq, MPI_STATUSES_IGNORE);
        free(rq);
    }
    size_t *cnt = e == MPI_SUCCESS ? malloc(sizeof(size_t) * 2 * (size_t)n) : NULL;
    if (e == MPI_SUCCESS && !cnt)
        e = MPI_ERR_NO_MEM;
    if (e == MPI_SUCCESS) {
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
            memcpy((char *)recvbuf + (size_t)displs[j] * unit, stream + at, c);
            at += c;
        }
        coll_scratch_free(stream);
    }
    return e;
}
