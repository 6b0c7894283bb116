#include "registry.h"

#include <stdio.h>
#include <string.h>

static const cs_alg_info registry[] = {
#define COLLSIM_ALG(coll, name, fn, paper, section, restriction)                                   \
    {#coll, #name, paper, section, restriction},
#include "algorithms.def"
#undef COLLSIM_ALG
};

const cs_alg_info *cs_registry(size_t *n)
{
    *n = sizeof registry / sizeof registry[0];
    return registry;
}

int cs_collective_valid(const char *coll, cs_err *err)
{
    if (!strcmp(coll, "allgather"))
        return 0;
    return cs_fail(err, "unknown collective '%s' (valid: allgather)", coll);
}

/* As listed by SMPI 3.32 itself for an unknown --cfg=smpi/allgather value. */
static const char *const native_allgather[] = {
    "default", "2dmesh", "3dmesh", "bruck", "GB", "loosely_lr", "NTSLR", "NTSLR_NB", "pair", "rdb",
    "rhv", "ring", "SMP_NTS", "smp_simple", "spreading_simple", "ompi_neighborexchange",
    "mvapich2_smp", NULL};
static const char *const selectors[] = {"ompi", "mpich", "mvapich2", "impi", NULL};

const char *const *cs_native_algorithms(const char *coll)
{
    return strcmp(coll, "allgather") ? NULL : native_allgather;
}

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
