#include "expect.h"

#include <stdlib.h>
#include <string.h>

#include "best.h"
#include "regression.h"

const char *const cs_metric_names[3] = {"avg", "max", "min"};

static double metric_of(const cs_expect_points *x, const cs_result *r)
{
    return x->metric == CS_METRIC_MAX ? r->max_us : x->metric == CS_METRIC_MIN ? r->min_us : r->avg_us;
}

static int cmp_probe(const void *key, const void *elem)
{
    return cs_key_cmp((const cs_result *)key, *(const cs_result *const *)elem);
}

/* alg's row at the point (at region "" when the algorithm takes none) */
static const cs_result *find(const cs_result **sorted, size_t n, const cs_result *point,
                             const char *alg, int no_region)
{
    cs_result probe = *point;
    snprintf(probe.algorithm, sizeof probe.algorithm, "%s", alg);
    if (no_region)
        probe.region[0] = '\0';
    const cs_result *const *hit = bsearch(&probe, sorted, n, sizeof *sorted, cmp_probe);
    return hit ? *hit : NULL;
}

/* "yahoo sequential np=5 1 B: bruck 2.14 us vs ring 2.84 us (24.9% faster)" */
static void describe(char *buf, size_t len, const cs_expect_points *x, const cs_result *p,
                     const cs_result *a, const cs_result *b)
{
    char ppn[32] = "", region[48] = "", groups[120] = "";
    if (p->ppn)
        snprintf(ppn, sizeof ppn, " ppn=%d", p->ppn);
    if (p->region[0])
        snprintf(region, sizeof region, " region=%s", p->region);
    if (p->groups[0])
        snprintf(groups, sizeof groups, " groups=%s%s%s%s%s", p->groups,
                 p->block_ratio[0] ? " block-ratio=" : "", p->block_ratio,
                 p->counts[0] ? " counts=" : "", p->counts);
    int u = snprintf(buf, len, "%s %s%s%s%s np=%d %ld B: ", p->platform, p->mapping, ppn, region,
                     groups, p->np, p->bytes);
    if (u < 0 || (size_t)u >= len)
        return;
    if (!a || !b) {
        snprintf(buf + u, len - (size_t)u, "no result for %s", !a ? x->faster : x->than);
    } else if (strcmp(a->status, "ok") || strcmp(b->status, "ok")) {
        const cs_result *bad = strcmp(a->status, "ok") ? a : b;
        snprintf(buf + u, len - (size_t)u, "%s has status %s", bad->algorithm, bad->status);
    } else {
        double ta = metric_of(x, a), tb = metric_of(x, b);
        double gain = tb > 0 ? 100.0 * (tb - ta) / tb : 0;
        const char *m = x->metric ? cs_metric_names[x->metric] : "";
        if (cs_times_tie(ta, tb))
            snprintf(buf + u, len - (size_t)u, "%s %.2f us vs %s %.2f us%s%s (tie)", x->faster, ta,
                     x->than, tb, x->metric ? ", " : "", m);
        else if (x->metric || x->by_factor > 0)
            snprintf(buf + u, len - (size_t)u, "%s %.2f us vs %s %.2f us%s%s (%.2fx)", x->faster,
                     ta, x->than, tb, x->metric ? ", " : "", m, ta > 0 ? tb / ta : 0);
        else
            snprintf(buf + u, len - (size_t)u, "%s %.2f us vs %s %.2f us (%.1f%% %s)", x->faster,
                     ta, x->than, tb, gain >= 0 ? gain : -gain, gain >= 0 ? "faster" : "slower");
    }
}

#define SHOW_FAILED 20

static int check_one(FILE *f, const char *path, const cs_expect_points *x,
                     const cs_result **sorted, size_t n, int partial)
{
    size_t points = 0, passed = 0, skipped = 0, failed = 0;
    double closest = 0;
    char closest_text[512] = "", failures[SHOW_FAILED][512];
    for (size_t i = 0; i < x->npoints; i++) {
        cs_result probe = x->points[i];
        const cs_result *a = find(sorted, n, &probe, x->faster, x->faster_no_region);
        const cs_result *b = find(sorted, n, &probe, x->than, x->than_no_region);
        points++;
        if ((!a || !b) && partial) {
            skipped++;
            continue;
        }
        char text[512];
        describe(text, sizeof text, x, &probe, a, b);
        int ok = a && b && !strcmp(a->status, "ok") && !strcmp(b->status, "ok");
        double ta = ok ? metric_of(x, a) : 0, tb = ok ? metric_of(x, b) : 0;
        double gain = ok && tb > 0 ? 100.0 * (tb - ta) / tb : 0;
        /* a tie (best.h) is no win, whatever the last bits say */
        if (ok && ta < tb && !cs_times_tie(ta, tb) && gain >= x->by_pct) {
            if (!passed++ || gain < closest) {
                closest = gain;
                snprintf(closest_text, sizeof closest_text, "%s", text);
            }
        } else if (failed++ < SHOW_FAILED) {
            snprintf(failures[failed - 1], sizeof failures[0], "%s", text);
        }
    }
    char by[64] = "";
    if (x->by_factor > 0)
        snprintf(by, sizeof by, " by %gx", x->by_factor);
    else if (x->by_pct > 0)
        snprintf(by, sizeof by, " by %g%%", x->by_pct);
    const char *verdict = failed ? "FAIL" : passed ? "PASS" : "SKIP";
    fprintf(f, "%s %s:%ld: %s faster than %s%s%s%s (%s): ", verdict, path, x->line, x->faster,
            x->than, by, x->metric ? " in " : "", x->metric ? cs_metric_names[x->metric] : "",
            x->scope);
    if (failed)
        fprintf(f, "%zu of %zu points fail\n", failed, points - skipped);
    else if (passed)
        fprintf(f, "%zu of %zu points pass; closest: %s\n", passed, points - skipped, closest_text);
    else
        fprintf(f, "none of its %zu points was run\n", points);
    for (size_t i = 0; i < failed && i < SHOW_FAILED; i++)
        fprintf(f, "    %s\n", failures[i]);
    if (failed > SHOW_FAILED)
        fprintf(f, "    ... and %zu more\n", failed - SHOW_FAILED);
    if (skipped && (failed || passed))
        fprintf(f, "    (%zu points not run here: skipped)\n", skipped);
    return failed ? 1 : passed ? 0 : -1;
}

int cs_expect_check(FILE *f, const char *path, const cs_expect_points *x, size_t nx,
                    const cs_result *rows, size_t n, int partial)
{
    if (!nx)
        return 0;
    const cs_result **sorted = cs_sort_by_key(rows, n);
    int failed = 0, passed = 0, skipped = 0;
    fprintf(f, "# Expectations of %s\n", path);
    for (size_t i = 0; i < nx; i++) {
        int r = check_one(f, path, &x[i], sorted, n, partial);
        failed += r > 0;
        passed += r == 0;
        skipped += r < 0;
    }
    fprintf(f, "# expectations: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    free(sorted);
    return failed;
}
