/* Markdown tables: the summary, each group's section, message accounting and
 * failures. */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t cases, focus_best, n; /* n: focus-best cases with a second best */
    size_t focus_tied;           /* cases the focus ties for best: no win, no improvement */
    double mean, median, max;
} focus_stats;

int in_group(const cs_result *x, const group *g) { return !cs_result_cmp_group(x, g->first); }

/* Improvement of the focus over the second best where the focus is best. */
static void stats_of(const report *r, const cs_best *best, size_t nbest, const group *g,
                     focus_stats *s)
{
    double *v = cs_xmalloc((nbest ? nbest : 1) * sizeof *v);
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < nbest; i++) {
        if (!in_group(best[i].best, g) || !case_complete(r, g, best[i].best->np, best[i].best->bytes))
            continue;
        s->cases++;
        if (!r->focus || !best_has(&best[i], r->focus))
            continue;
        if (best[i].ntied > 1) {
            s->focus_tied++;
            continue;
        }
        s->focus_best++;
        if (best[i].second)
            v[s->n++] = best[i].improvement_pct;
    }
    s->mean = s->median = s->max = NAN;
    if (s->n) {
        qsort(v, s->n, sizeof *v, cmp_double);
        double sum = 0;
        for (size_t i = 0; i < s->n; i++)
            sum += v[i];
        s->mean = sum / s->n;
        s->median = s->n % 2 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
        s->max = v[s->n - 1];
    }
    free(v);
}

/* The best per case under another OSU statistic: a copy of the rows whose
 * avg_us holds that statistic, so best.c's grouping serves every metric. */
static cs_result *rows_with_metric(const report *r, int which /* 0 min, 2 max */)
{
    cs_result *c = cs_xmalloc((r->n ? r->n : 1) * sizeof *c);
    for (size_t i = 0; i < r->n; i++) {
        c[i] = r->rows[i];
        c[i].avg_us = which == 0 ? r->rows[i].min_us : r->rows[i].max_us;
    }
    return c;
}

/* The summary tables have a row per group: when groups differ by ranks per
 * node, block-size distribution or background, those get columns (else rows
 * repeat). */
typedef struct {
    int ppn, dist, bg, groups, hosts;
} extra_cols;

static extra_cols extra_cols_of(const report *r)
{
    extra_cols x = {0, 0, 0, 0, 0};
    for (size_t k = 0; k < r->ng; k++) {
        x.ppn |= r->g[k].ppn != 0;
        x.hosts |= r->g[k].hosts[0] != 0;
        x.dist |= r->g[k].dist[0] != 0;
        x.groups |= r->g[k].gratio[0] != 0;
        x.bg |= r->g[k].background[0] != 0;
    }
    return x;
}

static void extra_head(FILE *md, extra_cols x)
{
    fprintf(md, "%s%s%s%s%s", x.ppn ? " ppn |" : "", x.hosts ? " hosts |" : "",
            x.dist ? " blocks |" : "", x.bg ? " background |" : "",
            x.groups ? " groups (layout, k_A:k_B, counts) |" : "");
}

static void extra_rule(FILE *md, extra_cols x)
{
    fprintf(md, "%s%s%s%s%s", x.ppn ? "---:|" : "", x.hosts ? "---|" : "", x.dist ? "---|" : "",
            x.bg ? "---|" : "", x.groups ? "---|" : "");
}

/* blank: a continuation row (Table II's Avg and Max lines) */
static void extra_cells(FILE *md, extra_cols x, const group *g, int blank)
{
    if (x.ppn) {
        if (blank)
            fprintf(md, "  |");
        else if (g->ppn)
            fprintf(md, " %d |", g->ppn);
        else
            fprintf(md, " cores |");
    }
    if (x.hosts)
        fprintf(md, " %s |", blank ? "" : g->hosts[0] ? g->hosts : "all");
    if (x.dist) {
        if (blank || !g->dist[0])
            fprintf(md, "  |");
        else
            fprintf(md, " %s, seed %lu |", g->dist, g->seed);
    }
    if (x.bg)
        fprintf(md, " %s |", blank ? "" : g->background[0] ? g->background : "none");
    if (x.groups) {
        if (blank || !g->gratio[0])
            fprintf(md, "  |");
        else
            fprintf(md, " %s (%s, %s%s%s) |", g->gratio, g->layout,
                    g->block_ratio[0] ? g->block_ratio : "1:1", g->counts[0] ? ", " : "", g->counts);
    }
}

/* Cases of the group, complete (every algorithm ok: compared) or not; a tie
 * is nobody's win: counted in *ties. */
static void count_cases(const report *r, const group *g, size_t *wins, size_t *ties,
                        size_t *cases, size_t *incomplete)
{
    *cases = *incomplete = *ties = 0;
    if (wins)
        memset(wins, 0, (r->algs.n + 1) * sizeof *wins);
    for (size_t i = 0; i < r->nbest; i++) {
        const cs_result *b = r->best[i].best;
        if (!in_group(b, g))
            continue;
        if (!case_complete(r, g, b->np, b->bytes)) {
            (*incomplete)++;
            continue;
        }
        (*cases)++;
        if (r->best[i].ntied > 1)
            (*ties)++;
        else if (wins)
            wins[strset_index(&r->algs, b->algorithm)]++;
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* The group's ties, each set of tied algorithms once with its number of
 * cases: the heat map paints a tie as its first algorithm and marks it. */
static void tie_sets(const report *r, const group *g)
{
    enum { LEN = 512 };
    char(*sets)[LEN] = cs_xmalloc((r->nbest ? r->nbest : 1) * sizeof *sets);
    size_t n = 0;
    for (size_t i = 0; i < r->nbest; i++) {
        const cs_best *b = &r->best[i];
        if (b->ntied > 1 && in_group(b->best, g) && case_complete(r, g, b->best->np, b->best->bytes))
            cs_best_names(b, 0, sets[n++], LEN);
    }
    qsort(sets, n, sizeof *sets, cmp_str);
    if (n)
        fprintf(r->md, "Ties (cells marked =, in the colour of the first tied algorithm by name: "
                       "average latencies within a relative " CS_TIE_REL_TEXT " of the fastest, "
                       "such as one algorithm reached two ways):");
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && !strcmp(sets[i], sets[j]);)
            j++;
        fprintf(r->md, "%s %s in %zu case%s", i ? ";" : "", sets[i], j - i, j - i > 1 ? "s" : "");
    }
    if (n)
        fprintf(r->md, ".\n\n");
    free(sets);
}

void sec_summary(const report *r, int multi_coll)
{
    extra_cols x = extra_cols_of(r);
    FILE *md = r->md;
    size_t any_incomplete = 0, any_tie = 0;
    for (size_t k = 0; k < r->ng; k++) {
        size_t cases, incomplete, ties;
        count_cases(r, &r->g[k], NULL, &ties, &cases, &incomplete);
        any_incomplete += incomplete;
        any_tie += ties;
    }
    fprintf(md, "## Best algorithm per case\n\n"
                "A case is one (platform, mapping, process count, size); the best algorithm has the "
                "lowest average latency (OSU's average over ranks of each rank's mean time). Cells: "
                "cases won (share of the cases).%s%s\n\n| platform |%s mapping |",
            any_incomplete ? " Cases where an algorithm has no ok result (failed, timed out or "
                             "not run) are not compared: they are counted under \"not compared\" "
                             "and marked ? in the heat maps."
                           : "",
            any_tie ? " A case whose fastest algorithms tie (average latencies within a relative "
                      CS_TIE_REL_TEXT " of the fastest) is won by none of them: it is counted "
                      "once under \"ties\" and marked = in the heat maps."
                    : "",
            multi_coll ? " collective |" : "");
    extra_head(md, x);
    fprintf(md, " cases |%s%s", any_incomplete ? " not compared |" : "", any_tie ? " ties |" : "");
    for (size_t a = 0; a < r->algs.n; a++)
        fprintf(md, " %s |", r->algs.v[a]);
    fprintf(md, "\n|---|%s---|", multi_coll ? "---|" : "");
    extra_rule(md, x);
    fprintf(md, "---:|%s%s", any_incomplete ? "---:|" : "", any_tie ? "---:|" : "");
    for (size_t a = 0; a < r->algs.n; a++)
        fprintf(md, "---:|");
    fprintf(md, "\n");
    size_t *wins = cs_xmalloc((r->algs.n + 1) * sizeof *wins);
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        size_t cases, incomplete, ties;
        count_cases(r, g, wins, &ties, &cases, &incomplete);
        fprintf(md, "| %s |", g->platform);
        if (multi_coll)
            fprintf(md, " %s |", g->collective);
        fprintf(md, " %s |", g->mapping);
        extra_cells(md, x, g, 0);
        fprintf(md, " %zu |", cases);
        if (any_incomplete)
            fprintf(md, " %zu |", incomplete);
        if (any_tie)
            fprintf(md, ties ? " %zu (%.1f%%) |" : " %zu |", ties, cases ? 100.0 * ties / cases : 0.0);
        for (size_t a = 0; a < r->algs.n; a++)
            fprintf(md, wins[a] ? " %zu (%.1f%%) |" : " %zu |", wins[a],
                    cases ? 100.0 * wins[a] / cases : 0.0);
        fprintf(md, "\n");
    }
    free(wins);
    fprintf(md, "\n");

    if (!r->focus) {
        fprintf(md, "No focus algorithm (the results have no `sparbit`; choose one with `--focus ALG`): "
                    "no improvement table, grey cells or speedup figures.\n\n");
        return;
    }
    fprintf(md, "## Improvement of %s over the second best\n\n"
                "Where %s is the best algorithm of a case, its improvement is (T_second - T_%s) / "
                "T_second, in %%, with T the OSU minimum, average or maximum over ranks (the Sparbit "
                "paper's Table II layout). Cases where it was the only algorithm with an ok result "
                "are counted as best but have no improvement. Cases where it ties for best (times "
                "within a relative " CS_TIE_REL_TEXT ") are not counted as best: the count says "
                "\"tied in N\" when there are any.\n\n"
                "| mapping | platform |%s",
            r->focus, r->focus, r->focus, multi_coll ? " collective |" : "");
    extra_head(md, x);
    fprintf(md, " metric | %s best / cases | mean (%%) | median (%%) | highest (%%) |\n|---|---|%s",
            r->focus, multi_coll ? "---|" : "");
    extra_rule(md, x);
    fprintf(md, "---|---:|---:|---:|---:|\n");
    cs_result *mins = rows_with_metric(r, 0), *maxs = rows_with_metric(r, 2);
    cs_best *bmin, *bmax;
    size_t nmin = cs_best_per_case(mins, r->n, &bmin), nmax = cs_best_per_case(maxs, r->n, &bmax);
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        const char *metric[3] = {"Min", "Avg", "Max"};
        const cs_best *bs[3] = {bmin, r->best, bmax};
        size_t ns[3] = {nmin, r->nbest, nmax};
        for (int m = 0; m < 3; m++) {
            focus_stats s;
            stats_of(r, bs[m], ns[m], g, &s);
            char a[32], b[32], c[32];
            fmt_pct(a, sizeof a, s.mean);
            fmt_pct(b, sizeof b, s.median);
            fmt_pct(c, sizeof c, s.max);
            fprintf(md, "| %s | %s |", m ? "" : g->mapping, m ? "" : g->platform);
            if (multi_coll)
                fprintf(md, " %s |", m ? "" : g->collective);
            extra_cells(md, x, g, m);
            char tied[48] = "";
            if (s.focus_tied)
                snprintf(tied, sizeof tied, "; tied in %zu", s.focus_tied);
            fprintf(md, " %s | %zu / %zu (%.1f%%)%s | %s | %s | %s |\n", metric[m], s.focus_best,
                    s.cases, s.cases ? 100.0 * s.focus_best / s.cases : 0.0, tied, a, b, c);
        }
    }
    fprintf(md, "\n");
    free(bmin);
    free(bmax);
    free(mins);
    free(maxs);
}

int sec_group(const report *r, const group *g, int multi_coll)
{
    FILE *md = r->md;
    char title[512], name[700];
    group_title(r, g, title, sizeof title, multi_coll);
    fprintf(md, "## %s\n\n", title);

    fprintf(md, "### Best algorithm per (process count, size)\n\n");
    if (fig_heatmap(r, g, title, name, sizeof name) < 0)
        return -1;
    if (r->focus)
        fprintf(md, "Columns are process counts, rows message sizes (bytes per rank). A coloured cell "
                    "names the best algorithm; a grey cell means %s is best, and its shade (and "
                    "number) is its improvement over the second best in %% (lighter = larger).%s\n\n",
                r->focus, g->nps.n > LABEL_MAX_COLS ? " Too many columns to print the numbers." : "");
    else
        fprintf(md, "Columns are process counts, rows message sizes (bytes per rank); each cell has the "
                    "colour of the best algorithm.\n\n");
    tie_sets(r, g);
    md_figure(md, name, "best algorithm per case");

    long shown[NP_SHOWN];
    size_t nshown = spread(g->nps.v, g->nps.n, NP_SHOWN, shown);
    char which[1024] = "";
    for (size_t k = 0; k < nshown; k++) {
        size_t used = strlen(which);
        snprintf(which + used, sizeof which - used, "%s%ld", k ? ", " : "", shown[k]);
    }
    char note[1200];
    if (nshown < g->nps.n)
        snprintf(note, sizeof note, "%zu of the %zu process counts, spread over the range: %s "
                 "(the heat map has them all)", nshown, g->nps.n, which);
    else
        snprintf(note, sizeof note, "every process count: %s", which);
    int has_zero = (int)has_zero_size(g);

    if (r->focus && strset_index(&g->algs, r->focus) < g->algs.n) {
        fprintf(md, "### Speedup of %s\n\n", r->focus);
        int rc = g->algs.n > 1 ? fig_speedup(r, g, shown, nshown, title, name, sizeof name) : 0;
        if (rc < 0)
            return -1;
        if (rc) {
            fprintf(md, "Speedup = T(%s) / T(%s) per size, one line per process count (%s)%s.\n\n",
                    r->baseline ? r->baseline : "best other algorithm of the case", r->focus, note,
                    has_zero ? "; size 0 is left out of logarithmic axes" : "");
            md_figure(md, name, "speedup");
        } else {
            fprintf(md, "No case has both %s and a baseline with an ok result.\n\n", r->focus);
        }
    }

    fprintf(md, "### Latency per algorithm\n\nProcess counts: %s%s.\n\n", note,
            has_zero ? "; size 0 is left out of logarithmic axes" : "");
    for (size_t k = 0; k < nshown; k++) {
        int rc = fig_latency(r, g, shown[k], title, name, sizeof name);
        if (rc < 0)
            return -1;
        char alt[64];
        snprintf(alt, sizeof alt, "latency, %ld processes", shown[k]);
        if (rc)
            md_figure(md, name, alt);
    }
    return 0;
}

/* Order of the accounting table: case (platform, mapping, ppn, np, collective),
 * then size, then algorithm. */
static int cmp_account(const void *a, const void *b)
{
    const cs_result *x = *(const cs_result *const *)a, *y = *(const cs_result *const *)b;
    int c = strcmp(x->platform, y->platform);
    if (!c)
        c = strcmp(x->mapping, y->mapping);
    if (!c)
        c = (x->ppn > y->ppn) - (x->ppn < y->ppn);
    if (!c)
        c = (x->np > y->np) - (x->np < y->np);
    if (!c)
        c = strcmp(x->collective, y->collective);
    if (!c)
        c = (x->bytes > y->bytes) - (x->bytes < y->bytes);
    if (!c)
        c = strcmp(x->algorithm, y->algorithm);
    return c;
}

/* Per case, the messages and bytes that left the sender's node in one call
 * (columns nonlocal_*; docs/running.md, "Per-level message accounting"). Only rows that
 * measured them (collsim's own algorithms); nothing when there is none. */
void sec_accounting(const report *r)
{
    enum { MAX_ROWS_PER_CASE = 40 };
    const cs_result **v = malloc((r->n ? r->n : 1) * sizeof *v);
    size_t n = 0, skipped = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->rows[i].status, "ok"))
            continue;
        if (r->rows[i].nonlocal_max_msgs >= 0)
            v[n++] = &r->rows[i];
        else
            skipped++;
    }
    if (!n) {
        free(v);
        return;
    }
    qsort(v, n, sizeof *v, cmp_account);
    FILE *md = r->md;
    fprintf(md, "## Non-local messages\n\n"
                "Messages and payload bytes that left the sender's node in one call: the busiest "
                "rank's count (messages and bytes separately) and the total over ranks (docs/running.md, "
                "\"Per-level message accounting\"; the `account` column has every level).%s\n\n",
            skipped ? " Rows without counts (SMPI's built-ins) are left out." : "");
    for (size_t i = 0; i < n;) {
        const cs_result *c = v[i];
        size_t end = i;
        while (end < n && !strcmp(v[end]->platform, c->platform) &&
               !strcmp(v[end]->mapping, c->mapping) && v[end]->ppn == c->ppn &&
               v[end]->np == c->np && !strcmp(v[end]->collective, c->collective))
            end++;
        char ppn[32] = "";
        if (c->ppn)
            snprintf(ppn, sizeof ppn, ", %d per node", c->ppn);
        fprintf(md, "### %s, %s%s, np %d, %s\n\n"
                    "| algorithm | size | max msgs | max bytes | total msgs | total bytes |\n"
                    "|---|---:|---:|---:|---:|---:|\n",
                c->platform, c->mapping, ppn, c->np, c->collective);
        for (size_t k = i; k < end && k < i + MAX_ROWS_PER_CASE; k++) {
            char lab[32];
            fprintf(md, "| %s | %s | %lld | %lld | %lld | %lld |\n", v[k]->algorithm,
                    size_label(v[k]->bytes, lab, sizeof lab), v[k]->nonlocal_max_msgs,
                    v[k]->nonlocal_max_bytes, v[k]->nonlocal_total_msgs,
                    v[k]->nonlocal_total_bytes);
        }
        if (end - i > MAX_ROWS_PER_CASE)
            fprintf(md, "\n%zu more rows in the results file.\n", end - i - MAX_ROWS_PER_CASE);
        fprintf(md, "\n");
        i = end;
    }
    free(v);
}

void sec_rooted_metrics(const report *r)
{
    enum { MAX_ROWS_PER_GROUP = 120 };
    int any = 0;
    for (size_t k = 0; k < r->ng; k++)
        any |= r->g[k].root_us_seen;
    if (!any)
        return;
    FILE *md = r->md;
    fprintf(md, "## Gather and scatter: three metrics\n\n"
                "Per call: the mean over processes of each process's time (Kandalla et al.'s "
                "metric, the `avg_us` column), the slowest process (`call_max_us`: the maximum "
                "over processes of each call, averaged over the calls) and the root's time "
                "(`root_us`). The tables above rank by the mean.\n\n");
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        if (!g->root_us_seen)
            continue;
        char title[512];
        group_title(r, g, title, sizeof title, 1);
        fprintf(md, "### %s\n\n| np | size | algorithm | mean (us) | per-call max (us) | root (us) |\n"
                    "|---:|---:|---|---:|---:|---:|\n", title);
        size_t rows = 0, more = 0;
        for (size_t q = 0; q < g->nps.n; q++)
            for (size_t s = 0; s < g->sizes.n; s++)
                for (size_t a = 0; a < g->algs.n; a++) {
                    const cs_result *x = find(r, g, g->nps.v[q], g->sizes.v[s], g->algs.v[a]);
                    if (!x)
                        continue;
                    if (rows++ >= MAX_ROWS_PER_GROUP) {
                        more++;
                        continue;
                    }
                    char lab[32];
                    fprintf(md, "| %ld | %s | %s | %.2f | %.2f | %.2f |\n", g->nps.v[q],
                            size_label(g->sizes.v[s], lab, sizeof lab), x->algorithm, x->avg_us,
                            x->call_max_us, x->root_us);
                }
        if (more)
            fprintf(md, "\n%zu more rows in the results file.\n", more);
        fprintf(md, "\n");
    }
}

void sec_failures(const report *r)
{
    FILE *md = r->md;
    size_t bad = 0;
    for (size_t i = 0; i < r->n; i++)
        bad += strcmp(r->rows[i].status, "ok") != 0;
    fprintf(md, "## Failures\n\n");
    if (!bad) {
        fprintf(md, "None: every row has status ok.\n");
        return;
    }
    fprintf(md, "%zu of %zu rows did not pass (fail: the data check failed; error: the run broke; "
                "timeout: killed after its limit). They are left out of every figure and table "
                "above, so a case where one algorithm failed compares the others. One line per "
                "run and status; the note is the first row's.\n\n"
                "| platform | mapping | np | collective | algorithm | status | sizes | note |\n"
                "|---|---|---:|---|---|---|---|---|\n",
            bad, r->n);
    char *done = calloc(r->n, 1);
    for (size_t i = 0; i < r->n; i++) {
        const cs_result *x = &r->rows[i];
        if (done[i] || !strcmp(x->status, "ok"))
            continue;
        fprintf(md, "| %s | %s | %d | %s | %s | %s | ", x->platform, x->mapping, x->np,
                x->collective, x->algorithm, x->status);
        size_t listed = 0;
        for (size_t j = i; j < r->n; j++) {
            const cs_result *y = &r->rows[j];
            if (done[j] || strcmp(y->status, x->status) || strcmp(y->platform, x->platform) ||
                strcmp(y->mapping, x->mapping) || y->np != x->np ||
                strcmp(y->collective, x->collective) || strcmp(y->algorithm, x->algorithm))
                continue;
            done[j] = 1;
            char lab[32];
            if (listed < 24)
                fprintf(md, "%s%s", listed ? ", " : "", size_label(y->bytes, lab, sizeof lab));
            else if (listed == 24)
                fprintf(md, ", ...");
            listed++;
        }
        if (listed > 24)
            fprintf(md, " (%zu sizes)", listed);
        fprintf(md, " | ");
        md_cell(md, x->note[0] ? x->note : "-");
        fprintf(md, " |\n");
    }
    free(done);
}
