/* Intergroup allgatherv by stream segmentation with the paper's order of
 * sends and receives: Kang, Traff et al., Parallel Computing 2019, Section
 * 4.1, Algorithm 2 and the text before Theorem 3 (docs/papers.md, "Kang:
 * Algorithm 2 made exact"). The steps are kang_segmented's
 * (inter_allgatherv_kang_segmented.c); only the exchange differs.
 *
 * The paper: "a sender always sends its messages in the order of its
 * receivers' ranks"; "a receiver decides the order of senders it receives
 * messages from and senders should wait for the receiving channel of the
 * receiver to be idle"; a receiver takes "the multi-target sender with higher
 * rank, followed by senders with ranks between the two multi-target senders,
 * followed by the multi-target sender with a lower rank". A multi-target
 * sender is one whose block falls in several receivers' intervals; only a
 * receiver's first and last senders can be one. Realised by at most one send and one receive under way per process: the
 * next send starts when the previous one has completed, the next receive is
 * posted when the previous one has, so a message larger than the eager limit
 * moves only once its receiver has taken the ones before it. (Worked
 * example of docs/papers.md, p = 6, q = 3, A counts [5,1,1,9,2,6]: b0 receives a3,
 * a0, a1, a2; a3 sends to b0 then b1.) Deadlock-free: a multi-target sender
 * is the first its lowest receiver takes and the last its highest receiver
 * takes, so the waits only run towards higher receivers (Theorem 3's proof).
 *
 * Cost (Theorem 3, Eq. (4)): transfer <= M + max block + log(pq), the bound
 * the order is designed for. Memory and restrictions: kang_segmented's. */
#include "inter_allgatherv_kang_common.h"
#include "collsim_algorithms.h"

int collsim_inter_allgatherv_kang_segmented_ordered(COLLSIM_INTER_ALLGATHERV_ARGS)
{
    return ig_kang_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              ig, IG_ORDERED);
}
