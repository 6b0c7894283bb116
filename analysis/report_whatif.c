/* What-if platform variants (<vary>): their series, figures and tables. */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what-if variants ---- */
/* The parameter's value as the scenario gave it: x0.5 (a factor) or 16. */
static const char *variant_label(const cs_variant *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s%.10g", v->absolute ? "" : "x", v->value);
    return buf;
}

static void series_title(const series *s, char *buf, size_t len, int multi_coll)
{
    const group *g = s->g[0];
    snprintf(buf, len, "%s, %s varied, %s mapping%s%s", g->v.base, g->v.name, g->mapping,
             multi_coll ? ", " : "", multi_coll ? g->collective : "");
}

/* A tic at every value (every k-th when there are many), logarithmic when the
 * values span more than a decade, so that 0.1 .. 4 does not crowd the left. */
static void param_axis(FILE *gp, const series *s)
{
    double lo = s->g[0]->v.value, hi = s->g[s->n - 1]->v.value;
    if (hi / lo > 10) {
        fprintf(gp, "set logscale x 10\nset xrange [%g:%g]\n", lo / 1.3, hi * 1.3);
    } else {
        double pad = hi > lo ? 0.06 * (hi - lo) : 0.2 * lo;
        fprintf(gp, "set xrange [%g:%g]\n", lo - pad, hi + pad);
    }
    size_t step = (s->n + 11) / 12;
    fprintf(gp, "set xtics (");
    for (size_t i = 0; i < s->n; i += step) {
        char lab[48];
        fprintf(gp, "%s'%s' %.10g", i ? ", " : "", variant_label(&s->g[i]->v, lab, sizeof lab),
                s->g[i]->v.value);
    }
    fprintf(gp, ")\n");
}

/* A log axis whose range hugs the data (whole decades would waste half the
 * height), with tics at 1, 2, 5 x 10^k so that less than two decades still
 * get several labels. */
static void log_axis_hugging(FILE *gp, const char *axis, double lo, double hi)
{
    fprintf(gp, "set logscale %s 10\nset %srange [%g:%g]\nset %stics (", axis, axis, lo, hi, axis);
    static const double steps[] = {1, 2, 5};
    int first = 1, sparse = hi / lo > 1000; /* many decades: the powers of 10 suffice */
    for (double d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
        for (size_t i = 0; i < (sparse ? 1 : 3); i++)
            if (d * steps[i] >= lo && d * steps[i] <= hi) {
                fprintf(gp, "%s'%.10g' %.10g", first ? "" : ", ", d * steps[i], d * steps[i]);
                first = 0;
            }
    fprintf(gp, ")\n");
}

static int is_unit_factor(const cs_variant *v) { return !v->absolute && v->value == 1; }

/* Latency against the parameter at one (np, size), a line per algorithm.
 * 1 written, 0 nothing to draw, -1 error. */
static int fig_whatif(const report *r, const series *s, long np, long bytes, const char *title,
                      char *name, size_t nlen)
{
    char lab[32];
    snprintf(name, nlen, "whatif-%s-np%ld-%s", s->slug, np, size_label(bytes, lab, sizeof lab));
    FILE *dat = open_in(r, name, "dat", r->err);
    if (!dat)
        return -1;
    alg_lines l;
    lines_start(&l, dat, name);
    const cs_variant *v = &s->g[0]->v;
    for (size_t a = 0; a < s->algs.n; a++) {
        const char *alg = s->algs.v[a];
        char header[200];
        snprintf(header, sizeof header, "%s: %s avg_us min_us max_us", alg, v->name);
        for (size_t i = 0; i < s->n; i++) {
            const cs_result *x = find(r, s->g[i], np, bytes, alg);
            if (x && x->avg_us > 0)
                lines_point(&l, header, x->avg_us, "%.10g %.10g %.10g %.10g", s->g[i]->v.value,
                            x->avg_us, x->min_us, x->max_us);
        }
        lines_alg_done(r, &l, alg, "1.8", "1.1");
    }
    fclose(dat);
    if (!l.blocks)
        return 0;
    double lo = l.lo, hi = l.hi;
    figure f;
    if (fig_begin(r, &f, name, 900, 560))
        return -1;
    char t[512];
    fprintf(f.gp, "set title \"%s\\n%ld processes, %s bytes per rank\"\n", dq(title, t, sizeof t), np,
            lab);
    char xl[300];
    if (v->absolute)
        snprintf(xl, sizeof xl, "%s", v->name);
    else
        snprintf(xl, sizeof xl, "%s: factor on %s's value", v->name, v->base);
    fprintf(f.gp, "set xlabel \"%s\"\nset ylabel 'average latency (µs)'\n", dq(xl, t, sizeof t));
    param_axis(f.gp, s);
    /* from 0 when linear, so that a flat line reads as "no effect" */
    if (hi / lo >= 10)
        log_axis_hugging(f.gp, "y", lo / 1.5, hi * 1.5);
    else
        fprintf(f.gp, "set yrange [0:%g]\nset format y '%%.10g'\n", hi * 1.1);
    line_style(f.gp, 1);
    if (is_unit_factor(&s->g[s->ref]->v)) {
        char q[256];
        fprintf(f.gp, "set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lw 1.2 lc rgb '#909090'\n");
        clause(&l.c, "NaN with lines dt 2 lw 1.2 lc rgb '#909090' title 'x1: %s as it is'",
               gq(v->base, q, sizeof q));
    }
    fprintf(f.gp, "%s\n", l.c.text);
    return fig_end(r, &f) ? -1 : 1;
}

/* (T - T_ref) / T_ref in %, NAN without both times. */
static double change_pct(const cs_result *x, const cs_result *ref)
{
    return x && ref && ref->avg_us > 0 ? 100 * (x->avg_us - ref->avg_us) / ref->avg_us : NAN;
}

typedef struct {
    double pct;
    const char *alg;
    long np, bytes;
    const group *g;
} change_at;

static void print_change(FILE *md, const char *what, const change_at *c)
{
    char lab[32], val[48];
    fprintf(md, "%s %+.1f %% (%s, %ld processes, %s, %s)", what, c->pct, c->alg, c->np,
            size_label(c->bytes, lab, sizeof lab), variant_label(&c->g->v, val, sizeof val));
}

/* The largest slowdown and speedup against the reference over every case. */
static void largest_changes(const report *r, const series *s)
{
    change_at up = {0, NULL, 0, 0, NULL}, down = up;
    for (size_t p = 0; p < s->nps.n; p++)
        for (size_t b = 0; b < s->sizes.n; b++)
            for (size_t a = 0; a < s->algs.n; a++) {
                const char *alg = s->algs.v[a];
                long np = s->nps.v[p], bytes = s->sizes.v[b];
                const cs_result *ref = find(r, s->g[s->ref], np, bytes, alg);
                for (size_t i = 0; i < s->n; i++) {
                    double d = change_pct(find(r, s->g[i], np, bytes, alg), ref);
                    change_at *c = d > up.pct ? &up : d < down.pct ? &down : NULL;
                    if (c)
                        *c = (change_at){d, alg, np, bytes, s->g[i]};
                }
            }
    if (!up.alg && !down.alg) {
        fprintf(r->md, "No case changes against the reference.\n\n");
        return;
    }
    if (up.alg)
        print_change(r->md, "Largest slowdown against the reference:", &up);
    if (up.alg && down.alg)
        fprintf(r->md, "; ");
    if (down.alg)
        print_change(r->md, up.alg ? "largest speedup:" : "Largest speedup against the reference:",
                     &down);
    fprintf(r->md, ".\n\n");
}

/* One table per process count: a row per (size, value), the best algorithm
 * (best.c) and each algorithm's time and change from the reference. */
static void whatif_table(const report *r, const series *s, long np, const long *sizes, size_t nsizes)
{
    FILE *md = r->md;
    fprintf(md, "| size | %s | best |", s->g[0]->v.name);
    for (size_t a = 0; a < s->algs.n; a++)
        fprintf(md, " %s (µs) | change (%%) |", s->algs.v[a]);
    fprintf(md, "\n|---:|---:|---|");
    for (size_t a = 0; a < s->algs.n; a++)
        fprintf(md, "---:|---:|");
    fprintf(md, "\n");
    for (size_t b = 0; b < nsizes; b++)
        for (size_t i = 0; i < s->n; i++) {
            const cs_best *best = find_best(r->best, r->nbest, s->g[i], np, sizes[b]);
            char lab[32], val[48], names[512];
            fprintf(md, "| %s | %s | %s |", size_label(sizes[b], lab, sizeof lab),
                    variant_label(&s->g[i]->v, val, sizeof val),
                    best ? cs_best_names(best, 0, names, sizeof names) : "-");
            for (size_t a = 0; a < s->algs.n; a++) {
                const cs_result *x = find(r, s->g[i], np, sizes[b], s->algs.v[a]);
                double d = change_pct(x, find(r, s->g[s->ref], np, sizes[b], s->algs.v[a]));
                char us[32], pct[32];
                fmt_us(us, sizeof us, x ? x->avg_us : NAN);
                if (i == s->ref)
                    snprintf(pct, sizeof pct, "ref");
                else if (isnan(d))
                    snprintf(pct, sizeof pct, "-");
                else
                    snprintf(pct, sizeof pct, "%+.1f", d);
                fprintf(md, " %s | %s |", us, pct);
            }
            fprintf(md, "\n");
        }
    fprintf(md, "\n");
}

int sec_whatif(const report *r, int multi_coll)
{
    FILE *md = r->md;
    fprintf(md, "## What-if: platform variants\n\n"
                "The results hold what-if variants (a scenario's `<vary>`): BASE@NAME=xF is platform "
                "BASE with parameter NAME multiplied by F, BASE@NAME=V with NAME set to V; their files "
                "are in `platforms/` next to the results. Per (base platform, parameter, mapping): "
                "the average latency against the parameter for up to %d process counts and %d sizes "
                "spread over the range, and the change from the reference variant, (T - T_ref) / "
                "T_ref in %%, where the reference is the factor-1 variant (the platform as it is), "
                "else the smallest value.\n\n",
            WHATIF_NP, WHATIF_SIZES);
    if (r->nhidden)
        fprintf(md, "Parameters with more than %d values: the per-platform sections below and the "
                    "model tables after the α/β one show only their reference variant; the "
                    "best-algorithm tables and the α/β table list every variant.\n\n",
                VARIANTS_IN_FULL);
    for (size_t k = 0; k < r->nws; k++) {
        const series *s = &r->ws[k];
        char title[512], val[48];
        series_title(s, title, sizeof title, multi_coll);
        fprintf(md, "### %s\n\nValues: ", title);
        for (size_t i = 0; i < s->n; i++)
            fprintf(md, "%s%s", i ? ", " : "", variant_label(&s->g[i]->v, val, sizeof val));
        fprintf(md, "; reference: %s.\n\n", variant_label(&s->g[s->ref]->v, val, sizeof val));
        largest_changes(r, s);
        long nps[WHATIF_NP], sizes[WHATIF_SIZES];
        size_t nn = spread(s->nps.v, s->nps.n, WHATIF_NP, nps);
        size_t first = s->sizes.n > 1 && s->sizes.v[0] == 0; /* size 0 has no latency to plot */
        size_t ns = spread(s->sizes.v + first, s->sizes.n - first, WHATIF_SIZES, sizes);
        if (nn < s->nps.n || ns < s->sizes.n - first)
            fprintf(md, "For readability: %zu of %zu process counts and %zu of %zu sizes, spread "
                        "over the range.\n\n",
                    nn, s->nps.n, ns, s->sizes.n - first);
        for (size_t p = 0; p < nn; p++) {
            fprintf(md, "#### %ld processes\n\n", nps[p]);
            for (size_t b = 0; b < ns; b++) {
                char name[700], alt[128], lab[32];
                int rc = fig_whatif(r, s, nps[p], sizes[b], title, name, sizeof name);
                if (rc < 0)
                    return -1;
                snprintf(alt, sizeof alt, "latency against %s, %ld processes, %s", s->g[0]->v.name,
                         nps[p], size_label(sizes[b], lab, sizeof lab));
                if (rc)
                    md_figure(md, name, alt);
            }
            whatif_table(r, s, nps[p], sizes, ns);
        }
    }
    return 0;
}

static int cmp_variant_value(const void *a, const void *b)
{
    double x = (*(group *const *)a)->v.value, y = (*(group *const *)b)->v.value;
    return x < y ? -1 : x > y;
}

/* Collects the variants of each (base platform, parameter, collective,
 * mapping) into a series, and hides from the per-platform sections all but
 * the reference of a series with many values. */
void plan_whatif(report *r)
{
    r->ws = cs_xmalloc((r->ng ? r->ng : 1) * sizeof *r->ws);
    for (size_t k = 0; k < r->ng; k++) {
        group *g = &r->g[k];
        if (cs_variant_parse(g->platform, &g->v))
            continue;
        series *s = NULL;
        for (size_t i = 0; i < r->nws && !s; i++) {
            const group *f = r->ws[i].g[0];
            if (!strcmp(f->v.base, g->v.base) && !strcmp(f->v.name, g->v.name) &&
                f->v.absolute == g->v.absolute &&
                !strcmp(f->collective, g->collective) && !strcmp(f->mapping, g->mapping))
                s = &r->ws[i];
        }
        if (!s) {
            s = &r->ws[r->nws++];
            memset(s, 0, sizeof *s);
            s->g = cs_xmalloc(r->ng * sizeof *s->g);
            char key[256];
            snprintf(key, sizeof key, "%s@%s", g->v.base, g->v.name);
            slugify(s->slug, sizeof s->slug, key, g->collective, g->mapping);
        }
        s->g[s->n++] = g;
        for (size_t i = 0; i < g->nps.n; i++)
            longset_add(&s->nps, g->nps.v[i]);
        for (size_t i = 0; i < g->sizes.n; i++)
            longset_add(&s->sizes, g->sizes.v[i]);
        for (size_t i = 0; i < g->algs.n; i++)
            strset_add(&s->algs, g->algs.v[i]);
    }
    for (size_t k = 0; k < r->nws; k++) {
        series *s = &r->ws[k];
        qsort(s->g, s->n, sizeof *s->g, cmp_variant_value);
        longset_sort(&s->nps);
        longset_sort(&s->sizes);
        strset_sort(&s->algs);
        for (size_t i = 0; i < s->n; i++)
            if (is_unit_factor(&s->g[i]->v))
                s->ref = i;
        for (size_t i = 0; i < s->n && s->n > VARIANTS_IN_FULL; i++)
            if (i != s->ref) {
                s->g[i]->hidden = 1;
                r->nhidden++;
            }
    }
}
