#include "registry.h"

#include <stdio.h>
#include <string.h>

#include "case_fields.h"

static const cs_alg_info registry[] = {
#define COLLSIM_ALG(coll, name, fn, paper, section, restriction, setup)                            \
    {#coll, #name, paper, section, restriction},
#include "algorithms.def"
#undef COLLSIM_ALG
};

const cs_alg_info *cs_registry(size_t *n)
{
    *n = sizeof registry / sizeof registry[0];
    return registry;
}

/* As listed by SMPI 3.32 itself for an unknown --cfg=smpi/<collective> value
 * (its decision-logic names, which that list repeats, are the selectors). */
static const char *const native_allgather[] = {
    "default", "2dmesh", "3dmesh", "bruck", "GB", "loosely_lr", "NTSLR", "NTSLR_NB", "pair", "rdb",
    "rhv", "ring", "SMP_NTS", "smp_simple", "spreading_simple", "ompi_neighborexchange",
    "mvapich2_smp", NULL};
static const char *const native_alltoall[] = {
    "default", "2dmesh", "3dmesh", "basic_linear", "bruck", "pair", "pair_rma",
    "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier", "rdb", "ring",
    "ring_light_barrier", "ring_mpi_barrier", "ring_one_barrier", "mvapich2_scatter_dest", NULL};
/* SMPI 3.32's own list for smpi/alltoallv (less the selectors and "automatic") */
static const char *const native_alltoallv[] = {
    "default", "bruck", "ompi_basic_linear", "pair", "pair_light_barrier", "pair_mpi_barrier",
    "pair_one_barrier", "ring", "ring_light_barrier", "ring_mpi_barrier", "ring_one_barrier", NULL};
static const char *const selectors[] = {"ompi", "mpich", "mvapich2", "impi", NULL};

/* The collectives (collectives.def), each with its SMPI built-ins. */
static const char *const *natives_of(const char *coll)
{
#define CS_COLLECTIVE(name, blocks, in_place, variable)                                            \
    if (!strcmp(coll, #name))                                                                      \
        return native_##name;
#include "collectives.def"
#undef CS_COLLECTIVE
    return NULL;
}

static const char *const collective_names[] = {
#define CS_COLLECTIVE(name, blocks, in_place, variable) #name,
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

int cs_collective_send_blocks(const char *coll, int np)
{
    const cs_coll_props *p = cs_coll_find(coll);
    return p && p->send_blocks_per_rank ? np : 1;
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

const char *const *cs_native_algorithms(const char *coll) { return natives_of(coll); }

const char *const *cs_native_selectors(void) { return selectors; }

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
    if (!strncmp(spec, "native:", 7)) {
        const char *n = spec + 7;
        snprintf(out->driver_alg, sizeof out->driver_alg, "native");
        if (in_list(selectors, n)) {
            snprintf(out->cfg, sizeof out->cfg, "smpi/coll-selector:%s", n);
            return 0;
        }
        if (in_list(cs_native_algorithms(coll), n)) {
            snprintf(out->cfg, sizeof out->cfg, "smpi/%s:%s", coll, n);
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
    join(valid, sizeof valid, "native:", selectors);
    join(valid, sizeof valid, "native:", cs_native_algorithms(coll));
    return cs_fail(err, "unknown %s algorithm '%s' (valid: %s)", coll, spec, valid);
}

int cs_alg_sends_derived(const char *coll, const char *name)
{
    /* from the code: one indexed/hindexed message per step (recursive_doubling
     * packs its two runs itself for the driver's dense datatypes) */
    static const char *const derived[] = {"allgather/sparbit_indexed",
                                          "alltoall/bruck_zero_copy"};
    char full[160];
    snprintf(full, sizeof full, "%s/%s", coll, name);
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
        if (!strcmp(full, derived[i]))
            return 1;
    return 0;
}

double cs_alg_rank_state_bytes(const char *coll, const char *name, int p)
{
    /* from the code: arrays of p entries an algorithm allocates per rank with
     * plain malloc (never folded) */
    char full[160];
    snprintf(full, sizeof full, "%s/%s", coll, name);
    if (!strcmp(full, "alltoallv/two_phase_bruck"))
        return 4.0 * (p + 2 * (p / 2)); /* metadata: sizes of the blocks in flight */
    if (!strcmp(full, "alltoallv/spread_out") || !strcmp(full, "alltoall/spread_out"))
        return 16.0 * p; /* 2 (p - 1) request handles */
    return 0;
}
