#include "expect.h"

#include <math.h>
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
    char ppn[sizeof p->hosts + 48] = "", region[48] = "", groups[120] = "";
    if (p->ppn)
        snprintf(ppn, sizeof ppn, " ppn=%d", p->ppn);
    if (p->hosts[0]) /* beside ppn: where the ranks are */
        snprintf(ppn + strlen(ppn), sizeof ppn - strlen(ppn), " hosts=%s", p->hosts);
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

/* One expectation's points as they were checked. */
typedef struct {
    size_t points, passed, skipped, failed;
    char kept[640]; /* the passing point nearest to failing */
    char failures[SHOW_FAILED][640];
} tally;

static void tally_fail(tally *t, const char *text)
{
    if (t->failed++ < SHOW_FAILED)
        snprintf(t->failures[t->failed - 1], sizeof t->failures[0], "%s", text);
}

/* After the heading: the counts, the nearest pass (`kept_as` it) or the
 * failures; 1 failed, 0 passed, -1 nothing was run. The points not run of
 * an expectation that was checked are added to *not_run. */
static int tally_print(FILE *f, const tally *t, const char *kept_as, size_t *not_run)
{
    if (t->failed)
        fprintf(f, "%zu of %zu points fail\n", t->failed, t->points - t->skipped);
    else if (t->passed)
        fprintf(f, "%zu of %zu points pass; %s: %s\n", t->passed, t->points - t->skipped, kept_as,
                t->kept);
    else
        fprintf(f, "none of its %zu points was run\n", t->points);
    for (size_t i = 0; i < t->failed && i < SHOW_FAILED; i++)
        fprintf(f, "    %s\n", t->failures[i]);
    if (t->failed > SHOW_FAILED)
        fprintf(f, "    ... and %zu more\n", t->failed - SHOW_FAILED);
    if (t->skipped && (t->failed || t->passed)) {
        fprintf(f, "    (%zu point%s not run here: skipped)\n", t->skipped, t->skipped > 1 ? "s" : "");
        *not_run += t->skipped;
    }
    return t->failed ? 1 : t->passed ? 0 : -1;
}

static const char *verdict_of(const tally *t)
{
    return t->failed ? "FAIL" : t->passed ? "PASS" : "SKIP";
}

/* The point's case in words: "ranger sequential ppn=1 hosts=node-0+node-1 np=2 0 B" */
static void point_text(char *buf, size_t len, const cs_result *p)
{
    char ppn[32] = "", hosts[sizeof p->hosts + 8] = "", bg[sizeof p->background + 16] = "";
    if (p->ppn)
        snprintf(ppn, sizeof ppn, " ppn=%d", p->ppn);
    if (p->hosts[0])
        snprintf(hosts, sizeof hosts, " hosts=%s", p->hosts);
    if (p->background[0])
        snprintf(bg, sizeof bg, " background=%s", p->background);
    snprintf(buf, len, "%s %s%s%s%s np=%d %ld B", p->platform, p->mapping, ppn, hosts, bg, p->np,
             p->bytes);
}

/* alg="A" time="T" within="W%": A's time at every point within W% of T */
static int check_time(FILE *f, const char *path, const cs_expect_points *x,
                      const cs_result **sorted, size_t n, int partial, size_t *not_run)
{
    tally t = {0};
    double worst = -1;
    for (size_t i = 0; i < x->npoints; i++) {
        const cs_result *a = find(sorted, n, &x->points[i], x->faster, x->faster_no_region);
        t.points++;
        if (!a && partial) {
            t.skipped++;
            continue;
        }
        char where[512], text[640];
        point_text(where, sizeof where, &x->points[i]);
        const int ok = a && !strcmp(a->status, "ok");
        const double v = ok ? metric_of(x, a) : 0, off = 100 * (v - x->time_us) / x->time_us;
        if (!a)
            snprintf(text, sizeof text, "%s: no result for %s", where, x->faster);
        else if (!ok)
            snprintf(text, sizeof text, "%s: %s has status %s", where, x->faster, a->status);
        else
            snprintf(text, sizeof text, "%s: %s %.4g us, %+.2f%% from %.4g us", where, x->faster, v,
                     off, x->time_us);
        if (ok && fabs(off) <= x->within_pct) {
            if (!t.passed++ || fabs(off) > worst) {
                worst = fabs(off);
                snprintf(t.kept, sizeof t.kept, "%s", text);
            }
        } else {
            tally_fail(&t, text);
        }
    }
    fprintf(f, "%s %s:%ld: %s takes %.4g us within %g%%%s%s (%s): ", verdict_of(&t), path,
            x->line, x->faster, x->time_us, x->within_pct, x->metric ? " in " : "",
            x->metric ? cs_metric_names[x->metric] : "", x->scope);
    return tally_print(f, &t, "farthest", not_run);
}

static int check_one(FILE *f, const char *path, const cs_expect_points *x,
                     const cs_result **sorted, size_t n, int partial, size_t *not_run)
{
    tally t = {0};
    double closest = 0;
    for (size_t i = 0; i < x->npoints; i++) {
        cs_result probe = x->points[i];
        const cs_result *a = find(sorted, n, &probe, x->faster, x->faster_no_region);
        const cs_result *b = find(sorted, n, &probe, x->than, x->than_no_region);
        t.points++;
        if ((!a || !b) && partial) {
            t.skipped++;
            continue;
        }
        char text[512];
        describe(text, sizeof text, x, &probe, a, b);
        int ok = a && b && !strcmp(a->status, "ok") && !strcmp(b->status, "ok");
        double ta = ok ? metric_of(x, a) : 0, tb = ok ? metric_of(x, b) : 0;
        double gain = ok && tb > 0 ? 100.0 * (tb - ta) / tb : 0;
        /* a tie (best.h) is no win, whatever the last bits say */
        if (ok && ta < tb && !cs_times_tie(ta, tb) && gain >= x->by_pct) {
            if (!t.passed++ || gain < closest) {
                closest = gain;
                snprintf(t.kept, sizeof t.kept, "%s", text);
            }
        } else {
            tally_fail(&t, text);
        }
    }
    char by[64] = "";
    if (x->by_factor > 0)
        snprintf(by, sizeof by, " by %gx", x->by_factor);
    else if (x->by_pct > 0)
        snprintf(by, sizeof by, " by %g%%", x->by_pct);
    fprintf(f, "%s %s:%ld: %s faster than %s%s%s%s (%s): ", verdict_of(&t), path, x->line,
            x->faster, x->than, by, x->metric ? " in " : "",
            x->metric ? cs_metric_names[x->metric] : "", x->scope);
    return tally_print(f, &t, "closest", not_run);
}

int cs_expect_check(FILE *f, const char *path, const cs_expect_points *x, size_t nx,
                    const cs_result *rows, size_t n, int partial)
{
    if (!nx)
        return 0;
    const cs_result **sorted = cs_sort_by_key(rows, n);
    int failed = 0, passed = 0, skipped = 0;
    size_t not_run = 0; /* points of the checked expectations */
    fprintf(f, "# Expectations of %s\n", path);
    for (size_t i = 0; i < nx; i++) {
        int r = x[i].time_us > 0 ? check_time(f, path, &x[i], sorted, n, partial, &not_run)
                                 : check_one(f, path, &x[i], sorted, n, partial, &not_run);
        failed += r > 0;
        passed += r == 0;
        skipped += r < 0;
    }
    /* "0 skipped" would contradict the lines that report points skipped */
    fprintf(f, "# expectations: %d passed, %d failed", passed, failed);
    if (skipped || !not_run)
        fprintf(f, ", %d skipped", skipped);
    if (not_run)
        fprintf(f, "; %zu %spoint%s not run here (skipped)", not_run, skipped ? "more " : "",
                not_run > 1 ? "s" : "");
    fputc('\n', f);
    free(sorted);
    return failed;
}
