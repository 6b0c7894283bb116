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
 *    receive is posted at once (the authors' code; the paper's order is
 *    inter_allgatherv_kang_segmented_ordered.c). Empty parts are not sent.
 * 2. Ring allgatherv of the intervals in my group (lines 25-26), in place:
 *    the intervals are in stream order, so the stream is the caller's
 *    recvbuf when displs are the packed prefix sums of recvcounts; otherwise
 *    a scratch stream of K bytes is copied to the displs at the end.
 *
 * Cost (Eq. (4)): transfer <= M + max block + log(pq) (the scan), with
 * M = max(K_A, K_B). Memory: 2 n size_t of counts, 2 m message entries (m
 * the remote group's size), and the scratch stream for displs that are not
 * packed. Any p, q >= 1, any counts >= 0 including
 * zeros and all-zero groups. The steps: inter_allgatherv_kang_common.c. */
#include "inter_allgatherv_kang_common.h"
#include "collsim_algorithms.h"

int collsim_inter_allgatherv_kang_segmented(COLLSIM_INTER_ALLGATHERV_ARGS)
{
    return ig_kang_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              ig, IG_POSTED);
}
