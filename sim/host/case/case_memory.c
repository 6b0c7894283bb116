/* A case's host memory: the estimate from its buffers and per-rank overheads, and what the
 * machine has (bench_case.h). */
#include "bench_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distributions.h"

/* Per simulated rank, beyond its buffers: SimGrid's actor, SMPI's per-rank
 * bookkeeping, a step's requests and the pages of its stack it touches inside
 * a collective (the stack's configured size is reserved, not used:
 * smpirun.c; an MPI_Barrier alone touches less, 25.6 kB). With BASE_BYTES,
 * the simulator's libraries and tables: fitted to the measured PSS of one
 * folded padded_bruck call at 32,768 ranks on theta, the term checked
 * against the other collectives (docs/simulation-cost.md, "Memory in
 * general"). */
#define RANK_BYTES 39e3
#define BASE_BYTES 18e6

long cs_case_max_block(const cs_case *c, long bytes)
{
    const cs_coll_props *cp = cs_coll_find(c->alg.collective);
    const cs_groups g = c->parts.groups;
    if (!cp || !cp->groups || g.ra < 1)
        return bytes;
    /* group B's block, rounded up: the check of the case refuses fractions */
    long b = (long)(((long long)bytes * g.rb + g.ra - 1) / g.ra);
    return b > bytes ? b : bytes;
}

long cs_case_largest_block(const cs_case *c)
{
    long maxsize = 0;
    for (size_t i = 0; i < c->sizes->n; i++)
        if (cs_case_max_block(c, c->sizes->v[i]) > maxsize)
            maxsize = cs_case_max_block(c, c->sizes->v[i]);
    return maxsize;
}

double cs_case_memory_bytes(const cs_case *c)
{
    return cs_case_memory_at(c, cs_case_largest_block(c));
}

double cs_case_memory_at(const cs_case *c, long maxsize)
{
    cs_mem_parts m;
    return cs_case_memory_parts(c, maxsize, &m);
}

/* Whether the case's alltoallv counts are per rank: an iid matrix (a named
 * layout's are windows of arrays every rank shares in fold mode). */
static int own_counts(const cs_case *c)
{
    cs_dist d;
    char ignored[256];
    return !c->fold || cs_dist_parse(c->dist && c->dist[0] ? c->dist : "uniform", &d, ignored,
                                     sizeof ignored) || d.matrix == CS_MATRIX_IID;
}

double cs_case_memory_parts(const cs_case *c, long maxsize, cs_mem_parts *m)
{
    const int nbg = c->parts.bg.procs;
    memset(m, 0, sizeof *m);
    /* a background rank: an actor like the others (its buffer is folded) */
    m->ranks = BASE_BYTES + (c->np + nbg) * RANK_BYTES;
    /* folded buffers exist once; real ones once per rank (send and receive blocks) */
    const double buffers = (double)maxsize * cs_collective_buffer_blocks(c->alg.collective, c->np, c->in_place);
    m->buffers = c->fold ? buffers : buffers * c->np;
    /* alltoallv: every rank's p counts each way, 8 p bytes (with real buffers
     * also p displacements each way and a pristine copy of the four: 32 p
     * bytes): 8.6 GB at 32K ranks in fold mode with iid counts; a named
     * layout's shared arrays are negligible */
    if (cs_collective_variable(c->alg.collective) && own_counts(c))
        m->counts = (double)c->np * c->np * (c->fold ? 8.0 : 32.0);
    /* the algorithm's own per-rank state, SMPI's copies of its eager messages
     * included (algorithms.def) */
    m->state = c->np * cs_alg_rank_state_bytes(c->alg.collective, c->alg.driver_alg, c->np, maxsize);
    /* SMPI's pack buffers for derived datatypes, all ranks' messages of a
     * step in flight: up to p/2 blocks each (registry.h) */
    if (cs_alg_sends_derived(c->alg.collective, c->alg.driver_alg))
        m->packs = (double)c->np * (c->np / 2.0) * maxsize;
    return m->ranks + m->buffers + m->counts + m->state + m->packs;
}

void cs_mem_parts_fmt(const cs_mem_parts *m, char *out, size_t len)
{
    const struct {
        const char *name;
        double bytes;
    } part[] = {{"ranks", m->ranks},       {"buffers", m->buffers},       {"counts", m->counts},
                {"algorithm state", m->state}, {"datatype packing", m->packs}};
    const double total = m->ranks + m->buffers + m->counts + m->state + m->packs;
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof part / sizeof part[0] && used < len; i++) {
        char b[32];
        if (part[i].bytes < 0.01 * total) /* what matters only */
            continue;
        used += (size_t)snprintf(out + used, len - used, "%s%s %s", used ? ", " : "", part[i].name,
                                 cs_fmt_bytes(part[i].bytes, b, sizeof b));
    }
}

void cs_mem_refusal(const cs_case *c, long maxsize, double limit, const char *limit_why, char *out,
                    size_t len)
{
    cs_mem_parts m;
    char need[32], lim[32], parts[256];
    const double total = cs_case_memory_parts(c, maxsize, &m);
    cs_mem_parts_fmt(&m, parts, sizeof parts);
    const char *todo = !c->fold ? "use --fold (folded buffers, no data check) at this scale"
                       : m.counts > 0.25 * total
                           ? "most of it is the ranks' own alltoallv counts: a named count layout "
                             "shares them (--dist hankel:D, docs/simulation-cost.md), or use "
                             "fewer ranks"
                           : "use fewer ranks or smaller sizes";
    snprintf(out, len, "%d ranks at %ld bytes need about %s (%s), more than the limit of %s (%s): %s",
             c->np, maxsize, cs_fmt_bytes(total, need, sizeof need), parts,
             cs_fmt_bytes(limit, lim, sizeof lim), limit_why, todo);
}

double cs_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}
