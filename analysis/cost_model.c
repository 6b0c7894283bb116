#include "cost_model.h"

#include <math.h>
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

/* Every collsim allgather returns before sending anything when p == 1 or a
 * block is empty (algorithms/coll_util.c), so both cost nothing. */
static int trivial(int p, long bytes) { return p <= 1 || bytes <= 0; }

/* (p-1)(alpha + (m/p) beta): p-1 steps of one block each. */
static double ring(int p, long bytes, const cs_hockney *h)
{
    if (trivial(p, bytes))
        return 0;
    return (p - 1) * (h->alpha + bytes * h->beta);
}

/* (p/2) alpha + (p-1)(m/p) beta for even p. Odd p runs the ring
 * (allgather_neighbor_exchange.c), so it costs the ring. */
static double neighbor_exchange(int p, long bytes, const cs_hockney *h)
{
    if (trivial(p, bytes))
        return 0;
    if (p % 2)
        return ring(p, bytes, h);
    return p / 2 * h->alpha + (p - 1) * bytes * h->beta;
}

/* Power-of-two p: log2(p) alpha + (p-1)(m/p) beta. Otherwise the code folds
 * the rem = p - pof2 extra ranks in (allgather_recursive_doubling.c): a
 * pre-step of one block, log2(pof2) steps in which the busiest pair (windows
 * starting at block 0) carries its `mask` blocks plus min(mask, rem) folded-in
 * ones, and a post-step of p-1 blocks. Each step costs its busiest pair, the
 * steps add up: (log2(pof2) + 2) alpha + (pof2 + p - 1 + sum min(mask, rem)) (m/p) beta. */
static double recursive_doubling(int p, long bytes, const cs_hockney *h)
{
    if (trivial(p, bytes))
        return 0;
    int k = floor_log2(p), pof2 = 1 << k, rem = p - pof2;
    if (rem == 0)
        return k * h->alpha + (p - 1) * bytes * h->beta;
    long blocks = pof2 + p - 1;
    for (int mask = 1; mask < pof2; mask <<= 1)
        blocks += mask < rem ? mask : rem;
    return (k + 2) * h->alpha + blocks * bytes * h->beta;
}

/* ceil(log2 p) alpha + (p-1)(m/p) beta: step d sends min(d, p-d) blocks; the
 * final local rotation is not communication (and not simulated). */
static double bruck(int p, long bytes, const cs_hockney *h)
{
    if (trivial(p, bytes))
        return 0;
    return ceil_log2(p) * h->alpha + (p - 1) * bytes * h->beta;
}

/* ceil(log2 p) alpha + (p-1)(m/p) beta. The code sends one message per block,
 * all of a step at once, so a step still pays alpha once. */
static double sparbit(int p, long bytes, const cs_hockney *h)
{
    return bruck(p, bytes, h);
}

static const cs_cost_model models[] = {
    {"allgather", "ring", ring, "(p-1)(α + (m/p) β)", "Sparbit paper II-A"},
    {"allgather", "neighbor_exchange", neighbor_exchange, "(p/2) α + (p-1)(m/p) β; odd p: ring",
     "Sparbit paper II-A; odd p as the code's ring fallback"},
    {"allgather", "recursive_doubling", recursive_doubling,
     "log2(p) α + (p-1)(m/p) β; other p: (log2(q)+2) α + (q + p-1 + sum_k min(2^k, p-q))(m/p) β, "
     "q = 2^floor(log2 p)",
     "Sparbit paper II-A for powers of two; otherwise the code's pre- and post-step"},
    {"allgather", "bruck", bruck, "ceil(log2 p) α + (p-1)(m/p) β", "Sparbit paper II-A"},
    {"allgather", "sparbit", sparbit, "ceil(log2 p) α + (p-1)(m/p) β", "Sparbit paper III-B"},
    /* same schedule, same latency and volume terms: one message per step */
    {"allgather", "sparbit_indexed", sparbit, "ceil(log2 p) α + (p-1)(m/p) β", "Sparbit paper III-B"},
};

const cs_cost_model *cs_cost_models(size_t *n)
{
    *n = sizeof models / sizeof models[0];
    return models;
}

const cs_cost_model *cs_cost_model_find(const char *collective, const char *algorithm)
{
    size_t clen = strlen(collective);
    if (!strncmp(algorithm, collective, clen) && algorithm[clen] == '/')
        algorithm += clen + 1;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(models[i].collective, collective) && !strcmp(models[i].algorithm, algorithm))
            return &models[i];
    return NULL;
}

double cs_cost_predict(const char *collective, const char *algorithm, int p, long bytes,
                       const cs_hockney *h)
{
    const cs_cost_model *m = cs_cost_model_find(collective, algorithm);
    return m ? m->fn(p, bytes, h) : NAN;
}
