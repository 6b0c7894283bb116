/* Intergroup allgather of Kang, Traff et al., EuroMPI 2018, Algorithm 2 (the
 * "EuroMPI" curves of Fig. 4 of the Parallel Computing 2019 paper, Section 4:
 * Algorithm 1 but with the larger group collecting the smaller group's data
 * in two steps of intragroup allgather). Reconstructed from the paper's
 * description and the authors' public harness (docs/papers.md, "Kang: the
 * EuroMPI two-step algorithm"); written here from that description.
 *
 * A = the larger group (p; group 0 when p = q), B the smaller (q); g =
 * floor(p/q), r = p mod q.
 * - A -> B as Algorithm 1: subgroup s_j (the first r of g+1 consecutive
 *   members, the others g) sends its blocks to b_j.
 * - B -> A by stacks: A's members form g consecutive stacks, the first r mod g
 *   of q + floor(r/g) + 1 members, the others q + floor(r/g). b_x cuts its
 *   block into g nearly equal segments and sends segment t to the member at
 *   position x of stack t (members at positions >= q receive nothing). b_x's
 *   round t sends segment t (t < g) and receives the block of the t-th member
 *   of s_x (t < |s_x|).
 * - A, step 1 ("column"): the g members at position x < q of the stacks
 *   allgather b_x's segments, so each holds b_x's block.
 * - A, step 2 ("stack"): each stack allgathers the blocks of positions < q
 *   (the others contribute nothing): every member holds all of B's blocks.
 * - B: allgatherv of the subgroups' blocks, as Algorithm 1.
 * The column and stack communicators are built with the descriptor, before
 * any timed call (the authors' code builds them inside its timing). Segments
 * shorter than one byte are empty and not sent, so no special small-message
 * path is needed. Allgathers are coll_intergroup.h's in-place ring.
 *
 * Cost: same transfer as Algorithm 1, M + O(k_B) (Section 4); max(g+1, g)
 * alpha exchange rounds, then (g - 1) + (stack size - 1) ring steps in A.
 * Memory: 2 x (stack size) size_t of counts. Any p, q >= 1, blocks >= 0. */
#include <stdlib.h>

#include "coll_intergroup.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

/* Stack s of the larger group (size p, the smaller q): first member, size. */
static void stack_of(int p, int q, int s, int *first, int *size)
{
    const int g = p / q, r = p % q, base = q + r / g, h = r % g;
    *first = s * base + (s < h ? s : h);
    *size = base + (s < h ? 1 : 0);
}

int collsim_inter_allgather_kang_two_step(COLLSIM_INTER_ALLGATHER_ARGS)
{
    size_t mine, remote;
    int e = ig_allgather_begin(sendbuf, sendcount, sendtype, recvcount, recvtype, ig, &mine, &remote);
    if (e != MPI_SUCCESS)
        return e;
    const ig_roles ro = ig_roles_of(ig, mine, remote);
    const int in_a = ro.in_a, p = ro.p, q = ro.q;
    const int g = p / q;
    const size_t ka = ro.ka, kb = ro.kb;
    const int *a_rank = ro.a_rank, *b_rank = ro.b_rank;
    char *rb = recvbuf;
    const char *sb = sendbuf;
    if (!in_a) {
        const int x = ig->local_rank, nx = ig_sub_size(p, q, x), f = ig_sub_first(p, q, x);
        for (int t = 0; t < (nx > g ? nx : g) && e == MPI_SUCCESS; t++) {
            MPI_Request rq[2];
            int nr = 0;
            if (t < nx && ka)
                MPI_Irecv(rb + (size_t)(f + t) * ka, (int)ka, MPI_BYTE, a_rank[f + t], IG_TAG_A2B,
                          ig->comm, &rq[nr++]);
            if (t < g && ig_piece_len(kb, g, t)) {
                int first, size;
                stack_of(p, q, t, &first, &size);
                MPI_Isend(sb + ig_piece_start(kb, g, t), (int)ig_piece_len(kb, g, t), MPI_BYTE,
                          a_rank[first + x], IG_TAG_B2A, ig->comm, &rq[nr++]);
            }
            e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
        }
        return e == MPI_SUCCESS ? ig_smaller_allgatherv(recvbuf, p, q, ka, ig) : e;
    }
    /* A: my stack t, position x; my subgroup j */
    const int i = ig->local_rank, j = ig_sub_of(p, q, i);
    int t = 0, first, size;
    for (;; t++) {
        stack_of(p, q, t, &first, &size);
        if (i < first + size)
            break;
    }
    const int x = i - first;
    MPI_Request rq[2];
    int nr = 0;
    const size_t seg = x < q ? ig_piece_len(kb, g, t) : 0;
    if (seg)
        MPI_Irecv(rb + (size_t)x * kb + ig_piece_start(kb, g, t), (int)seg, MPI_BYTE, b_rank[x],
                  IG_TAG_B2A, ig->comm, &rq[nr++]);
    if (ka)
        MPI_Isend(sb, (int)ka, MPI_BYTE, b_rank[j], IG_TAG_A2B, ig->comm, &rq[nr++]);
    e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
    const int n = g > size ? g : size;
    size_t *cnt = malloc(sizeof(size_t) * 2 * (size_t)n);
    if (!cnt)
        return MPI_ERR_NO_MEM;
    if (e == MPI_SUCCESS && x < q) { /* step 1: the column of position x */
        for (int s = 0; s < g; s++) {
            cnt[s] = ig_piece_len(kb, g, s);
            cnt[g + s] = (size_t)x * kb + ig_piece_start(kb, g, s);
        }
        e = ig_ring_allgatherv(recvbuf, cnt, cnt + g, ig->column);
    }
    if (e == MPI_SUCCESS) { /* step 2: my stack; positions >= q contribute nothing */
        for (int y = 0; y < size; y++) {
            cnt[y] = y < q ? kb : 0;
            cnt[size + y] = y < q ? (size_t)y * kb : 0;
        }
        e = ig_ring_allgatherv(recvbuf, cnt, cnt + size, ig->stack);
    }
    free(cnt);
    return e;
}
