/* Cost models of the broadcasts, allreduces, reduces and reduce-scatters
 * (Thakur, Rabenseifner, Gropp 2005, Section 4; Chan et al. 2007, Sections
 * 4-5; Patarasuk and Yuan 2009), m the vector in bytes (a reduce-scatter's
 * block, below), under the Hockney model with the reduction's
 * arithmetic: a combination of b bytes costs γ(b) = cs_local_op(c, b),
 * what the full model charges for it (one call plus b over the platform's
 * reduction rate at that size; 0 under the network-only model), and a copy
 * of b bytes κ(b) = cs_local_work(c, b) (the copy rate): the allreduces pay the
 * copy of the send buffer into the receive buffer (not in place). Each model follows the code's
 * schedule message by message along its busiest path, so that each message
 * pays its own regime; with one regime and a constant γ per byte each sums
 * to the closed form of algorithms.def. */
#include "cost_model_reduce.h"

#include <math.h>
#include <stdlib.h>

static int ceil_log2(long p)
{
    int k = 0;
    while ((1L << k) < p)
        k++;
    return k;
}

static long floor_pow2(long p)
{
    long q = 1;
    while (2 * q <= p)
        q *= 2;
    return q;
}

static double msg(const cs_cost_params *c, double bytes)
{
    return cs_level_msg(&c->net, bytes);
}

/* element-free segment arithmetic: segment j of p starts at min(j ceil(m/p), m) */
static double seg_at(long m, int p, long j)
{
    const double at = (double)j * (double)((m + p - 1) / p);
    return at < m ? at : (double)m;
}

/* ceil(log2 p)(α + m β): the root's sends, one per step, each a whole vector */
double bcast_binomial(int p, long m, const cs_cost_params *c)
{
    return p <= 1 || m <= 0 ? 0 : ceil_log2(p) * msg(c, (double)m);
}

/* the binomial scatter of p segments of ceil(m/p): the root's sends, the
 * subtree of relative rank mask getting [mask, min(2 mask, p)):
 * ceil(log2 p) α + ((p-1)/p) m β */
static double scatter(int p, long m, const cs_cost_params *c)
{
    double t = 0;
    for (long mask = 1; mask < p; mask <<= 1) {
        const double b = seg_at(m, p, mask < p - mask ? 2 * mask : p) - seg_at(m, p, mask);
        if (b > 0)
            t += msg(c, b);
    }
    return t;
}

/* scatter + (p-1)(α + (m/p) β): (ceil(log2 p) + p - 1) α + 2 ((p-1)/p) m β */
double bcast_scatter_ring(int p, long m, const cs_cost_params *c)
{
    if (p <= 1 || m <= 0)
        return 0;
    const double chunk = seg_at(m, p, 1);
    return scatter(p, m, c) + (p - 1) * msg(c, chunk);
}

/* scatter + the doubling steps (2^i segments each) + on p not a power of
 * two the rounds that pass the missing part on in the last rank's group:
 * 2 log2(p) α + 2 ((p-1)/p) m β on a power of two */
double bcast_scatter_rd(int p, long m, const cs_cost_params *c)
{
    if (p <= 1 || m <= 0)
        return 0;
    double t = scatter(p, m, c);
    for (long mk = 1; mk < p; mk <<= 1) {
        const double b = seg_at(m, p, 2 * mk) - seg_at(m, p, mk); /* a full group of mk */
        if (b > 0)
            t += msg(c, b);
        const long lo = (p - 1) & ~(2 * mk - 1), mid = lo + mk;
        if (mid < p && lo + 2 * mk > p) { /* the last group's upper half is partial */
            const double miss = seg_at(m, p, p) - seg_at(m, p, mid);
            for (long have = p - mk - lo; have < mk && miss > 0; have <<= 1)
                t += msg(c, miss);
        }
    }
    return t;
}

/* (p - 1)(α + s_1 β) + sum over the other segments of (α + s_k β): the first
 * segment crosses p - 1 links, each later one follows a segment behind;
 * with n_s equal segments (p - 2 + n_s)(α + s β) */
double bcast_chain(int p, long m, const cs_cost_params *c)
{
    if (p <= 1 || m <= 0)
        return 0;
    const long s = c->segment > 0 ? c->segment : 65536, ns = (m + s - 1) / s;
    const double first = m < s ? (double)m : (double)s;
    double t = (p - 1) * msg(c, first);
    for (long k = 1; k < ns; k++)
        t += msg(c, (double)(k + 1 < ns ? s : m - k * s));
    return t;
}

/* the fold of p not a power of two: a step of α + m β and γ(m) first, one
 * of α + m β last */
static double fold(int p, long m, const cs_cost_params *c)
{
    return p > floor_pow2(p) ? 2 * msg(c, (double)m) + cs_local_op(c, (double)m) : 0;
}

/* κ(m) (the copy in) + log2(p)(α + m β + γ(m)) + the fold */
double allreduce_rd(int p, long m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double in = cs_local_work(c, (double)m);
    if (p <= 1)
        return in;
    return in + ceil_log2(floor_pow2(p)) * (msg(c, (double)m) + cs_local_op(c, (double)m)) +
           fold(p, m, c);
}

/* κ(m) + 2 (p-1)(α + (m/p) β) + (p-1) γ(m/p): Patarasuk and Yuan's
 * bandwidth-optimal 2 ((p-1)/p) m β */
double allreduce_ring(int p, long m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double in = cs_local_work(c, (double)m), seg = (double)((m + p - 1) / p);
    if (p <= 1)
        return in;
    return in + 2 * (p - 1) * msg(c, seg) + (p - 1) * cs_local_op(c, seg);
}

/* halving: step k sends and combines m / 2^k; doubling: the same messages
 * back: 2 log2(p) α + 2 ((p-1)/p) m β + ((p-1)/p) γ m on a power of two */
static double halving_doubling(long q, long m, const cs_cost_params *c)
{
    double t = 0;
    for (long d = 2; d <= q; d <<= 1) {
        const double b = (double)m / d;
        t += 2 * msg(c, b) + cs_local_op(c, b);
    }
    return t;
}

/* κ(m) + the fold + halving and doubling over 2^floor(log2 p) */
double allreduce_rabenseifner(int p, long m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double in = cs_local_work(c, (double)m);
    if (p <= 1)
        return in;
    return in + fold(p, m, c) + halving_doubling(floor_pow2(p), m, c);
}

/* s ranks in the largest region (the recorded placement's, else p_ℓ), R
 * regions: κ(m) + ceil(log2 s)(α_ℓ + m β_ℓ + γ(m)) for the reduce, the same
 * without γ for the broadcast, and the leaders' allreduce (recursive
 * doubling below 2048 bytes, else halving and doubling; the fold on R not
 * a power of two) over the network. Needs p_ℓ. */
double allreduce_hierarchical(int p, long m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double in = cs_local_work(c, (double)m);
    if (p <= 1)
        return in;
    long s = 0, R = 0;
    if (c->region_of) {
        long *n = calloc((size_t)p, sizeof *n);
        if (!n)
            return NAN;
        for (int r = 0; r < p; r++) {
            const int j = c->region_of[r];
            if (j >= 0 && j < p) {
                R = j + 1 > R ? j + 1 : R;
                s = ++n[j] > s ? n[j] : s;
            }
        }
        free(n);
    } else {
        if (c->ppn <= 0)
            return NAN;
        s = c->ppn < p ? c->ppn : p;
        R = (p + s - 1) / s;
    }
    const int ls = ceil_log2(s);
    double t = in + ls * (2 * cs_level_msg(&c->local, (double)m) + cs_local_op(c, (double)m));
    if (R > 1) {
        const long q = floor_pow2(R);
        t += R > q ? 2 * msg(c, (double)m) + cs_local_op(c, (double)m) : 0;
        t += m < 2048 ? ceil_log2(q) * (msg(c, (double)m) + cs_local_op(c, (double)m))
                      : halving_doubling(q, m, c);
    }
    return t;
}

/* the root's path: ceil(log2 p)(α + m β + γ(m)), then κ(m) for the result's
 * copy into the receive buffer (it arrives in scratch). A non-commutative
 * operation with a root other than 0 adds α + m β (not modelled: the model
 * does not know the operation). */
double reduce_binomial(int p, long m, const cs_cost_params *c)
{
    if (m <= 0 || p <= 1)
        return m <= 0 ? 0 : cs_local_work(c, (double)m);
    return ceil_log2(p) * (msg(c, (double)m) + cs_local_op(c, (double)m)) +
           cs_local_work(c, (double)m);
}

/* κ(m) (the copy into the working vector) + the fold's first step (α + m β
 * + γ(m)) + halving (reduce-scatter) and doubling (the gather to the root)
 * over 2^floor(log2 p): 2 log2(p) α + 2 ((p-1)/p) m β + ((p-1)/p) m γ on a
 * power of two. A root that sat out of the fold adds α + m β (not
 * modelled: the model does not know the root). */
double reduce_rabenseifner(int p, long m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double in = cs_local_work(c, (double)m);
    if (p <= 1)
        return in;
    const double first = p > floor_pow2(p) ? msg(c, (double)m) + cs_local_op(c, (double)m) : 0;
    return in + first + halving_doubling(floor_pow2(p), m, c);
}

/* the binomial reduce to rank 0, then the binomial broadcast from it */
double allreduce_reduce_bcast(int p, long m, const cs_cost_params *c)
{
    return reduce_binomial(p, m, c) + bcast_binomial(p, m, c);
}

/* ---- reduce-scatter: m the block (recvcount's bytes), n = p m the vector;
 * the schedules of algorithms/reduce_scatter/ on equal blocks ---- */

/* κ(n) (the copy into the working vector) + the fold (α + n β + γ(n) first,
 * α + m β last) + halving: step k sends and combines n / 2^k, + κ(m) (the
 * block out): log2(p) α + ((p-1)/p) n β + ((p-1)/p) n γ on a power of two */
static double rs_halving_d(int p, double m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double n = p * m, out = cs_local_work(c, m);
    if (p <= 1)
        return out;
    const long q = floor_pow2(p);
    double t = cs_local_work(c, n) + out;
    if (p > q)
        t += msg(c, n) + cs_local_op(c, n) + msg(c, m);
    for (long d = 2; d <= q; d <<= 1)
        t += msg(c, n / d) + cs_local_op(c, n / d);
    return t;
}

/* κ(m) in + (p-1)(α + m β + γ(m)) + κ(m) out */
static double rs_pairwise_d(int p, double m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double g = cs_local_work(c, m);
    return p <= 1 ? g : 2 * g + (p - 1) * (msg(c, m) + cs_local_op(c, m));
}

/* κ(n) in + (p-1)(α + m β + γ(m)) + κ(m) out */
static double rs_ring_d(int p, double m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double g = cs_local_work(c, m);
    return p <= 1 ? g : cs_local_work(c, p * m) + (p - 1) * (msg(c, m) + cs_local_op(c, m)) + g;
}

/* the binomial reduce of n to rank 0 (its result's copy included), the
 * root's binomial scatter (the subtree of rank mask gets blocks [mask,
 * min(2 mask, p))), κ(m) out */
static double rs_reduce_scatterv_d(int p, double m, const cs_cost_params *c)
{
    if (m <= 0)
        return 0;
    const double g = cs_local_work(c, m);
    if (p <= 1)
        return g;
    const double n = p * m;
    double t = ceil_log2(p) * (msg(c, n) + cs_local_op(c, n)) + cs_local_work(c, n) + g;
    for (long mask = 1; mask < p; mask <<= 1)
        t += msg(c, ((mask < p - mask ? 2 * mask : p) - mask) * m);
    return t;
}

double rs_halving(int p, long m, const cs_cost_params *c) { return rs_halving_d(p, (double)m, c); }
double rs_pairwise(int p, long m, const cs_cost_params *c) { return rs_pairwise_d(p, (double)m, c); }
double rs_ring(int p, long m, const cs_cost_params *c) { return rs_ring_d(p, (double)m, c); }
double rs_reduce_scatterv(int p, long m, const cs_cost_params *c)
{
    return rs_reduce_scatterv_d(p, (double)m, c);
}

/* reduce_scatter: the same on equal blocks of the distribution's mean
 * (c->mean_block, or half the largest block m: the uniform distribution's) */
static double mean_of(long m, const cs_cost_params *c)
{
    return c->mean_block > 0 ? c->mean_block : m / 2.0;
}
double rsv_halving(int p, long m, const cs_cost_params *c) { return rs_halving_d(p, mean_of(m, c), c); }
double rsv_pairwise(int p, long m, const cs_cost_params *c) { return rs_pairwise_d(p, mean_of(m, c), c); }
double rsv_ring(int p, long m, const cs_cost_params *c) { return rs_ring_d(p, mean_of(m, c), c); }
double rsv_reduce_scatterv(int p, long m, const cs_cost_params *c)
{
    return rs_reduce_scatterv_d(p, mean_of(m, c), c);
}
