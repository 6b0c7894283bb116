#include "regression.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_ptr(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    int c = cs_key_cmp(a, b);
    /* equal keys (duplicates) keep their file order, so reports are stable */
    return c ? c : (a > b) - (a < b);
}

const cs_result **cs_sort_by_key(const cs_result *rows, size_t n)
{
    const cs_result **v = cs_xmalloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = &rows[i];
    qsort(v, n, sizeof *v, cmp_ptr);
    return v;
}

cs_result *cs_rows_copy(const cs_result *const *v, size_t n)
{
    cs_result *out = cs_xmalloc((n ? n : 1) * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = *v[i];
    return out;
}

static int is_ok(const cs_result *r) { return !strcmp(r->status, "ok"); }

/* NaN equals only NaN; otherwise |now - then| <= rtol |then|. */
static double rel_change(double now, double then, double rtol, int *moved)
{
    if (isnan(now) || isnan(then)) {
        *moved = !(isnan(now) && isnan(then));
        return *moved ? INFINITY : 0;
    }
    *moved = fabs(now - then) > rtol * fabs(then);
    return then != 0 ? fabs(now / then - 1) : now != 0 ? INFINITY : 0;
}

typedef struct {
    const cs_result **v;
    size_t n;
} list;

static void push(list *l, const cs_result *r)
{
    l->v = cs_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = r;
}

static void print_keys(FILE *f, const char *title, const list *l, int with_status)
{
    if (!l->n)
        return;
    fprintf(f, "# %zu %s:\n", l->n, title);
    for (size_t i = 0; i < l->n; i++) {
        char key[512];
        cs_key_format(l->v[i], key, sizeof key);
        if (with_status)
            fprintf(f, "  %s: %s%s%s\n", key, l->v[i]->status, l->v[i]->note[0] ? ": " : "",
                    l->v[i]->note);
        else
            fprintf(f, "  %s\n", key);
    }
}

/* The rows of file f sorted by key, one per key: the first in the file. A key given more than
 * once makes the comparison ambiguous: its other rows are not compared, and it is named on
 * dups with its lines and the file. */
static const cs_result **one_per_key(const char *path, const cs_results_file *f, size_t *n,
                                     FILE *dups, size_t *ndups)
{
    const cs_result **v = cs_sort_by_key(f->rows, f->n); /* equal keys in file order */
    size_t m = 0;
    for (size_t i = 0, j; i < f->n; i = j) {
        for (j = i + 1; j < f->n && !cs_key_cmp(v[i], v[j]); j++)
            ;
        if (j - i > 1) {
            char key[512];
            cs_key_format(v[i], key, sizeof key);
            fprintf(dups, "  %s: lines ", key);
            for (size_t k = i; k < j; k++)
                fprintf(dups, "%s%ld", k == i ? "" : k + 1 == j ? " and " : ", ",
                        f->lines[v[k] - f->rows]);
            fprintf(dups, " of %s\n", path);
            ++*ndups;
        }
        v[m++] = v[i];
    }
    *n = m;
    return v;
}

/* Compares results with a baseline and prints a report to f: the cases that moved beyond rtol
 * (key, field, old, new, ratio), missing and added cases, rows whose status is not ok, keys
 * given more than once in a file. Returns 0 when the check passes, 1 when it fails. */
static int check_rows(FILE *f, const char *res_path, const cs_results_file *res,
                      const char *base_path, const cs_results_file *base, const cs_check_opts *o)
{
    char *dup_text = NULL;
    size_t dup_len = 0, ndups = 0, nres, nbase;
    FILE *dups = open_memstream(&dup_text, &dup_len);
    const cs_result **r = one_per_key(res_path, res, &nres, dups, &ndups),
                    **b = one_per_key(base_path, base, &nbase, dups, &ndups);
    fclose(dups);
    list missing = {0}, added = {0}, notok = {0};
    size_t i = 0, k = 0, compared = 0, moved = 0;
    int header = 0;
    while (i < nres || k < nbase) {
        int c = i == nres ? 1 : k == nbase ? -1 : cs_key_cmp(r[i], b[k]);
        if (c < 0) {
            push(&added, r[i]);
            if (!is_ok(r[i]))
                push(&notok, r[i]);
            i++;
            continue;
        }
        if (c > 0) {
            push(&missing, b[k++]);
            continue;
        }
        const cs_result *now = r[i++], *then = b[k++];
        compared++;
        if (!is_ok(now) || !is_ok(then)) {
            push(&notok, is_ok(now) ? then : now);
            continue;
        }
        /* the field that moved most stands for the case */
        const char *names[3] = {"avg", "min", "max"};
        double nv[3] = {now->avg_us, now->min_us, now->max_us};
        double tv[3] = {then->avg_us, then->min_us, then->max_us};
        int worst = -1;
        double worst_change = -1;
        for (int q = 0; q < 3; q++) {
            int m;
            double ch = rel_change(nv[q], tv[q], o->rtol, &m);
            if (m && ch > worst_change) {
                worst = q;
                worst_change = ch;
            }
        }
        if (worst < 0)
            continue;
        if (!header++)
            fprintf(f, "# moved beyond rtol %g:\n# %-10s %-10s %6s %-30s %-6s %-5s %9s %-5s %16s %16s %14s\n",
                    o->rtol, "platform", "mapping", "np", "collective/algorithm", "dtype", "mode",
                    "bytes", "field", "old(us)", "new(us)", "ratio");
        char alg[160];
        snprintf(alg, sizeof alg, "%s/%s", now->collective, now->algorithm);
        fprintf(f, "  %-10s %-10s %6d %-30s %-6s %-5s %9ld %-5s %16.10g %16.10g %14.10g\n",
                now->platform, now->mapping, now->np, alg, now->dtype, now->mode, now->bytes,
                names[worst], tv[worst], nv[worst], nv[worst] / tv[worst]);
        moved++;
    }
    print_keys(f, "missing (in the baseline, not in the results)", &missing, 0);
    print_keys(f, o->strict ? "added (in the results, not in the baseline; a failure with --strict)"
                            : "added (in the results, not in the baseline; not a failure without --strict)",
               &added, 0);
    print_keys(f, "not ok (status of the results row, or of the baseline row)", &notok, 1);
    if (ndups)
        fprintf(f, "# %zu key%s given more than once in a file (the first row of each "
                   "compared):\n%s", ndups, ndups > 1 ? "s" : "", dup_text);
    int fail = moved || missing.n || notok.n || ndups || (o->strict && added.n);
    if (fail)
        fprintf(f, "FAIL: %zu moved, %zu missing, %zu added%s, %zu not ok, %zu given more than "
                   "once (%zu rows compared, rtol %g)\n",
                moved, missing.n, added.n, o->strict ? "" : " (allowed)", notok.n, ndups,
                compared, o->rtol);
    else
        fprintf(f, "PASS: %zu rows within rtol %g%s\n", compared, o->rtol,
                added.n ? " (some added: see above)" : "");
    free(missing.v);
    free(added.v);
    free(notok.v);
    free(dup_text);
    free(r);
    free(b);
    return fail;
}

int cs_check_files(FILE *f, const char *results, const char *baseline, const cs_check_opts *o,
                   cs_err *err)
{
    cs_results_file res, base;
    /* keys given twice are named here, with their lines, not refused */
    if (cs_results_load(results, CS_READ_DUPS, &res, err))
        return -1;
    if (cs_results_load(baseline, CS_READ_DUPS, &base, err)) {
        cs_results_file_free(&res);
        return -1;
    }
    fprintf(f, "# check %s (%zu rows) against the baseline %s (%zu rows)\n", results, res.n,
            baseline, base.n);
    int rc = check_rows(f, results, &res, baseline, &base, o);
    cs_results_file_free(&res);
    cs_results_file_free(&base);
    return rc;
}

int cs_baseline_update(FILE *f, const char *results, const char *baseline, cs_err *err)
{
    cs_result *res;
    size_t n;
    /* the reader refuses a key given twice: a baseline holds each case once */
    if (cs_results_read(results, &res, &n, err))
        return -1;
    const cs_result **v = cs_sort_by_key(res, n);
    int rc = 0;
    char key[512];
    for (size_t i = 0; i < n && !rc; i++) {
        if (!is_ok(v[i])) {
            cs_key_format(v[i], key, sizeof key);
            rc = cs_fail(err, "%s: %s has status %s: a baseline is made from a run where every "
                              "case passed",
                         results, key, v[i]->status);
        }
    }
    /* key order: the baseline does not depend on the order cases finished in */
    cs_result *sorted = cs_rows_copy(v, n);
    if (!rc)
        rc = cs_results_write_file(baseline, sorted, n, err);
    if (!rc)
        fprintf(f, "baseline %s rewritten from %s: %zu rows\n", baseline, results, n);
    free(sorted);
    free(v);
    free(res);
    return rc;
}

size_t cs_results_dup_keys(const cs_result *rows, size_t n, char *example, size_t len)
{
    const cs_result **v = cs_sort_by_key(rows, n);
    size_t keys = 0;
    if (len)
        example[0] = 0;
    for (size_t i = 1; i < n; i++)
        if (!cs_key_cmp(v[i - 1], v[i]) && (i < 2 || cs_key_cmp(v[i - 2], v[i - 1]))) {
            if (!keys++ && len)
                cs_key_format(v[i], example, len);
        }
    free(v);
    return keys;
}

/* A row's claim to be the one kept: ok first, then file order (lower is better). */
static int keep_before(const cs_result *a, const cs_result *b)
{
    int aok = !strcmp(a->status, "ok"), bok = !strcmp(b->status, "ok");
    return aok != bok ? aok : a < b;
}

size_t cs_results_dedupe(cs_result *rows, size_t n, const char *among, FILE *log)
{
    const cs_result **v = cs_sort_by_key(rows, n);
    char *drop = cs_xmalloc(n ? n : 1);
    memset(drop, 0, n ? n : 1);
    for (size_t i = 0; i < n;) {
        size_t j = i, best = i;
        int marked = !among;
        while (j < n && !cs_key_cmp(v[i], v[j])) {
            if (keep_before(v[j], v[best]))
                best = j;
            marked |= among && among[v[j] - rows];
            j++;
        }
        for (size_t k = i; k < j && marked; k++)
            if (k != best) {
                char key[512];
                cs_key_format(v[k], key, sizeof key);
                if (log)
                    fprintf(log, "  dropped %s: %s%s%s\n", key, v[k]->status,
                            v[k]->note[0] ? ": " : "", v[k]->note);
                drop[v[k] - rows] = 1;
            }
        i = j;
    }
    free(v);
    size_t keep = 0;
    for (size_t i = 0; i < n; i++)
        if (!drop[i])
            rows[keep++] = rows[i];
    free(drop);
    return keep;
}
