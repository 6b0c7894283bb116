#include "registry.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "case_fields.h"
#include "coll_blocks.h"

/* algorithms.def's words, as values: a word not listed here fails to compile */
#define REG_in_place 1
#define REG_no_in_place 0
#define REG_derived 1
#define REG_contiguous 0
#define REG_any_p CS_P_ANY
#define REG_pof2_only CS_P_POF2_ONLY
#define REG_pof2_fallback CS_P_POF2_FALLBACK
#define REG_even_fallback CS_P_EVEN_FALLBACK
#define REG_regions 1
#define REG_no_regions 0
#define REG_groups 1
#define REG_no_groups 0
#define REG_SETUP_regions 1
#define REG_SETUP_none 0
#define REG_SETUP_intergroup 0 /* setup_regions: the group descriptor is needs_groups */
#define REG_OPS_any_op 0
#define REG_OPS_commutative 1
#define REG_UNIT_bytes 1
#define REG_UNIT_elements 0

/* state_bytes (in p and n) and msg_blocks (in p): one function each per algorithm */
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    static double state_##coll##_##name(int p, long long n)                                        \
    {                                                                                              \
        (void)p;                                                                                   \
        (void)n;                                                                                   \
        return (state_bytes);                                                                      \
    }                                                                                              \
    static long long msg_blocks_##coll##_##name(int p)                                             \
    {                                                                                              \
        (void)p;                                                                                   \
        return (long long)(msg_blocks);                                                            \
    }
#include "algorithms.def"
#undef COLLSIM_ALG

static const cs_alg_info registry[] = {
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    {#coll,           #name,           paper,          section,           restriction,             \
     source,          REG_##in_place,  REG_##datatypes, REG_##procs,      REG_##regions,           \
     REG_##groups,    REG_SETUP_##setup, REG_OPS_##ops, #cost,   state_##coll##_##name,              \
     msg_blocks_##coll##_##name, REG_UNIT_##msg_unit},
#include "algorithms.def"
#undef COLLSIM_ALG
};

const cs_alg_info *cs_registry(size_t *n)
{
    *n = sizeof registry / sizeof registry[0];
    return registry;
}

/* the library decision logics of smpi/coll-selector (the built-in algorithms
 * of each collective: collectives.def) */
static const char *const selectors[] = {"ompi", "mpich", "mvapich2", "impi", NULL};

/* The collectives' names (collectives.def), NULL-terminated. */
static const char *const collective_names[] = {
#define CS_COLLECTIVE(name, ...) #name,
#include "collectives.def"
#undef CS_COLLECTIVE
    NULL};

const char *const *cs_collectives(void) { return collective_names; }

int cs_collective_valid(const char *coll, cs_err *err)
{
    if (cs_coll_find(coll))
        return 0;
    return cs_fail(err, "unknown collective '%s' (valid: %s)", coll, cs_coll_names(", "));
}

int cs_collective_buffer_blocks(const char *coll, int np, int in_place)
{
    const cs_coll_props *p = cs_coll_find(coll);
    return p ? cs_coll_send_blocks(p, np) + cs_coll_recv_blocks(p, np, in_place) : 1 + np;
}

int cs_collective_in_place(const char *coll)
{
    const cs_coll_props *p = cs_coll_find(coll);
    return p && p->in_place;
}

int cs_collective_variable(const char *coll)
{
    const cs_coll_props *p = cs_coll_find(coll);
    return p && p->variable;
}

const char *const *cs_native_algorithms(const char *coll)
{
    const cs_coll_props *p = cs_coll_find(coll);
    return p ? p->smpi : NULL;
}

const char *const *cs_native_selectors(void) { return selectors; }

const char *cs_native_option(const char *coll, char *out, size_t len)
{
    const cs_coll_props *p = cs_coll_find(coll);
    size_t n = 0;
    for (const char *m = p ? p->mpi : coll; *m && n + 1 < len; m++)
        out[n++] = (char)(*m >= 'A' && *m <= 'Z' ? *m - 'A' + 'a' : *m);
    out[n] = 0;
    if (n > 6 && !strcmp(out + n - 6, "_block"))
        out[n - 6] = 0;
    return out;
}

static int in_list(const char *const *list, const char *s)
{
    for (; list && *list; list++)
        if (!strcmp(*list, s))
            return 1;
    return 0;
}

static void join(char *buf, size_t len, const char *prefix, const char *const *list)
{
    for (; list && *list; list++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s%s", used ? ", " : "", prefix, *list);
    }
}

int cs_resolve_alg(const char *coll, const char *spec, cs_alg_sel *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    if (cs_collective_valid(coll, err))
        return -1;
    size_t clen = strlen(coll);
    if (!strncmp(spec, coll, clen) && spec[clen] == '/')
        spec += clen + 1;
    snprintf(out->collective, sizeof out->collective, "%s", coll);
    snprintf(out->name, sizeof out->name, "%s", spec);
    const cs_coll_props *cp = cs_coll_find(coll);
    if (cp->sig == CS_SIG_p2p) { /* no registry row: not an algorithm of algorithms/ */
        snprintf(out->driver_alg, sizeof out->driver_alg, "%s", coll);
        if (!strcmp(spec, CS_PINGPONG_ALG))
            return 0;
        return cs_fail(err, "unknown %s algorithm '%s' (valid: %s: ranks 0 and 1 bounce "
                            "each size with MPI_Send and MPI_Recv)",
                       coll, spec, CS_PINGPONG_ALG);
    }
    if (!strncmp(spec, "native:", 7) && cp->groups)
        return cs_fail(err, "%s has no native:... baseline: SMPI 3.32 has no intercommunicators "
                            "(collsim's own root_gather_* algorithms are the library baselines)",
                       coll);
    if (!strncmp(spec, "native:", 7)) {
        const char *n = spec + 7;
        snprintf(out->driver_alg, sizeof out->driver_alg, "native");
        if (in_list(selectors, n)) {
            snprintf(out->cfg, sizeof out->cfg, "smpi/coll-selector:%s", n);
            return 0;
        }
        if (in_list(cs_native_algorithms(coll), n)) {
            char opt[64];
            snprintf(out->cfg, sizeof out->cfg, "smpi/%s:%s",
                     cs_native_option(coll, opt, sizeof opt), n);
            return 0;
        }
    } else {
        for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
            if (!strcmp(registry[i].collective, coll) && !strcmp(registry[i].name, spec)) {
                snprintf(out->driver_alg, sizeof out->driver_alg, "%s", spec);
                return 0;
            }
    }
    char valid[2048] = "";
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i].collective, coll)) {
            size_t used = strlen(valid);
            snprintf(valid + used, sizeof valid - used, "%s%s", used ? ", " : "", registry[i].name);
        }
    if (!cp->groups) {
        join(valid, sizeof valid, "native:", selectors);
        join(valid, sizeof valid, "native:", cs_native_algorithms(coll));
    }
    return cs_fail(err, "unknown %s algorithm '%s' (valid: %s)", coll, spec, valid);
}

const cs_alg_info *cs_alg_find(const char *coll, const char *name)
{
    size_t clen = strlen(coll);
    if (!strncmp(name, coll, clen) && name[clen] == '/')
        name += clen + 1;
    size_t nlen = strcspn(name, "@");
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i].collective, coll) && strlen(registry[i].name) == nlen &&
            !strncmp(registry[i].name, name, nlen))
            return &registry[i];
    return NULL;
}

int cs_alg_sends_derived(const char *coll, const char *name)
{
    const cs_alg_info *a = cs_alg_find(coll, name);
    return a && a->derived;
}

double cs_alg_rank_state_bytes(const char *coll, const char *name, int p, long long n)
{
    const cs_alg_info *a = cs_alg_find(coll, name);
    return a ? a->rank_state_bytes(p, n) : 0;
}

int cs_alg_locality_aware(const char *coll, const char *name)
{
    const cs_alg_info *a = cs_alg_find(coll, name);
    return a && a->needs_regions;
}

int cs_alg_op_check(const char *coll, const char *name, const char *op, cs_err *err)
{
    const cs_alg_info *a = cs_alg_find(coll, name);
    if (!a || !a->commutative_only || !op || cs_op_commutative(op))
        return 0;
    return cs_fail(err, "%s/%s takes commutative operations only (MPI_ERR_OP otherwise), not "
                        "%s: use the operation sum, max or bxor, or another algorithm "
                        "(`./collsim list algorithms`)",
                   coll, a->name, op);
}

const char *cs_alg_cost_model(const char *coll, const char *name)
{
    const cs_alg_info *a = cs_alg_find(coll, name);
    return a && strcmp(a->cost, "none") ? a->cost : NULL;
}

const char *cs_alg_with_cost_model(const char *coll, const char *model)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i].collective, coll) && !strcmp(registry[i].cost, model))
            return registry[i].name;
    return NULL;
}

void cs_alg_largest_count(const char *coll, const char *name, int p, long bytes, int tsize,
                          cs_msg_count *out)
{
    const cs_alg_info *a = strncmp(name, "native:", 7) ? cs_alg_find(coll, name) : NULL;
    const int in_bytes = a && a->msg_in_bytes;
    out->blocks = a ? a->msg_blocks(p) : p;
    out->block = in_bytes || tsize <= 0 ? bytes : bytes / tsize;
    out->unit = in_bytes ? "bytes" : "elements";
    out->assumed = !a;
}

/* 1 MiB, 3 GiB, 1536 KiB, 1000 bytes: the size as given, exact */
static const char *fmt_size(long bytes, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, len, "%ld %s", bytes, bytes == 1 && u == 0 ? "byte" : units[u]);
    return buf;
}

int cs_alg_count_check(const char *coll, const char *name, int p, long bytes, const char *dtype,
                       cs_err *err)
{
    const int tsize = cs_dtype_size(dtype);
    if (tsize <= 0 || p < 1)
        return 0; /* the datatype and np are refused elsewhere */
    cs_msg_count m;
    cs_alg_largest_count(coll, name, p, bytes, tsize, &m);
    char size[48];
    fmt_size(bytes, size, sizeof size);
    const cs_coll_props *cp = cs_coll_find(coll);
    /* one block for every peer (per rank), or blocks of their own (of
     * varying sizes for the v- and intergroup collectives) */
    const char *per = cp && (cp->variable || cp->groups) ? " blocks at most"
                      : cp && cp->sig == CS_SIG_block && !cp->send_blocks_per_rank ? " per rank"
                                                                        : " blocks";
    if (m.blocks * m.block > INT_MAX)
        return cs_fail(err, "%s/%s at np %d with %s%s %s %lld x %lld %s in one message%s: more "
                            "than an MPI count (an int, at most %d) can express",
                       coll, name, p, size, per, m.assumed ? "may send" : "sends", m.blocks,
                       m.block, m.unit,
                       m.assumed ? " (assumed for SMPI's built-ins: p blocks, the whole buffer)"
                                 : "",
                       INT_MAX);
    /* SMPI 3.32 sends a message of 2^31 bytes or more as if it were small:
     * eager, the sender does not wait for it (measured with MPI_Send of
     * 2147483647 bytes: both ranks 1.07 s on Yahoo; of 2147483648: the
     * sender 0 s), which moves every later step of the sender
     * (recursive_doubling at np 3 with 1 GiB ints per rank: 1.61 s instead
     * of 2.33 s, labelled ok) */
    if (m.blocks * bytes > INT_MAX)
        return cs_fail(err, "%s/%s at np %d with %s%s spans up to %lld x %ld bytes in one MPI "
                            "call (the algorithm's bound, algorithms.def msg_blocks): SMPI 3.32 "
                            "sends a message of %lld bytes or more without making its sender wait "
                            "for it, so the predicted time could be wrong",
                       coll, name, p, size, per, m.blocks, bytes, INT_MAX + 1LL);
    /* the driver lays an alltoallv's p blocks out with gaps of up to 3
     * elements (sim/driver/vlayout.c, V_GAP_MAX) at int displacements */
    const long long gap = 3, end = (long long)p * (bytes / tsize + gap) + gap;
    if (cs_collective_variable(coll) && end > INT_MAX)
        return cs_fail(err, "%s/%s at np %d with %s%s: the driver's buffers put the %d blocks at "
                            "displacements up to %lld %s elements: more than an MPI displacement "
                            "(an int, at most %d) can express",
                       coll, name, p, size, per, p, end, dtype, INT_MAX);
    return 0;
}
