#include "best.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_times_tie(double a, double b)
{
    return fabs(a - b) <= CS_TIE_REL * fmin(fabs(a), fabs(b));
}

static int same_case(const cs_result *a, const cs_result *b)
{
    return cs_result_cmp_point(a, b) == 0;
}

static int cmp_case(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    int c = cs_result_cmp_point(a, b);
    if (c)
        return c;
    if (a->avg_us != b->avg_us)
        return a->avg_us < b->avg_us ? -1 : 1;
    return strcmp(a->algorithm, b->algorithm); /* ties: a stable, named order */
}

static int cmp_alg_name(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    int c = strcmp(a->algorithm, b->algorithm);
    return c ? c : strcmp(a->region, b->region);
}

size_t cs_best_per_case(const cs_result *rows, size_t n, cs_best **out)
{
    const cs_result **ok = cs_xmalloc((n ? n : 1) * sizeof *ok);
    size_t m = 0, groups = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].status, "ok"))
            ok[m++] = &rows[i];
    qsort(ok, m, sizeof *ok, cmp_case);
    /* the groups, then every group's tied rows: one block, one free */
    size_t nb = m ? m : 1;
    *out = cs_xmalloc(nb * sizeof **out + nb * sizeof *ok);
    const cs_result **tied = (const cs_result **)(*out + nb);
    for (size_t i = 0; i < m;) {
        size_t j = i + 1, t = i + 1;
        while (j < m && same_case(ok[i], ok[j]))
            j++;
        /* near-equal times sort by time, not name: re-sort the tied rows by name */
        while (t < j && cs_times_tie(ok[i]->avg_us, ok[t]->avg_us))
            t++;
        cs_best *b = &(*out)[groups++];
        memcpy(tied, ok + i, (t - i) * sizeof *ok);
        qsort(tied, t - i, sizeof *tied, cmp_alg_name);
        b->tied = tied;
        b->ntied = t - i;
        tied += t - i;
        b->best = b->tied[0];
        b->second = t < j ? ok[t] : NULL;
        b->improvement_pct = b->second && b->second->avg_us > 0
                                 ? 100.0 * (b->second->avg_us - ok[i]->avg_us) / b->second->avg_us
                                 : 0.0;
        i = j;
    }
    free(ok);
    return groups;
}

const char *cs_best_names(const cs_best *b, int levels, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < b->ntied && used < len; k++) {
        char one[sizeof b->best->algorithm + sizeof b->best->region];
        int w = snprintf(buf + used, len - used, "%s%s", k ? "=" : "",
                         cs_result_alg_label(b->tied[k], levels, one, sizeof one));
        used += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

void cs_print_best(FILE *f, const cs_result *rows, size_t n)
{
    cs_best *b;
    size_t g = cs_best_per_case(rows, n, &b);
    /* a case is (platform, collective, mapping, ppn, hosts, distribution,
     * background, intergroup case, np, bytes): print every part that tells
     * two rows apart, ppn always */
    int multi_coll = 0, any_dist = 0, any_bg = 0, any_groups = 0, any_tie = 0, any_hosts = 0,
        multi_model = 0, levels = cs_results_several_regions(rows, n);
    for (size_t i = 0; i < g; i++) {
        multi_coll |= strcmp(b[i].best->collective, b[0].best->collective) != 0;
        any_dist |= b[i].best->dist[0] != '\0';
        any_bg |= b[i].best->background[0] != '\0';
        any_hosts |= b[i].best->hosts[0] != '\0';
        any_groups |= b[i].best->groups[0] != '\0';
        any_tie |= b[i].ntied > 1;
        multi_model |= strcmp(cs_result_model(b[i].best), cs_result_model(b[0].best)) != 0;
    }
    fprintf(f, "# Best algorithm per case (lowest average latency); improvement = how much less "
               "time than the second best\n");
    if (any_tie)
        fprintf(f, "# tie = times within a relative " CS_TIE_REL_TEXT " of the fastest: best names "
                   "every tied algorithm joined by '=', second is the fastest untied one and "
                   "improv%% the margin over it\n");
    /* the name columns as wide as their longest entry (a tie of long names) */
    int wbest = 26, wsecond = 26, wplat = 12, whosts = 30, wbg = 30;
    for (size_t i = 0; i < g; i++) {
        /* what-if platforms are long: yahoo@uplinks.bandwidth=x0.25 */
        const int lp = (int)strlen(b[i].best->platform), lh = (int)strlen(b[i].best->hosts),
                  lg = (int)strlen(b[i].best->background);
        wplat = lp > wplat ? lp : wplat;
        whosts = lh > whosts ? lh : whosts;
        wbg = lg > wbg ? lg : wbg;
        char nb[512], n2[sizeof b[i].best->algorithm + sizeof b[i].best->region];
        int lb = (int)strlen(cs_best_names(&b[i], levels, nb, sizeof nb));
        int l2 = b[i].second ? (int)strlen(cs_result_alg_label(b[i].second, levels, n2, sizeof n2))
                             : 1;
        wbest = lb > wbest ? lb : wbest;
        wsecond = l2 > wsecond ? l2 : wsecond;
    }
    fprintf(f, "%-*s ", wplat, "# platform");
    if (multi_coll)
        fprintf(f, "%-14s ", "collective");
    fprintf(f, "%-10s %5s ", "mapping", "ppn");
    if (multi_model)
        fprintf(f, "%-8s ", "model");
    if (any_hosts)
        fprintf(f, "%-*s ", whosts, "hosts");
    if (any_dist)
        fprintf(f, "%-22s ", "distribution:seed");
    if (any_groups)
        fprintf(f, "%-30s ", "groups/layout/k_A:k_B/counts");
    if (any_bg)
        fprintf(f, "%-*s ", wbg, "background");
    fprintf(f, "%6s %9s  %-*s %12s  %-*s %12s %8s\n", "np", "bytes", wbest, "best", "avg(us)",
            wsecond, "second", "avg(us)", "improv%");
    for (size_t i = 0; i < g; i++) {
        const cs_result *x = b[i].best, *y = b[i].second;
        char second_us[32] = "-", ppn[16] = "cores", dist[64];
        /* the margin over the second, tie or not (the tie is named in best); none: "-" */
        char n1[512], n2[sizeof x->algorithm + sizeof x->region], improv[16] = "-";
        if (y)
            snprintf(improv, sizeof improv, "%.2f", b[i].improvement_pct);
        if (y)
            snprintf(second_us, sizeof second_us, "%.2f", y->avg_us);
        if (x->ppn)
            snprintf(ppn, sizeof ppn, "%d", x->ppn);
        fprintf(f, "%-*s ", wplat, x->platform);
        if (multi_coll)
            fprintf(f, "%-14s ", x->collective);
        fprintf(f, "%-10s %5s ", x->mapping, ppn);
        if (multi_model)
            fprintf(f, "%-8s ", cs_result_model(x));
        if (any_hosts)
            fprintf(f, "%-*s ", whosts, x->hosts[0] ? x->hosts : "all");
        if (any_dist) {
            if (x->dist[0])
                snprintf(dist, sizeof dist, "%s:%lu", x->dist, x->seed);
            else
                snprintf(dist, sizeof dist, "-");
            fprintf(f, "%-22s ", dist);
        }
        if (any_groups) {
            char gr[128] = "-";
            if (x->groups[0])
                snprintf(gr, sizeof gr, "%s/%s/%s%s%s", x->groups, x->layout,
                         x->block_ratio[0] ? x->block_ratio : "1:1", x->counts[0] ? "/" : "",
                         x->counts);
            fprintf(f, "%-30s ", gr);
        }
        if (any_bg)
            fprintf(f, "%-*s ", wbg, x->background[0] ? x->background : "none");
        fprintf(f, "%6d %9ld  %-*s %12.2f  %-*s %12s %8s\n", x->np, x->bytes, wbest,
                cs_best_names(&b[i], levels, n1, sizeof n1), x->avg_us, wsecond,
                y ? cs_result_alg_label(y, levels, n2, sizeof n2) : "-", second_us, improv);
    }
    free(b);
}
