/* The report's internals, shared by analysis/report*.c: its state (groups,
 * what-if series) and the helpers each part uses. Not for other callers:
 * report.h is the interface. */
#ifndef COLLSIM_REPORT_INT_H
#define COLLSIM_REPORT_INT_H

#include <stdio.h>

#include "best.h"
#include "cost_model.h"
#include "cs_error.h"
#include "fits.h"
#include "platform_name.h"
#include "report.h"
#include "results.h"

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

/* ---- small sets ---- */
typedef struct {
    const char **v;
    size_t n, cap;
} strset;

typedef struct {
    long *v;
    size_t n, cap;
} longset;

/* ---- the report's state ---- */
typedef struct {
    const cs_result *first; /* its first row: the group is the rows alike in cs_result_cmp_group */
    const char *platform, *collective, *mapping, *model;
    int ppn;              /* ranks per node; 0: the node's cores */
    const char *hosts;    /* the nodes the job took (results column); "": every node */
    const char *dist;     /* v-collectives' block-size distribution; "": none */
    unsigned long seed;
    /* intergroup collectives: the groups' ratio in lowest terms (P:Q at each
     * np is this ratio scaled), layout, block ratio, counts; "": none */
    char gratio[32];
    const char *layout, *block_ratio, *counts;
    const char *dtype; /* of the group's first row (the models' element size) */
    const char *background; /* the background traffic (results column); "": quiet */
    int root;             /* gather, scatter: the root's rank */
    int root_us_seen;     /* a row has the root's time: a rooted collective */
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
    cs_platform_fit *fits; /* platforms.csv beside the results (none: NULL) */
    size_t nfits;
    char dir[1024], figdir[1100];
    FILE *md;
    cs_err *err;
} report;

typedef struct {
    FILE *gp;
    char name[512];
    int w, h;
} figure;

/* Clauses of one plot command, joined when the figure is complete. */
typedef struct {
    char text[16384];
    size_t len;
    int n;
} clauses;

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

/* report_common.c */
size_t strset_index(const strset *s, const char *x);
void strset_add(strset *s, const char *x);
void strset_sort(strset *s);
void longset_add(longset *s, long x);
void longset_sort(longset *s);
size_t spread(const long *v, size_t n, size_t k, long *out);
const char *size_label(long b, char *buf, size_t len);
int cmp_row_ptr(const void *a, const void *b);
const cs_result *find(const report *r, const group *g, long np, long bytes, const char *alg);
const cs_best *find_best(const cs_best *best, size_t nbest, const group *g, long np,
                         long bytes);
/* Whether alg is b's best or one of the algorithms tied with it. */
int best_has(const cs_best *b, const char *alg);
int case_complete(const report *r, const group *g, long np, long bytes);
size_t has_zero_size(const group *g);
int mkdir_p(const char *path, cs_err *err);
void slugify(char *out, size_t len, const char *a, const char *b, const char *c);
const char *gq(const char *s, char *buf, size_t len);
int cmp_double(const void *a, const void *b);
double baseline_us(const report *r, const group *g, long np, long bytes);
void fmt_pct(char *buf, size_t len, double v);
void md_cell(FILE *md, const char *s);
void md_figure(FILE *md, const char *name, const char *alt);
void group_title(const report *r, const group *g, char *buf, size_t len, int multi_coll);
const char *dq(const char *s, char *buf, size_t len);
void fmt_us(char *buf, size_t len, double us);

/* report_figures.c */
FILE *open_in(const report *r, const char *name, const char *ext, cs_err *err);
int fig_begin(const report *r, figure *f, const char *name, int w, int h);
int fig_end(const report *r, figure *f);
void clause(clauses *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void line_style(FILE *gp, int key_outside);
void size_axis(FILE *gp, const longset *sizes, const char *axis);
void ratio_axis(FILE *gp, double lo, double hi);
void lines_start(alg_lines *l, FILE *dat, const char *name);
void lines_point(alg_lines *l, const char *header, double y, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void lines_alg_done(const report *r, alg_lines *l, const char *alg, const char *lw,
                    const char *ps);
int fig_latency(const report *r, const group *g, long np, const char *title, char *name,
                size_t nlen);
int fig_heatmap(const report *r, const group *g, const char *title, char *name, size_t nlen);
int fig_speedup(const report *r, const group *g, const long *nps, size_t nnp,
                const char *title, char *name, size_t nlen);
int fig_model(const report *r, const group *g, const cs_hockney *h, long np,
              const char *title, char *name, size_t nlen);
void clear_old_figures(const char *figdir);

/* report_models.c */
/* The fits `run` wrote beside the results (fits.h, platforms.csv): 0 with
 * *n of them (none: 0), or -1 with r->err. */
int report_fits(const report *r, cs_platform_fit **fits, size_t *n);
/* A platform's fitted inter-node Hockney parameters (intra-node on a
 * one-node platform); NULL when not measured. */
const cs_hockney *fit_net(const cs_platform_fit *fits, size_t n, const char *platform);
void group_groups(const group *g, long np, cs_cost_params *c);
double group_predict(const report *r, const group *g, const cs_result *x, const char *alg,
                     long np, long bytes, const cs_hockney *net, const cs_hockney *local);
int sec_models(const report *r, int multi_coll);

/* report_tables.c */
int in_group(const cs_result *x, const group *g);
void sec_summary(const report *r, int multi_coll);
int sec_group(const report *r, const group *g, int multi_coll);
void sec_accounting(const report *r);
/* The simulated time a cost model predicts: the average latency, or for
 * gather and scatter (rows with call_max_us) the slowest process per call,
 * the collective's completion. */
static inline double modelled_us(const cs_result *x)
{
    return x->call_max_us >= 0 ? x->call_max_us : x->avg_us;
}

/* Gather and scatter: per case the mean over processes (Kandalla et al.'s
 * metric), the slowest process per call and the root's time. */
void sec_rooted_metrics(const report *r);
void sec_failures(const report *r);

/* The sections of one study each (a folder of analysis/ per study: these files include this
 * general part, never the reverse), which report.c runs: Kang et al. 2019's comparison
 * (kang/report_kang.c); K3-K5 of gather and scatter beside the simulation
 * (kandalla/report_kandalla.c) */
int sec_kang(const report *r);
int sec_kandalla(const report *r);

/* report_common.c: the regions of the row x's ranks at the level g's locality-aware rows ran
 * at (else the coarsest recorded; its name to level), from x's placement column: 0, or -1
 * when not recorded */
int group_region_of(const report *r, const group *g, const cs_result *x, int *region_of,
                    char *level, size_t len);

/* report_whatif.c */
int sec_whatif(const report *r, int multi_coll);
void plan_whatif(report *r);

#endif
