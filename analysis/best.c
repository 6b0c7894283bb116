#include "best.h"

#include <stdlib.h>
#include <string.h>

static int same_case(const cs_result *a, const cs_result *b)
{
    return cs_result_cmp_point(a, b) == 0;
}

int cs_result_cmp_point(const cs_result *a, const cs_result *b)
{
    int c;
    if ((c = strcmp(a->platform, b->platform)) || (c = strcmp(a->collective, b->collective)) ||
        (c = strcmp(a->mapping, b->mapping)))
        return c;
    /* a report's group (platform, collective, mapping, ppn, distribution)
     * must be contiguous in this order, so np and bytes come last */
    if (a->ppn != b->ppn)
        return a->ppn < b->ppn ? -1 : 1;
    if ((c = strcmp(a->dist, b->dist)))
        return c;
    if (a->seed != b->seed)
        return a->seed < b->seed ? -1 : 1;
    if (a->np != b->np)
        return a->np < b->np ? -1 : 1;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? -1 : 1;
    return 0;
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

size_t cs_best_per_case(const cs_result *rows, size_t n, cs_best **out)
{
    const cs_result **ok = cs_xmalloc(n * sizeof *ok);
    size_t m = 0, groups = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].status, "ok"))
            ok[m++] = &rows[i];
    qsort(ok, m, sizeof *ok, cmp_case);
    *out = cs_xmalloc((m ? m : 1) * sizeof **out);
    for (size_t i = 0; i < m;) {
        size_t j = i + 1;
        while (j < m && same_case(ok[i], ok[j]))
            j++;
        cs_best *b = &(*out)[groups++];
        b->best = ok[i];
        b->second = j - i > 1 ? ok[i + 1] : NULL;
        b->improvement_pct = b->second && b->second->avg_us > 0
                                 ? 100.0 * (b->second->avg_us - b->best->avg_us) / b->second->avg_us
                                 : 0.0;
        i = j;
    }
    free(ok);
    return groups;
}

void cs_print_best(FILE *f, const cs_result *rows, size_t n)
{
    cs_best *b;
    size_t g = cs_best_per_case(rows, n, &b);
    /* a case is (platform, collective, mapping, ppn, distribution, np, bytes):
     * print every part that tells two rows apart, ppn always */
    int multi_coll = 0, any_dist = 0, levels = cs_results_several_regions(rows, n);
    for (size_t i = 0; i < g; i++) {
        multi_coll |= strcmp(b[i].best->collective, b[0].best->collective) != 0;
        any_dist |= b[i].best->dist[0] != '\0';
    }
    fprintf(f, "# Best algorithm per case (lowest average latency); improvement = how much less "
               "time than the second best\n");
    fprintf(f, "%-12s ", "# platform");
    if (multi_coll)
        fprintf(f, "%-14s ", "collective");
    fprintf(f, "%-10s %5s ", "mapping", "ppn");
    if (any_dist)
        fprintf(f, "%-22s ", "distribution:seed");
    fprintf(f, "%6s %9s  %-26s %12s  %-26s %12s %8s\n", "np", "bytes", "best", "avg(us)",
            "second", "avg(us)", "improv%");
    for (size_t i = 0; i < g; i++) {
        const cs_result *x = b[i].best, *y = b[i].second;
        char second_us[32] = "-", ppn[16] = "cores", dist[64];
        char n1[sizeof x->algorithm + sizeof x->region], n2[sizeof n1];
        if (y)
            snprintf(second_us, sizeof second_us, "%.2f", y->avg_us);
        if (x->ppn)
            snprintf(ppn, sizeof ppn, "%d", x->ppn);
        fprintf(f, "%-12s ", x->platform);
        if (multi_coll)
            fprintf(f, "%-14s ", x->collective);
        fprintf(f, "%-10s %5s ", x->mapping, ppn);
        if (any_dist) {
            if (x->dist[0])
                snprintf(dist, sizeof dist, "%s:%lu", x->dist, x->seed);
            else
                snprintf(dist, sizeof dist, "-");
            fprintf(f, "%-22s ", dist);
        }
        fprintf(f, "%6d %9ld  %-26s %12.2f  %-26s %12s %8.2f\n", x->np, x->bytes,
                cs_result_alg_label(x, levels, n1, sizeof n1), x->avg_us,
                y ? cs_result_alg_label(y, levels, n2, sizeof n2) : "-", second_us,
                b[i].improvement_pct);
    }
    free(b);
}
