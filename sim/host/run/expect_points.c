#include "expect_points.h"

#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "region_rows.h"

/* The points of one expectation: the scenario's values, narrowed by the
 * expectation's filters (an empty filter keeps every value). Every ranks-per-
 * node value, hosts value, region level and background of the scenario (none
 * given: the one default, 0, every node, "" and quiet) is a point of its own; an algorithm that takes no region is read
 * at region "" (the one case `run` makes of it), and when neither takes one
 * the levels are a single point. */
static void expand(const cs_scenario *s, const cs_expect *x, char **pnames, cs_expect_points *out)
{
    const cs_numlist *nps = x->nps.n ? &x->nps : &s->nps;
    const cs_numlist *sizes = x->bytes.n ? &x->bytes : &s->sizes;
    int a_no = !cs_alg_locality_aware(x->collective, x->faster);
    int b_no = !cs_alg_locality_aware(x->collective, x->than);
    int levels = s->nregions && !(a_no && b_no);
    size_t nppn = s->ppns.n ? s->ppns.n : 1, nreg = levels ? (size_t)s->nregions : 1;
    size_t nbg = s->nbackgrounds ? (size_t)s->nbackgrounds : 1; /* every <background> value */
    size_t nhs = s->nhost_specs ? (size_t)s->nhost_specs : 1;   /* every <hosts> value */
    size_t nmd = s->nmodels ? (size_t)s->nmodels : 1;           /* every <models> value */
    const cs_coll_props *cp = cs_coll_find(x->collective);
    int groups = cp && cp->groups && s->ngsets;
    size_t ngs = groups ? (size_t)s->ngsets : 1;
    size_t cap = (size_t)s->nplatforms * (size_t)s->nmappings * nmd * nppn * nhs * nreg * nbg *
                 nps->n * sizes->n * ngs;
    *out = (cs_expect_points){.line = x->line, .faster = x->faster, .than = x->than,
                              .by_pct = x->by_pct, .scope = x->scope, .metric = x->metric,
                              .by_factor = x->by_factor, .time_us = x->time_us,
                              .within_pct = x->within_pct,
                              .points = cs_xmalloc((cap ? cap : 1) * sizeof(cs_result)),
                              .faster_no_region = a_no, .than_no_region = b_no};
    /* the scenario's case fields as its rows record them (root, dtype, mode,
     * dist, seed, ...: cs_case_row's table), then the swept ones by hand */
    cs_result probe;
    cs_result_init(&probe);
    cs_fields_row(cs_scenario_fields, s, x->collective, NULL, &probe);
    snprintf(probe.collective, sizeof probe.collective, "%s", x->collective);
    for (size_t k = 0; k < ngs; k++) {
        cs_scenario sg = *s;
        if (groups) { /* each <groups> the expectation covers, as its rows record it */
            if (!cs_expect_covers(x, &s->gsets[k]))
                continue;
            cs_scenario_groups(s, (int)k, &sg);
            cs_result g;
            cs_result_init(&g);
            cs_fields_row(cs_scenario_fields, &sg, x->collective, NULL, &g);
            memcpy(probe.groups, g.groups, sizeof probe.groups);
            memcpy(probe.layout, g.layout, sizeof probe.layout);
            memcpy(probe.block_ratio, g.block_ratio, sizeof probe.block_ratio);
            memcpy(probe.counts, g.counts, sizeof probe.counts);
        }
        for (int p = 0; p < s->nplatforms; p++) {
            if (x->platform[0] && strcmp(x->platform, pnames[p]))
                continue;
            snprintf(probe.platform, sizeof probe.platform, "%s", pnames[p]);
            for (int m = 0; m < s->nmappings; m++) {
                if (x->mapping >= 0 && (int)s->mappings[m] != x->mapping)
                    continue;
                snprintf(probe.mapping, sizeof probe.mapping, "%s", cs_mapping_name(s->mappings[m]));
                for (size_t md = 0; md < nmd; md++)
                for (size_t h = 0; h < nhs; h++)
                for (size_t w = 0; w < nppn * nreg * nbg; w++)
                    for (size_t q = 0; q < nps->n; q++)
                        for (size_t z = 0; z < sizes->n; z++) {
                            const char *md_name = s->nmodels ? s->models[md] : "full";
                            if (x->model && strcmp(x->model, md_name))
                                continue;
                            snprintf(probe.model, sizeof probe.model, "%s", md_name);
                            const char *hs = s->nhost_specs ? s->host_specs[h] : "";
                            if (x->hosts && strcmp(x->hosts, hs))
                                continue;
                            snprintf(probe.hosts, sizeof probe.hosts, "%s", hs);
                            probe.ppn = s->ppns.n ? (int)s->ppns.v[w / nreg % nppn] : 0;
                            snprintf(probe.background, sizeof probe.background, "%s",
                                     s->nbackgrounds ? s->backgrounds[w / (nreg * nppn)] : "");
                            if (x->background && strcmp(x->background, probe.background))
                                continue;
                            snprintf(probe.region, sizeof probe.region, "%s",
                                     levels ? s->regions[w % nreg] : "");
                            probe.np = (int)nps->v[q];
                            /* <groups ratio>: the groups of this np (checked at load) */
                            const char *scaled;
                            cs_err ignored;
                            if (groups && sg.group_ratio && sg.group_ratio[0] &&
                                !cs_groups_scale(sg.group_ratio, probe.np, &scaled, &ignored))
                                snprintf(probe.groups, sizeof probe.groups, "%s", scaled);
                            /* <sizes unit="node">: rows hold the block per process */
                            probe.bytes = sizes->v[z];
                            if (groups && cs_size_unit_node(s->size_unit) && probe.ppn > 0)
                                probe.bytes /= probe.ppn;
                            out->points[out->npoints++] = probe;
                        }
            }
        }
    }
}

int cs_scenario_expect_check(FILE *f, const cs_scenario *s, const cs_result *rows, size_t n,
                             int partial)
{
    if (!s->nexpects)
        return 0;
    /* a file written before <region> stopped sweeping the algorithms that
     * take no region: read as `run --resume` would make it (region_rows.h) */
    size_t first = 0;
    while (first < n && !cs_row_region_stale(&rows[first]))
        first++;
    if (first < n) {
        cs_result *copy = cs_xmalloc(n * sizeof *copy);
        memcpy(copy, rows, n * sizeof *copy);
        char names[512];
        cs_rows_stale_algorithms(copy, n, names, sizeof names);
        size_t dropped, m = n;
        size_t stale = cs_rows_clear_stale_regions(copy, &m, &dropped);
        fprintf(f, "# %zu row%s of algorithms that take no region (%s) carry a region level "
                   "(written before <region> stopped sweeping them): read once each at "
                   "region \"\"\n",
                stale, stale > 1 ? "s" : "", names);
        int failed = cs_scenario_expect_check(f, s, copy, m, partial);
        free(copy);
        return failed;
    }
    char **pnames = cs_xmalloc((size_t)s->nplatforms * sizeof *pnames);
    for (int i = 0; i < s->nplatforms; i++)
        pnames[i] = cs_platform_name_of(s->platforms[i]);
    cs_expect_points *x = cs_xmalloc((size_t)s->nexpects * sizeof *x);
    for (int i = 0; i < s->nexpects; i++)
        expand(s, &s->expects[i], pnames, &x[i]);
    int failed = cs_expect_check(f, s->path, x, (size_t)s->nexpects, rows, n, partial);
    for (int i = 0; i < s->nexpects; i++)
        free(x[i].points);
    free(x);
    for (int i = 0; i < s->nplatforms; i++)
        free(pnames[i]);
    free(pnames);
    return failed;
}
