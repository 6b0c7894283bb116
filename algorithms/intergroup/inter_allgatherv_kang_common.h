/* Kang, Traff et al., Parallel Computing 2019, Section 4.1, Algorithm 2: the
 * steps both variants share (inter_allgatherv_kang_segmented.c, every
 * exchange message posted at once as the authors' code does;
 * inter_allgatherv_kang_segmented_ordered.c, the paper's order). */
#ifndef COLLSIM_INTER_ALLGATHERV_KANG_COMMON_H
#define COLLSIM_INTER_ALLGATHERV_KANG_COMMON_H

#include "coll_intergroup.h"

/* How the exchange (lines 12-14 and 22-24) runs:
 * IG_POSTED   every Isend and Irecv posted at once, one Waitall;
 * IG_ORDERED  the paper's order: each process has at most one send and one
 *             receive under way; it sends to its receivers in increasing
 *             rank and receives from the higher-ranked multi-target sender
 *             first, then the single-target senders in rank order, then the
 *             lower-ranked multi-target sender. */
typedef enum { IG_POSTED, IG_ORDERED } ig_exchange_order;

/* Algorithm 2 with the given exchange: the sizes (scan and total), the
 * exchange of stream intervals, the ring allgatherv of the intervals, and the
 * copy to the caller's displs when they are not packed. */
int ig_kang_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                       const collsim_intergroup *ig, ig_exchange_order order);

/* The senders receiver t of n takes its interval from, in the order the
 * exchange uses, for m remote blocks of counts[j] bytes (the worked example
 * of docs/papers.md, "Kang: Algorithm 2 made exact", is a test): their ranks in *senders (room for m); returns
 * their number, or -1 (no memory). */
int ig_kang_receive_order(const int *counts, int m, int n, int t, ig_exchange_order order,
                          int *senders);

#endif
