/* v-collectives (alltoallv): blocks of varying sizes (vlayout.h).
 * Block (src, dst) has cs_dist_block(dist, seed, src, dst, N / dtype size)
 * elements, N being the size benchmarked (the largest block): a pure function
 * (core/distributions.h), so each rank computes its send counts and its
 * receive counts alone, the same whatever p. Its content is the alltoall
 * block's (id src*p + dst) cut to its length. The buffers exercise the
 * displacements: blocks lie in a non-identity order (send buffer: descending
 * from block rank-1, receive buffer: ascending from block rank+1, mod p), each
 * after a gap of 1..V_GAP_MAX elements, with one more gap after the last; the
 * gaps hold a guard byte that the check verifies, so a write outside the
 * blocks is caught as well. Fold mode uses the same layout (message sizes,
 * hence predicted times, do not depend on it). */
#include "vlayout.h"

#include <stdlib.h>
#include <string.h>

#include "coll_util.h"
#include "fold.h"

#define V_GAP_MAX 3
#define V_GUARD_SEND 0xa5
#define V_GUARD_RECV 0x3c

static int v_gap(int src, int dst) { return 1 + (src + 2 * dst) % V_GAP_MAX; }

size_t v_buffer_bytes(int p, long bytes, int tsize)
{
    return (size_t)p * ((size_t)bytes + V_GAP_MAX * (size_t)tsize) + V_GAP_MAX * (size_t)tsize;
}

/* Block j's place in buffer order: send q -> block rank-1-q, receive q -> rank+1+q. */
static int v_send_order(int rank, int q, int p) { return coll_mod(rank - 1 - q, p); }
static int v_recv_order(int rank, int q, int p) { return coll_mod(rank + 1 + q, p); }

/* Fold mode: iid counts stay per rank (they set the message sizes, hence the
 * predicted times; a named layout's are shared, fold_v_layout_counts), but the
 * displacements are one array shared by every rank:
 * slot j of a buffer at j (N + V_GAP_MAX) + 1 elements, N the largest block of
 * the run, so every size fits the folded buffer (v_buffer_bytes). Per-rank
 * displacements and their pristine copy would take 24 p^2 bytes: 26 GB at 32K
 * ranks. The addresses do not matter to the times (folded memory is not copied). */
int *v_fold_displs(int p, long max_count)
{
    int *d = malloc(sizeof *d * (size_t)(p ? p : 1));
    if (!d)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int j = 0; j < p; j++)
        d[j] = (int)((long)j * (max_count + V_GAP_MAX) + 1);
    return d;
}

int v_layout_alloc(const driver_opts *o, int p, int *fold_displs, v_layout *L)
{
    *L = (v_layout){NULL, NULL, NULL, NULL, NULL, NULL, 0, 0};
    if (o->desc->props->variable && o->fold && o->vdist.matrix != CS_MATRIX_IID) { /* all shared */
        L->sdispls = L->rdispls = fold_displs;
    } else if (o->desc->props->variable && o->fold) { /* per-rank counts, shared displacements (v_fold_displs) */
        L->own = L->scounts = malloc(2 * sizeof(int) * (size_t)p);
        L->rcounts = L->scounts ? L->scounts + p : NULL;
        L->sdispls = L->rdispls = fold_displs;
        return L->own ? 0 : -1;
    } else if (o->desc->props->variable) { /* per-rank counts and displacements: private memory */
        L->own = L->scounts = malloc(8 * sizeof(int) * (size_t)p);
        if (!L->own)
            return -1;
        L->sdispls = L->scounts + p;
        L->rcounts = L->sdispls + p;
        L->rdispls = L->rcounts + p;
        L->pristine = L->rdispls + p;
    }
    return 0;
}

void v_layout_free(v_layout *L)
{
    free(L->own);
    L->own = L->scounts = L->rcounts = NULL;
}

/* One buffer's counts and displacements, in buffer order, each block after
 * its gap; returns the bytes used, the final gap included. */
static long v_side_build(const driver_opts *o, int *counts, int *displs, int rank, int p,
                         long max_count, int tsize, int in_send)
{
    long pos = 0;
    for (int q = 0; q < p; q++) {
        const int j = in_send ? v_send_order(rank, q, p) : v_recv_order(rank, q, p);
        const int src = in_send ? rank : j, dst = in_send ? j : rank;
        counts[j] = (int)cs_dist_block(&o->vdist, o->seed, src, dst, max_count);
        pos += v_gap(src, dst);
        displs[j] = (int)pos;
        pos += counts[j];
    }
    return (pos + V_GAP_MAX) * tsize;
}

void v_layout_build(const driver_opts *o, v_layout *L, int rank, int p, long max_count, int tsize)
{
    if (o->fold && o->vdist.matrix != CS_MATRIX_IID) { /* windows of the shared diagonals */
        int *diag = fold_v_layout_counts(o, p, max_count);
        const int toeplitz = o->vdist.matrix == CS_MATRIX_TOEPLITZ;
        L->scounts = diag + (toeplitz ? p - 1 - rank : rank);
        L->rcounts = diag + (toeplitz ? 3 * p - 2 - rank : rank);
        return;
    }
    if (o->fold) { /* counts only; displacements: v_fold_displs */
        for (int j = 0; j < p; j++) {
            L->scounts[j] = (int)cs_dist_block(&o->vdist, o->seed, rank, j, max_count);
            L->rcounts[j] = (int)cs_dist_block(&o->vdist, o->seed, j, rank, max_count);
        }
        return;
    }
    L->send_end = v_side_build(o, L->scounts, L->sdispls, rank, p, max_count, tsize, 1);
    L->recv_end = v_side_build(o, L->rcounts, L->rdispls, rank, p, max_count, tsize, 0);
    memcpy(L->pristine, L->scounts, 4 * sizeof(int) * (size_t)p);
}

void fill_send_v(const coll_desc *c, const v_layout *L, unsigned char *buf, int rank, int p,
                 int tsize)
{
    memset(buf, V_GUARD_SEND, (size_t)L->send_end);
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)L->sdispls[j] * tsize, pattern_block(c->block_id(rank, j, p)),
               (size_t)L->scounts[j] * tsize);
}

void poison_recv_v(const coll_desc *c, const v_layout *L, unsigned char *buf, int rank, int p,
                   int tsize)
{
    memset(buf, V_GUARD_RECV, (size_t)L->recv_end);
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)L->rdispls[j] * tsize, antipattern_block(c->block_id(j, rank, p)),
               (size_t)L->rcounts[j] * tsize);
}

/* One buffer in buffer order: block j must hold its pattern, every byte
 * between blocks (and up to `end`) the guard. A byte outside the blocks is
 * reported with a negative offset (bytes before block j), or block -1 when
 * it lies after the last block. */
static check_result verify_v_buffer(const coll_desc *c, const unsigned char *buf,
                                    const int *counts, const int *displs, long end, int tsize,
                                    int rank, int p, int in_send)
{
    long pos = 0;
    for (int q = 0; q <= p; q++) {
        const int j = q == p ? -1 : in_send ? v_send_order(rank, q, p) : v_recv_order(rank, q, p);
        const long start = j < 0 ? end : (long)displs[j] * tsize;
        const int guard = in_send ? V_GUARD_SEND : V_GUARD_RECV;
        for (; pos < start; pos++)
            if (buf[pos] != guard)
                return (check_result){j, pos - start, guard, buf[pos], 1, in_send};
        if (j < 0)
            break;
        const long len = (long)counts[j] * tsize;
        const unsigned char *want =
            pattern_block(in_send ? c->block_id(rank, j, p) : c->block_id(j, rank, p));
        if (memcmp(buf + start, want, (size_t)len))
            return first_difference(buf + start, want, j, len, in_send);
        pos = start + len;
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* The caller's counts and displacements must come back untouched: block -2,
 * offset = the first entry that changed (sendcounts, sdispls, recvcounts,
 * rdispls, p entries each). */
check_result verify_v(const coll_desc *c, const v_layout *L, const unsigned char *recv,
                      const unsigned char *send, int rank, int p, int tsize)
{
    for (long k = 0; k < 4L * p; k++)
        if (L->scounts[k] != L->pristine[k])
            return (check_result){-2, k, 0, 0, 1, 1};
    check_result r = verify_v_buffer(c, send, L->scounts, L->sdispls, L->send_end, tsize, rank, p, 1);
    return r.bad ? r
                 : verify_v_buffer(c, recv, L->rcounts, L->rdispls, L->recv_end, tsize, rank, p, 0);
}
