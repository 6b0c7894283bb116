/* The SMPI locality provider (locality.h). The declarations it reads, and the
 * rules it applies, are those of platforms/README.md, "Locality levels"; the
 * host side (sim/host/platform.c) applies the same rules to the XML and
 * rejects bad declarations before smpirun starts, and the tests check that
 * both give the same regions.
 *
 * SimGrid 3.32's C API is enough: sg_zone_get_sons (children), sg_zone_get_hosts
 * (the hosts directly in a zone, in name order) and zone properties (a FLAT
 * cluster's <prop>s are its zone's). Zones are visited depth first, children
 * in name order, so the colours do not depend on the order SimGrid keeps. */
#include "locality.h"

#include <mpi.h>
#include <simgrid/host.h>
#include <simgrid/zone.h>
#include <xbt/dict.h>
#include <xbt/dynar.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_locality.h"

/* Shared by every simulated rank (no privatization): built once. */
static int nlevels = -1, node_level, build_failed;
static char names[DRV_LOC_MAX_LEVELS][32];
static const char *name_ptrs[DRV_LOC_MAX_LEVELS];

typedef struct {
    sg_host_t host;
    long colour[DRV_LOC_MAX_LEVELS]; /* -1: no region declared */
} host_entry;
static host_entry *hosts;
static size_t nhosts, hosts_cap;
static long *rank_colour; /* [world size][nlevels] */

/* What the enclosing zones declare for one level: nothing, the zone is one
 * region (collsim.level), or groups of `every` hosts by host number
 * (collsim.group.LEVEL). */
typedef struct {
    int kind; /* 0 none, 1 zone, 2 groups */
    long decl;
    long every;
} level_decl;
static long ndecl;

static long host_number(const char *name)
{
    const char *e = name + strlen(name);
    while (e > name && !(e[-1] >= '0' && e[-1] <= '9'))
        e--;
    const char *b = e;
    while (b > name && b[-1] >= '0' && b[-1] <= '9')
        b--;
    return b < e ? strtol(b, NULL, 10) : -1;
}

static int cmp_zone_name(const void *a, const void *b)
{
    return strcmp(sg_zone_get_name(*(sg_netzone_t const *)a), sg_zone_get_name(*(sg_netzone_t const *)b));
}

static int cmp_host_ptr(const void *a, const void *b)
{
    const host_entry *x = a, *y = b;
    return x->host < y->host ? -1 : x->host > y->host;
}

static void walk(sg_netzone_t zone, const level_decl *outer)
{
    level_decl d[DRV_LOC_MAX_LEVELS];
    memcpy(d, outer, sizeof d);
    const char *lv = sg_zone_get_property_value(zone, "collsim.level");
    for (int l = 1; l < nlevels; l++) {
        char key[64];
        snprintf(key, sizeof key, "collsim.group.%s", names[l]);
        const char *g = sg_zone_get_property_value(zone, key);
        if (lv && !strcmp(lv, names[l]))
            d[l] = (level_decl){1, ndecl++, 0};
        else if (g && atol(g) > 0)
            d[l] = (level_decl){2, ndecl++, atol(g)};
    }
    xbt_dynar_t hs = xbt_dynar_new(sizeof(sg_host_t), NULL);
    sg_zone_get_hosts(zone, hs);
    unsigned i;
    sg_host_t h;
    xbt_dynar_foreach (hs, i, h) {
        if (nhosts == hosts_cap) {
            hosts_cap = hosts_cap ? 2 * hosts_cap : 256;
            hosts = realloc(hosts, hosts_cap * sizeof *hosts);
        }
        host_entry *e = &hosts[nhosts];
        e->host = h;
        e->colour[0] = (long)nhosts;
        long num = host_number(sg_host_get_name(h));
        for (int l = 1; l < nlevels; l++)
            e->colour[l] = d[l].kind == 1   ? d[l].decl << 32
                           : d[l].kind == 2 && num >= 0 ? (d[l].decl << 32) | (num / d[l].every)
                                                         : -1;
        nhosts++;
    }
    xbt_dynar_free(&hs);

    xbt_dict_t sons = xbt_dict_new_homogeneous(NULL);
    sg_zone_get_sons(zone, sons);
    size_t n = 0, cap = 16;
    sg_netzone_t *kids = malloc(cap * sizeof *kids);
    xbt_dict_cursor_t cursor = NULL;
    char *key;
    sg_netzone_t kid;
    xbt_dict_foreach (sons, cursor, key, kid) {
        if (n == cap)
            kids = realloc(kids, (cap *= 2) * sizeof *kids);
        kids[n++] = kid;
    }
    xbt_dict_free(&sons);
    qsort(kids, n, sizeof *kids, cmp_zone_name);
    for (size_t k = 0; k < n; k++)
        walk(kids[k], d);
    free(kids);
}

/* Reads collsim.levels of the root zone (default "node") and every host's
 * colours. */
static void build(void)
{
    sg_netzone_t root = sg_zone_get_root();
    const char *text = sg_zone_get_property_value(root, "collsim.levels");
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text ? text : "node");
    nlevels = 0;
    node_level = -1;
    char *save = NULL;
    for (char *t = strtok_r(buf, " ,\t\n", &save); t; t = strtok_r(NULL, " ,\t\n", &save)) {
        if (nlevels == DRV_LOC_MAX_LEVELS) {
            fprintf(stderr, "collsim-driver: collsim.levels '%s': at most %d levels\n", text,
                    DRV_LOC_MAX_LEVELS);
            build_failed = 1;
            return;
        }
        if (!strcmp(t, "node"))
            node_level = nlevels;
        snprintf(names[nlevels], sizeof names[0], "%s", t);
        name_ptrs[nlevels] = names[nlevels];
        nlevels++;
    }
    if (node_level < 0) {
        fprintf(stderr, "collsim-driver: collsim.levels '%s' has no level 'node'\n",
                text ? text : "");
        build_failed = 1;
        return;
    }
    level_decl none[DRV_LOC_MAX_LEVELS];
    memset(none, 0, sizeof none);
    walk(root, none);
    qsort(hosts, nhosts, sizeof *hosts, cmp_host_ptr);
}

static int provider(int level, long *colour)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (level < 0 || level >= nlevels)
        return MPI_ERR_ARG;
    *colour = rank_colour[(size_t)r * (size_t)nlevels + (size_t)level];
    return MPI_SUCCESS;
}

int drv_loc_init(void)
{
    if (nlevels < 0 && !build_failed)
        build();
    if (build_failed)
        return -1;
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (!rank_colour)
        rank_colour = malloc((size_t)wsize * (size_t)nlevels * sizeof(long));
    host_entry key = {sg_host_self(), {0}};
    const host_entry *me = bsearch(&key, hosts, nhosts, sizeof *hosts, cmp_host_ptr);
    if (!me) {
        fprintf(stderr, "collsim-driver: rank %d: host '%s' not found in the zone tree\n", wrank,
                sg_host_self_get_name());
        return -1;
    }
    for (int l = 0; l < nlevels; l++) {
        if (me->colour[l] < 0) {
            fprintf(stderr,
                    "collsim-driver: host '%s' has no '%s' region (platforms/README.md, "
                    "\"Locality levels\")\n",
                    sg_host_get_name(me->host), names[l]);
            return -1;
        }
        rank_colour[(size_t)wrank * (size_t)nlevels + (size_t)l] = me->colour[l];
    }
    return coll_loc_set_provider(nlevels, name_ptrs, provider) == MPI_SUCCESS ? 0 : -1;
}

int drv_loc_nlevels(void) { return nlevels; }

const char *drv_loc_level_name(int level)
{
    return level >= 0 && level < nlevels ? names[level] : NULL;
}

int drv_loc_node_level(void) { return node_level; }

long drv_loc_colour(int level, int wrank)
{
    return rank_colour[(size_t)wrank * (size_t)nlevels + (size_t)level];
}
