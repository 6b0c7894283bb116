/* Intergroup allgather with message segmentation: Kang, Traff et al.,
 * Parallel Computing 2019, Section 4, Algorithm 1 (Fig. 2 for p mod q != 0).
 *
 * A = the larger group (p members; group 0 when p = q), B the smaller (q).
 * A is cut into q consecutive subgroups s_j (the first p mod q of ceil(p/q)
 * members, the others floor(p/q)). Exchange: b_j pairs with each member of
 * s_j in turn, one round per member (position t): it sends segment t of its
 * block (its k_B bytes cut into |s_j| nearly equal segments, the first
 * k_B mod |s_j| one byte larger) and receives that member's whole block. Then
 * two concurrent in-place ring allgathervs: in A of the segments (they arrived
 * in rank order, so none is moved), in B of the blocks of each subgroup.
 * The paper's typos (j = floor(i/q), segment size k_B p/q, the pseudo-code's
 * index formulas of lines 9 and 11) are read as docs/papers.md, "Kang:
 * Algorithm 1 made exact", says.
 *
 * Cost (Eq. (3)): ceil(p/q) alpha + max(ceil(p/q) k_A, k_B) beta for the
 * exchange, then the slower of the allgathervs; transfer <= M + k_B beta with
 * M = max(p k_A, q k_B). Memory: none beyond the caller's buffers (the
 * allgathervs work in place), 2 n size_t of counts (n = own group). Any p, q >= 1, any
 * block sizes including 0 (empty segments are not sent). */
#include <stdlib.h>

#include "coll_intergroup.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

int collsim_inter_allgather_kang_segmented(COLLSIM_INTER_ALLGATHER_ARGS)
{
    size_t mine, remote;
    int e = ig_allgather_begin(sendbuf, sendcount, sendtype, recvcount, recvtype, ig, &mine, &remote);
    if (e != MPI_SUCCESS)
        return e;
    const ig_roles ro = ig_roles_of(ig, mine, remote);
    const int in_a = ro.in_a, p = ro.p, q = ro.q;
    const size_t ka = ro.ka, kb = ro.kb;
    const int *a_rank = ro.a_rank, *b_rank = ro.b_rank;
    char *rb = recvbuf;
    const char *sb = sendbuf;
    if (!in_a) {
        /* exchange rounds with the members of my subgroup, in position order */
        const int j = ig->local_rank, nj = ig_sub_size(p, q, j), f = ig_sub_first(p, q, j);
        for (int t = 0; t < nj && e == MPI_SUCCESS; t++) {
            const size_t len = ig_piece_len(kb, nj, t);
            MPI_Request rq[2];
            int nr = 0;
            if (ka)
                MPI_Irecv(rb + (size_t)(f + t) * ka, (int)ka, MPI_BYTE, a_rank[f + t], IG_TAG_A2B,
                          ig->comm, &rq[nr++]);
            if (len)
                MPI_Isend(sb + ig_piece_start(kb, nj, t), (int)len, MPI_BYTE, a_rank[f + t],
                          IG_TAG_B2A, ig->comm, &rq[nr++]);
            e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
        }
        /* line 11: allgatherv of the subgroups' blocks in B */
        return e == MPI_SUCCESS ? ig_smaller_allgatherv(recvbuf, p, q, ka, ig) : e;
    }
    /* exchange: my block to b_j, segment t of b_j's block from it */
    const int i = ig->local_rank, j = ig_sub_of(p, q, i), t = i - ig_sub_first(p, q, j);
    const int nj = ig_sub_size(p, q, j);
    const size_t len = ig_piece_len(kb, nj, t), at = (size_t)j * kb + ig_piece_start(kb, nj, t);
    MPI_Request rq[2];
    int nr = 0;
    if (len)
        MPI_Irecv(rb + at, (int)len, MPI_BYTE, b_rank[j], IG_TAG_B2A, ig->comm, &rq[nr++]);
    if (ka)
        MPI_Isend(sb, (int)ka, MPI_BYTE, b_rank[j], IG_TAG_A2B, ig->comm, &rq[nr++]);
    e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
    if (e != MPI_SUCCESS)
        return e;
    /* Algorithm 1, line 9: allgatherv of the segments in A */
    const int n = ig->local_size;
    size_t *cnt = malloc(sizeof(size_t) * 2 * (size_t)n);
    if (!cnt)
        return MPI_ERR_NO_MEM;
    for (int x = 0; x < n; x++) {
        const int jx = ig_sub_of(p, q, x), tx = x - ig_sub_first(p, q, jx);
        const int nx = ig_sub_size(p, q, jx);
        cnt[x] = ig_piece_len(kb, nx, tx);
        cnt[n + x] = (size_t)jx * kb + ig_piece_start(kb, nx, tx);
    }
    e = ig_ring_allgatherv(recvbuf, cnt, cnt + n, ig->local);
    free(cnt);
    return e;
}
