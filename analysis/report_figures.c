/* gnuplot figures: the plumbing (data and script files, rendering) and the
 * latency, heat-map and speedup plots of each group. */
#include "report_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

FILE *open_in(const report *r, const char *name, const char *ext, cs_err *err)
{
    char path[1700];
    snprintf(path, sizeof path, "%s/%s.%s", r->figdir, name, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

int fig_begin(const report *r, figure *f, const char *name, int w, int h)
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

int fig_end(const report *r, figure *f)
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
void size_axis(FILE *gp, const longset *sizes, const char *axis)
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

void clause(clauses *c, const char *fmt, ...)
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
void line_style(FILE *gp, int key_outside)
{
    fprintf(gp, "set grid xtics ytics lc rgb '#e0e0e0' lw 1\n%s",
            key_outside ? "set key outside right top Left reverse samplen 3 spacing 1.1\n"
                        : "set key top left box opaque samplen 3 spacing 1.1\n");
}

/* y on a log scale when the values span a decade or more, else linear. */
void ratio_axis(FILE *gp, double lo, double hi)
{
    if (lo > 0 && hi / lo >= 10)
        fprintf(gp, "set logscale y 10\nset format y '%%.10g'\n");
    else
        fprintf(gp, "set yrange [%g:%g]\n", lo < 1 ? lo * 0.95 : 0.95, hi > 1 ? hi * 1.05 : 1.05);
}

void lines_start(alg_lines *l, FILE *dat, const char *name)
{
    memset(l, 0, sizeof *l);
    l->dat = dat;
    l->name = name;
    l->lo = INFINITY;
}

/* One point (x, y, then the extra columns the header names). */
void lines_point(alg_lines *l, const char *header, double y, const char *fmt, ...)
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
void lines_alg_done(const report *r, alg_lines *l, const char *alg, const char *lw,
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
int fig_latency(const report *r, const group *g, long np, const char *title, char *name,
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

#define TIE_SETS 16 /* distinct sets of tied algorithms the key names */

static long rgb_of(const char *hex) { return strtol(hex + 1, NULL, 16); }

/* The heat map's data files and what they hold. */
typedef struct {
    /* best, focus, empty, incomplete, tie */
    char bname[600], fname[600], ename[600], iname[600], tname[600];
    size_t ncols, nrows;
    int nb, nf, ne, ni, nt; /* cells in each file */
    int *wins;          /* per algorithm of r->algs: cells it wins (not the focus') */
    /* the tied winners, each set once ("a=b": painted as a, marked =) */
    char ties[TIE_SETS][512];
    int nties;
    double cbmax;       /* top of the focus' improvement scale */
} heatmap;

/* The focus' largest improvement over the second best in a compared case,
 * rounded up to 10 %: the grey scale's top. */
static double heatmap_cbmax(const report *r, const group *g)
{
    double cbmax = 0;
    for (size_t i = 0; i < g->nps.n; i++)
        for (size_t j = 0; j < g->sizes.n; j++) {
            const cs_best *b = find_best(r->best, r->nbest, g, g->nps.v[i], g->sizes.v[j]);
            if (b && r->focus && !strcmp(b->best->algorithm, r->focus) &&
                b->second && b->improvement_pct > cbmax &&
                case_complete(r, g, g->nps.v[i], g->sizes.v[j]))
                cbmax = b->improvement_pct;
        }
    cbmax = cbmax > 0 ? ceil(cbmax / 10) * 10 : 10;
    return cbmax;
}

/* Writes the five data files: a cell per (np, size), in the file of its kind. */
static int heatmap_files(const report *r, const group *g, heatmap *hm)
{
    const char *names[5] = {hm->bname, hm->fname, hm->ename, hm->iname, hm->tname};
    FILE *fs[5] = {0};
    for (int k = 0; k < 5; k++)
        if (!(fs[k] = open_in(r, names[k], "dat", r->err))) {
            while (k--)
                fclose(fs[k]);
            return -1;
        }
    FILE *bd = fs[0], *fd = fs[1], *ed = fs[2], *id = fs[3], *td = fs[4];
    hm->ncols = g->nps.n;
    hm->nrows = g->sizes.n;
    hm->wins = calloc(r->algs.n + 1, sizeof *hm->wins);
    hm->cbmax = heatmap_cbmax(r, g);
    fprintf(bd, "# column(np index) row(size index) rgb algorithm\n");
    fprintf(fd, "# column row improvement_pct label_rgb label\n");
    fprintf(td, "# column row tied algorithms (joined by '=')\n");
    for (size_t i = 0; i < hm->ncols; i++)
        for (size_t j = 0; j < hm->nrows; j++) {
            const cs_best *b = find_best(r->best, r->nbest, g, g->nps.v[i], g->sizes.v[j]);
            if (!b) {
                fprintf(ed, "%zu %zu\n", i, j);
                hm->ne++;
                continue;
            }
            if (!case_complete(r, g, g->nps.v[i], g->sizes.v[j])) {
                fprintf(id, "%zu %zu\n", i, j);
                hm->ni++;
                continue;
            }
            if (b->ntied > 1) {
                /* a tied set wins (native:ompi and recursive_doubling, one algorithm
                 * reached two ways): painted as its first by name, marked = */
                char names[512];
                cs_best_names(b, 0, names, sizeof names);
                fprintf(td, "%zu %zu %s\n", i, j, names);
                hm->nt++;
                int k = 0;
                while (k < hm->nties && strcmp(hm->ties[k], names))
                    k++;
                if (k == hm->nties && k < TIE_SETS)
                    snprintf(hm->ties[hm->nties++], sizeof hm->ties[0], "%s", names);
            }
            const char *alg = b->best->algorithm;
            int focus = r->focus && !strcmp(alg, r->focus);
            if (focus && b->second) {
                double level = b->improvement_pct / hm->cbmax;
                /* one decimal below 10 %, so that a near tie does not read as 0 */
                fprintf(fd, "%zu %zu %.6g %ld \"%.*f\"\n", i, j, b->improvement_pct,
                        level < 0.45 ? 0xffffffL : 0L, b->improvement_pct < 9.95 ? 1 : 0,
                        b->improvement_pct);
                hm->nf++;
            } else {
                fprintf(bd, "%zu %zu %ld %s\n", i, j, rgb_of(alg_colour(r, alg)), alg);
                if (b->ntied == 1) /* a tie's colour is in the key under its names */
                    hm->wins[strset_index(&r->algs, alg)]++;
                hm->nb++;
            }
        }
    for (int k = 0; k < 5; k++)
        fclose(fs[k]);
    return 0;
}

/* The axes: a tick per column and row (thinned when many). */
static void heatmap_ticks(FILE *gp, const group *g, size_t ncols, size_t nrows)
{
    size_t xstep = (ncols + 31) / 32, ystep = (nrows + 39) / 40;
    fprintf(gp, "set xtics (");
    for (size_t i = 0; i < ncols; i += xstep)
        fprintf(gp, "%s'%ld' %zu", i ? ", " : "", g->nps.v[i], i);
    fprintf(gp, ")%s\nset ytics (", ncols > 20 ? " rotate by 90 right" : "");
    for (size_t j = 0; j < nrows; j += ystep) {
        char lab[32];
        fprintf(gp, "%s'%s' %zu", j ? ", " : "", size_label(g->sizes.v[j], lab, sizeof lab), j);
    }
    fprintf(gp, ")\n");
}

/* The plot command: the cells, their labels and the key. */
static void heatmap_plot(const report *r, FILE *gp, const heatmap *hm)
{
    char q[256];
    clauses c = {{0}, 0, 0};
    const char *box = "using 1:2:($1-0.5):($1+0.5):($2-0.5):($2+0.5)";
    if (hm->nb)
        clause(&c, "'%s.dat' %s:3 with boxxy fc rgb variable notitle", hm->bname, box);
    if (hm->nf)
        clause(&c, "'%s.dat' %s:3 with boxxy fc palette notitle", hm->fname, box);
    if (hm->nf && hm->ncols <= LABEL_MAX_COLS)
        clause(&c, "'%s.dat' using 1:2:5:4 with labels tc rgb variable font ',%d' notitle", hm->fname,
               hm->nrows > 24 ? 7 : 9);
    if (hm->ne)
        clause(&c, "'%s.dat' using 1:2:('×') with labels tc rgb '#909090' notitle", hm->ename);
    if (hm->ni) {
        clause(&c, "'%s.dat' %s with boxxy fc rgb '#f4f4f4' notitle", hm->iname, box);
        clause(&c, "'%s.dat' using 1:2:('?') with labels tc rgb '#707070' notitle", hm->iname);
    }
    if (hm->nt) /* at the cell's corner: the focus' label stays readable */
        clause(&c, "'%s.dat' using ($1+0.3):($2+0.25):('=') with labels tc rgb '#ffffff' "
                   "font ',%d' notitle", hm->tname, hm->nrows > 24 ? 7 : 9);
    for (size_t a = 0; a < r->algs.n; a++)
        if (hm->wins[a]) {
            const char *alg = r->algs.v[a];
            int focus = r->focus && !strcmp(alg, r->focus);
            clause(&c, "NaN with boxes fc rgb '%s' title '%s%s'", alg_colour(r, alg),
                   gq(alg, q, sizeof q), focus ? " (no other algorithm ran)" : "");
        }
    if (hm->nf)
        clause(&c, "NaN with boxes fc rgb '#8a8a8a' title '%s (grey scale)'", gq(r->focus, q, sizeof q));
    if (hm->ne)
        clause(&c, "NaN with points pt 2 lc rgb '#909090' title 'no ok result'");
    if (hm->ni)
        clause(&c, "NaN with boxes fc rgb '#f4f4f4' title '? an algorithm has no ok result (not compared)'");
    for (int k = 0; k < hm->nties; k++) {
        char first[512];
        snprintf(first, sizeof first, "%s", hm->ties[k]);
        first[strcspn(first, "=")] = 0;
        clause(&c, "NaN with boxes fc rgb '%s' title '= %s (tied within a relative "
               CS_TIE_REL_TEXT ")'", alg_colour(r, first), gq(hm->ties[k], q, sizeof q));
    }
    fprintf(gp, "%s\n", c.text);
}

/* The Sparbit paper's Figure 5: columns = np, rows = sizes; a cell is the
 * winner's colour, or a grey level by the focus's improvement when the focus
 * wins. Returns 1 written, -1 error. */
int fig_heatmap(const report *r, const group *g, const char *title, char *name, size_t nlen)
{
    snprintf(name, nlen, "heatmap-%s", g->slug);
    heatmap hm_ = {0}, *hm = &hm_;
    snprintf(hm->bname, sizeof hm->bname, "%s-best", name);
    snprintf(hm->fname, sizeof hm->fname, "%s-focus", name);
    snprintf(hm->ename, sizeof hm->ename, "%s-empty", name);
    snprintf(hm->iname, sizeof hm->iname, "%s-incomplete", name);
    snprintf(hm->tname, sizeof hm->tname, "%s-tie", name);
    if (heatmap_files(r, g, hm))
        return -1;
    size_t ncols = hm->ncols, nrows = hm->nrows;
    int w = 300 + 46 * (int)ncols, h = 250 + 24 * (int)nrows;
    w = w < 760 ? 760 : w > 1800 ? 1800 : w;
    h = h < 460 ? 460 : h > 1400 ? 1400 : h;
    figure f;
    if (fig_begin(r, &f, name, w, h)) {
        free(hm->wins);
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
    heatmap_ticks(f.gp, g, ncols, nrows);
    fprintf(f.gp, "set style fill solid 1.0 border lc rgb '#ffffff'\n"
                  "set key below horizontal Left reverse samplen 1.5 height 1.5 "
                  "width 2\n");
    if (hm->nf)
        fprintf(f.gp, "set palette defined (0 '#2b2b2b', 1 '#efefef')\nset cbrange [0:%g]\n"
                      "set cblabel '%s improvement over the second best (%%)'\n"
                      "set colorbox vertical user origin graph 1.02, graph 0 size character 2, graph 1\n"
                      "set rmargin 16\n",
                hm->cbmax, gq(r->focus, q, sizeof q));
    else
        fprintf(f.gp, "unset colorbox\n");
    heatmap_plot(r, f.gp, hm);
    free(hm->wins);
    return fig_end(r, &f) ? -1 : 1;
}

/* Speedup of the focus over the baseline vs size, one line per process count
 * (intergroup allgather paper, Figure 6). 1 written, 0 nothing, -1 error. */
int fig_speedup(const report *r, const group *g, const long *nps, size_t nnp,
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

/* Simulated / model vs size at one process count, a line per modelled
 * algorithm. 1 written, 0 nothing, -1 error. */
int fig_model(const report *r, const group *g, const cs_hockney *h, long np,
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
            double model = x ? group_predict(r, g, x, alg, np, b, h, NULL) * 1e6 : NAN;
            if (!(model > 0) || !(modelled_us(x) > 0))
                continue;
            double ratio = modelled_us(x) / model;
            lines_point(&l, header, ratio, "%ld %.10g %.10g %.10g", b, ratio, modelled_us(x), model);
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

/* Figures of an earlier report in the same directory would otherwise linger. */
void clear_old_figures(const char *figdir)
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
