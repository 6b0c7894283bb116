#include "report.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "best.h"
#include "cost_model.h"
#include "fits.h"
#include "results.h"
#include "platform_name.h"

/* Readable subsets: a figure with more lines than this, or a table with more
 * rows, stops being read. */
#define NP_SHOWN 6      /* latency figures and speedup lines per (platform, mapping) */
#define MODEL_NP 3      /* process counts per algorithm in the model tables */
#define MODEL_SIZES 4   /* sizes per process count in the model tables */
#define LABEL_MAX_COLS 24 /* heat-map cells print their improvement up to this width */
#define VARIANTS_IN_FULL 3 /* a what-if parameter with more values: per-platform sections
                              show only its reference variant */
#define WHATIF_NP 3       /* process counts per what-if series (figures and tables) */
#define WHATIF_SIZES 3    /* sizes per process count: one figure each */

/* Categorical colours (colour-blind safe first); the focus algorithm is drawn
 * black in line plots and in grey levels in the heat map, so none is grey. */
static const char *const palette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9",
                                      "#d55e00", "#8c564b", "#bcbd22", "#17becf", "#9467bd"};
#define NPALETTE (sizeof palette / sizeof palette[0])
/* Ordered colours for process counts (purple = few ... orange = many). */
static const char *const np_palette[] = {"#5e3c99", "#1f78b4", "#1b9e77", "#66a61e",
                                         "#e6ab02", "#d95f02"};
#define NNP_PALETTE (sizeof np_palette / sizeof np_palette[0])
static const int point_types[] = {7, 5, 9, 11, 13, 15, 4, 6};
#define NPOINT_TYPES (sizeof point_types / sizeof point_types[0])

/* ---- small sets ---- */
typedef struct {
    const char **v;
    size_t n, cap;
} strset;

typedef struct {
    long *v;
    size_t n, cap;
} longset;

static size_t strset_index(const strset *s, const char *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], x))
            return i;
    return s->n;
}

static void strset_add(strset *s, const char *x)
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

static void strset_sort(strset *s) { qsort(s->v, s->n, sizeof *s->v, cmp_str); }

static void longset_add(longset *s, long x)
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

static void longset_sort(longset *s) { qsort(s->v, s->n, sizeof *s->v, cmp_long); }

/* Up to k values spread evenly over v[0..n-1] (first and last included). */
static size_t spread(const long *v, size_t n, size_t k, long *out)
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
static const char *size_label(long b, char *buf, size_t len)
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

/* ---- the report's state ---- */
typedef struct {
    const char *platform, *collective, *mapping;
    int ppn;              /* ranks per node; 0: the node's cores */
    const char *dist;     /* v-collectives' block-size distribution; "": none */
    unsigned long seed;
    longset nps, sizes;
    strset algs; /* algorithms with an ok row in this group */
    char slug[400];
    cs_variant v;   /* the parts of a what-if variant's name */
    int hidden;     /* a variant left out of the per-platform sections */
} group;

/* The variants of one parameter of one base platform, for one collective and
 * mapping: the groups compared in the What-if section. */
typedef struct {
    group **g;       /* sorted by the parameter's value */
    size_t n, ref;   /* ref: the factor-1 variant, else the first */
    longset nps, sizes;
    strset algs;
    char slug[400];
} series;

typedef struct {
    const cs_report_opts *o;
    cs_result *rows;
    size_t n;
    const cs_result **ok; /* status ok, sorted for lookup */
    size_t nok;
    strset algs;          /* every algorithm with an ok row, sorted */
    group *g;
    size_t ng;
    cs_best *best;
    size_t nbest;
    series *ws;
    size_t nws, nhidden; /* nhidden: groups left out of the per-platform sections */
    const char *focus, *baseline;
    char dir[1024], figdir[1100];
    FILE *md;
    cs_err *err;
} report;

static int cmp_row(const cs_result *a, const cs_result *b)
{
    int c = cs_result_cmp_point(a, b);
    return c ? c : strcmp(a->algorithm, b->algorithm);
}

static int cmp_row_ptr(const void *a, const void *b)
{
    return cmp_row(*(const cs_result *const *)a, *(const cs_result *const *)b);
}

static cs_result key_of(const group *g, long np, long bytes, const char *alg)
{
    cs_result k;
    memset(&k, 0, sizeof k);
    snprintf(k.platform, sizeof k.platform, "%s", g->platform);
    snprintf(k.collective, sizeof k.collective, "%s", g->collective);
    snprintf(k.mapping, sizeof k.mapping, "%s", g->mapping);
    k.ppn = g->ppn;
    snprintf(k.dist, sizeof k.dist, "%s", g->dist);
    k.seed = g->seed;
    snprintf(k.algorithm, sizeof k.algorithm, "%s", alg ? alg : "");
    k.np = (int)np;
    k.bytes = bytes;
    return k;
}

/* The ok row of an algorithm in one case, or NULL. */
static const cs_result *find(const report *r, const group *g, long np, long bytes, const char *alg)
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
static const cs_best *find_best(const cs_best *best, size_t nbest, const group *g, long np,
                                long bytes)
{
    cs_result k = key_of(g, np, bytes, NULL);
    return bsearch(&k, best, nbest, sizeof *best, cmp_best_case);
}

/* A case is complete when every algorithm of its group has an ok row there.
 * An incomplete case (one failed, timed out or was not run) has no fair
 * winner: the heat map marks it, the tables leave it out and count it. */
static int case_complete(const report *r, const group *g, long np, long bytes)
{
    for (size_t a = 0; a < g->algs.n; a++)
        if (!find(r, g, np, bytes, g->algs.v[a]))
            return 0;
    return 1;
}

/* Sizes are sorted: 1 when the first is 0 (left out of log axes and models). */
static size_t has_zero_size(const group *g) { return g->sizes.n && g->sizes.v[0] == 0; }

static const char *alg_colour(const report *r, const char *alg)
{
    if (r->focus && !strcmp(alg, r->focus))
        return "#000000";
    size_t i = strset_index(&r->algs, alg), f = r->focus ? strset_index(&r->algs, r->focus) : r->algs.n;
    if (f < i)
        i--; /* the focus takes no palette slot */
    return palette[i % NPALETTE];
}

static int alg_point(const report *r, const char *alg)
{
    return point_types[strset_index(&r->algs, alg) % NPOINT_TYPES];
}

/* ---- files and gnuplot ---- */
static int mkdir_p(const char *path, cs_err *err)
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

static void slugify(char *out, size_t len, const char *a, const char *b, const char *c)
{
    snprintf(out, len, "%s-%s-%s", a, b, c);
    for (char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.'))
            *p = '_';
}

/* gnuplot strings are single-quoted: a quote is written twice. */
static const char *gq(const char *s, char *buf, size_t len)
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

typedef struct {
    FILE *gp;
    char name[512];
    int w, h;
} figure;

static FILE *open_in(const report *r, const char *name, const char *ext, cs_err *err)
{
    char path[1700];
    snprintf(path, sizeof path, "%s/%s.%s", r->figdir, name, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

static int fig_begin(const report *r, figure *f, const char *name, int w, int h)
{
    snprintf(f->name, sizeof f->name, "%s", name);
    f->w = w;
    f->h = h;
    if (!(f->gp = open_in(r, name, "gp", r->err)))
        return -1;
    fprintf(f->gp,
            "# written by collsim report; re-render with: gnuplot %s.gp\n"
            "set encoding utf8\n"
            "set terminal pngcairo size %d,%d font 'DejaVu Sans,10' noenhanced\n"
            "set output '%s.png'\n"
            "set tics out nomirror\n"
            "set border 3\n",
            name, w, h, name);
    return 0;
}

/* The first line of gnuplot's error output that says what went wrong. */
static void gnuplot_error(const char *log, char *out, size_t len)
{
    FILE *f = fopen(log, "r");
    char line[512];
    snprintf(out, len, "no error output");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] && !strstr(line, "warning")) {
            snprintf(out, len, "%s", line);
            if (strstr(line, "rror"))
                break;
        }
    }
    if (f)
        fclose(f);
}

static int fig_end(const report *r, figure *f)
{
    fprintf(f->gp,
            "set terminal svg size %d,%d font 'DejaVu Sans,10' noenhanced background '#ffffff'\n"
            "set output '%s.svg'\nreplot\n",
            f->w, f->h, f->name);
    fclose(f->gp);
    char script[600], log[1700];
    snprintf(script, sizeof script, "%s.gp", f->name);
    snprintf(log, sizeof log, "%s/%s.log", r->figdir, f->name);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return cs_fail(r->err, "cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), null = open("/dev/null", O_RDWR);
        if (fd < 0 || null < 0 || chdir(r->figdir))
            _exit(126);
        dup2(null, 0);
        dup2(null, 1);
        dup2(fd, 2);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    if (code == 127)
        return cs_fail(r->err, "gnuplot not found: install the Debian package gnuplot-nox");
    if (code) {
        char msg[512];
        gnuplot_error(log, msg, sizeof msg);
        return cs_fail(r->err, "%s/%s: gnuplot failed (exit %d): %s", r->figdir, script, code, msg);
    }
    remove(log);
    return 0;
}

/* Log-2 size axis: tics at powers of 4 (every power of 2 on short ranges),
 * labelled 1, 4, ..., 1K, 4K, ...; the range pads the extreme sizes. */
static void size_axis(FILE *gp, const longset *sizes, const char *axis)
{
    long lo = 0, hi = 0;
    for (size_t i = 0; i < sizes->n; i++)
        if (sizes->v[i] > 0) {
            if (!lo || sizes->v[i] < lo)
                lo = sizes->v[i];
            if (sizes->v[i] > hi)
                hi = sizes->v[i];
        }
    if (!lo)
        return;
    fprintf(gp, "set logscale %s 2\nset %srange [%g:%g]\n", axis, axis, lo / 1.4, hi * 1.4);
    int step = hi / lo >= 256 ? 2 : 1;
    fprintf(gp, "set %stics (", axis);
    int first = 1;
    for (int e = 0; e < 62 && (1L << e) <= hi; e += step) {
        long v = 1L << e;
        if (v < lo)
            continue;
        char lab[32];
        fprintf(gp, "%s'%s' %ld", first ? "" : ", ", size_label(v, lab, sizeof lab), v);
        first = 0;
    }
    fprintf(gp, ")\n");
}

/* ---- statistics ---- */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    size_t cases, focus_best, n; /* n: focus-best cases with a second best */
    double mean, median, max;
} focus_stats;

static int in_group(const cs_result *x, const group *g)
{
    return !strcmp(x->platform, g->platform) && !strcmp(x->collective, g->collective) &&
           !strcmp(x->mapping, g->mapping) && x->ppn == g->ppn && !strcmp(x->dist, g->dist) &&
           x->seed == g->seed;
}

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
        if (!r->focus || strcmp(best[i].best->algorithm, r->focus))
            continue;
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

/* The baseline time of a case for the speedup: --baseline's time, or the
 * best algorithm other than the focus. NAN when there is none. */
static double baseline_us(const report *r, const group *g, long np, long bytes)
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

static void fmt_pct(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
}

/* Markdown table cells: no pipes, no line breaks. */
static void md_cell(FILE *md, const char *s)
{
    for (; *s; s++)
        fputc(*s == '|' ? '/' : (*s == '\n' || *s == '\r') ? ' ' : *s, md);
}

static void md_figure(FILE *md, const char *name, const char *alt)
{
    fprintf(md, "![%s](figures/%s.png)\n\n(vector: [figures/%s.svg](figures/%s.svg), script: "
                "`figures/%s.gp`)\n\n",
            alt, name, name, name, name);
}

static void group_title(const report *r, const group *g, char *buf, size_t len, int multi_coll)
{
    (void)r;
    char extra[96] = "";
    if (g->ppn)
        snprintf(extra, sizeof extra, ", %d ranks per node", g->ppn);
    if (g->dist[0])
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", %s blocks (seed %lu)",
                 g->dist, g->seed);
    if (multi_coll)
        snprintf(buf, len, "%s, %s mapping%s, %s", g->platform, g->mapping, extra, g->collective);
    else
        snprintf(buf, len, "%s, %s mapping%s", g->platform, g->mapping, extra);
}

/* gnuplot double-quoted strings (titles with a line break). */
static const char *dq(const char *s, char *buf, size_t len)
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

/* Clauses of one plot command, joined when the figure is complete. */
typedef struct {
    char text[16384];
    size_t len;
    int n;
} clauses;

static void clause(clauses *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void clause(clauses *c, const char *fmt, ...)
{
    va_list ap;
    if (c->len + 8 >= sizeof c->text)
        return;
    c->len += (size_t)snprintf(c->text + c->len, sizeof c->text - c->len, "%s", c->n ? ", \\\n     " : "plot ");
    va_start(ap, fmt);
    int w = vsnprintf(c->text + c->len, sizeof c->text - c->len, fmt, ap);
    va_end(ap);
    c->len += w > 0 ? (size_t)w : 0;
    if (c->len >= sizeof c->text)
        c->len = sizeof c->text - 1;
    c->n++;
}

/* Latency curves leave the top left empty; ratios can be anywhere, so their
 * key goes outside, where it hides nothing. */
static void line_style(FILE *gp, int key_outside)
{
    fprintf(gp, "set grid xtics ytics lc rgb '#e0e0e0' lw 1\n%s",
            key_outside ? "set key outside right top Left reverse samplen 3 spacing 1.1\n"
                        : "set key top left box opaque samplen 3 spacing 1.1\n");
}

/* y on a log scale when the values span a decade or more, else linear. */
static void ratio_axis(FILE *gp, double lo, double hi)
{
    if (lo > 0 && hi / lo >= 10)
        fprintf(gp, "set logscale y 10\nset format y '%%.10g'\n");
    else
        fprintf(gp, "set yrange [%g:%g]\n", lo < 1 ? lo * 0.95 : 0.95, hi > 1 ? hi * 1.05 : 1.05);
}

/* The per-algorithm lines of a figure: NAME.dat holds one block per
 * algorithm (a header comment, then points), and each block becomes one plot
 * clause in the algorithm's colour and point type. */
typedef struct {
    FILE *dat;
    const char *name;
    clauses c;
    int blocks, pts;
    double lo, hi; /* range of the plotted y values */
} alg_lines;

static void lines_start(alg_lines *l, FILE *dat, const char *name)
{
    memset(l, 0, sizeof *l);
    l->dat = dat;
    l->name = name;
    l->lo = INFINITY;
}

/* One point (x, y, then the extra columns the header names). */
static void lines_point(alg_lines *l, const char *header, double y, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lines_point(alg_lines *l, const char *header, double y, const char *fmt, ...)
{
    if (!l->pts++)
        fprintf(l->dat, "# %s\n", header);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(l->dat, fmt, ap);
    va_end(ap);
    fputc('\n', l->dat);
    l->lo = y < l->lo ? y : l->lo;
    l->hi = y > l->hi ? y : l->hi;
}

/* Closes the current algorithm's block (if it got points) with its clause. */
static void lines_alg_done(const report *r, alg_lines *l, const char *alg, const char *lw,
                           const char *ps)
{
    if (!l->pts)
        return;
    char q[256];
    fprintf(l->dat, "\n\n");
    clause(&l->c, "'%s.dat' index %d using 1:2 with linespoints lc rgb '%s' lw %s pt %d ps %s title '%s'",
           l->name, l->blocks++, alg_colour(r, alg), r->focus && !strcmp(alg, r->focus) ? "2.5" : lw,
           alg_point(r, alg), ps, gq(alg, q, sizeof q));
    l->pts = 0;
}

/* Latency per algorithm at one process count: 1 written, 0 nothing to draw, -1 error. */
static int fig_latency(const report *r, const group *g, long np, const char *title, char *name,
                       size_t nlen)
{
    snprintf(name, nlen, "latency-%s-np%ld", g->slug, np);
    FILE *dat = open_in(r, name, "dat", r->err);
    if (!dat)
        return -1;
    alg_lines l;
    lines_start(&l, dat, name);
    for (size_t a = 0; a < r->algs.n; a++) {
        const char *alg = r->algs.v[a];
        char header[160];
        snprintf(header, sizeof header, "%s: bytes avg_us min_us max_us", alg);
        for (size_t s = 0; s < g->sizes.n; s++) {
            const cs_result *x = g->sizes.v[s] > 0 ? find(r, g, np, g->sizes.v[s], alg) : NULL;
            if (x && x->avg_us > 0)
                lines_point(&l, header, x->avg_us, "%ld %.10g %.10g %.10g", x->bytes, x->avg_us,
                            x->min_us, x->max_us);
        }
        lines_alg_done(r, &l, alg, "1.5", "0.9");
    }
    fclose(dat);
    if (!l.blocks)
        return 0;
    figure f;
    if (fig_begin(r, &f, name, 900, 600))
        return -1;
    char t[512];
    fprintf(f.gp, "set title \"%s, %ld processes: %s latency\"\n", dq(title, t, sizeof t), np,
            g->collective);
    fprintf(f.gp, "set xlabel 'bytes per rank'\nset ylabel 'average latency (µs)'\n"
                  "set logscale y 10\nset format y '%%.10g'\n");
    size_axis(f.gp, &g->sizes, "x");
    line_style(f.gp, 0);
    fprintf(f.gp, "%s\n", l.c.text);
    return fig_end(r, &f) ? -1 : 1;
}

static long rgb_of(const char *hex) { return strtol(hex + 1, NULL, 16); }

/* The Sparbit paper's Figure 5: columns = np, rows = sizes; a cell is the
 * winner's colour, or a grey level by the focus's improvement when the focus
 * wins. Returns 1 written, -1 error. */
static int fig_heatmap(const report *r, const group *g, const char *title, char *name, size_t nlen)
{
    snprintf(name, nlen, "heatmap-%s", g->slug);
    char bname[600], fname[600], ename[600], iname[600];
    snprintf(bname, sizeof bname, "%s-best", name);
    snprintf(fname, sizeof fname, "%s-focus", name);
    snprintf(ename, sizeof ename, "%s-empty", name);
    snprintf(iname, sizeof iname, "%s-incomplete", name);
    FILE *bd = open_in(r, bname, "dat", r->err), *fd = bd ? open_in(r, fname, "dat", r->err) : NULL,
         *ed = fd ? open_in(r, ename, "dat", r->err) : NULL,
         *id = ed ? open_in(r, iname, "dat", r->err) : NULL;
    if (!id) {
        if (bd)
            fclose(bd);
        if (fd)
            fclose(fd);
        if (ed)
            fclose(ed);
        return -1;
    }
    size_t ncols = g->nps.n, nrows = g->sizes.n;
    int nb = 0, nf = 0, ne = 0, ni = 0;
    int *wins = calloc(r->algs.n + 1, sizeof *wins);
    double cbmax = 0;
    for (size_t i = 0; i < ncols; i++)
        for (size_t j = 0; j < nrows; j++) {
            const cs_best *b = find_best(r->best, r->nbest, g, g->nps.v[i], g->sizes.v[j]);
            if (b && r->focus && !strcmp(b->best->algorithm, r->focus) && b->second &&
                b->improvement_pct > cbmax && case_complete(r, g, g->nps.v[i], g->sizes.v[j]))
                cbmax = b->improvement_pct;
        }
    cbmax = cbmax > 0 ? ceil(cbmax / 10) * 10 : 10;
    fprintf(bd, "# column(np index) row(size index) rgb algorithm\n");
    fprintf(fd, "# column row improvement_pct label_rgb label\n");
    for (size_t i = 0; i < ncols; i++)
        for (size_t j = 0; j < nrows; j++) {
            const cs_best *b = find_best(r->best, r->nbest, g, g->nps.v[i], g->sizes.v[j]);
            if (!b) {
                fprintf(ed, "%zu %zu\n", i, j);
                ne++;
                continue;
            }
            if (!case_complete(r, g, g->nps.v[i], g->sizes.v[j])) {
                fprintf(id, "%zu %zu\n", i, j);
                ni++;
                continue;
            }
            const char *alg = b->best->algorithm;
            int focus = r->focus && !strcmp(alg, r->focus);
            if (focus && b->second) {
                double level = b->improvement_pct / cbmax;
                /* one decimal below 10 %, so that a near tie does not read as 0 */
                fprintf(fd, "%zu %zu %.6g %ld \"%.*f\"\n", i, j, b->improvement_pct,
                        level < 0.45 ? 0xffffffL : 0L, b->improvement_pct < 9.95 ? 1 : 0,
                        b->improvement_pct);
                nf++;
            } else {
                fprintf(bd, "%zu %zu %ld %s\n", i, j, rgb_of(alg_colour(r, alg)), alg);
                wins[strset_index(&r->algs, alg)]++;
                nb++;
            }
        }
    fclose(bd);
    fclose(fd);
    fclose(ed);
    fclose(id);

    int w = 300 + 46 * (int)ncols, h = 250 + 24 * (int)nrows;
    w = w < 760 ? 760 : w > 1800 ? 1800 : w;
    h = h < 460 ? 460 : h > 1400 ? 1400 : h;
    figure f;
    if (fig_begin(r, &f, name, w, h)) {
        free(wins);
        return -1;
    }
    char t[512], q[256];
    if (r->focus)
        fprintf(f.gp, "set title \"%s: best algorithm per case\\ngrey: %s is best, lighter = larger "
                      "improvement over the second best\"\n",
                dq(title, t, sizeof t), dq(r->focus, q, sizeof q));
    else
        fprintf(f.gp, "set title \"%s: best algorithm per case\"\n", dq(title, t, sizeof t));
    fprintf(f.gp, "set xlabel 'processes'\nset ylabel 'bytes per rank'\n"
                  "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n"
                  "set border 15\nset tics out nomirror scale 0.5\n",
            ncols - 1, nrows - 1);
    size_t xstep = (ncols + 31) / 32, ystep = (nrows + 39) / 40;
    fprintf(f.gp, "set xtics (");
    for (size_t i = 0; i < ncols; i += xstep)
        fprintf(f.gp, "%s'%ld' %zu", i ? ", " : "", g->nps.v[i], i);
    fprintf(f.gp, ")%s\nset ytics (", ncols > 20 ? " rotate by 90 right" : "");
    for (size_t j = 0; j < nrows; j += ystep) {
        char lab[32];
        fprintf(f.gp, "%s'%s' %zu", j ? ", " : "", size_label(g->sizes.v[j], lab, sizeof lab), j);
    }
    fprintf(f.gp, ")\nset style fill solid 1.0 border lc rgb '#ffffff'\n"
                  "set key below horizontal Left reverse samplen 1.5 height 1.5 "
                  "width 2\n");
    if (nf)
        fprintf(f.gp, "set palette defined (0 '#2b2b2b', 1 '#efefef')\nset cbrange [0:%g]\n"
                      "set cblabel '%s improvement over the second best (%%)'\n"
                      "set colorbox vertical user origin graph 1.02, graph 0 size character 2, graph 1\n"
                      "set rmargin 16\n",
                cbmax, gq(r->focus, q, sizeof q));
    else
        fprintf(f.gp, "unset colorbox\n");
    clauses c = {{0}, 0, 0};
    const char *box = "using 1:2:($1-0.5):($1+0.5):($2-0.5):($2+0.5)";
    if (nb)
        clause(&c, "'%s.dat' %s:3 with boxxy fc rgb variable notitle", bname, box);
    if (nf)
        clause(&c, "'%s.dat' %s:3 with boxxy fc palette notitle", fname, box);
    if (nf && ncols <= LABEL_MAX_COLS)
        clause(&c, "'%s.dat' using 1:2:5:4 with labels tc rgb variable font ',%d' notitle", fname,
               nrows > 24 ? 7 : 9);
    if (ne)
        clause(&c, "'%s.dat' using 1:2:('×') with labels tc rgb '#909090' notitle", ename);
    if (ni) {
        clause(&c, "'%s.dat' %s with boxxy fc rgb '#f4f4f4' notitle", iname, box);
        clause(&c, "'%s.dat' using 1:2:('?') with labels tc rgb '#707070' notitle", iname);
    }
    for (size_t a = 0; a < r->algs.n; a++)
        if (wins[a]) {
            const char *alg = r->algs.v[a];
            int focus = r->focus && !strcmp(alg, r->focus);
            clause(&c, "NaN with boxes fc rgb '%s' title '%s%s'", alg_colour(r, alg),
                   gq(alg, q, sizeof q), focus ? " (no other algorithm ran)" : "");
        }
    if (nf)
        clause(&c, "NaN with boxes fc rgb '#8a8a8a' title '%s (grey scale)'", gq(r->focus, q, sizeof q));
    if (ne)
        clause(&c, "NaN with points pt 2 lc rgb '#909090' title 'no ok result'");
    if (ni)
        clause(&c, "NaN with boxes fc rgb '#f4f4f4' title '? an algorithm has no ok result (not compared)'");
    fprintf(f.gp, "%s\n", c.text);
    free(wins);
    return fig_end(r, &f) ? -1 : 1;
}

/* Speedup of the focus over the baseline vs size, one line per process count
 * (intergroup allgather paper, Figure 6). 1 written, 0 nothing, -1 error. */
static int fig_speedup(const report *r, const group *g, const long *nps, size_t nnp,
                       const char *title, char *name, size_t nlen)
{
    snprintf(name, nlen, "speedup-%s", g->slug);
    FILE *dat = open_in(r, name, "dat", r->err);
    if (!dat)
        return -1;
    clauses c = {{0}, 0, 0};
    int blocks = 0;
    double lo = INFINITY, hi = 0;
    for (size_t k = 0; k < nnp; k++) {
        int pts = 0;
        for (size_t s = 0; s < g->sizes.n; s++) {
            long b = g->sizes.v[s];
            const cs_result *x = b > 0 ? find(r, g, nps[k], b, r->focus) : NULL;
            double base = x ? baseline_us(r, g, nps[k], b) : NAN;
            if (!x || !(x->avg_us > 0) || !(base > 0))
                continue;
            double sp = base / x->avg_us;
            if (!pts)
                fprintf(dat, "# np %ld: bytes speedup baseline_us focus_us\n", nps[k]);
            fprintf(dat, "%ld %.10g %.10g %.10g\n", b, sp, base, x->avg_us);
            lo = sp < lo ? sp : lo;
            hi = sp > hi ? sp : hi;
            pts++;
        }
        if (!pts)
            continue;
        fprintf(dat, "\n\n");
        clause(&c, "'%s.dat' index %d using 1:2 with linespoints lc rgb '%s' lw 1.8 pt %d ps 0.9 "
                   "title 'np = %ld'",
               name, blocks, np_palette[nnp > 1 ? k * (NNP_PALETTE - 1) / (nnp - 1) % NNP_PALETTE : 0],
               point_types[k % NPOINT_TYPES], nps[k]);
        blocks++;
    }
    fclose(dat);
    if (!blocks)
        return 0;
    figure f;
    if (fig_begin(r, &f, name, 900, 600))
        return -1;
    char t[512], q[256], bq[256];
    fprintf(f.gp, "set title \"%s: speedup of %s = T(%s) / T(%s)\"\n", dq(title, t, sizeof t),
            dq(r->focus, q, sizeof q),
            r->baseline ? dq(r->baseline, bq, sizeof bq) : "best other algorithm of the case", q);
    fprintf(f.gp, "set xlabel 'bytes per rank'\nset ylabel 'speedup (> 1: %s is faster)'\n",
            gq(r->focus, q, sizeof q));
    size_axis(f.gp, &g->sizes, "x");
    ratio_axis(f.gp, lo, hi);
    line_style(f.gp, 1);
    clause(&c, "1 with lines dt 2 lw 1.5 lc rgb '#707070' title 'equal time'");
    fprintf(f.gp, "%s\n", c.text);
    return fig_end(r, &f) ? -1 : 1;
}

static const cs_hockney *model_params(const cs_platform_fit *pm)
{
    return pm && pm->measured ? (pm->has_inter ? &pm->inter.h : &pm->intra.h) : NULL;
}

/* A model's prediction for a group's case: p_l is the group's ranks per node
 * (loc-Bruck's region = node; NaN when the default), the local level is the
 * intra-node ping-pong when known, and a window:R distribution gives the
 * mean block N (1 - R/200) (the others' mean is N/2, the model's default).
 * ALG@LEVEL is modelled as ALG. */
static double group_predict(const group *g, const char *alg, long np, long bytes,
                            const cs_hockney *net, const cs_hockney *local)
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
    return cs_cost_predict_params(g->collective, name, (int)np, bytes, &c);
}

/* Simulated / model vs size at one process count, a line per modelled
 * algorithm. 1 written, 0 nothing, -1 error. */
static int fig_model(const report *r, const group *g, const cs_hockney *h, long np,
                     const char *title, char *name, size_t nlen)
{
    snprintf(name, nlen, "model-%s-np%ld", g->slug, np);
    FILE *dat = open_in(r, name, "dat", r->err);
    if (!dat)
        return -1;
    alg_lines l;
    lines_start(&l, dat, name);
    for (size_t a = 0; a < r->algs.n; a++) {
        const char *alg = r->algs.v[a];
        char header[160];
        snprintf(header, sizeof header, "%s: bytes simulated/model simulated_us model_us", alg);
        for (size_t s = 0; s < g->sizes.n; s++) {
            long b = g->sizes.v[s];
            const cs_result *x = b > 0 ? find(r, g, np, b, alg) : NULL;
            double model = x ? group_predict(g, alg, np, b, h, NULL) * 1e6 : NAN;
            if (!(model > 0) || !(x->avg_us > 0))
                continue;
            double ratio = x->avg_us / model;
            lines_point(&l, header, ratio, "%ld %.10g %.10g %.10g", b, ratio, x->avg_us, model);
        }
        lines_alg_done(r, &l, alg, "1.5", "0.9");
    }
    fclose(dat);
    if (!l.blocks)
        return 0;
    figure f;
    if (fig_begin(r, &f, name, 900, 600))
        return -1;
    char t[512];
    fprintf(f.gp, "set title \"%s, %ld processes: simulated time / Hockney model\"\n",
            dq(title, t, sizeof t), np);
    fprintf(f.gp, "set xlabel 'bytes per rank'\nset ylabel 'simulated / model (1 = the model is exact)'\n");
    size_axis(f.gp, &g->sizes, "x");
    ratio_axis(f.gp, l.lo, l.hi);
    line_style(f.gp, 1);
    clause(&l.c, "1 with lines dt 2 lw 1.5 lc rgb '#707070' title 'model'");
    fprintf(f.gp, "%s\n", l.c.text);
    return fig_end(r, &f) ? -1 : 1;
}

/* ---- the markdown sections ---- */

/* The summary tables have a row per group: when groups differ by ranks per
 * node or block-size distribution, those get columns (else rows repeat). */
typedef struct {
    int ppn, dist;
} extra_cols;

static extra_cols extra_cols_of(const report *r)
{
    extra_cols x = {0, 0};
    for (size_t k = 0; k < r->ng; k++) {
        x.ppn |= r->g[k].ppn != 0;
        x.dist |= r->g[k].dist[0] != 0;
    }
    return x;
}

static void extra_head(FILE *md, extra_cols x)
{
    fprintf(md, "%s%s", x.ppn ? " ppn |" : "", x.dist ? " blocks |" : "");
}

static void extra_rule(FILE *md, extra_cols x)
{
    fprintf(md, "%s%s", x.ppn ? "---:|" : "", x.dist ? "---|" : "");
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
    if (x.dist) {
        if (blank || !g->dist[0])
            fprintf(md, "  |");
        else
            fprintf(md, " %s, seed %lu |", g->dist, g->seed);
    }
}

/* Cases of the group, complete (every algorithm ok: compared) or not. */
static void count_cases(const report *r, const group *g, size_t *wins, size_t *cases,
                        size_t *incomplete)
{
    *cases = *incomplete = 0;
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
        if (wins)
            wins[strset_index(&r->algs, b->algorithm)]++;
    }
}

static void sec_summary(const report *r, int multi_coll)
{
    extra_cols x = extra_cols_of(r);
    FILE *md = r->md;
    size_t any_incomplete = 0;
    for (size_t k = 0; k < r->ng; k++) {
        size_t cases, incomplete;
        count_cases(r, &r->g[k], NULL, &cases, &incomplete);
        any_incomplete += incomplete;
    }
    fprintf(md, "## Best algorithm per case\n\n"
                "A case is one (platform, mapping, process count, size); the best algorithm has the "
                "lowest average latency (OSU's average over ranks of each rank's mean time). Cells: "
                "cases won (share of the cases).%s\n\n| platform |%s mapping |",
            any_incomplete ? " Cases where an algorithm has no ok result (failed, timed out or "
                             "not run) are not compared: they are counted under \"not compared\" "
                             "and marked ? in the heat maps."
                           : "",
            multi_coll ? " collective |" : "");
    extra_head(md, x);
    fprintf(md, " cases |%s", any_incomplete ? " not compared |" : "");
    for (size_t a = 0; a < r->algs.n; a++)
        fprintf(md, " %s |", r->algs.v[a]);
    fprintf(md, "\n|---|%s---|", multi_coll ? "---|" : "");
    extra_rule(md, x);
    fprintf(md, "---:|%s", any_incomplete ? "---:|" : "");
    for (size_t a = 0; a < r->algs.n; a++)
        fprintf(md, "---:|");
    fprintf(md, "\n");
    size_t *wins = cs_xmalloc((r->algs.n + 1) * sizeof *wins);
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        size_t cases, incomplete;
        count_cases(r, g, wins, &cases, &incomplete);
        fprintf(md, "| %s |", g->platform);
        if (multi_coll)
            fprintf(md, " %s |", g->collective);
        fprintf(md, " %s |", g->mapping);
        extra_cells(md, x, g, 0);
        fprintf(md, " %zu |", cases);
        if (any_incomplete)
            fprintf(md, " %zu |", incomplete);
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
                "are counted as best but have no improvement.\n\n"
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
            fprintf(md, " %s | %zu / %zu (%.1f%%) | %s | %s | %s |\n", metric[m], s.focus_best,
                    s.cases, s.cases ? 100.0 * s.focus_best / s.cases : 0.0, a, b, c);
        }
    }
    fprintf(md, "\n");
    free(bmin);
    free(bmax);
    free(mins);
    free(maxs);
}

static int sec_group(const report *r, const group *g, int multi_coll)
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

static void fmt_us(char *buf, size_t len, double us)
{
    if (isnan(us))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, us < 10 ? "%.3f" : "%.2f", us);
}

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
            char lab[32], val[48];
            fprintf(md, "| %s | %s | %s |", size_label(sizes[b], lab, sizeof lab),
                    variant_label(&s->g[i]->v, val, sizeof val), best ? best->best->algorithm : "-");
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

static int sec_whatif(const report *r, int multi_coll)
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
    int any = 0;
    for (size_t k = 0; k < r->ng; k++) {
        const group *g = &r->g[k];
        if (strcmp(g->collective, "alltoallv") || g->hidden ||
            strset_index(&g->algs, "two_phase_bruck") >= g->algs.n)
            continue;
        int has_pad = strset_index(&g->algs, "padded_bruck") < g->algs.n,
            has_so = strset_index(&g->algs, "spread_out") < g->algs.n;
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
                long last = wins_up_to(r, g, np, "padded_bruck", "two_phase_bruck", &all);
                fmt_wins(w1, sizeof w1, last, all);
            }
            if (has_so) {
                long last = wins_up_to(r, g, np, "two_phase_bruck", "spread_out", &all);
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
    fprintf(md, "\n| algorithm | model (p ranks, m = p × bytes per rank) | source |\n|---|---|---|\n");
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
        fprintf(md, " (SMPI's own algorithms, or no row in analysis/cost_model.c).\n");
    }
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
            double model = x ? group_predict(g, alg, g->nps.v[p], g->sizes.v[s], h,
                                             pm->measured ? &pm->intra.h : NULL) * 1e6
                             : NAN;
            if (!(model > 0))
                continue;
            d[nd] = 100 * (x->avg_us - model) / model;
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
        char lab[32];
        fprintf(r->md, "| %s | %s |", g->platform, g->mapping);
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
            double mi = group_predict(g, alg, nps[p], sizes[s], model_params(f), &f->intra.h) * 1e6;
            double mn = group_predict(g, alg, nps[p], sizes[s], &f->intra.h, &f->intra.h) * 1e6;
            char lab[32], b1[32], b2[32], b3[32], b4[32];
            fmt_us(b1, sizeof b1, mi);
            fmt_us(b2, sizeof b2, mn);
            fmt_us(b3, sizeof b3, x->avg_us);
            if (mi > 0)
                snprintf(b4, sizeof b4, "%+.1f", 100 * (x->avg_us - mi) / mi);
            else
                snprintf(b4, sizeof b4, "-");
            fprintf(r->md, "| %s | %s | %ld | %s | %s | %s | %s | %s |\n", g->platform, g->mapping,
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
static int sec_models(const report *r, int multi_coll)
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
    const char *slash = strrchr(r->o->results, '/');
    char path[1200];
    snprintf(path, sizeof path, "%.*s" CS_FITS_FILE, slash ? (int)(slash - r->o->results) + 1 : 0,
             r->o->results);
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
            "column). SMPI charges 16 bytes more than the payload per message, so α includes 16 β.\n\n");
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
 * (columns nonlocal_*; README, "Per-level message accounting"). Only rows that
 * measured them (collsim's own algorithms); nothing when there is none. */
static void sec_accounting(const report *r)
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
                "rank's count (messages and bytes separately) and the total over ranks (README, "
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

static void sec_failures(const report *r)
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
            g->platform = x->platform;
            g->collective = x->collective;
            g->mapping = x->mapping;
            g->ppn = x->ppn;
            g->dist = x->dist;
            g->seed = x->seed;
            slugify(g->slug, sizeof g->slug, x->platform, x->collective, x->mapping);
            if (x->ppn || x->dist[0]) { /* figure names stay unique per group */
                size_t used = strlen(g->slug);
                snprintf(g->slug + used, sizeof g->slug - used, "-ppn%d-%s-%lu", x->ppn,
                         x->dist[0] ? x->dist : "none", x->seed);
                for (char *q = g->slug + used; *q; q++)
                    if (*q == ':')
                        *q = '_';
            }
        }
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

static int cmp_variant_value(const void *a, const void *b)
{
    double x = (*(group *const *)a)->v.value, y = (*(group *const *)b)->v.value;
    return x < y ? -1 : x > y;
}

/* Collects the variants of each (base platform, parameter, collective,
 * mapping) into a series, and hides from the per-platform sections all but
 * the reference of a series with many values. */
static void plan_whatif(report *r)
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

/* Figures of an earlier report in the same directory would otherwise linger. */
static void clear_old_figures(const char *figdir)
{
    static const char *const prefixes[] = {"latency-", "heatmap-", "speedup-", "model-", "whatif-"};
    DIR *d = opendir(figdir);
    struct dirent *e;
    char path[1500];
    while (d && (e = readdir(d))) {
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
            if (!strncmp(e->d_name, prefixes[i], strlen(prefixes[i]))) {
                snprintf(path, sizeof path, "%s/%s", figdir, e->d_name);
                remove(path);
            }
    }
    if (d)
        closedir(d);
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

int cs_report(const cs_report_opts *o, char *md_path, size_t md_len, cs_err *err)
{
    report r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.err = err;
    if (cs_results_read(o->results, &r.rows, &r.n, err))
        return -1;
    /* an algorithm run at two region levels is two competitors: name both
     * (ALG@LEVEL); results of a single level keep the plain names */
    int levels = cs_results_several_regions(r.rows, r.n);
    for (size_t i = 0; i < r.n && levels; i++)
        if (r.rows[i].region[0]) {
            cs_result *x = &r.rows[i];
            char label[sizeof x->algorithm + sizeof x->region];
            snprintf(x->algorithm, sizeof x->algorithm, "%s",
                     cs_result_alg_label(x, levels, label, sizeof label));
        }
    int rc = -1;
    build_groups(&r);
    plan_whatif(&r);
    if (o->focus && !(r.focus = resolve_alg(&r, o->focus, "--focus", err)))
        goto out;
    if (!o->focus && strset_index(&r.algs, "sparbit") < r.algs.n)
        r.focus = "sparbit";
    if (o->baseline) {
        if (!r.focus) {
            cs_fail(err, "--baseline needs a focus algorithm: %s has no sparbit, so give --focus ALG",
                    o->results);
            goto out;
        }
        if (!(r.baseline = resolve_alg(&r, o->baseline, "--baseline", err)))
            goto out;
        if (!strcmp(r.baseline, r.focus)) {
            cs_fail(err, "--baseline '%s' is the focus algorithm; choose another one", o->baseline);
            goto out;
        }
    }
    if (o->out_dir) {
        snprintf(r.dir, sizeof r.dir, "%s", o->out_dir);
    } else {
        const char *slash = strrchr(o->results, '/');
        if (slash)
            snprintf(r.dir, sizeof r.dir, "%.*s/report", (int)(slash - o->results), o->results);
        else
            snprintf(r.dir, sizeof r.dir, "report");
    }
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
    sec_accounting(&r);
    sec_failures(&r);
    rc = 0;
out:
    if (r.md && fclose(r.md) && !rc)
        rc = cs_fail(err, "cannot write %s: %s", md_path, strerror(errno));
    for (size_t k = 0; k < r.ng; k++) {
        free(r.g[k].nps.v);
        free(r.g[k].sizes.v);
        free(r.g[k].algs.v);
    }
    for (size_t k = 0; k < r.nws; k++) {
        free(r.ws[k].g);
        free(r.ws[k].nps.v);
        free(r.ws[k].sizes.v);
        free(r.ws[k].algs.v);
    }
    free(r.ws);
    free(r.g);
    free(r.ok);
    free(r.algs.v);
    free(r.best);
    free(r.rows);
    return rc;
}
