/* Building blocks of the locality-aware allgathers (allgather_loc_common.h).
 *
 * The locality-aware Bruck engine (Bienz, Gautam, Kharel 2022, Section 3,
 * Algorithm 2), generalised. The paper's version: with p_l processes in each
 * of r = p_l^k regions, a local allgather first gives every process its
 * region's data; then in each non-local step a process holding the data of D
 * consecutive regions (its own first) sends it all to one process of another
 * region and receives D regions' data from a third: local rank m exchanges
 * with the regions at distance m*D (rank 0 is idle), so the region gains
 * (p_l - 1) * D regions, which a local allgather spreads in the region.
 *
 * Here, for any region sizes and placements:
 *  - The radix K = max(2, largest region) is the same in every region, so the
 *    exchange pattern matches between regions of different sizes. A step
 *    opens M = min(K - 1, ceil((r - D) / D)) ports m = 1..M; port m of region
 *    g receives regions g+mD .. g+mD+min(D, r-mD)-1 from region g+mD and sends
 *    its first min(D, r-mD) regions to region g-mD (all modulo r). When the
 *    number of regions is not a power of K the last step opens fewer ports, so
 *    some processes sit idle in it (the paper's Section 3 remark).
 *  - Who serves port m in a region of s processes: local rank m when
 *    M <= s - 1 (the paper's assignment, rank 0 idle); every local rank, a
 *    contiguous share of the ports each, when the region is smaller than that
 *    (an uneven region); the only process of a region of one.
 *  - The data lives in "rotated virtual order": regions in order starting
 *    with the caller's own, each region's members in local-rank order. The
 *    D regions held are then the first slots, and the data of consecutive
 *    ports are consecutive slots, so what the processes of a region received
 *    in a step is contiguous and ordered by local rank: the following local
 *    step is an allgatherv (the paper's remark: some processes hold nothing
 *    new), here a Bruck allgatherv in which the idle ones contribute nothing.
 *  - Contributions may be several blocks per member (vdisp), which is what a
 *    local step of the multilevel variant needs when it runs this engine
 *    again at the finer level (Section 3, last paragraph).
 * Non-local messages per process and step: one for regions of the largest
 * size (as the paper), ceil(M / s) for a smaller region. */
#include "allgather_loc_common.h"

#include <stdlib.h>
#include <string.h>

/* ---- groups ---- */
loc_group loc_group_region(const coll_loc_info *info)
{
    loc_group g = {info, LOC_REGION, info->region, info->local_size, info->local_rank};
    return g;
}

loc_group loc_group_leaders(const coll_loc_info *info)
{
    loc_group g = {info, LOC_LEADERS, 0, info->nregions, info->region};
    return g;
}

loc_group loc_group_lane(const coll_loc_info *info, int lane)
{
    loc_group g = {info, LOC_LANE, lane, info->nregions, info->region};
    return g;
}

int loc_group_rank(const loc_group *g, int i)
{
    switch (g->kind) {
    case LOC_REGION:
        return coll_loc_rank_of(g->info, g->arg, i);
    case LOC_LEADERS:
        return coll_loc_rank_of(g->info, i, 0);
    default:
        return coll_loc_rank_of(g->info, i, loc_lane_local(g->info, i, g->arg));
    }
}

/* ---- messages of up to two block ranges ---- */
typedef struct {
    MPI_Request *req;
    MPI_Status *st; /* not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's access attributes */
    MPI_Datatype *types;
    int nreq, ntypes;
} loc_reqs;

static int reqs_init(loc_reqs *q, int max)
{
    q->nreq = q->ntypes = 0;
    q->req = malloc(sizeof(MPI_Request) * (size_t)(max > 0 ? max : 1));
    q->st = malloc(sizeof(MPI_Status) * (size_t)(max > 0 ? max : 1));
    q->types = malloc(sizeof(MPI_Datatype) * (size_t)(max > 0 ? max : 1));
    if (!q->req || !q->st || !q->types) {
        free(q->req);
        free(q->st);
        free(q->types);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* Waits for everything posted (also after an error), frees the types. */
static int reqs_finish(loc_reqs *q, int err)
{
    if (q->nreq > 0) {
        int werr = MPI_Waitall(q->nreq, q->req, q->st);
        if (!err)
            err = werr;
    }
    for (int i = 0; i < q->ntypes; i++)
        MPI_Type_free(&q->types[i]);
    free(q->req);
    free(q->st);
    free(q->types);
    return err;
}

/* Posts a send (is_send) or receive of blocks [lo1, hi1) + [lo2, hi2) of b
 * with `peer`; nothing when both are empty. */
static int post(loc_reqs *q, const loc_buf *b, long lo1, long hi1, long lo2, long hi2, int peer,
                MPI_Comm comm, int is_send)
{
    void *base;
    int n, err;
    MPI_Datatype t;

    if (hi1 <= lo1) {
        lo1 = lo2;
        hi1 = hi2;
        lo2 = hi2 = 0;
    }
    if (hi1 <= lo1)
        return MPI_SUCCESS;
    if (hi2 <= lo2) {
        base = coll_block(b->buf, (int)lo1, b->bb);
        n = (int)(hi1 - lo1) * b->count;
        t = b->type;
    } else {
        int len[2] = {(int)(hi1 - lo1) * b->count, (int)(hi2 - lo2) * b->count};
        MPI_Aint disp[2] = {(MPI_Aint)((size_t)lo1 * b->bb), (MPI_Aint)((size_t)lo2 * b->bb)};
        if ((err = MPI_Type_create_hindexed(2, len, disp, b->type, &t)))
            return err;
        q->types[q->ntypes++] = t;
        if ((err = MPI_Type_commit(&t)))
            return err;
        base = b->buf;
        n = 1;
    }
    err = is_send ? MPI_Isend(base, n, t, peer, COLL_TAG_ALLGATHER, comm, &q->req[q->nreq])
                  : MPI_Irecv(base, n, t, peer, COLL_TAG_ALLGATHER, comm, &q->req[q->nreq]);
    if (!err)
        q->nreq++;
    return err;
}

/* The blocks of members a, a+1, ..., a+k-1 (mod n): one or two ranges. */
static void member_ranges(const long *disp, int n, int a, int k, long out[4])
{
    if (a + k <= n) {
        out[0] = disp[a];
        out[1] = disp[a + k];
        out[2] = out[3] = 0;
    } else {
        out[0] = disp[a];
        out[1] = disp[n];
        out[2] = disp[0];
        out[3] = disp[a + k - n];
    }
}

int loc_bruckv(const loc_group *g, const long *disp, const loc_buf *b)
{
    const int n = g->n, me = g->me;
    const MPI_Comm comm = g->info->comm;
    int err = MPI_SUCCESS;

    /* Member me holds members me..me+d-1 before the step of distance d. */
    for (int d = 1; d < n && !err; d <<= 1) {
        const int k = d < n - d ? d : n - d;
        long s[4], r[4];
        loc_reqs q;
        member_ranges(disp, n, me, k, s);
        member_ranges(disp, n, (me + d) % n, k, r);
        if ((err = reqs_init(&q, 2)))
            return err;
        err = post(&q, b, r[0], r[1], r[2], r[3], loc_group_rank(g, (me + d) % n), comm, 0);
        if (!err)
            err = post(&q, b, s[0], s[1], s[2], s[3], loc_group_rank(g, coll_mod(me - d, n)), comm,
                       1);
        err = reqs_finish(&q, err);
    }
    return err;
}

int loc_gather_binomial(const loc_group *g, const long *disp, const loc_buf *b)
{
    const int n = g->n, me = g->me;
    const long low = me ? (long)(me & -me) : 2L * n; /* distance to the parent */
    loc_reqs q;
    int err, nchildren = 0;

    for (long j = 1; j < low && me + j < n; j <<= 1)
        nchildren++;
    if ((err = reqs_init(&q, nchildren)))
        return err;
    /* child me+j brings its subtree, members me+j .. me+2j-1 */
    for (long j = 1; j < low && me + j < n && !err; j <<= 1) {
        const long end = me + 2 * j < n ? me + 2 * j : n;
        err = post(&q, b, disp[me + j], disp[end], 0, 0, loc_group_rank(g, (int)(me + j)),
                   g->info->comm, 0);
    }
    err = reqs_finish(&q, err);
    if (err || me == 0)
        return err;
    const long end = me + low < n ? me + low : n;
    if ((err = reqs_init(&q, 1)))
        return err;
    err = post(&q, b, disp[me], disp[end], 0, 0, loc_group_rank(g, (int)(me - low)), g->info->comm,
               1);
    return reqs_finish(&q, err);
}

int loc_bcast_binomial(const loc_group *g, long lo, long hi, const loc_buf *b)
{
    const int n = g->n, me = g->me;
    long top = 1;
    loc_reqs q;
    int err;

    while (top < n)
        top <<= 1;
    const long low = me ? (long)(me & -me) : top;
    if (me) {
        if ((err = reqs_init(&q, 1)))
            return err;
        err = post(&q, b, lo, hi, 0, 0, loc_group_rank(g, (int)(me - low)), g->info->comm, 0);
        if ((err = reqs_finish(&q, err)))
            return err;
    }
    if ((err = reqs_init(&q, 32)))
        return err;
    for (long j = low / 2; j >= 1 && !err; j /= 2)
        if (me + j < n)
            err = post(&q, b, lo, hi, 0, 0, loc_group_rank(g, (int)(me + j)), g->info->comm, 1);
    return reqs_finish(&q, err);
}

/* ---- the locality-aware Bruck engine ---- */
typedef struct {
    const coll_loc_info *info;
    const long *vdisp; /* NULL: one block per member */
    const loc_buf *b;
    int finer;
    long base, total; /* unrotated start of the own region's data; all data */
} core_ctx;

static long vd(const core_ctx *c, int v) { return c->vdisp ? c->vdisp[v] : v; }

/* Slots of the m regions region, region+1, ..., region+m-1 (mod r), m <= r:
 * they start at slot 0 and end here. */
static long nreg(const core_ctx *c, long m)
{
    const int r = c->info->nregions;
    const long j = c->info->region + m;
    return j <= r ? vd(c, c->info->first[j]) - c->base
                  : c->total - c->base + vd(c, c->info->first[j - r]);
}

/* First port served by local rank h of a region of s processes with M
 * ports open; h = s gives M + 1. See the file comment. */
static int port_first(int s, int M, int h)
{
    if (s == 1)
        return h == 0 ? 1 : M + 1;
    if (M <= s - 1)
        return h == 0 ? 1 : 1 + (h - 1 < M ? h - 1 : M);
    return 1 + (int)((long)h * M / s);
}

/* The local rank serving port m (1..M) in a region of s processes. */
static int port_server(int s, int M, int m)
{
    if (s == 1)
        return 0;
    if (M <= s - 1)
        return m;
    int h = (int)((long)(m - 1) * s / M);
    while (h + 1 < s && port_first(s, M, h + 1) <= m)
        h++;
    while (h > 0 && port_first(s, M, h) > m)
        h--;
    return h;
}

/* The allgatherv among the region's processes of their slots
 * [st[h], st[h+1]) (h = local rank): a Bruck allgatherv, or at the finer
 * level the engine again, on the region communicator. */
static int local_step(const core_ctx *c, const long *st)
{
    const coll_loc_info *info = c->info, *fi;
    const int s = info->local_size;
    const loc_buf *b = c->b;
    int err;

    if (s == 1 || st[s] == st[0])
        return MPI_SUCCESS;
    if (c->finer < 0) {
        loc_group g = loc_group_region(info);
        return loc_bruckv(&g, st, b);
    }
    if ((err = coll_loc_info_get(info->comm_region, c->finer, &fi)))
        return err;
    /* The finer level's virtual order over the region's processes (ranks of
     * comm_region = local ranks here), each with its slots of this step. */
    long *fvd = malloc(sizeof(long) * (size_t)(s + 1));
    if (!fvd)
        return MPI_ERR_NO_MEM;
    fvd[0] = 0;
    for (int u = 0; u < s; u++) {
        const int h = coll_loc_rank_of_virtual(fi, u);
        fvd[u + 1] = fvd[u] + st[h + 1] - st[h];
    }
    const long ftotal = fvd[s], fbase = fvd[fi->first[fi->region]];
    const int me_u = fi->first[fi->region] + fi->local_rank, me = info->local_rank;
    char *x = coll_scratch_alloc((size_t)ftotal * b->bb);
    if (!x) {
        free(fvd);
        return MPI_ERR_NO_MEM;
    }
    /* own slots in, the engine at the finer level, everything out */
    coll_copy(x + (size_t)(fvd[me_u] - fbase) * b->bb, coll_block(b->buf, (int)st[me], b->bb),
           (size_t)(st[me + 1] - st[me]) * b->bb);
    loc_buf xb = {x, b->bb, b->count, b->type};
    err = loc_bruck_core(fi, fvd, &xb, -1);
    for (int u = 0; u < s && !err; u++) {
        const int h = coll_loc_rank_of_virtual(fi, u);
        long slot = fvd[u] - fbase;
        if (slot < 0)
            slot += ftotal;
        coll_copy(coll_block(b->buf, (int)st[h], b->bb), x + (size_t)slot * b->bb,
               (size_t)(st[h + 1] - st[h]) * b->bb);
    }
    coll_scratch_free(x);
    free(fvd);
    return err;
}

int loc_bruck_core(const coll_loc_info *info, const long *vdisp, const loc_buf *b, int finer)
{
    const int s = info->local_size, r = info->nregions, g = info->region, l = info->local_rank;
    const int K = info->max_size > 2 ? info->max_size : 2;
    core_ctx c = {info, vdisp, b, finer, 0, 0};
    int err;

    c.base = vd(&c, info->first[g]);
    c.total = vd(&c, info->size);
    long *st = malloc(sizeof(long) * (size_t)(s + 1));
    if (!st)
        return MPI_ERR_NO_MEM;

    /* Local allgather of the region's own data (Algorithm 2, first line). */
    for (int h = 0; h <= s; h++)
        st[h] = vd(&c, info->first[g] + h) - c.base;
    err = local_step(&c, st);

    /* Non-local steps: the region holds regions g .. g+D-1. */
    for (long D = 1; D < r && !err;) {
        const long need = (r - D + D - 1) / D;
        const int M = (int)(need < K - 1 ? need : K - 1);
        const int p0 = port_first(s, M, l), p1 = port_first(s, M, l + 1);
        loc_reqs q;
        if ((err = reqs_init(&q, 2 * (p1 - p0))))
            break;
        for (int m = p0; m < p1 && !err; m++) {
            const long cnt = D < r - m * D ? D : r - m * D;
            const int to = (int)coll_mod((int)(g - m * D % r), r);
            const int from = (int)((g + m * D) % r);
            const int dest = coll_loc_rank_of(info, to, port_server(info->region_size[to], M, m));
            const int src = coll_loc_rank_of(info, from, port_server(info->region_size[from], M, m));
            err = post(&q, b, nreg(&c, m * D), nreg(&c, m * D + cnt), 0, 0, src, info->comm, 0);
            if (!err)
                err = post(&q, b, 0, nreg(&c, cnt), 0, 0, dest, info->comm, 1);
        }
        if ((err = reqs_finish(&q, err)))
            break;
        /* Local allgatherv of what the ports received (Algorithm 2, last line). */
        const long Dn = (M + 1) * D < r ? (M + 1) * D : r;
        for (int h = 0; h <= s; h++) {
            const long m = port_first(s, M, h);
            st[h] = nreg(&c, m * D < r ? m * D : r);
        }
        err = local_step(&c, st);
        D = Dn;
    }
    free(st);
    return err;
}

/* ---- from virtual order to rank order ---- */
int loc_place_virtual(const coll_loc_info *info, const loc_buf *b, int base)
{
    const int p = info->size;
    const size_t bb = b->bb;

    if (info->layout == COLL_LOC_BLOCK) {
        /* virtual index = rank: a rotation (block w to (w + base) mod p) */
        coll_rotate_blocks(b->buf, p, bb, base);
        return MPI_SUCCESS;
    }
    /* Follow the cycles of the permutation slot w -> rank of (base + w) mod p,
     * with two blocks of temporary space and a bit per slot. */
    unsigned char *done = calloc((size_t)p / 8 + 1, 1);
    char *hold = malloc(bb), *next = malloc(bb);
    if (!done || !hold || !next) {
        free(done);
        free(hold);
        free(next);
        return MPI_ERR_NO_MEM;
    }
    for (int w0 = 0; w0 < p; w0++) {
        if (done[w0 / 8] & (1u << (w0 % 8)))
            continue;
        done[w0 / 8] |= (unsigned char)(1u << (w0 % 8));
        int cur = w0, dest = coll_loc_rank_of_virtual(info, (int)(((long)base + w0) % p));
        if (dest == w0)
            continue;
        coll_copy(hold, coll_block(b->buf, w0, bb), bb); /* the block of slot cur */
        for (;;) {
            dest = coll_loc_rank_of_virtual(info, (int)(((long)base + cur) % p));
            char *slot = coll_block(b->buf, dest, bb);
            coll_copy(next, slot, bb);
            coll_copy(slot, hold, bb);
            char *t = hold;
            hold = next;
            next = t;
            done[dest / 8] |= (unsigned char)(1u << (dest % 8));
            cur = dest;
            if (cur == w0)
                break;
        }
    }
    free(done);
    free(hold);
    free(next);
    return MPI_SUCCESS;
}

int loc_bruck_allgather(const coll_loc_info *info, void *recvbuf, size_t bb, int recvcount,
                        MPI_Datatype recvtype, int finer)
{
    loc_buf b = {recvbuf, bb, recvcount, recvtype};
    int err;

    /* Own block to its rotated virtual slot: the local rank. */
    if (info->local_rank != info->rank)
        coll_copy(coll_block(recvbuf, info->local_rank, bb), coll_block(recvbuf, info->rank, bb), bb);
    if ((err = loc_bruck_core(info, NULL, &b, finer)))
        return err;
    return loc_place_virtual(info, &b, info->first[info->region]);
}

int loc_allgather_begin(collsim_block_coll_fn self, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        coll_msg_blocks_fn msg_blocks, int level, const coll_loc_info **info,
                        int *rank, int *p, size_t *bb)
{
    *info = NULL;
    int err = coll_allgather_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   comm, msg_blocks, rank, p, bb);
    if (err != MPI_SUCCESS || *bb == 0 || *p == 1)
        return err;
    const coll_loc_info *got;
    if ((err = coll_loc_info_get(comm, level, &got)))
        return err;
    *info = got;
    return MPI_SUCCESS;
}
