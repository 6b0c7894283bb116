/* intergroup_unit: an SMPI program of its own for tests/test_intergroup.cc.
 *
 *   intergroup_unit COLL/NAME [PMAX QMAX]   one intergroup algorithm
 *   intergroup_unit vectors                 the worked examples (docs/papers.md)
 *   intergroup_unit fault:COLL/NAME ...     as COLL/NAME, one received byte
 *                                           corrupted after each call (the
 *                                           check must report it)
 *
 * For an algorithm: for every p in 1..PMAX and q in 1..QMAX (default 24 x 24)
 * and both layouts (block: group 0 on the first p ranks; interleaved), the
 * first p + q ranks of MPI_COMM_WORLD make a communicator, a group descriptor
 * is built on it (collsim_intergroup_create_from for block,
 * collsim_intergroup_create with a reversing key for interleaved, so members
 * are ordered by key), and the algorithm runs with block patterns of three
 * families per combination, rotating over the combinations: allgather, equal
 * blocks, unequal blocks (k_B smaller than ceil(p/q): empty segments), a zero
 * block in one or both groups, and on every third combination typed data
 * (MPI_INT blocks received as a contiguous type of 4 bytes); allgatherv, per
 * group equal, arithmetic (member i sends i + 1 units) or random counts with
 * zeros, and all-zero groups, with packed displacements or gaps in reversed
 * order, bytes or ints. Every byte of the
 * receive buffer is checked against the definition (the block of remote
 * member j in remote rank order, byte by byte a function of its sender's
 * rank), the bytes around the blocks must keep their poison and the send
 * buffer must be unchanged. MPI_IN_PLACE must return MPI_ERR_ARG.
 *
 * Prints "FAIL ..." lines and, on rank 0, "intergroup_unit: N checks, F
 * failed"; exits 1 on any failure. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_intergroup.h"
#include "collsim_algorithms.h"
#include "intergroup/inter_allgatherv_kang_common.h"
#include "smpi_unit.h"

/* ---- the algorithms, from algorithms.def ---- */
typedef struct {
    const char *coll, *name;
    collsim_inter_allgather_fn fn;
    collsim_inter_allgatherv_fn vfn;
} alg;

#define AS_I(f)                                                                                    \
    _Generic((f), collsim_inter_allgather_fn: (f), default: NULL)
#define AS_IV(f)                                                                                   \
    _Generic((f), collsim_inter_allgatherv_fn: (f), default: NULL)
static const alg algs[] = {
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    {#coll, #name, AS_I(fn), AS_IV(fn)},
#include "algorithms.def"
#undef COLLSIM_ALG
};

/* byte idx of the block of comm rank r */
static unsigned char val(int r, size_t idx) { return (unsigned char)(r * 29 + idx * 7 + 3 + (idx >> 8)); }

#define POISON 0xA5

/* ---- allgather ---- */

/* Block sizes (bytes) of group 0 and group 1, in three families; each
 * (p, q, layout) runs one pair of each family, rotating with the combination
 * (suite time: every pair still meets hundreds of (p, q)), and every third
 * combination typed data. */
static const int kEqual[][2] = {{1, 1}, {5, 5}, {9, 9}};
static const int kUnequal[][2] = {{5, 3}, {3, 5}, {13, 2}, {2, 29}, {1, 6}};
static const int kZero[][2] = {{0, 0}, {0, 4}, {4, 0}};
#define NELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int fault_mode; /* the check must be able to fail: corrupt one received byte */

static void run_allgather(const alg *a, const collsim_intergroup *ig, const char *what, int combo)
{
    for (int k = 0; k < 4; k++) {
        /* round 3, every third combination: typed data, 3 and 2 ints received as 4-byte units */
        const int typed = k == 3;
        if (typed && combo % 3)
            break;
        const int *pair = k == 0 ? kEqual[combo % NELEMS(kEqual)]
                          : k == 1 ? kUnequal[combo % NELEMS(kUnequal)]
                                   : kZero[combo % NELEMS(kZero)];
        const int c0 = typed ? 3 : pair[0], c1 = typed ? 2 : pair[1];
        const int mycount = ig->group ? c1 : c0, rcount = ig->group ? c0 : c1;
        MPI_Datatype st = typed ? MPI_INT : MPI_BYTE, rt = MPI_BYTE;
        if (typed) {
            MPI_Type_contiguous(4, MPI_BYTE, &rt);
            MPI_Type_commit(&rt);
        }
        const size_t unit = typed ? 4 : 1, mine = (size_t)mycount * unit,
                     kr = (size_t)rcount * unit, total = kr * (size_t)ig->remote_size;
        unsigned char *sb = malloc(mine + 1), *rb = malloc(total + 32);
        for (size_t i = 0; i < mine; i++)
            sb[i] = val(ig->rank, i);
        memset(rb, POISON, total + 32);
        check();
        int e = a->fn(sb, mycount, st, rb + 16, rcount, rt, ig);
        if (fault_mode && ig->group == 1 && ig->local_rank == 0 && total)
            rb[16 + total - 1] ^= 0x5a;
        if (e != MPI_SUCCESS) {
            fail("%s %s k=(%d,%d): MPI error %d", a->name, what, c0, c1, e);
        } else {
            int bad = 0;
            for (int j = 0; j < ig->remote_size && !bad; j++)
                for (size_t i = 0; i < kr && !bad; i++)
                    if (rb[16 + (size_t)j * kr + i] != val(ig->remote_ranks[j], i)) {
                        fail("%s %s k=(%d,%d) group %d local %d: remote block %d byte %zu is 0x%02x, "
                             "expected 0x%02x", a->name, what, c0, c1, ig->group, ig->local_rank,
                             j, i, rb[16 + (size_t)j * kr + i], val(ig->remote_ranks[j], i));
                        bad = 1;
                    }
            for (size_t i = 0; i < 16 && !bad; i++)
                if (rb[i] != POISON || rb[16 + total + i] != POISON) {
                    fail("%s %s k=(%d,%d): wrote outside the receive buffer", a->name, what, c0, c1);
                    bad = 1;
                }
            for (size_t i = 0; i < mine && !bad; i++)
                if (sb[i] != val(ig->rank, i)) {
                    fail("%s %s k=(%d,%d): modified the send buffer", a->name, what, c0, c1);
                    bad = 1;
                }
        }
        if (typed)
            MPI_Type_free(&rt);
        free(sb);
        free(rb);
    }
}

/* ---- allgatherv ---- */

/* count of member i of a group of n under pattern pat (units) */
static int vcount(int pat, int i, int n, int salt)
{
    (void)n;
    switch (pat) {
    case 0: return 3;                                   /* equal */
    case 1: return i + 1;                               /* arithmetic */
    case 2: return (int)(mix((unsigned)(i * 31 + salt)) % 7) < 3 ? 0 : (int)(mix((unsigned)i + 7u * (unsigned)salt) % 9);
    default: return 0;                                  /* all zero */
    }
}

/* (pattern of group 0, pattern of group 1) */
static const int kVPats[][2] = {{0, 0}, {1, 1}, {2, 2}, {3, 1}, {1, 3}, {3, 3}, {2, 0}};

/* Each (p, q, layout) runs three of them, rotating with the combination:
 * equal, one with unequal counts ((1,1), (2,2), (2,0)) and one with zero
 * groups ((3,1), (1,3), (3,3)); displacements packed or gapped and reversed,
 * typed or bytes, by combination too. */
static void run_allgatherv(const alg *a, const collsim_intergroup *ig, const char *what, int salt)
{
    static const int unequal[3] = {1, 2, 6};
    const int pick[3] = {0, unequal[salt % 3], 3 + (salt / 3) % 3};
    for (int r = 0; r < 3; r++) {
        const int k = pick[r];
        const int pat0 = kVPats[k][0], pat1 = kVPats[k][1];
        const int gapped = (salt + r) % 2, typed = (salt + r) % 3 == 0;
        const int mypat = ig->group ? pat1 : pat0, rpat = ig->group ? pat0 : pat1;
        const size_t unit = typed ? 4 : 1;
        MPI_Datatype dt = typed ? MPI_INT : MPI_BYTE;
        const int m = ig->remote_size;
        int *rc = malloc(sizeof(int) * (size_t)m), *dp = malloc(sizeof(int) * (size_t)m);
        int *rc0 = malloc(sizeof(int) * (size_t)m), *dp0 = malloc(sizeof(int) * (size_t)m);
        int at = 0;
        for (int jj = 0; jj < m; jj++) { /* gapped: reversed order, one unit before each */
            const int j = gapped ? m - 1 - jj : jj;
            rc[j] = vcount(rpat, j, m, salt + !ig->group);
            at += gapped;
            dp[j] = at;
            at += rc[j];
        }
        memcpy(rc0, rc, sizeof(int) * (size_t)m);
        memcpy(dp0, dp, sizeof(int) * (size_t)m);
        const size_t total = (size_t)(at + 1) * unit;
        const int mycount = vcount(mypat, ig->local_rank, ig->local_size, salt + ig->group);
        const size_t mine = (size_t)mycount * unit;
        unsigned char *sb = malloc(mine + 1), *rb = malloc(total + 32);
        for (size_t i = 0; i < mine; i++)
            sb[i] = val(ig->rank, i);
        memset(rb, POISON, total + 32);
        check();
        int e = a->vfn(sb, mycount, dt, rb + 16, rc, dp, dt, ig);
        if (fault_mode && ig->group == 1 && ig->local_rank == 0 && at)
            rb[16 + (size_t)at * unit - 1] ^= 0x5a;
        if (e != MPI_SUCCESS) {
            fail("%s %s pats=(%d,%d)%s: MPI error %d", a->name, what, pat0, pat1,
                 gapped ? " gapped" : "", e);
        } else {
            int bad = 0;
            unsigned char *exp = malloc(total + 32);
            memset(exp, POISON, total + 32);
            for (int j = 0; j < m; j++)
                for (size_t i = 0; i < (size_t)rc[j] * unit; i++)
                    exp[16 + (size_t)dp[j] * unit + i] = val(ig->remote_ranks[j], i);
            for (size_t i = 0; i < total + 32 && !bad; i++)
                if (rb[i] != exp[i]) {
                    fail("%s %s pats=(%d,%d)%s group %d local %d: receive byte %ld is 0x%02x, "
                         "expected 0x%02x", a->name, what, pat0, pat1, gapped ? " gapped" : "",
                         ig->group, ig->local_rank, (long)i - 16, rb[i], exp[i]);
                    bad = 1;
                }
            for (size_t i = 0; i < mine && !bad; i++)
                if (sb[i] != val(ig->rank, i)) {
                    fail("%s %s: modified the send buffer", a->name, what);
                    bad = 1;
                }
            if (!bad && (memcmp(rc, rc0, sizeof(int) * (size_t)m) || memcmp(dp, dp0, sizeof(int) * (size_t)m)))
                fail("%s %s: modified recvcounts or displs", a->name, what);
            free(exp);
        }
        free(sb);
        free(rb);
        free(rc);
        free(dp);
        free(rc0);
        free(dp0);
    }
}

/* ---- the descriptor itself ---- */

static void check_descriptor(const collsim_intergroup *ig, MPI_Comm comm, int p, int q, int layout,
                             const char *what)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    check();
    const int g = layout ? collsim_group_interleaved(rank, p, q) : collsim_group_block(rank, p, q);
    int ok = ig->group == g && ig->local_size == (g ? q : p) && ig->remote_size == (g ? p : q) &&
             ig->rank == rank && ig->local_ranks[ig->local_rank] == rank;
    int ls;
    MPI_Comm_size(ig->local, &ls);
    ok &= ls == ig->local_size;
    /* member order: by rank (block), by the reversing key (interleaved) */
    for (int i = 1; i < ig->local_size; i++)
        ok &= layout ? ig->local_ranks[i] < ig->local_ranks[i - 1] : ig->local_ranks[i] > ig->local_ranks[i - 1];
    for (int j = 1; j < ig->remote_size; j++)
        ok &= layout ? ig->remote_ranks[j] < ig->remote_ranks[j - 1] : ig->remote_ranks[j] > ig->remote_ranks[j - 1];
    if (!ok)
        fail("%s: descriptor wrong (group %d, sizes %d/%d)", what, ig->group, ig->local_size,
             ig->remote_size);
}

/* ---- the worked examples of docs/papers.md, "Kang: Algorithm 1 made exact"
 * and "Kang: Algorithm 2 made exact" (pure functions) ---- */

static void vectors(void)
{
    /* Algorithm 1: p = 8, q = 3, k_B = 7 */
    const int p = 8, q = 3, kb = 7;
    const int acount[] = {3, 2, 2, 3, 2, 2, 4, 3}, adispl[] = {0, 3, 5, 7, 10, 12, 14, 18};
    const int bsize[] = {3, 3, 2}, bfirst[] = {0, 3, 6};
    for (int j = 0; j < q; j++) {
        check();
        if (ig_sub_size(p, q, j) != bsize[j] || ig_sub_first(p, q, j) != bfirst[j])
            fail("Algorithm 1 example: subgroup %d is %d at %d, expected %d at %d", j, ig_sub_size(p, q, j),
                 ig_sub_first(p, q, j), bsize[j], bfirst[j]);
    }
    int sum = 0;
    for (int i = 0; i < p; i++) {
        const int j = ig_sub_of(p, q, i), t = i - ig_sub_first(p, q, j), nj = ig_sub_size(p, q, j);
        const int c = (int)ig_piece_len(kb, nj, t), d = j * kb + (int)ig_piece_start(kb, nj, t);
        sum += c;
        check();
        if (c != acount[i] || d != adispl[i])
            fail("Algorithm 1 example: a%d gets %d bytes at %d, expected %d at %d", i, c, d, acount[i], adispl[i]);
    }
    check();
    if (sum != q * kb)
        fail("Algorithm 1 example: segments sum to %d, expected %d", sum, q * kb);
    /* Algorithm 2: p = 6, q = 3, A counts [5,1,1,9,2,6]: messages a_i -> b_t of these sizes */
    const int ac[] = {5, 1, 1, 9, 2, 6};
    const int expect[6][3] = {{5, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 8, 0}, {0, 0, 2}, {0, 0, 6}};
    size_t R = 0;
    for (int i = 0; i < 6; i++) {
        for (int t = 0; t < 3; t++) {
            size_t at;
            const size_t len = ig_overlap(24, 3, t, R, (size_t)ac[i], &at);
            check();
            if ((int)len != expect[i][t])
                fail("Algorithm 2 example: a%d -> b%d carries %zu bytes, expected %d", i, t, len, expect[i][t]);
        }
        R += (size_t)ac[i];
    }
    for (int t = 0; t < 3; t++) {
        check();
        if (ig_piece_start(24, 3, t) != (size_t)(8 * t) || ig_piece_len(24, 3, t) != 8)
            fail("Algorithm 2 example: interval of b%d", t);
    }
    /* Algorithm 2 in the paper's order: b0 receives a3 (multi-target, higher), a0, a1, a2;
     * b1 a3; b2 a4, a5 (no multi-target sender); posted: rank order */
    const int paper[3][5] = {{4, 3, 0, 1, 2}, {1, 3}, {2, 4, 5}};
    const int posted[3][5] = {{4, 0, 1, 2, 3}, {1, 3}, {2, 4, 5}};
    for (int t = 0; t < 3; t++)
        for (int o = 0; o < 2; o++) {
            const int *want = o ? paper[t] : posted[t];
            int got[6], ok;
            const int n = ig_kang_receive_order(ac, 6, 3, t, o ? IG_ORDERED : IG_POSTED, got);
            check();
            ok = n == want[0];
            for (int k = 0; ok && k < n; k++)
                ok = got[k] == want[1 + k];
            if (!ok)
                fail("Algorithm 2 example: b%d's %s receive order (%d senders, first a%d)", t,
                     o ? "paper" : "posted", n, n > 0 ? got[0] : -1);
        }
    /* two multi-target senders: counts [8,1,1,4,4], 3 receivers of 6 bytes:
     * b1 = [6,12) takes a3 (the higher, reaching into b2) first, a1 and a2
     * between, a0 (reaching back into b0) last; b2 = [12,18) takes a4 (not
     * multi-target: it ends at 18) and then a3 */
    const int two[] = {8, 1, 1, 4, 4}, b1[] = {3, 1, 2, 0}, b2[] = {4, 3};
    int got[5] = {-1};
    check();
    if (ig_kang_receive_order(two, 5, 3, 1, IG_ORDERED, got) != 4 || memcmp(got, b1, sizeof b1))
        fail("order: b1 of [8,1,1,4,4] takes a%d first", got[0]);
    check();
    if (ig_kang_receive_order(two, 5, 3, 2, IG_ORDERED, got) != 2 || memcmp(got, b2, sizeof b2))
        fail("order: b2 of [8,1,1,4,4] takes a%d first", got[0]);
    /* layouts: 25:7 interleaved puts 25 of group 0 then 7 of group 1 in every 32 ranks */
    int g0 = 0;
    for (int r = 0; r < 32; r++)
        g0 += collsim_group_interleaved(r, 50, 14) == 0 && r < 25;
    check();
    if (g0 != 25 || collsim_group_interleaved(25, 50, 14) != 1 || collsim_group_interleaved(32, 50, 14) != 0)
        fail("layout: interleaved 50:14 is not 25 + 7 per 32 ranks");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int w = world_rank();
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (argc < 2) {
        if (w == 0)
            printf("usage: intergroup_unit COLL/NAME|vectors [PMAX QMAX]\n");
        MPI_Finalize();
        return 2;
    }
    const char *name = argv[1];
    if (!strncmp(name, "fault:", 6)) {
        fault_mode = 1;
        name += 6;
    }
    if (!strcmp(name, "vectors")) {
        if (w == 0)
            vectors();
    } else {
        const alg *a = NULL;
        for (size_t k = 0; k < sizeof algs / sizeof algs[0]; k++) {
            char full[128];
            snprintf(full, sizeof full, "%s/%s", algs[k].coll, algs[k].name);
            if (!strcmp(full, name) && (algs[k].fn || algs[k].vfn))
                a = &algs[k];
        }
        if (!a) {
            if (w == 0)
                printf("FAIL unknown intergroup algorithm '%s'\n", name);
            MPI_Finalize();
            return 1;
        }
        const int pmax = argc > 3 ? atoi(argv[2]) : 24, qmax = argc > 3 ? atoi(argv[3]) : 24;
        if (pmax + qmax > wsize) {
            if (w == 0)
                printf("FAIL %d + %d ranks needed, %d given\n", pmax, qmax, wsize);
            MPI_Finalize();
            return 1;
        }
        MPI_Group world;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int combo = 0;
        for (int p = 1; p <= pmax; p++)
            for (int q = 1; q <= qmax; q++)
                for (int layout = 0; layout < 2; layout++, combo++) {
                    const int n = p + q;
                    if (w >= n)
                        continue;
                    MPI_Group sub;
                    const int range[1][3] = {{0, n - 1, 1}};
                    MPI_Group_range_incl(world, 1, (int(*)[3])range, &sub);
                    MPI_Comm comm;
                    MPI_Comm_create_group(MPI_COMM_WORLD, sub, 1000 + combo, &comm);
                    MPI_Group_free(&sub);
                    collsim_intergroup *ig = NULL;
                    int e;
                    if (layout == 0) {
                        int *group_of = malloc(sizeof(int) * (size_t)n);
                        for (int r = 0; r < n; r++)
                            group_of[r] = collsim_group_block(r, p, q);
                        e = collsim_intergroup_create_from(comm, group_of, &ig);
                        free(group_of);
                    } else {
                        e = collsim_intergroup_create(comm, collsim_group_interleaved(w, p, q), n - w, &ig);
                    }
                    char what[96];
                    snprintf(what, sizeof what, "p=%d q=%d %s", p, q, layout ? "interleaved" : "block");
                    check();
                    if (e != MPI_SUCCESS) {
                        fail("%s: descriptor error %d", what, e);
                        MPI_Comm_free(&comm);
                        continue;
                    }
                    check_descriptor(ig, comm, p, q, layout, what);
                    if (a->fn)
                        run_allgather(a, ig, what, combo);
                    else
                        run_allgatherv(a, ig, what, combo);
                    /* MPI_IN_PLACE is not defined for intercommunicators */
                    int dummy[4] = {0}, zero[64] = {0};
                    check();
                    e = a->fn ? a->fn(MPI_IN_PLACE, 1, MPI_BYTE, dummy, 1, MPI_BYTE, ig)
                              : a->vfn(MPI_IN_PLACE, 1, MPI_BYTE, dummy, zero, zero, MPI_BYTE, ig);
                    if (e != MPI_ERR_ARG)
                        fail("%s: MPI_IN_PLACE returned %d, expected MPI_ERR_ARG", what, e);
                    collsim_intergroup_free(&ig);
                    MPI_Comm_free(&comm);
                }
        MPI_Group_free(&world);
    }
    /* totals on rank 0 (all ranks share the counters) */
    MPI_Barrier(MPI_COMM_WORLD);
    if (w == 0) {
        long c = 0, f = 0;
        for (int r = 0; r < MAX_RANKS; r++) {
            c += checks[r];
            f += failures[r];
        }
        printf("intergroup_unit: %ld checks, %ld failed\n", c, f);
    }
    long mine = failures[w];
    MPI_Finalize();
    return mine ? 1 : 0;
}
