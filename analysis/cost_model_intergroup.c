/* Cost models of the intergroup allgather and allgatherv (Kang, Traff et
 * al., Parallel Computing 2019; docs/papers.md, "Kang: root gathering in the
 * libraries"), message by message under the
 * Hockney model, following collsim's code (algorithms/intergroup/ and
 * coll_intergroup.c): MPICH's binomial gather and broadcast, the ring
 * allgatherv, the pipelined chain. Each model reads the case's groups from
 * cs_cost_params (gp:gq, block ratio, counts); p, the process count, is
 * gp + gq. And the paper's closed forms the report prints beside them: Eq.
 * (5) and the finite-p ranges (docs/papers.md, "Kang: the finite-p
 * model"). */
#include "cost_model_intergroup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "case_fields.h"

int cs_cost_params_groups(cs_cost_params *c, const char *groups, const char *block_ratio,
                          const char *counts, const char *dtype)
{
    cs_groups g;
    cs_err ignored;
    if (!groups || !groups[0] || cs_groups_parse(groups, block_ratio, &g, &ignored))
        return -1;
    c->gp = g.p;
    c->gq = g.q;
    c->ra = g.ra;
    c->rb = g.rb;
    c->elem_bytes = dtype && !strcmp(dtype, "int") ? 4 : dtype && !strcmp(dtype, "double") ? 8 : 1;
    c->arithmetic = counts && !strcmp(counts, "arithmetic");
    return 0;
}

static cs_groups groups_of(const cs_cost_params *c)
{
    return (cs_groups){c->gp, c->gq, c->ra > 0 ? c->ra : 1, c->rb > 0 ? c->rb : 1};
}

static int tsize(const cs_cost_params *c) { return c->elem_bytes > 0 ? c->elem_bytes : 1; }

/* Group g's (0 or 1) block of its local rank i, and its whole data. */
static double member(const cs_cost_params *c, int g, int i, long bytes)
{
    cs_groups gs = groups_of(c);
    return (double)cs_groups_member_bytes(&gs, g, i, bytes, tsize(c), c->arithmetic);
}

static double total(const cs_cost_params *c, int g, long bytes)
{
    cs_groups gs = groups_of(c);
    return (double)cs_groups_total_bytes(&gs, g, bytes, tsize(c), c->arithmetic);
}

static int ceil_log2(int n)
{
    int k = 0;
    while ((1L << k) < n)
        k++;
    return k;
}

static double msg(const cs_cost_params *c, double bytes) { return cs_level_msg(&c->net, bytes); }

/* Messages sent at once share the sender's link: one start-up, in the
 * regime of the largest, and every byte. */
static double msgs_at_once(const cs_cost_params *c, double largest, double bytes)
{
    const cs_level_cost *l = &c->net;
    const cs_hockney *h = l->rdv_bytes > 0 && largest >= (double)l->rdv_bytes ? &l->rdv : &l->eager;
    return bytes > 0 ? h->alpha + bytes * h->beta : 0;
}

/* MPICH's binomial gather of n blocks of k on rank 0: the root receives
 * subtrees of 1, 2, 4, ... blocks one after the other:
 * ceil(log2 n) alpha + (n-1) k beta. */
static double gather_binomial(const cs_cost_params *c, int n, double k)
{
    double t = 0;
    for (long d = 1; d < n && k > 0; d <<= 1)
        t += msg(c, (double)(d < n - d ? d : n - d) * k);
    return t;
}

/* MPICH's broadcast as ig_bcast_mpich runs it: binomial below 12,288 bytes
 * or 8 processes, ceil(log2 n)(alpha + m beta); else a binomial scatter of
 * pieces of ceil(m/n) (the root sends (n-1) pieces in ceil(log2 n) messages)
 * and a ring allgather of n-1 pieces: (ceil(log2 n) + n - 1) alpha +
 * 2 (n-1)/n m beta. */
static double bcast_mpich(const cs_cost_params *c, int n, double m)
{
    if (n <= 1 || m <= 0)
        return 0;
    if (m < 12288 || n < 8)
        return ceil_log2(n) * msg(c, m);
    double ss = ceil(m / n), t = 0;
    for (long mask = 1L << (ceil_log2(n) - 1); mask >= 1; mask >>= 1)
        t += msg(c, (double)((2 * mask < n ? 2 * mask : n) - mask) * ss);
    return t + (n - 1) * msg(c, ss);
}

/* ig_bcast_pipeline: binomial below 12,288 bytes, else a chain 0 -> n-1 of
 * S segments of clamp(m / 4n, 8 KiB, 1 MiB): the last member receives the
 * last segment after n - 2 + S segment times. */
static double bcast_pipeline(const cs_cost_params *c, int n, double m)
{
    if (n <= 1 || m <= 0)
        return 0;
    if (m < 12288)
        return ceil_log2(n) * msg(c, m);
    double seg = m / (4.0 * n);
    seg = seg < 8192 ? 8192 : seg > 1048576 ? 1048576 : seg;
    double S = ceil(m / seg);
    return (n - 2 + S) * msg(c, seg);
}

static double dmax(double a, double b) { return a > b ? a : b; }

/* Eq. (2), the MPICH structure: both gathers at once, then group 0's root
 * sends and group 1 broadcasts, only then group 1's root sends and group 0
 * broadcasts. */
double kang_eq2_root_gather(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    if (!c->gp)
        return NAN;
    int p = c->gp, q = c->gq;
    double ka = member(c, 0, 0, bytes), kb = member(c, 1, 0, bytes);
    return dmax(gather_binomial(c, p, ka), gather_binomial(c, q, kb)) + msg(c, p * ka) +
           bcast_mpich(c, q, p * ka) + msg(c, q * kb) + bcast_mpich(c, p, q * kb);
}

/* Gathers, one concurrent root exchange, both broadcasts at once (bcast). */
static double root_gather_at_once(long bytes, const cs_cost_params *c,
                                  double (*bcast)(const cs_cost_params *, int, double))
{
    if (!c->gp)
        return NAN;
    int p = c->gp, q = c->gq;
    double ka = member(c, 0, 0, bytes), kb = member(c, 1, 0, bytes);
    return dmax(gather_binomial(c, p, ka), gather_binomial(c, q, kb)) +
           msg(c, dmax(p * ka, q * kb)) + dmax(bcast(c, p, q * kb), bcast(c, q, p * ka));
}

/* Open MPI's structure, with MPICH's broadcast. */
double root_gather_concurrent(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    return root_gather_at_once(bytes, c, bcast_mpich);
}

/* Eq. (1), the "best version": the pipelined chain broadcast. */
double kang_eq1_root_gather(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    return root_gather_at_once(bytes, c, bcast_pipeline);
}

/* The larger group plays A (p, k_A), ties group 0: Algorithm 1's roles.
 * -1 when the case has no groups. */
static int roles(const cs_cost_params *c, long bytes, int *p, int *q, double *ka, double *kb)
{
    if (!c->gp)
        return -1;
    int swap = c->gq > c->gp;
    *p = swap ? c->gq : c->gp;
    *q = swap ? c->gp : c->gq;
    *ka = member(c, swap, 0, bytes);
    *kb = member(c, !swap, 0, bytes);
    return 0;
}

/* Eq. (3), Algorithm 1 as the code runs it: b_j's rounds with its n_j
 * subgroup members (one Sendrecv each: k_A in, a segment of about k_B / n_j
 * out), then the ring allgathervs at once, each n - 1 lock-step steps of its
 * largest piece: segments of ceil(k_B / floor(p/q)) in A, floor or ceil(p/q)
 * blocks in B. */
double kang_eq3_segmented(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    int p, q;
    double ka, kb;
    if (roles(c, bytes, &p, &q, &ka, &kb))
        return NAN;
    int hi = (p + q - 1) / q, lo = p / q;
    double exch = hi * dmax(msg(c, ka), msg(c, ceil(kb / hi)));
    if (lo != hi)
        exch = dmax(exch, lo * dmax(msg(c, ka), msg(c, ceil(kb / lo))));
    return exch + dmax((p - 1) * msg(c, ceil(kb / lo)), (q - 1) * msg(c, hi * ka));
}

/* The EuroMPI 2018 two-step algorithm as the code runs it (g = floor(p/q),
 * r = p mod q): b_x's rounds, each one block of k_A in and one of g
 * segments of about k_B / g out, and when r > 0 one more round that only
 * receives (ceil(p/q) rounds in all); then at once, in A the column ring
 * allgatherv (g - 1 steps of ceil(k_B / g)) followed by the stack ring
 * allgatherv (every one of B's q blocks travels round the largest stack,
 * q + floor(r/g) (+1) members: one step of k_B each), and in B Algorithm 1's
 * ring of the subgroups' blocks. Transfer with divisible p/q:
 * max(k_A, k_B/g) g + max((q - 1/g) k_B, (q - 1) g k_A): Algorithm 1's. */
double kang_two_step(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    int p, q;
    double ka, kb;
    if (roles(c, bytes, &p, &q, &ka, &kb))
        return NAN;
    int g = p / q, r = p % q, hi = (p + q - 1) / q, stack = q + r / g + (r % g ? 1 : 0);
    double seg = ceil(kb / g);
    double exch = g * dmax(msg(c, ka), msg(c, seg)) + (r ? msg(c, ka) : 0);
    double in_a = (g - 1) * msg(c, seg) + (stack - 1) * msg(c, kb);
    return exch + dmax(in_a, (q - 1) * msg(c, hi * ka));
}

/* The largest block of group g. */
static double largest(const cs_cost_params *c, int g, long bytes)
{
    int n = g ? c->gq : c->gp;
    return member(c, g, n - 1, bytes);
}

/* MPICH's allgatherv code: linear gatherv of group 1's blocks on group 0's
 * root (every sender at once: the root's link carries K_B), then of group
 * 0's on group 1's root, then both broadcasts of K at once. Group 1's root
 * posts its receives once its own block has reached group 0's root: with
 * the root's link shared fairly that is after sum_j min(k_j, k_0) bytes, so
 * a small first block (arithmetic counts) lets the second gatherv overlap
 * the first; with equal blocks it is after all K_B (the two in sequence).
 * Group 0's root sends its own block last, after receiving K_B. */
double root_gather_v_linear(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    if (!c->gp)
        return NAN;
    double KA = total(c, 0, bytes), KB = total(c, 1, bytes), k0 = member(c, 1, 0, bytes), shared = 0;
    for (int j = 0; j < c->gq && k0 > 0; j++)
        shared += fmin(member(c, 1, j, bytes), k0);
    double first = msgs_at_once(c, largest(c, 1, bytes), KB);
    double start2 = shared > 0 ? msgs_at_once(c, k0, shared) : 0;
    double gathers = dmax(dmax(first, start2 + msgs_at_once(c, largest(c, 0, bytes), KA)),
                          first + msg(c, member(c, 0, 0, bytes)));
    return gathers + dmax(bcast_mpich(c, c->gp, KB), bcast_mpich(c, c->gq, KA));
}

/* The ring-gather hypothesis: n - 1 synchronous steps per group, each paced
 * by the group's largest block, both groups at once; the roots' two
 * transfers in sequence; both broadcasts at once. */
double root_gather_v_ring(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    if (!c->gp)
        return NAN;
    double KA = total(c, 0, bytes), KB = total(c, 1, bytes);
    return dmax((c->gp - 1) * msg(c, largest(c, 0, bytes)), (c->gq - 1) * msg(c, largest(c, 1, bytes))) +
           msg(c, KB) + msg(c, KA) + dmax(bcast_mpich(c, c->gp, KB), bcast_mpich(c, c->gq, KA));
}

/* Eq. (4), Algorithm 2: the scan and broadcast of sizes (2 ceil(log2 n)
 * messages of 8 bytes), the exchange with every message posted at once (each
 * process's link carries the larger of its block and its interval of the
 * remote stream), then ring allgathervs of the intervals (n - 1 steps of
 * ceil(K / n)) in both groups at once. */
double kang_eq4_stream(int np, long bytes, const cs_cost_params *c)
{
    (void)np;
    if (!c->gp)
        return NAN;
    int p = c->gp, q = c->gq;
    double KA = total(c, 0, bytes), KB = total(c, 1, bytes);
    double ia = ceil(KB / p), ib = ceil(KA / q); /* the intervals A's and B's members receive */
    double big = dmax(dmax(largest(c, 0, bytes), largest(c, 1, bytes)), dmax(ia, ib));
    int lg = ceil_log2(p > q ? p : q);
    return 2 * lg * msg(c, 8) + msgs_at_once(c, big, big) +
           dmax((p - 1) * msg(c, ia), (q - 1) * msg(c, ib));
}

double cs_kang_eq5(const cs_cost_params *c, long bytes)
{
    if (!c->gp)
        return NAN;
    double KA = total(c, 0, bytes), KB = total(c, 1, bytes), M = dmax(KA, KB);
    return M > 0 ? (M + 3 * (KA + KB)) / M : NAN;
}

int cs_kang_finite_p(const cs_cost_params *c, long bytes, int v, double *lo, double *hi)
{
    if (!c->gp)
        return -1;
    double KA = total(c, 0, bytes), KB = total(c, 1, bytes), M = dmax(KA, KB);
    if (v) { /* K_A + K_B + 2M over [M + largest block, M] */
        double root = KA + KB + 2 * M, big = dmax(largest(c, 0, bytes), largest(c, 1, bytes));
        *lo = root / (M + big);
        *hi = root / M;
        return M > 0 ? 0 : -1;
    }
    int p, q;
    double ka, kb;
    if (roles(c, bytes, &p, &q, &ka, &kb))
        return -1;
    int chi = (p + q - 1) / q, clo = p / q;
    /* Eq. (2)'s transfer: max((p-1)k_A, (q-1)k_B) + 3 p k_A + 3 q k_B */
    double root = dmax((p - 1) * ka, (q - 1) * kb) + 3 * (p * ka + q * kb);
    double exch = dmax(chi * ka, kb);
    /* A's pieces: segments of k_B / n_j; B's: n_j blocks of k_A */
    double fluid = dmax(q * kb - kb / chi, p * ka - clo * ka);
    double lock = dmax((p - 1) * kb / clo, (q - 1) * chi * ka);
    *lo = root / (exch + lock);
    *hi = root / (exch + fluid);
    return exch + fluid > 0 ? 0 : -1;
}
