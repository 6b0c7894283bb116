/* Kandalla et al. 2010's models beside the simulation: per gather or
 * scatter case with both the binomial tree and the topology-aware
 * algorithm, K3 (the binomial's lower bound), K4 (the topology-aware one's)
 * and K5 = K3 / K4 (the speed-up the paper predicts), from the platform's
 * fitted inter-node α and β (t_s, t_w inter-switch) and the regions the
 * case's ranks were in (the placement column: which of the root's binomial
 * steps cross regions, C3, and how many regions, R), against the simulated
 * times and their ratio. The formulas, typos fixed: docs/papers.md,
 * "Kandalla: the cost model K1-K5" (Kandalla et al. 2010 Sec. 4.1, 4.2);
 * the algorithms are found by their cost models (algorithms.def). */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fits.h"

/* The algorithms of g that K3 (the binomial replay) and K4 (the
 * topology-aware replay) model; 0 unless g ran both. */
static int pair_of(const group *g, const char **bin, const char **topo)
{
    if (strcmp(g->collective, "gather") && strcmp(g->collective, "scatter"))
        return 0;
    *bin = cs_cost_model_alg(g->collective, "rooted_binomial");
    *topo = cs_cost_model_alg(g->collective, "rooted_topo_aware");
    return *bin && *topo && strset_index(&g->algs, *bin) < g->algs.n &&
           strset_index(&g->algs, *topo) < g->algs.n;
}

static void fmt_ratio(char *buf, size_t len, double v)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
}

static void table(const report *r, const group *g, const cs_hockney *h, size_t *held, size_t *cases)
{
    const char *bin, *topo;
    pair_of(g, &bin, &topo);
    char title[512], level[32] = "";
    group_title(r, g, title, sizeof title, 1);
    fprintf(r->md, "\n### %s\n\n| np | size | level | R | C3 | C3 δ | K3 (µs) | K4 (µs) | K5 = K3/K4 "
                   "| %s, max (µs) | %s, max (µs) | simulated ratio, max | simulated ratio, mean "
                   "| bounds hold |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                   "---:|---|\n",
            title, bin, topo);
    for (size_t p = 0; p < g->nps.n; p++) {
        const long np = g->nps.v[p];
        int *reg = cs_xmalloc(sizeof(int) * (size_t)np);
        for (size_t s = has_zero_size(g); s < g->sizes.n; s++) {
            const long b = g->sizes.v[s];
            const cs_result *xb = find(r, g, np, b, bin), *xt = find(r, g, np, b, topo);
            if (!xb || !xt)
                continue;
            char lab[32], k3[32] = "-", k4[32] = "-", k5[32] = "-", sb[32], st[32], rm[32], ra[32];
            char c3d[32] = "-", holds[48] = "-";
            cs_cost_params c;
            memset(&c, 0, sizeof c);
            if (h)
                c = cs_cost_params_hockney(h);
            const int placed = !group_region_of(r, g, xb, reg, level, sizeof level);
            c.region_of = placed ? reg : NULL;
            c.root = g->root;
            cs_kandalla k = cs_kandalla_models((int)np, b, &c);
            if (placed && h) {
                fmt_us(k3, sizeof k3, k.k3 * 1e6);
                fmt_us(k4, sizeof k4, k.k4 * 1e6);
                fmt_ratio(k5, sizeof k5, k.k5);
                const int ok = k.k3 * 1e6 <= modelled_us(xb) && k.k4 * 1e6 <= modelled_us(xt);
                snprintf(holds, sizeof holds, "%s", ok ? "yes" : "no");
                *held += ok;
                (*cases)++;
            }
            if (placed)
                snprintf(c3d, sizeof c3d, "%.3f", k.c3_delta);
            fmt_us(sb, sizeof sb, modelled_us(xb));
            fmt_us(st, sizeof st, modelled_us(xt));
            fmt_ratio(rm, sizeof rm, modelled_us(xb) / modelled_us(xt));
            fmt_ratio(ra, sizeof ra, xb->avg_us / xt->avg_us);
            if (placed)
                fprintf(r->md, "| %ld | %s | %s | %ld | %d | %s |", np, size_label(b, lab, sizeof lab),
                        level, k.R, k.c3, c3d);
            else
                fprintf(r->md, "| %ld | %s | - | - | - | - |", np, size_label(b, lab, sizeof lab));
            fprintf(r->md, " %s | %s | %s | %s | %s | %s | %s | %s |\n", k3, k4, k5, sb, st, rm, ra,
                    placed ? holds : "placement not recorded");
        }
        free(reg);
    }
}

static void intro(const report *r, size_t nfits)
{
    fprintf(r->md,
            "## Kandalla et al.: K3, K4 and K5 beside the simulation\n\n"
            "The paper's bounds (Kandalla et al. 2010 Sec. 4.1 and 4.2, typos fixed as "
            "docs/papers.md, \"Kandalla: the cost model K1-K5\", reads them), with the "
            "platform's fitted inter-node α and β as t_s and t_w between switches (%s) and the "
            "contention factor 1. The regions are the case's own (its placement column, at the "
            "level the topology-aware rows ran at): R of them; C3 counts the root's binomial steps "
            "whose partner is in another region, C3 δ the share of the p N bytes those steps "
            "bring. K3 = C3 t_s + p N C3 δ t_w bounds the binomial tree from below, K4 = "
            "ceil(log2 R) t_s + (p - n_root) N t_w the topology-aware algorithm (the paper's "
            "(1 - 1/R) M: what leaves the other regions), and K5 = K3 / K4 is the speed-up the "
            "paper reads from them. The simulated times are each call's slowest process "
            "(`call_max_us`, the collective's completion, which the bounds are about); the last "
            "ratio is the paper's metric, the mean over processes. \"bounds hold\": both "
            "simulated times at or above their bound.\n",
            nfits ? "platforms.csv beside the results"
                  : "not measured: no platforms.csv beside the results");
}

int sec_kandalla(const report *r)
{
    const char *bin, *topo;
    cs_platform_fit *fits;
    size_t nfits, held = 0, cases = 0, shown = 0;
    if (report_fits(r, &fits, &nfits))
        return -1;
    for (size_t k = 0; k < r->ng; k++) {
        if (r->g[k].hidden || !pair_of(&r->g[k], &bin, &topo))
            continue;
        if (!shown++)
            intro(r, nfits);
        table(r, &r->g[k], fit_net(fits, nfits, r->g[k].platform), &held, &cases);
    }
    if (cases)
        fprintf(r->md, "\nBoth bounds hold in %zu of %zu cases.\n", held, cases);
    if (shown)
        fprintf(r->md, "\n");
    free(fits);
    return 0;
}
