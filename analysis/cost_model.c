#include "cost_model.h"

#include "cost_model_intergroup.h"
#include "cost_model_reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int floor_log2(int p)
{
    int k = 0;
    while ((2L << k) <= p)
        k++;
    return k;
}

static int ceil_log2(int p)
{
    int k = floor_log2(p);
    return (1L << k) < p ? k + 1 : k;
}

static int coll_log2_ceil(long p) { return p <= 1 ? 0 : ceil_log2((int)p); }

cs_cost_params cs_cost_params_hockney(const cs_hockney *h)
{
    cs_cost_params c;
    memset(&c, 0, sizeof c);
    c.net.eager = c.net.rdv = *h;
    c.local = c.net;
    return c;
}

/* "0:BW;SIZE:BW;..." into from[], bw[]: the number of pieces, or -1 */
static int read_pieces(const char *text, long *from, double *bw)
{
    int n = 0;
    char *end;
    for (const char *q = text; q && *q && n < 8;) {
        from[n] = strtol(q, &end, 10);
        if (*end != ':' || (n ? from[n] <= from[n - 1] : from[0] != 0))
            return -1;
        bw[n] = strtod(end + 1, &end);
        if ((*end && *end != ';') || !(bw[n] > 0))
            return -1;
        n++;
        q = *end ? end + 1 : end;
    }
    return n;
}

int cs_cost_params_local_work(cs_cost_params *c, const char *copy_call, const char *copy_bw,
                              const char *reduce_bw)
{
    cs_cost_params t = *c;
    char *end;
    t.work_call = copy_call && *copy_call ? strtod(copy_call, &end) : 0;
    if (copy_call && *copy_call && (*end || t.work_call < 0))
        return -1;
    t.nwork = read_pieces(copy_bw, t.work_from, t.work_bw);
    t.nop = read_pieces(reduce_bw, t.op_from, t.op_bw);
    if (t.nwork <= 0 || t.nop < 0)
        return -1;
    *c = t;
    return 0;
}

static double piece(int n, const long *from, const double *bw, double call, double bytes)
{
    int k = 0;
    while (k + 1 < n && from[k + 1] <= bytes)
        k++;
    return call + bytes / bw[k];
}

double cs_local_work(const cs_cost_params *c, double bytes)
{
    if (!c->nwork || bytes <= 0)
        return 0;
    return piece(c->nwork, c->work_from, c->work_bw, c->work_call, bytes);
}

double cs_local_op(const cs_cost_params *c, double bytes)
{
    if (!c->nwork || bytes <= 0)
        return 0;
    return c->nop ? piece(c->nop, c->op_from, c->op_bw, c->work_call, bytes)
                  : cs_local_work(c, bytes);
}

double cs_level_msg(const cs_level_cost *l, double bytes)
{
    const cs_hockney *h = l->rdv_bytes > 0 && bytes >= (double)l->rdv_bytes ? &l->rdv : &l->eager;
    return h->alpha + bytes * h->beta;
}

/* Every collsim allgather returns before sending anything when p == 1 or a
 * block is empty (algorithms/coll_util.c), so both cost nothing. */
static int trivial(int p, long bytes) { return p <= 1 || bytes <= 0; }

/* The models below are written message by message (the busiest rank's
 * messages, one per step), so that each message pays the α and β of its own
 * regime, the loc-Bruck paper's Figure 7 rule; with one regime each sums to
 * the closed form quoted in its comment. */

/* (p-1)(alpha + (m/p) beta): p-1 steps of one block each. */
static double ring(int p, long bytes, const cs_cost_params *c)
{
    if (trivial(p, bytes))
        return 0;
    return (p - 1) * cs_level_msg(&c->net, bytes);
}

/* (p/2) alpha + (p-1)(m/p) beta for even p: one step of one block, p/2-1 of
 * two. Odd p runs the ring (allgather_neighbor_exchange.c), so it costs the ring. */
static double neighbor_exchange(int p, long bytes, const cs_cost_params *c)
{
    if (trivial(p, bytes))
        return 0;
    if (p % 2)
        return ring(p, bytes, c);
    return cs_level_msg(&c->net, bytes) + (p / 2 - 1) * cs_level_msg(&c->net, 2.0 * bytes);
}

/* Power-of-two p: log2(p) alpha + (p-1)(m/p) beta. Otherwise the code folds
 * the rem = p - pof2 extra ranks in (allgather_recursive_doubling.c): a
 * pre-step of one block, log2(pof2) steps in which the busiest pair (windows
 * starting at block 0) carries its `mask` blocks plus min(mask, rem) folded-in
 * ones, and a post-step of p-1 blocks. Each step costs its busiest pair, the
 * steps add up: (log2(pof2) + 2) alpha + (pof2 + p - 1 + sum min(mask, rem)) (m/p) beta. */
static double recursive_doubling(int p, long bytes, const cs_cost_params *c)
{
    if (trivial(p, bytes))
        return 0;
    int k = floor_log2(p), pof2 = 1 << k, rem = p - pof2;
    double t = 0;
    for (int mask = 1; mask < pof2; mask <<= 1)
        t += cs_level_msg(&c->net, (double)(mask + (mask < rem ? mask : rem)) * bytes);
    if (rem)
        t += cs_level_msg(&c->net, bytes) + cs_level_msg(&c->net, (double)(p - 1) * bytes);
    return t;
}

/* ceil(log2 p) alpha + (p-1)(m/p) beta: step d sends min(d, p-d) blocks; the
 * final local rotation is not communication (and not simulated). This is also
 * the loc-Bruck paper's Eq. (3), T = log2(p) α + (b - 1) β, whose b - 1 counts
 * the m - 1 values (here blocks) the busiest rank sends, all non-locally. */
static double bruck(int p, long bytes, const cs_cost_params *c)
{
    if (trivial(p, bytes))
        return 0;
    double t = 0;
    for (long d = 1; d < p; d <<= 1)
        t += cs_level_msg(&c->net, (double)(d < p - d ? d : p - d) * bytes);
    return t;
}

/* ceil(log2 p) alpha + (p-1)(m/p) beta. The code sends one message per block,
 * all of a step at once, so a step still pays alpha once. */
static double sparbit(int p, long bytes, const cs_cost_params *c)
{
    return bruck(p, bytes, c);
}

/* Loc-Bruck paper Eq. (4), p_ℓ = ppn processes per region, r = p / p_ℓ regions,
 * L = log_{p_ℓ}(r) non-local steps, b = p (m/p) bytes:
 *   T = L α + (b / p_ℓ) β + (L + 1) α_ℓ + (b - 1) β_ℓ
 * with b - 1 read as in Eq. (3): the p - 1 blocks each rank receives, all of
 * them through local allgathers. As the paper gives the terms (not the
 * messages), each term takes the regime of its average message: b / (p_ℓ L)
 * bytes non-locally, (b - m/p) / (L + 1) locally. For r not a power of p_ℓ,
 * L is rounded up (the generalised algorithm's extra step). The paper's text
 * counts log2(p_ℓ) local messages per local allgather where Eq. (4) charges
 * one α_ℓ: the equation is used as published. p_ℓ = 1 is plain Bruck, p_ℓ >= p
 * one local Bruck (L = 0). */
static double loc_bruck(int p, long bytes, const cs_cost_params *c)
{
    if (trivial(p, bytes))
        return 0;
    int pl = c->ppn;
    if (pl <= 0)
        return NAN;
    if (pl == 1)
        return bruck(p, bytes, c);
    if (pl > p)
        pl = p;
    long r = (p + pl - 1) / pl;
    int L = 0;
    for (long reach = 1; reach < r; reach *= pl)
        L++;
    double b = (double)p * bytes, local_bytes = b - bytes, t = 0;
    if (L > 0) {
        double nl_bytes = b / pl, per_msg = nl_bytes / L;
        const cs_hockney *h = c->net.rdv_bytes > 0 && per_msg >= (double)c->net.rdv_bytes
                                  ? &c->net.rdv : &c->net.eager;
        t += L * h->alpha + nl_bytes * h->beta;
    }
    double per_local = local_bytes / (L + 1);
    const cs_hockney *hl = c->local.rdv_bytes > 0 && per_local >= (double)c->local.rdv_bytes
                               ? &c->local.rdv : &c->local.eager;
    t += (L + 1) * hl->alpha + local_bytes * hl->beta;
    return t;
}

/* Fan et al. Eq. (1), padded Bruck: α log P + β log P ((P+1)/2) N: log P steps
 * of at most (P+1)/2 blocks of N bytes (the paper's bound on the blocks a step
 * moves). The uniform Bruck alltoalls move the same blocks (N = the block). */
static double padded_bruck(int P, long N, const cs_cost_params *c)
{
    if (P <= 1 || N <= 0)
        return 0;
    return ceil_log2(P) * cs_level_msg(&c->net, (P + 1) / 2.0 * N);
}

static double mean_block(long N, const cs_cost_params *c)
{
    return c->mean_block > 0 ? c->mean_block : N / 2.0;
}

/* Fan et al. Eq. (2), two-phase Bruck: per step a metadata message of
 * (P+1)/2 4-byte sizes, then the data: (P+1)/2 blocks of the mean size
 * (N/2 for the uniform distribution the paper assumes):
 *   2 α log P + 4 β log P (P+1)/2 + (N/2) β log P (P+1)/2 */
static double two_phase_bruck(int P, long N, const cs_cost_params *c)
{
    if (P <= 1 || N <= 0)
        return 0;
    double blocks = (P + 1) / 2.0;
    return ceil_log2(P) * (cs_level_msg(&c->net, 4 * blocks) +
                           cs_level_msg(&c->net, blocks * mean_block(N, c)));
}

/* The spread-out exchange: P - 1 messages per rank, each paying its start-up
 * (the linear model; the paper gives no equation): (P-1)(α + n̄ β), n̄ the mean
 * block (N/2 when uniform; N for the uniform alltoall). */
static double spread_out_v(int P, long N, const cs_cost_params *c)
{
    if (P <= 1 || N <= 0)
        return 0;
    return (P - 1) * cs_level_msg(&c->net, mean_block(N, c));
}

static double spread_out(int P, long N, const cs_cost_params *c)
{
    if (P <= 1 || N <= 0)
        return 0;
    return (P - 1) * cs_level_msg(&c->net, N);
}

/* ---- gather and scatter (Kandalla et al. 2010, Sections 4.1 and 4.2; K1-K5
 * with the typos fixed as docs/papers.md, "Kandalla: the cost model K1-K5",
 * reads them). The paper's formulas are qualitative (its N is per process in
 * one place and total in another), so the models replay the root's message schedule with the cost
 * of the level each message crosses: regions of p_ℓ consecutive ranks
 * (c->ppn, the region level's size: the paper's switch), the root rank 0,
 * `local` inside a region, `net` between regions. Scatter sends the same
 * messages as gather, reversed. ---- */

/* The region level's size, at most p; 0 when unknown. */
static int region_size(int p, const cs_cost_params *c)
{
    return c->ppn <= 0 ? 0 : c->ppn < p ? c->ppn : p;
}

/* The root (0 without a recorded placement: the models' assumption). */
static int root_of(int p, const cs_cost_params *c)
{
    return c->region_of && c->root > 0 && c->root < p ? c->root : 0;
}

/* Whether ranks a and b share a region: the recorded placement's, else
 * consecutive blocks of p_ℓ ranks; never when neither is known. */
static int same_region(int p, const cs_cost_params *c, long a, long b)
{
    const int pl = region_size(p, c);
    return c->region_of ? c->region_of[a] == c->region_of[b] : pl > 0 && a / pl == b / pl;
}

/* The root's binomial partner at distance mask (relative rank mask). */
static long partner(int p, const cs_cost_params *c, long mask)
{
    return (root_of(p, c) + mask) % p;
}

/* K2 as a replay: the root's step of distance `mask` receives min(mask,
 * p-mask) blocks from its partner, inside its region (C1, C2 steps: local)
 * or across regions (C3 steps: net). Unknown regions: every step
 * non-local, MPICH's ceil(log2 p) α + (p-1) N β. */
static double rooted_binomial(int p, long N, const cs_cost_params *c)
{
    if (p <= 1 || N <= 0)
        return 0;
    double t = 0;
    for (long mask = 1; mask < p; mask <<= 1)
        t += cs_level_msg(same_region(p, c, root_of(p, c), partner(p, c, mask)) ? &c->local : &c->net,
                          (double)(mask < p - mask ? mask : p - mask) * N);
    return t;
}

/* The regions of a recorded placement: their count, and each one's size
 * in *sizes (malloc'ed, R entries). */
static int region_sizes(int p, const cs_cost_params *c, int **sizes)
{
    int R = 0;
    for (int r = 0; r < p; r++)
        if (c->region_of[r] >= R)
            R = c->region_of[r] + 1;
    *sizes = calloc((size_t)(R > 0 ? R : 1), sizeof(int));
    for (int r = 0; r < p && *sizes; r++)
        (*sizes)[c->region_of[r]]++;
    return *sizes ? R : 0;
}

/* The root's p-1 messages of N bytes, all posted at once: their start-ups
 * overlap and their bytes pass the root's link one after the other: one α
 * (the slower level's) and every message's bytes, its region's at the local
 * β (docs/findings/README.md compares it with the simulation). */
static double rooted_linear(int p, long N, const cs_cost_params *c)
{
    if (p <= 1 || N <= 0)
        return 0;
    const int pl = region_size(p, c);
    int nlocal = pl > 0 ? pl - 1 : 0;
    if (c->region_of) /* the root's region-mates */
        for (int r = nlocal = 0; r < p; r++)
            nlocal += r != root_of(p, c) && same_region(p, c, r, root_of(p, c));
    const double a = nlocal < p - 1 ? cs_level_msg(&c->net, 0) : cs_level_msg(&c->local, 0);
    return a + (cs_level_msg(&c->local, (double)N * nlocal) - cs_level_msg(&c->local, 0)) +
           (cs_level_msg(&c->net, (double)N * (p - 1 - nlocal)) - cs_level_msg(&c->net, 0));
}

/* K4 as a replay, plus the binomial inside the largest region (Kandalla et
 * al. 2010 Sec. 4.2; docs/papers.md, "Kandalla: the topology-aware
 * algorithms"): R = ceil(p / p_ℓ) leaders; the root's leader step of distance
 * mask receives the regions [mask, min(2 mask, R)), their p_ℓ N bytes each
 * (the last region holds what is left). With one regime this is ceil(log2 R)
 * α + (p - p_ℓ) N β between regions, i.e. K4's α t_s log R + α (1 - 1/R) M t_w
 * with M = p N, α (the paper's contention factor) = 1. The root is assumed a
 * leader (the paper's assumption; topo_aware adds one local message of p N
 * bytes when it is not). Needs p_ℓ. */
static double rooted_topo_aware(int p, long N, const cs_cost_params *c)
{
    if (p <= 1 || N <= 0)
        return 0;
    if (c->region_of) { /* the recorded regions: leaders in region order from the root's */
        int *n, R = region_sizes(p, c, &n), big = 0;
        const int a = c->region_of[root_of(p, c)];
        for (int j = 0; j < R; j++)
            big = n[j] > big ? n[j] : big;
        double t = 0;
        for (long mask = 1; mask < big; mask <<= 1)
            t += cs_level_msg(&c->local, (double)(mask < big - mask ? mask : big - mask) * N);
        for (long mask = 1; mask < R; mask <<= 1) {
            long blocks = 0;
            for (long i = mask; i < 2 * mask && i < R; i++)
                blocks += n[(a + i) % R];
            t += cs_level_msg(&c->net, (double)blocks * N);
        }
        free(n);
        return t;
    }
    const int pl = region_size(p, c);
    if (pl <= 0)
        return NAN;
    double t = 0;
    for (long mask = 1; mask < pl; mask <<= 1)
        t += cs_level_msg(&c->local, (double)(mask < pl - mask ? mask : pl - mask) * N);
    const long R = (p + pl - 1) / pl;
    for (long mask = 1; mask < R; mask <<= 1) {
        long hi = 2 * mask < R ? 2 * mask : R;
        long blocks = (hi * pl < p ? hi * pl : p) - mask * pl;
        t += cs_level_msg(&c->net, (double)blocks * N);
    }
    return t;
}

cs_kandalla cs_kandalla_models(int p, long N, const cs_cost_params *c)
{
    cs_kandalla k;
    const int pl = region_size(p, c);
    memset(&k, 0, sizeof k);
    k.R = pl > 0 ? (p + pl - 1) / pl : 1;
    long outside = pl > 0 ? p - pl : p - 1; /* ranks outside the root's region */
    if (c->region_of && p > 0) {
        int *n;
        k.R = region_sizes(p, c, &n);
        outside = p - n[c->region_of[root_of(p, c)]];
        free(n);
    }
    /* the root's steps, and the bytes of its non-local ones over all it
     * receives: C3 δ */
    double nonlocal = 0;
    for (long mask = 1; mask < p; mask <<= 1)
        if (same_region(p, c, root_of(p, c), partner(p, c, mask)))
            k.c_local++;
        else {
            k.c3++;
            nonlocal += (double)(mask < p - mask ? mask : p - mask);
        }
    k.c3_delta = p > 1 ? nonlocal / p : 0;
    const cs_hockney *net = &c->net.eager;
    if (c->net.rdv_bytes > 0 && (double)N * p >= (double)c->net.rdv_bytes)
        net = &c->net.rdv;
    k.k2 = rooted_binomial(p, N, c);
    k.k3 = k.c3 * net->alpha + (double)N * p * k.c3_delta * net->beta;
    k.k4 = coll_log2_ceil(k.R) * net->alpha + (double)outside * N * net->beta;
    k.k5 = k.k4 > 0 ? k.k3 / k.k4 : NAN;
    return k;
}

double cs_fan_padded_crossover(int P, const cs_hockney *h)
{
    return 8 + 4 * h->alpha / ((P + 1) * h->beta);
}

/* One row per algorithm of algorithms.def: its cost column names one of the
 * functions above, or `none` (fn NULL: no model). */
static const cs_cost_model models[] = {
#define none NULL
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    {#coll, #name, #cost, cost, cost_formula, cost_note},
#include "algorithms.def"
#undef COLLSIM_ALG
#undef none
};

const cs_cost_model *cs_cost_models(size_t *n)
{
    *n = sizeof models / sizeof models[0];
    return models;
}

const char *cs_cost_model_alg(const char *collective, const char *model)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (models[i].fn && !strcmp(models[i].collective, collective) &&
            !strcmp(models[i].model, model))
            return models[i].algorithm;
    return NULL;
}

const cs_cost_model *cs_cost_model_find(const char *collective, const char *algorithm)
{
    size_t clen = strlen(collective);
    if (!strncmp(algorithm, collective, clen) && algorithm[clen] == '/')
        algorithm += clen + 1;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(models[i].collective, collective) && !strcmp(models[i].algorithm, algorithm))
            return models[i].fn ? &models[i] : NULL;
    return NULL;
}

double cs_cost_predict_params(const char *collective, const char *algorithm, int p, long bytes,
                              const cs_cost_params *c)
{
    const cs_cost_model *m = cs_cost_model_find(collective, algorithm);
    return m ? m->fn(p, bytes, c) : NAN;
}

double cs_cost_predict(const char *collective, const char *algorithm, int p, long bytes,
                       const cs_hockney *h)
{
    cs_cost_params c = cs_cost_params_hockney(h);
    return cs_cost_predict_params(collective, algorithm, p, bytes, &c);
}
