/* The report's shared pieces: small sets, row lookup, labels and Markdown
 * helpers (report_int.h). */
#include "report_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

size_t strset_index(const strset *s, const char *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], x))
            return i;
    return s->n;
}

void strset_add(strset *s, const char *x)
{
    if (strset_index(s, x) < s->n)
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->v = cs_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = x;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void strset_sort(strset *s) { qsort(s->v, s->n, sizeof *s->v, cmp_str); }

void longset_add(longset *s, long x)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = cs_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = x;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

void longset_sort(longset *s) { qsort(s->v, s->n, sizeof *s->v, cmp_long); }

/* Up to k values spread evenly over v[0..n-1] (first and last included). */
size_t spread(const long *v, size_t n, size_t k, long *out)
{
    size_t m = 0;
    if (n <= k) {
        memcpy(out, v, n * sizeof *v);
        return n;
    }
    for (size_t i = 0; i < k; i++) {
        long x = v[(i * (n - 1) + (k - 1) / 2) / (k - 1)];
        if (!m || out[m - 1] != x)
            out[m++] = x;
    }
    return m;
}

/* 1, 512, 1K, 64K, 1M: exact binary multiples get a suffix. */
const char *size_label(long b, char *buf, size_t len)
{
    if (b >= 1L << 30 && b % (1L << 30) == 0)
        snprintf(buf, len, "%ldG", b >> 30);
    else if (b >= 1L << 20 && b % (1L << 20) == 0)
        snprintf(buf, len, "%ldM", b >> 20);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, len, "%ldK", b >> 10);
    else
        snprintf(buf, len, "%ld", b);
    return buf;
}

static int cmp_row(const cs_result *a, const cs_result *b)
{
    int c = cs_result_cmp_point(a, b);
    return c ? c : strcmp(a->algorithm, b->algorithm);
}

int cmp_row_ptr(const void *a, const void *b)
{
    return cmp_row(*(const cs_result *const *)a, *(const cs_result *const *)b);
}

/* The group's point at (np, bytes), with alg's name: its first row there
 * (groups compare by their ratio, so the first row's stand for every np). */
static cs_result key_of(const group *g, long np, long bytes, const char *alg)
{
    cs_result k = *g->first;
    snprintf(k.algorithm, sizeof k.algorithm, "%s", alg ? alg : "");
    k.np = (int)np;
    k.bytes = bytes;
    return k;
}

/* The ok row of an algorithm in one case, or NULL. */
const cs_result *find(const report *r, const group *g, long np, long bytes, const char *alg)
{
    cs_result k = key_of(g, np, bytes, alg);
    const cs_result *kp = &k;
    const cs_result **hit = bsearch(&kp, r->ok, r->nok, sizeof *r->ok, cmp_row_ptr);
    return hit ? *hit : NULL;
}

static int cmp_best_case(const void *key, const void *elem)
{
    return cs_result_cmp_point(key, ((const cs_best *)elem)->best);
}

/* best.c's groups come sorted by platform, collective, mapping, np, bytes. */
const cs_best *find_best(const cs_best *best, size_t nbest, const group *g, long np,
                         long bytes)
{
    cs_result k = key_of(g, np, bytes, NULL);
    return bsearch(&k, best, nbest, sizeof *best, cmp_best_case);
}

int best_has(const cs_best *b, const char *alg)
{
    for (size_t k = 0; k < b->ntied; k++)
        if (!strcmp(b->tied[k]->algorithm, alg))
            return 1;
    return 0;
}

/* A case is complete when every algorithm of its group has an ok row there.
 * An incomplete case (one failed, timed out or was not run) has no fair
 * winner: the heat map marks it, the tables leave it out and count it. */
int case_complete(const report *r, const group *g, long np, long bytes)
{
    for (size_t a = 0; a < g->algs.n; a++)
        if (!find(r, g, np, bytes, g->algs.v[a]))
            return 0;
    return 1;
}

/* Sizes are sorted: 1 when the first is 0 (left out of log axes and models). */
size_t has_zero_size(const group *g) { return g->sizes.n && g->sizes.v[0] == 0; }

/* ---- files and gnuplot ---- */
int mkdir_p(const char *path, cs_err *err)
{
    char buf[1100];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *c = buf + 1;; c++) {
        if (*c == '/' || !*c) {
            char saved = *c;
            *c = 0;
            if (mkdir(buf, 0755) && errno != EEXIST)
                return cs_fail(err, "cannot create directory %s: %s", buf, strerror(errno));
            *c = saved;
            if (!saved)
                return 0;
        }
    }
}

void slugify(char *out, size_t len, const char *a, const char *b, const char *c)
{
    snprintf(out, len, "%s-%s-%s", a, b, c);
    for (char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.'))
            *p = '_';
}

/* gnuplot strings are single-quoted: a quote is written twice. */
const char *gq(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    for (; *s && o + 2 < len; s++) {
        if (*s == '\'')
            buf[o++] = '\'';
        buf[o++] = *s;
    }
    buf[o] = 0;
    return buf;
}

/* ---- statistics ---- */
int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The baseline time of a case for the speedup: --baseline's time, or the
 * best algorithm other than the focus. NAN when there is none. */
double baseline_us(const report *r, const group *g, long np, long bytes)
{
    if (r->baseline) {
        const cs_result *b = find(r, g, np, bytes, r->baseline);
        return b ? b->avg_us : NAN;
    }
    double t = NAN;
    for (size_t a = 0; a < g->algs.n; a++) {
        if (!strcmp(g->algs.v[a], r->focus))
            continue;
        const cs_result *x = find(r, g, np, bytes, g->algs.v[a]);
        if (x && !(x->avg_us >= t))
            t = x->avg_us;
    }
    return t;
}

void fmt_pct(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
}

/* Markdown table cells: no pipes, no line breaks. */
void md_cell(FILE *md, const char *s)
{
    for (; *s; s++)
        fputc(*s == '|' ? '/' : (*s == '\n' || *s == '\r') ? ' ' : *s, md);
}

void md_figure(FILE *md, const char *name, const char *alt)
{
    fprintf(md, "![%s](figures/%s.png)\n\n(vector: [figures/%s.svg](figures/%s.svg), script: "
                "`figures/%s.gp`)\n\n",
            alt, name, name, name, name);
}

void group_title(const report *r, const group *g, char *buf, size_t len, int multi_coll)
{
    (void)r;
    char extra[640] = "";
    if (!strcmp(g->model, "network"))
        snprintf(extra, sizeof extra, ", %s-only model", g->model);
    else if (!strcmp(g->model, "full-arith-copy"))
        snprintf(extra, sizeof extra, ", full model with the arithmetic at the copy rate");
    if (g->ppn)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", %d ranks per node",
                 g->ppn);
    if (g->hosts[0])
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", hosts %s", g->hosts);
    if (g->dist[0])
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", %s blocks (seed %lu)",
                 g->dist, g->seed);
    if (g->gratio[0])
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                 ", groups %s (%s), blocks k_A:k_B %s%s%s", g->gratio, g->layout,
                 g->block_ratio[0] ? g->block_ratio : "1:1", g->counts[0] ? ", counts " : "",
                 g->counts);
    if (g->background[0])
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", background %s",
                 g->background);
    if (g->root_us_seen)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", root %d", g->root);
    if (multi_coll)
        snprintf(buf, len, "%s, %s mapping%s, %s", g->platform, g->mapping, extra, g->collective);
    else
        snprintf(buf, len, "%s, %s mapping%s", g->platform, g->mapping, extra);
}

/* gnuplot double-quoted strings (titles with a line break). */
const char *dq(const char *s, char *buf, size_t len)
{
    size_t o = 0;
    for (; *s && o + 2 < len; s++) {
        if (*s == '"' || *s == '\\')
            buf[o++] = '\\';
        buf[o++] = *s;
    }
    buf[o] = 0;
    return buf;
}

void fmt_us(char *buf, size_t len, double us)
{
    if (isnan(us))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, us < 10 ? "%.3f" : "%.2f", us);
}

/* The regions of x's ranks (report_int.h). */
int group_region_of(const report *r, const group *g, const cs_result *x, int *region_of,
                    char *level, size_t len)
{
    /* the level the group's locality-aware rows ran at (the paper's switch),
     * else the coarsest one recorded */
    char want[sizeof x->region] = "";
    for (size_t a = 0; a < g->algs.n && !want[0]; a++)
        for (size_t s = 0; s < g->sizes.n && !want[0]; s++) {
            const cs_result *y = find(r, g, x->np, g->sizes.v[s], g->algs.v[a]);
            if (y && y->region[0])
                snprintf(want, sizeof want, "%s", y->region);
        }
    return cs_placement_regions(x->placement, want, x->np, region_of, level, len);
}
