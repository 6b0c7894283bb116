/* `collsim report`: loads and groups the results, then writes report.md
 * section by section (report_tables.c, report_figures.c, report_models.c,
 * report_whatif.c; shared state and helpers in report_int.h). */
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regression.h"
#include "report_int.h"

/* NAME or COLLECTIVE/NAME, as in the results' algorithm column. */
static const char *resolve_alg(const report *r, const char *spec, const char *opt, cs_err *err)
{
    const char *slash = strchr(spec, '/');
    const char *name = slash ? slash + 1 : spec;
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->rows[i].algorithm, name))
            return r->rows[i].algorithm;
    strset all = {0};
    for (size_t i = 0; i < r->n; i++)
        strset_add(&all, r->rows[i].algorithm);
    strset_sort(&all);
    char list[1500] = "";
    for (size_t i = 0; i < all.n; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", all.v[i]);
    }
    free(all.v);
    cs_fail(err, "%s '%s' is not an algorithm of %s (valid: %s)", opt, spec, r->o->results,
            all.n ? list : "none: the file has no rows");
    return NULL;
}

/* Groups that differ where no part of the slug does (dtype, mode, size_unit:
 * files mixing them) get -2, -3, ... so that no figure overwrites another's. */
static void unique_slug(const report *r, group *g)
{
    size_t used = strlen(g->slug);
    for (int k = 2;; k++) {
        size_t i = 0;
        while (i + 1 < r->ng && strcmp(r->g[i].slug, g->slug))
            i++;
        if (i + 1 >= r->ng)
            return;
        snprintf(g->slug + used, sizeof g->slug - used, "-%d", k);
    }
}

static void build_groups(report *r)
{
    r->ok = cs_xmalloc((r->n ? r->n : 1) * sizeof *r->ok);
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->rows[i].status, "ok")) {
            r->ok[r->nok++] = &r->rows[i];
            strset_add(&r->algs, r->rows[i].algorithm);
        }
    qsort(r->ok, r->nok, sizeof *r->ok, cmp_row_ptr);
    strset_sort(&r->algs);
    r->g = cs_xmalloc((r->nok ? r->nok : 1) * sizeof *r->g);
    for (size_t i = 0; i < r->nok; i++) {
        const cs_result *x = r->ok[i];
        group *g = r->ng ? &r->g[r->ng - 1] : NULL;
        if (!g || !in_group(x, g)) {
            g = &r->g[r->ng++];
            memset(g, 0, sizeof *g);
            g->first = x;
            g->platform = x->platform;
            g->collective = x->collective;
            g->mapping = x->mapping;
            g->model = x->model; /* as recorded: "" for an older file */
            g->ppn = x->ppn;
            g->hosts = x->hosts;
            g->dist = x->dist;
            g->seed = x->seed;
            cs_groups_ratio(x->groups, g->gratio, sizeof g->gratio);
            g->layout = x->layout;
            g->block_ratio = x->block_ratio;
            g->counts = x->counts;
            g->dtype = x->dtype;
            g->background = x->background;
            g->root = x->root;
            slugify(g->slug, sizeof g->slug, x->platform, x->collective, x->mapping);
            if (x->ppn || x->dist[0]) { /* figure names stay unique per group */
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-ppn%d-%s-%lu", x->ppn,
                         x->dist[0] ? x->dist : "none", x->seed);
                for (char *q = g->slug + used; *q; q++)
                    if (*q == ':')
                        *q = '_';
            }
            if (g->gratio[0]) { /* the intergroup case, likewise */
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-g%s-%s-r%s%s%s", g->gratio,
                         g->layout, g->block_ratio[0] ? g->block_ratio : "1:1",
                         g->counts[0] ? "-" : "", g->counts);
                for (char *q = g->slug + used; *q; q++)
                    if (*q == ':')
                        *q = '_';
            }
            if (x->background[0]) { /* alltoall:inter-switch:4M:96: -bg-inter-switch_4M_96 */
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-bg-%s",
                         x->background + strcspn(x->background, ":") + 1);
                for (char *q = g->slug + used; *q; q++)
                    if (*q == ':')
                        *q = '_';
            }
            if (x->model[0] && strcmp(x->model, "full")) { /* recorded other model: -model-NAME */
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-model-%s", x->model);
            }
            if (x->root) {
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-root%d", x->root);
            }
            if (x->hosts[0]) { /* node-0..3+node-4..32: -hosts-node-0..3_node-4..32 */
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-hosts-%s", x->hosts);
                for (char *q = g->slug + used; *q; q++)
                    if (*q == '+')
                        *q = '_';
            }
            unique_slug(r, g);
        }
        g->root_us_seen |= x->root_us >= 0;
        longset_add(&g->nps, x->np);
        longset_add(&g->sizes, x->bytes);
        strset_add(&g->algs, x->algorithm);
    }
    for (size_t k = 0; k < r->ng; k++) {
        longset_sort(&r->g[k].nps);
        longset_sort(&r->g[k].sizes);
        strset_sort(&r->g[k].algs);
    }
    r->nbest = cs_best_per_case(r->rows, r->n, &r->best);
}

static void header(const report *r, int multi_coll)
{
    FILE *md = r->md;
    size_t bad = r->n - r->nok;
    strset plats = {0}, maps = {0}, colls = {0};
    longset nps = {0}, sizes = {0};
    for (size_t i = 0; i < r->nok; i++) {
        strset_add(&plats, r->ok[i]->platform);
        strset_add(&maps, r->ok[i]->mapping);
        strset_add(&colls, r->ok[i]->collective);
        longset_add(&nps, r->ok[i]->np);
        longset_add(&sizes, r->ok[i]->bytes);
    }
    longset_sort(&nps);
    longset_sort(&sizes);
    fprintf(md, "# collsim report\n\nFrom `%s`: %zu rows, %zu ok", r->o->results, r->n, r->nok);
    if (bad)
        fprintf(md, ", %zu not ok (listed under [Failures](#failures))", bad);
    fprintf(md, ".\n\n");
    const strset *sets[] = {&plats, &colls, &maps, &r->algs};
    const char *names[] = {"platforms", "collectives", "mappings", "algorithms"};
    for (int k = 0; k < 4; k++) {
        if (k == 1 && !multi_coll)
            continue;
        fprintf(md, "- %s: ", names[k]);
        for (size_t i = 0; i < sets[k]->n; i++)
            fprintf(md, "%s%s", i ? ", " : "", sets[k]->v[i]);
        fprintf(md, "%s\n", sets[k]->n ? "" : "none with an ok result");
    }
    fprintf(md, "- process counts: ");
    for (size_t i = 0; i < nps.n; i++)
        fprintf(md, "%s%ld", i ? ", " : "", nps.v[i]);
    char a[32], b[32];
    if (sizes.n)
        fprintf(md, "\n- sizes (bytes per rank): %zu, from %s to %s\n", sizes.n,
                size_label(sizes.v[0], a, sizeof a), size_label(sizes.v[sizes.n - 1], b, sizeof b));
    else
        fprintf(md, "\n");
    if (r->focus)
        fprintf(md, "- focus algorithm: %s%s; speedup baseline: %s\n", r->focus,
                r->o->focus ? "" : " (the default when present)",
                r->baseline ? r->baseline : "the best other algorithm of each case");
    fprintf(md, "- times: OSU statistics over ranks of each rank's mean over the timed calls; "
                "\"average\" unless a table says otherwise\n\n");
    free(plats.v);
    free(maps.v);
    free(colls.v);
    free(nps.v);
    free(sizes.v);
}

/* An algorithm run at two region levels is two competitors: name both
 * (ALG@LEVEL); results of a single level keep the plain names. */
static void label_levels(report *r)
{
    int levels = cs_results_several_regions(r->rows, r->n);
    for (size_t i = 0; i < r->n && levels; i++)
        if (r->rows[i].region[0]) {
            cs_result *x = &r->rows[i];
            char label[sizeof x->algorithm + sizeof x->region];
            snprintf(x->algorithm, sizeof x->algorithm, "%s",
                     cs_result_alg_label(x, levels, label, sizeof label));
        }
}

/* --focus (default: sparbit when the results have it) and --baseline. */
static int choose_focus(report *r, const cs_report_opts *o, cs_err *err)
{
    if (o->focus && !(r->focus = resolve_alg(r, o->focus, "--focus", err)))
        return -1;
    /* default: the Sparbit paper's layout (Table II) when its algorithm ran */
    const char *sparbit = cs_cost_model_alg("allgather", "sparbit");
    if (!o->focus && sparbit && strset_index(&r->algs, sparbit) < r->algs.n)
        r->focus = sparbit;
    if (o->baseline) {
        if (!r->focus) {
            cs_fail(err, "--baseline needs a focus algorithm: %s has no sparbit, so give --focus ALG",
                    o->results);
            return -1;
        }
        if (!(r->baseline = resolve_alg(r, o->baseline, "--baseline", err)))
            return -1;
        if (!strcmp(r->baseline, r->focus)) {
            cs_fail(err, "--baseline '%s' is the focus algorithm; choose another one", o->baseline);
            return -1;
        }
    }
    return 0;
}

/* --out, else the results file's directory + "/report". */
static void report_dir(report *r, const cs_report_opts *o)
{
    if (o->out_dir) {
        snprintf(r->dir, sizeof r->dir, "%s", o->out_dir);
    } else {
        const char *slash = strrchr(o->results, '/');
        if (slash)
            snprintf(r->dir, sizeof r->dir, "%.*s/report", (int)(slash - o->results), o->results);
        else
            snprintf(r->dir, sizeof r->dir, "report");
    }
}

static void report_free(report *r)
{
    for (size_t k = 0; k < r->ng; k++) {
        free(r->g[k].nps.v);
        free(r->g[k].sizes.v);
        free(r->g[k].algs.v);
    }
    free(r->fits);
    for (size_t k = 0; k < r->nws; k++) {
        free(r->ws[k].g);
        free(r->ws[k].nps.v);
        free(r->ws[k].sizes.v);
        free(r->ws[k].algs.v);
    }
    free(r->ws);
    free(r->g);
    free(r->ok);
    free(r->algs.v);
    free(r->best);
    free(r->rows);
}

int cs_report(const cs_report_opts *o, char *md_path, size_t md_len, cs_err *err)
{
    report r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.err = err;
    /* the reader refuses a case given twice: it would be drawn twice and could win against itself */
    if (cs_results_read(o->results, &r.rows, &r.n, err))
        return -1;
    label_levels(&r);
    int rc = -1;
    build_groups(&r);
    plan_whatif(&r);
    if (report_fits(&r, &r.fits, &r.nfits)) /* sec_models says why */
        r.fits = NULL, r.nfits = 0;
    if (choose_focus(&r, o, err))
        goto out;
    report_dir(&r, o);
    snprintf(r.figdir, sizeof r.figdir, "%s/figures", r.dir);
    if (mkdir_p(r.figdir, err))
        goto out;
    clear_old_figures(r.figdir);
    snprintf(md_path, md_len, "%s/report.md", r.dir);
    if (!(r.md = fopen(md_path, "w"))) {
        cs_fail(err, "cannot write %s: %s", md_path, strerror(errno));
        goto out;
    }
    strset colls = {0};
    for (size_t k = 0; k < r.ng; k++)
        strset_add(&colls, r.g[k].collective);
    int multi_coll = colls.n > 1;
    free(colls.v);
    header(&r, multi_coll);
    if (r.ng)
        sec_summary(&r, multi_coll);
    if (r.nws && sec_whatif(&r, multi_coll))
        goto out;
    for (size_t k = 0; k < r.ng; k++)
        if (!r.g[k].hidden && sec_group(&r, &r.g[k], multi_coll))
            goto out;
    if (r.ng && sec_models(&r, multi_coll))
        goto out;
    if (r.ng && sec_kandalla(&r))
        goto out;
    if (r.ng && sec_kang(&r))
        goto out;
    sec_rooted_metrics(&r);
    sec_accounting(&r);
    sec_failures(&r);
    rc = 0;
out:
    if (r.md && fclose(r.md) && !rc)
        rc = cs_fail(err, "cannot write %s: %s", md_path, strerror(errno));
    report_free(&r);
    return rc;
}
