/* The cost models against the simulation, with the alpha/beta fits `run`
 * wrote beside the results (fits.h). */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fits.h"

static const cs_hockney *model_params(const cs_platform_fit *pm)
{
    return pm && pm->measured ? (pm->has_inter ? &pm->inter.h : &pm->intra.h) : NULL;
}

int report_fits(const report *r, cs_platform_fit **fits, size_t *n)
{
    char path[1200];
    cs_fits_path_beside(r->o->results, path, sizeof path);
    *fits = NULL;
    *n = 0;
    return cs_fits_read(path, fits, n, r->err) < 0 ? -1 : 0;
}

const cs_hockney *fit_net(const cs_platform_fit *fits, size_t n, const char *platform)
{
    return model_params(cs_fits_find(fits, n, platform));
}

/* The intergroup case of g at np (its ratio scaled: P + Q = np), from its
 * rows' dtype. */
void group_groups(const group *g, long np, cs_cost_params *c)
{
    int a, b;
    if (!g->gratio[0] || sscanf(g->gratio, "%d:%d", &a, &b) != 2 || np % (a + b))
        return;
    char groups[48];
    snprintf(groups, sizeof groups, "%ld:%ld", np / (a + b) * a, np / (a + b) * b);
    cs_cost_params_groups(c, groups, g->block_ratio, g->counts, g->dtype);
}

/* A model's prediction for a group's case: p_l is the group's ranks per node
 * (loc-Bruck's region = node; NaN when the default), the local level is the
 * intra-node ping-pong when known, and a window:R distribution gives the
 * mean block N (1 - R/200) (the others' mean is N/2, the model's default).
 * Gather and scatter replay their schedules over the regions the case's
 * row x recorded (its placement column; group_region_of) from its root.
 * ALG@LEVEL is modelled as ALG. */
double group_predict(const report *r, const group *g, const cs_result *x, const char *alg,
                     long np, long bytes, const cs_hockney *net, const cs_hockney *local)
{
    if (!net)
        return NAN;
    char name[128];
    snprintf(name, sizeof name, "%s", alg);
    char *at = strchr(name, '@');
    if (at)
        *at = 0;
    cs_cost_params c = cs_cost_params_hockney(net);
    if (local)
        c.local.eager = c.local.rdv = *local;
    c.ppn = g->ppn;
    int R;
    if (sscanf(g->dist, "window:%d", &R) == 1)
        c.mean_block = bytes * (1 - R / 200.0);
    group_groups(g, np, &c);
    if (x)
        c.segment = x->segment;
    /* local work (copies, the arithmetic) costs time under the full models only */
    if (!strcmp(g->model, "full") || !strcmp(g->model, "full-arith-copy"))
        cs_fits_local_work(cs_fits_find(r->fits, r->nfits, g->platform),
                           !strcmp(g->model, "full-arith-copy"), &c);
    int *reg = NULL;
    if (x && g->root_us_seen && x->placement[0]) {
        reg = cs_xmalloc(sizeof(int) * (size_t)np);
        if (!group_region_of(r, g, x, reg, NULL, 0)) {
            c.region_of = reg;
            c.root = g->root;
        }
    }
    const double t = cs_cost_predict_params(g->collective, name, (int)np, bytes, &c);
    free(reg);
    return t;
}

/* Largest size of the group at np where `a` is faster than `b` while every
 * smaller size also is (the simulated crossover); -1: not even at the
 * smallest size, 0 when a row is missing. *all: a wins at every size. */
static long wins_up_to(const report *r, const group *g, long np, const char *a, const char *b,
                       int *all)
{
    long last = -1;
    *all = 1;
    for (size_t s = has_zero_size(g); s < g->sizes.n; s++) {
        const cs_result *x = find(r, g, np, g->sizes.v[s], a), *y = find(r, g, np, g->sizes.v[s], b);
        if (!x || !y)
            return 0;
        if (!(x->avg_us < y->avg_us)) {
            *all = 0;
            break;
        }
        last = g->sizes.v[s];
    }
    return last;
}

static void fmt_wins(char *buf, size_t len, long last, int all)
{
    char sz[32];
    if (last == 0)
        snprintf(buf, len, "-");
    else if (last < 0)
        snprintf(buf, len, "never");
    else
        snprintf(buf, len, "%s %s", all ? "at every N up to" : "up to N =",
                 size_label(last, sz, sizeof sz));
}

/* Fan et al.'s questions, per alltoallv group: up to which N padded Bruck
 * beats two-phase Bruck (simulated, and inequality (3)'s N* with the
 * platform's inter-node α and β), and up to which N two-phase Bruck beats
 * the spread-out exchange. */
static void sec_fan_crossovers(const report *r, const cs_platform_fit *pm, size_t npm, int multi_coll)
{
    /* the algorithms modelled by Fan's Eqs. (1) and (2) and the linear exchange */
    const char *pad = cs_cost_model_alg("alltoallv", "padded_bruck"),
               *two = cs_cost_model_alg("alltoallv", "two_phase_bruck"),
               *lin = cs_cost_model_alg("alltoallv", "spread_out_v");
    if (!pad || !two || !lin)
        return;
    int any = 0;
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        if (strcmp(g->collective, "alltoallv") || g->hidden || strset_index(&g->algs, two) >= g->algs.n)
            continue;
        int has_pad = strset_index(&g->algs, pad) < g->algs.n,
            has_so = strset_index(&g->algs, lin) < g->algs.n;
        if (!has_pad && !has_so)
            continue;
        const cs_hockney *h = NULL;
        for (size_t i = 0; i < npm; i++)
            if (!strcmp(pm[i].platform, g->platform))
                h = model_params(&pm[i]);
        if (!any) {
            fprintf(r->md,
                    "\n### alltoallv crossovers (Fan et al.)\n\n"
                    "N is the largest block size (bytes). \"padded wins\": padded Bruck faster than "
                    "two-phase Bruck at every N up to the one given (simulated). N* is inequality (3), "
                    "(N - 8)(P + 1) β < 4 α, with the inter-node α and β above: padded Bruck should "
                    "win below it. \"two-phase beats spread-out\": the same reading for two-phase "
                    "Bruck against the spread-out exchange.\n\n");
            any = 1;
        }
        char title[512];
        group_title(r, g, title, sizeof title, multi_coll);
        fprintf(r->md, "%s\n\n| P | padded wins (simulated) | N* (inequality 3) | two-phase beats spread-out |\n"
                       "|---:|---|---:|---|\n", title);
        for (size_t p = 0; p < g->nps.n; p++) {
            long np = g->nps.v[p];
            int all = 0;
            char w1[64] = "-", w2[64] = "-", ns[32] = "-";
            /* wins_up_to sets `all`: call it before reading `all` */
            if (has_pad) {
                long last = wins_up_to(r, g, np, pad, two, &all);
                fmt_wins(w1, sizeof w1, last, all);
            }
            if (has_so) {
                long last = wins_up_to(r, g, np, two, lin, &all);
                fmt_wins(w2, sizeof w2, last, all);
            }
            if (h)
                snprintf(ns, sizeof ns, "%.1f", cs_fan_padded_crossover((int)np, h));
            fprintf(r->md, "| %ld | %s | %s | %s |\n", np, w1, ns, w2);
        }
        fprintf(r->md, "\n");
    }
}

/* The fit of g's platform in pm (every group's platform has one). */
static const cs_platform_fit *fit_of(const cs_platform_fit *pm, const group *g)
{
    size_t i = 0;
    while (strcmp(pm[i].platform, g->platform))
        i++;
    return &pm[i];
}

/* One fit per platform of the groups, in their order, from `run`'s fits file
 * (a platform it has no row for: not measured); then their table. */
static cs_platform_fit *models_fits(const report *r, const cs_platform_fit *fits, size_t nfits,
                                    const char *path, size_t *npm)
{
    FILE *md = r->md;
    cs_platform_fit *pm = cs_xmalloc(r->ng * sizeof *pm);
    *npm = 0;
    fprintf(md, "| platform | pair | nodes | α (µs) | β (ns/B) | bandwidth (MB/s) | worst fit residual (%%) |\n"
                "|---|---|---|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < r->ng; k++) {
        size_t i = 0;
        while (i < *npm && strcmp(pm[i].platform, r->g[k].platform))
            i++;
        if (i < *npm)
            continue;
        cs_platform_fit *p = &pm[(*npm)++];
        const cs_platform_fit *f = cs_fits_find(fits, nfits, r->g[k].platform);
        if (f) {
            *p = *f;
        } else {
            memset(p, 0, sizeof *p);
            snprintf(p->platform, sizeof p->platform, "%s", r->g[k].platform);
            snprintf(p->why, sizeof p->why, "no row in %s", path);
        }
        if (!p->measured) {
            fprintf(md, "| %s | - | - | - | - | - | not measured: ", p->platform);
            md_cell(md, p->why);
            fprintf(md, " |\n");
            continue;
        }
        for (int inter = 1; inter >= 0; inter--) {
            const cs_postal *x = inter ? &p->inter : &p->intra;
            if (inter && !p->has_inter)
                continue;
            fprintf(md, "| %s | %s | %s, %s | %.4f | %.5f | %.2f | %.3f |\n", p->platform,
                    inter ? "inter-node" : "intra-node", x->node_a, x->node_b, x->h.alpha * 1e6,
                    x->h.beta * 1e9, x->h.beta > 0 ? 1e-6 / x->h.beta : INFINITY,
                    100 * x->max_rel_residual);
        }
    }
    return pm;
}

static void models_formulas(const report *r, const strset *with, const strset *without)
{
    FILE *md = r->md;
    fprintf(md, "\n| algorithm | model (p ranks; m: p × bytes per rank for the allgathers, the "
                "vector's bytes for bcast, reduce and allreduce, one rank's block for the "
                "reduce-scatters; other symbols as the formula says) | source |\n|---|---|---|\n");
    for (size_t a = 0; a < with->n; a++) {
        const cs_cost_model *m = NULL;
        for (size_t k = 0; k < r->ng && !m; k++)
            m = cs_cost_model_find(r->g[k].collective, with->v[a]);
        fprintf(md, "| %s | %s | %s |\n", with->v[a], m->formula, m->note);
    }
    if (without->n) {
        fprintf(md, "\nNo model: ");
        for (size_t a = 0; a < without->n; a++)
            fprintf(md, "%s%s", a ? ", " : "", without->v[a]);
        fprintf(md, " (SMPI's own algorithms, or `none` in the cost column of algorithms/algorithms.def).\n");
    }
}

/* The mapping cell of g's rows: the mapping, and an intergroup case's
 * groups (ratio, layout, block ratio, counts), so that its rows are told apart. */
static const char *mapping_cell(const group *g, char *buf, size_t len)
{
    if (!g->gratio[0])
        return g->mapping;
    snprintf(buf, len, "%s, groups %s %s k_A:k_B %s%s%s", g->mapping, g->gratio, g->layout,
             g->block_ratio[0] ? g->block_ratio : "1:1", g->counts[0] ? " " : "", g->counts);
    return buf;
}

/* One row of the difference table: alg over every case of g. */
static void model_difference_row(const report *r, const group *g, const char *alg,
                                 const cs_platform_fit *pm, int multi_coll)
{
    const cs_hockney *h = model_params(pm);
    size_t nd = 0;
    double *d = cs_xmalloc(g->nps.n * g->sizes.n * sizeof *d), worst = 0;
    long wnp = 0, wb = 0;
    for (size_t p = 0; p < g->nps.n; p++)
        for (size_t s = 0; s < g->sizes.n; s++) {
            const cs_result *x = find(r, g, g->nps.v[p], g->sizes.v[s], alg);
            double model = x ? group_predict(r, g, x, alg, g->nps.v[p], g->sizes.v[s], h,
                                             pm->measured ? &pm->intra.h : NULL) * 1e6
                             : NAN;
            if (!(model > 0))
                continue;
            d[nd] = 100 * (modelled_us(x) - model) / model;
            if (fabs(d[nd]) > fabs(worst)) {
                worst = d[nd];
                wnp = g->nps.v[p];
                wb = g->sizes.v[s];
            }
            nd++;
        }
    if (nd) {
        qsort(d, nd, sizeof *d, cmp_double);
        double med = nd % 2 ? d[nd / 2] : (d[nd / 2 - 1] + d[nd / 2]) / 2;
        char lab[32], mc[160];
        fprintf(r->md, "| %s | %s |", g->platform, mapping_cell(g, mc, sizeof mc));
        if (multi_coll)
            fprintf(r->md, " %s |", g->collective);
        fprintf(r->md, " %s | %zu | %+.1f | %+.1f | %ld, %s |\n", alg, nd, med, worst, wnp,
                size_label(wb, lab, sizeof lab));
    }
    free(d);
}

static void models_differences(const report *r, const cs_platform_fit *pm, int multi_coll)
{
    fprintf(r->md, "\n### How far the simulation is from the model\n\n"
                   "difference = (simulated - model) / model over every case with a model and a non-zero "
                   "size; positive: the simulation is slower than the model (contention, slower links on "
                   "the path), negative: faster (ranks sharing a node).\n\n"
                   "| platform | mapping |%s algorithm | cases | median difference (%%) | difference farthest from 0 (%%) | at (np, size) |\n"
                   "|---|---|%s---|---:|---:|---:|---|\n",
            multi_coll ? " collective |" : "", multi_coll ? "---|" : "");
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        const cs_platform_fit *f = fit_of(pm, g);
        if (g->hidden || !model_params(f))
            continue;
        for (size_t a = 0; a < g->algs.n; a++)
            if (cs_cost_model_find(g->collective, g->algs.v[a]))
                model_difference_row(r, g, g->algs.v[a], f, multi_coll);
    }
}

/* The rows of one algorithm's case-by-case table for group g. */
static void model_cases(const report *r, const group *g, const char *alg, const cs_platform_fit *f)
{
    long nps[MODEL_NP], sizes[MODEL_SIZES];
    size_t first = has_zero_size(g), nn = spread(g->nps.v, g->nps.n, MODEL_NP, nps),
           ns = spread(g->sizes.v + first, g->sizes.n - first, MODEL_SIZES, sizes);
    for (size_t p = 0; p < nn; p++)
        for (size_t s = 0; s < ns; s++) {
            const cs_result *x = find(r, g, nps[p], sizes[s], alg);
            if (!x)
                continue;
            double mi =
                group_predict(r, g, x, alg, nps[p], sizes[s], model_params(f), &f->intra.h) * 1e6;
            double mn =
                group_predict(r, g, x, alg, nps[p], sizes[s], &f->intra.h, &f->intra.h) * 1e6;
            char lab[32], b1[32], b2[32], b3[32], b4[32], mc[160];
            fmt_us(b1, sizeof b1, mi);
            fmt_us(b2, sizeof b2, mn);
            fmt_us(b3, sizeof b3, modelled_us(x));
            if (mi > 0)
                snprintf(b4, sizeof b4, "%+.1f", 100 * (modelled_us(x) - mi) / mi);
            else
                snprintf(b4, sizeof b4, "-");
            fprintf(r->md, "| %s | %s | %ld | %s | %s | %s | %s | %s |\n", g->platform,
                    mapping_cell(g, mc, sizeof mc),
                    nps[p], size_label(sizes[s], lab, sizeof lab), b1, b2, b3, b4);
        }
}

static void models_case_by_case(const report *r, const cs_platform_fit *pm, const strset *with)
{
    FILE *md = r->md;
    fprintf(md, "\n### Model and simulation, case by case\n\nFor readability: up to %d process "
                "counts and %d sizes per (platform, mapping), spread over the range.\n\n",
            MODEL_NP, MODEL_SIZES);
    for (size_t a = 0; a < with->n; a++) {
        fprintf(md, "#### %s\n\n| platform | mapping | np | size | model, inter-node (µs) | "
                    "model, intra-node (µs) | simulated (µs) | difference (%%) |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|\n",
                with->v[a]);
        for (size_t k = 0; k < r->ng; k++) {
            const group *g = &r->g[k];
            const cs_platform_fit *f = fit_of(pm, g);
            if (f->measured && !g->hidden && strset_index(&g->algs, with->v[a]) < g->algs.n)
                model_cases(r, g, with->v[a], f);
        }
        fprintf(md, "\n");
    }
}

static int models_figures(const report *r, const cs_platform_fit *pm, int multi_coll)
{
    fprintf(r->md, "### Simulated / model per size\n\nAt the largest process count of each "
                   "(platform, mapping), with the inter-node α and β.\n\n");
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        const cs_platform_fit *f = fit_of(pm, g);
        if (!f->measured || g->hidden)
            continue;
        char title[512], name[700], alt[128];
        group_title(r, g, title, sizeof title, multi_coll);
        long np = g->nps.v[g->nps.n - 1];
        int rc = fig_model(r, g, model_params(f), np, title, name, sizeof name);
        if (rc < 0)
            return -1;
        snprintf(alt, sizeof alt, "simulated / model, %s, %ld processes", title, np);
        if (rc)
            md_figure(r->md, name, alt);
    }
    return 0;
}

/* The models against the simulation, with the α and β `run` fitted on each
 * platform (CS_FITS_FILE beside the results): results from before `run`
 * wrote that file get the simulated crossovers only. */
int sec_models(const report *r, int multi_coll)
{
    FILE *md = r->md;
    fprintf(md, "## Cost models against the simulation\n\n");
    strset with = {0}, without = {0};
    for (size_t k = 0; k < r->ng; k++)
        for (size_t a = 0; a < r->g[k].algs.n; a++)
            strset_add(cs_cost_model_find(r->g[k].collective, r->g[k].algs.v[a]) ? &with : &without,
                       r->g[k].algs.v[a]);
    strset_sort(&with);
    strset_sort(&without);
    if (!with.n) {
        fprintf(md, "No algorithm in the results has a cost model (SMPI's own `native:` algorithms "
                    "have none).\n\n");
        free(without.v);
        return 0;
    }
    char path[1200];
    cs_fits_path_beside(r->o->results, path, sizeof path);
    cs_platform_fit *fits;
    size_t nfits;
    int found = cs_fits_read(path, &fits, &nfits, r->err);
    if (found < 0) {
        free(with.v);
        free(without.v);
        return -1;
    }
    if (found == 1) {
        fprintf(md, "Skipped: no %s beside the results, where `collsim run` writes the α and β "
                    "it fits on each platform (results from an older collsim). `run --resume` "
                    "on that directory writes it.\n", path);
        sec_fan_crossovers(r, NULL, 0, multi_coll);
        free(with.v);
        free(without.v);
        return 0;
    }
    fprintf(md,
            "Hockney model: a message of s bytes costs α + s β. α and β are measured on each platform "
            "by a simulated ping-pong (the driver's `--coll pingpong`: one-way time = round trip / 2, "
            "10 round trips after a warm-up, sizes 0 and 1 B .. 1 MiB doubling) and fitted by least "
            "squares on relative error. The model column uses the inter-node pair (node 0 and the "
            "platform's last node): every message as if it crossed the network, with no contention. "
            "The intra-node column is the same formula with two ranks on node 0, what ranks that "
            "share a node see (the loopback is a fat pipe: concurrent messages on one node do not "
            "share its bandwidth, so an algorithm that sends several at once can beat even this "
            "column). SMPI charges 16 bytes more than the payload per message, so α includes 16 β. "
            "The simulated time is the average latency, except for gather and scatter: their models "
            "give the collective's completion (the root's last receive, the last leaf's), so they "
            "are set against the slowest process per call (`call_max_us`).\n\n");
    size_t npm;
    cs_platform_fit *pm = models_fits(r, fits, nfits, path, &npm);
    free(fits);
    models_formulas(r, &with, &without);
    models_differences(r, pm, multi_coll);
    models_case_by_case(r, pm, &with);
    int rc = models_figures(r, pm, multi_coll);
    if (!rc)
        sec_fan_crossovers(r, pm, npm, multi_coll);
    free(pm);
    free(with.v);
    free(without.v);
    return rc;
}
