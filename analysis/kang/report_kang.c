/* Kang et al. 2019's comparison: root gathering as the MPI library does it
 * (T_old) over the paper's algorithms (T_new), per case, in the paper's
 * metric (the maximum over processes), beside the cost models' ratio (the
 * registry's models with the fitted alpha and beta), the finite-p model
 * (transfer only; docs/papers.md, "Kang: the finite-p model") and Eq. (5); and Fig. 6's plot, T_old / T_new
 * against the size with a line per setting, one panel per process count.
 * The algorithms are found by their cost models (algorithms.def), as the
 * paper's equations name them. */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fits.h"

typedef struct {
    const char *coll, *old_model, *new_model;
    int v;    /* allgatherv: the finite-p model of MPICH's allgatherv code */
    int gate; /* Algorithm 1 or 2: the finite-p model and Fig. 6; 0: the
                 EuroMPI algorithm of Fig. 4, which has none (the paper gives
                 it no cost formula of its own) */
} kang_pair;

static const kang_pair pairs[] = {
    {"inter_allgather", "kang_eq2_root_gather", "kang_eq3_segmented", 0, 1},
    {"inter_allgatherv", "root_gather_v_linear", "kang_eq4_stream", 1, 1},
    {"inter_allgather", "kang_eq2_root_gather", "kang_two_step", 0, 0},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

/* Whether g ran both algorithms of pair pp (then named in *old_alg, *new_alg). */
static int has_pair(const group *g, const kang_pair *pp, const char **old_alg, const char **new_alg)
{
    if (strcmp(g->collective, pp->coll))
        return 0;
    *old_alg = cs_cost_model_alg(g->collective, pp->old_model);
    *new_alg = cs_cost_model_alg(g->collective, pp->new_model);
    return *old_alg && *new_alg && strset_index(&g->algs, *old_alg) < g->algs.n &&
           strset_index(&g->algs, *new_alg) < g->algs.n;
}

/* The Algorithm 1 or 2 pair g ran (Fig. 6's); NULL if none. */
static const kang_pair *pair_of(const group *g, const char **old_alg, const char **new_alg)
{
    for (size_t i = 0; i < NPAIRS; i++)
        if (pairs[i].gate && has_pair(g, &pairs[i], old_alg, new_alg))
            return &pairs[i];
    return NULL;
}

/* The simulated ratio is "within 10%" of the finite-p model when it lies in
 * [0.9 lo, 1.1 hi]: 0, or the signed distance to the range in percent. */
static double off_range(double sim, double lo, double hi)
{
    if (sim < 0.9 * lo)
        return 100 * (sim - lo) / lo;
    if (sim > 1.1 * hi)
        return 100 * (sim - hi) / hi;
    return 0;
}

static void groups_cell(const group *g, long np, char *buf, size_t len)
{
    cs_cost_params c;
    memset(&c, 0, sizeof c);
    group_groups(g, np, &c);
    snprintf(buf, len, "%d:%d %s, k_A:k_B %s%s%s", c.gp, c.gq, g->layout,
             g->block_ratio[0] ? g->block_ratio : "1:1", g->counts[0] ? ", " : "", g->counts);
}

static void table(const report *r, const kang_pair *pp, const cs_platform_fit *fits, size_t nfits,
                  size_t *in, size_t *out)
{
    FILE *md = r->md;
    int head = 0;
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        const char *oa, *na;
        if (g->hidden || !has_pair(g, pp, &oa, &na))
            continue;
        if (!head++)
            fprintf(md, "\n### %s: %s / %s\n\n| platform | mapping | ppn | groups | np | size "
                        "(group A block) | T_old max (µs) | T_new max (µs) | simulated, max | "
                        "simulated, avg | model (cost models) | finite-p model | Eq. (5) | "
                        "within 10%% of finite-p |\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|"
                        "---:|---:|---:|---|\n",
                    pp->coll, oa, na);
        const cs_hockney *h = fit_net(fits, nfits, g->platform);
        for (size_t p = 0; p < g->nps.n; p++)
            for (size_t s = 0; s < g->sizes.n; s++) {
                long np = g->nps.v[p], b = g->sizes.v[s];
                const cs_result *xo = find(r, g, np, b, oa), *xn = find(r, g, np, b, na);
                if (!xo || !xn || !(xn->max_us > 0) || !(xn->avg_us > 0))
                    continue;
                cs_cost_params c;
                memset(&c, 0, sizeof c);
                if (h)
                    c = cs_cost_params_hockney(h);
                group_groups(g, np, &c);
                double sim = xo->max_us / xn->max_us, lo = NAN, hi = NAN, model = NAN;
                if (h) {
                    double mo = cs_cost_predict_params(g->collective, oa, (int)np, b, &c),
                           mn = cs_cost_predict_params(g->collective, na, (int)np, b, &c);
                    model = mn > 0 ? mo / mn : NAN;
                }
                char gc[128], sz[32], t1[32], t2[32], ms[32] = "-", fp[48] = "-", verdict[48] = "-";
                groups_cell(g, np, gc, sizeof gc);
                fmt_us(t1, sizeof t1, xo->max_us);
                fmt_us(t2, sizeof t2, xn->max_us);
                if (!isnan(model))
                    snprintf(ms, sizeof ms, "%.2f", model);
                if (pp->gate && !cs_kang_finite_p(&c, b, pp->v, &lo, &hi)) {
                    snprintf(fp, sizeof fp, lo < hi - 0.005 ? "%.2f-%.2f" : "%.2f", lo, hi);
                    double off = off_range(sim, lo, hi);
                    if (off == 0)
                        snprintf(verdict, sizeof verdict, "yes");
                    else
                        snprintf(verdict, sizeof verdict, "no (%+.1f%%)", off);
                    if (off == 0)
                        (*in)++;
                    else
                        (*out)++;
                }
                /* sizes given per node: the paper's x, then the block */
                char szc[80], pn[32];
                size_label(b, sz, sizeof sz);
                if (!strcmp(xo->size_unit, "node") && g->ppn > 0)
                    snprintf(szc, sizeof szc, "%s per node (%s)",
                             size_label(b * g->ppn, pn, sizeof pn), sz);
                else
                    snprintf(szc, sizeof szc, "%s", sz);
                fprintf(md, "| %s | %s | %d | %s | %ld | %s | %s | %s | %.2f | %.2f | %s | %s | "
                            "%.2f | %s |\n",
                        g->platform, g->mapping, g->ppn, gc, np, szc, t1,
                        t2, sim, xo->avg_us / xn->avg_us, ms, fp, cs_kang_eq5(&c, b), verdict);
            }
    }
}

/* Fig. 6: at one (platform, mapping, ppn, np), T_old / T_new (max) against
 * the size, a line per group of either collective. 1 written, 0 nothing. */
static int fig6(const report *r, const group *first, long np, char *name, size_t nlen)
{
    snprintf(name, nlen, "kang-fig6-%s-%s-ppn%d-np%ld", first->platform, first->mapping,
             first->ppn, np);
    for (char *q = name; *q; q++)
        if (*q == ':' || *q == '/')
            *q = '_';
    FILE *dat = open_in(r, name, "dat", r->err);
    if (!dat)
        return -1;
    clauses c = {{0}, 0, 0};
    longset sizes = {0};
    double lo = INFINITY, hi = 0;
    int blocks = 0, per_node = 0;
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        const char *oa, *na;
        if (g->hidden || strcmp(g->platform, first->platform) || strcmp(g->mapping, first->mapping) ||
            g->ppn != first->ppn || !pair_of(g, &oa, &na))
            continue;
        int pts = 0;
        for (size_t s = 0; s < g->sizes.n; s++) {
            const cs_result *xo = find(r, g, np, g->sizes.v[s], oa),
                            *xn = find(r, g, np, g->sizes.v[s], na);
            if (!xo || !xn || !(xn->max_us > 0) || g->sizes.v[s] <= 0)
                continue;
            double y = xo->max_us / xn->max_us;
            long x = g->sizes.v[s];
            if (!strcmp(xo->size_unit, "node") && g->ppn > 0) { /* Fig. 6's x: per node */
                x *= g->ppn;
                per_node = 1;
            }
            if (!pts++)
                fprintf(dat, "# %s %s: bytes T_old/T_new T_old_max_us T_new_max_us\n",
                        g->collective, g->slug);
            fprintf(dat, "%ld %.10g %.10g %.10g\n", x, y, xo->max_us, xn->max_us);
            longset_add(&sizes, x);
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
        }
        if (!pts)
            continue;
        fprintf(dat, "\n\n");
        char gc[128], t[300];
        groups_cell(g, np, gc, sizeof gc);
        snprintf(t, sizeof t, "%s %s", g->collective, gc);
        clause(&c, "'%s.dat' index %d using 1:2 with linespoints lw 1.8 pt %d ps 0.9 title '%s'",
               name, blocks, 5 + 2 * (blocks % 6), gq(t, gc, sizeof gc));
        blocks++;
    }
    fclose(dat);
    if (!blocks) {
        free(sizes.v);
        return 0;
    }
    longset_sort(&sizes);
    figure f;
    if (fig_begin(r, &f, name, 900, 600)) {
        free(sizes.v);
        return -1;
    }
    char t[512], tt[600];
    snprintf(t, sizeof t, "%s, %s, %ld processes: T_old / T_new (max over processes)",
             first->platform, first->mapping, np);
    fprintf(f.gp, "set title \"%s\"\n", dq(t, tt, sizeof tt));
    fprintf(f.gp, "set xlabel '%s'\nset ylabel 'T_old / T_new'\n",
            per_node ? "size per node (bytes, group A)" : "group A block (bytes per process)");
    size_axis(f.gp, &sizes, "x");
    ratio_axis(f.gp, lo, hi);
    line_style(f.gp, 0);
    fprintf(f.gp, "set key below\n");
    clause(&c, "1 with lines dt 2 lw 1.5 lc rgb '#707070' title 'equal time'");
    fprintf(f.gp, "%s\n", c.text);
    free(sizes.v);
    return fig_end(r, &f) ? -1 : 1;
}

static int figures(const report *r)
{
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        const char *oa, *na;
        if (g->hidden || !pair_of(g, &oa, &na))
            continue;
        /* one panel per (platform, mapping, ppn, np): drawn at its first group */
        int seen = 0;
        for (size_t j = 0; j < k && !seen; j++)
            seen = !r->g[j].hidden && pair_of(&r->g[j], &oa, &na) &&
                   !strcmp(r->g[j].platform, g->platform) && !strcmp(r->g[j].mapping, g->mapping) &&
                   r->g[j].ppn == g->ppn;
        for (size_t p = 0; p < g->nps.n && !seen; p++) {
            char name[700], alt[200];
            int rc = fig6(r, g, g->nps.v[p], name, sizeof name);
            if (rc < 0)
                return -1;
            snprintf(alt, sizeof alt, "T_old / T_new, %s, %s mapping, %ld processes", g->platform,
                     g->mapping, g->nps.v[p]);
            if (rc)
                md_figure(r->md, name, alt);
        }
    }
    return 0;
}

int sec_kang(const report *r)
{
    const char *oa, *na;
    size_t any = 0;
    for (size_t k = 0; k < r->ng; k++)
        for (size_t i = 0; i < NPAIRS; i++)
            any += !r->g[k].hidden && has_pair(&r->g[k], &pairs[i], &oa, &na);
    if (!any)
        return 0;
    cs_platform_fit *fits;
    size_t nfits;
    if (report_fits(r, &fits, &nfits))
        return -1;
    fprintf(r->md,
            "## Kang et al.: root gathering over the new algorithms\n\n"
            "T_old: root gathering as MPICH does it (inter_allgather: Eq. (2)'s structure; "
            "inter_allgatherv: MPICH's allgatherv code, linear gathervs then broadcasts); T_new: "
            "Algorithm 1 (allgather) or 2 (allgatherv), and in a table of its own the EuroMPI 2018 "
            "two-step algorithm of Fig. 4 (kang_two_step; the paper gives it no cost formula of its own, so no "
            "finite-p model). "
            "\"simulated, max\": T_old / T_new in the "
            "paper's metric, the maximum over processes (\"avg\": the average). \"model\": the same "
            "ratio from the algorithms' cost models (algorithms.def, cost column) with the "
            "platform's fitted α and β (%s). \"finite-p model\": the transfer-only model of "
            "docs/papers.md, \"Kang: the finite-p model\" (Kang et al. 2019 Sec. 5, Eqs. (2) to "
            "(5) at finite p): Algorithm 1's group allgathervs cost "
            "between the lock-step ring (low ratio) and the fluid bound (high); allgatherv: MPICH's "
            "code (K_A + K_B + 2M) over Algorithm 2 between M + largest block and M. Eq. (5): the "
            "paper's limit (M + 3 (K_A + K_B)) / M, for allgatherv with the totals as the paper "
            "applies it (MPICH's allgatherv is not structured so: its own limit is about 4). "
            "\"within 10%%\": the simulated ratio lies in [0.9 low, 1.1 high] of the finite-p "
            "range, else its distance to the range (the finite-p model assumes a homogeneous network: one process per node, every pair alike).\n",
            nfits ? "platforms.csv beside the results" : "not measured: no platforms.csv beside "
                                                         "the results");
    size_t in = 0, out = 0;
    for (size_t i = 0; i < NPAIRS; i++)
        table(r, &pairs[i], fits, nfits, &in, &out);
    fprintf(r->md, "\nWithin 10%% of the finite-p model: %zu of %zu cases.\n\n", in, in + out);
    free(fits);
    return figures(r);
}
