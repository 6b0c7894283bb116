#include "tune.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "best.h"
#include "case_fields.h"
#include "collectives.h"
#include "distributions.h"
#include "results.h"
#include "tune_mpich.h"

/* ---- what each library names (algorithms.def) ---- */
enum { SIZE_total, SIZE_one, SIZE_sum, SIZE_count, SIZE_none };
static const struct {
    const char *lib, *coll;
    int id, size;
} lib_colls[] = {
#define COLLSIM_ALG(...)
#define COLLSIM_LIB_COLL(lib, coll, id, size) {#lib, #coll, id, SIZE_##size},
#include "algorithms.def"
#undef COLLSIM_LIB_COLL
};
static const struct {
    const char *lib, *coll, *alg;
    int number;
    const char *lib_name, *note;
} lib_algs[] = {
#define COLLSIM_LIB_ALG(lib, coll, alg, number, lib_name, note) {#lib, #coll, #alg, number, lib_name, note},
#include "algorithms.def"
#undef COLLSIM_LIB_ALG
#undef COLLSIM_ALG
};
#define NLIB_COLLS (sizeof lib_colls / sizeof lib_colls[0])
#define NLIB_ALGS (sizeof lib_algs / sizeof lib_algs[0])

/* The rows that stand for a library's own decision. */
#define LIBRARY_ROW "native:ompi"
#define MPICH_ROW "native:mpich"

static int is_native(const char *alg) { return !strncmp(alg, "native:", 7); }

/* The collectives a file can hold: those with an MPI entry point of their
 * own on an intracommunicator (collectives.def). */
static int tunable(const cs_coll_props *c)
{
    return c->pmpi == CS_PMPI_own && c->sig != CS_SIG_inter && c->sig != CS_SIG_interv &&
           c->sig != CS_SIG_p2p;
}

/* A target: the values a file can name for a row (-1: none). */
typedef struct {
    const char *what; /* "collsim", "Open MPI", "MPICH" */
    int (*value)(const char *coll, const char *alg);
    const char *library_row; /* the row of the library's own decision */
} target;

/* collsim's table: each of collsim's algorithms is a value (its row index
 * stands for it: the name is what is written); the library row is 0. */
static int collsim_value(const char *coll, const char *alg)
{
    (void)coll;
    return !strcmp(alg, LIBRARY_ROW) ? 0 : is_native(alg) ? -1 : 1;
}

static int lib_value(const char *lib, const char *coll, const char *alg)
{
    for (size_t i = 0; i < NLIB_ALGS; i++)
        if (!strcmp(lib_algs[i].lib, lib) && !strcmp(lib_algs[i].coll, coll) &&
            !strcmp(lib_algs[i].alg, alg))
            return lib_algs[i].number;
    return -1;
}

static const char *lib_name(const char *lib, const char *coll, int number, const char **note)
{
    *note = "";
    for (size_t i = 0; i < NLIB_ALGS; i++)
        if (!strcmp(lib_algs[i].lib, lib) && !strcmp(lib_algs[i].coll, coll) &&
            lib_algs[i].number == number) {
            *note = lib_algs[i].note;
            return lib_algs[i].lib_name;
        }
    return "?";
}

static int ompi_value(const char *coll, const char *alg) { return lib_value("ompi", coll, alg); }
static const char *ompi_name(const char *coll, int number, const char **note)
{
    return lib_name("ompi", coll, number, note);
}
static int mpich_value(const char *coll, const char *alg) { return lib_value("mpich", coll, alg); }

/* Two rows name the same choice of a file: the same library number, or (for
 * collsim's table) the same algorithm. */
static int same_choice(const target *t, const cs_result *a, const cs_result *b)
{
    int va = t->value(a->collective, a->algorithm), vb = t->value(b->collective, b->algorithm);
    if (t->value == collsim_value && va == 1 && vb == 1)
        return !strcmp(a->algorithm, b->algorithm);
    return va == vb;
}

/* One point: its rows, fastest first. */
typedef struct {
    const cs_result **rows;
    size_t n;
} point;

/* A file's choice at a point: the row it names, or NULL for the library's
 * decision; why in words. */
typedef struct {
    const cs_result *row;
    char why[256];
} choice;

static void decide(const target *t, const point *p, double threshold, choice *out)
{
    const cs_result *best = NULL, *lib = NULL, *next = NULL;
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->rows[i]->algorithm, t->library_row) && !lib)
            lib = p->rows[i];
    for (size_t i = 0; i < p->n; i++) {
        const cs_result *r = p->rows[i];
        if (t->value(r->collective, r->algorithm) < 0)
            continue;
        if (!best)
            best = r;
        else if (!next && !same_choice(t, best, r))
            next = r;
    }
    out->row = NULL;
    if (!best) {
        snprintf(out->why, sizeof out->why, "no row %s can name", t->what);
        return;
    }
    if (t->value(best->collective, best->algorithm) == 0) {
        /* the fastest of all may be one this file cannot name (collsim's own algorithm in a
         * library's file): say which, and that the library's decision stays */
        const cs_result *fastest = p->n ? p->rows[0] : best;
        if (fastest != best && !cs_times_tie(fastest->avg_us, best->avg_us))
            snprintf(out->why, sizeof out->why,
                     "%s is fastest (%.2f us) but %s cannot name it; of what it can, %s is "
                     "(%.2f us)", fastest->algorithm, fastest->avg_us, t->what, best->algorithm,
                     best->avg_us);
        else
            snprintf(out->why, sizeof out->why, "%s is fastest (%.2f us)", best->algorithm,
                     best->avg_us);
        return;
    }
    if (next && cs_times_tie(best->avg_us, next->avg_us)) {
        snprintf(out->why, sizeof out->why, "%s and %s tie (%.2f us)", best->algorithm,
                 next->algorithm, best->avg_us);
        return;
    }
    const cs_result *ref = lib ? lib : next;
    const double gain = ref && ref->avg_us > 0 ? 100 * (ref->avg_us - best->avg_us) / ref->avg_us
                                               : 100;
    if (ref && gain < threshold) {
        snprintf(out->why, sizeof out->why, "%s (%.2f us) gains %.2f%% over %s, below %g%%",
                 best->algorithm, best->avg_us, gain, ref->algorithm, threshold);
        return;
    }
    out->row = best;
    if (ref)
        snprintf(out->why, sizeof out->why, "%.2f us, %.2f%% faster than %s", best->avg_us, gain,
                 ref->algorithm);
    else
        snprintf(out->why, sizeof out->why, "%.2f us, the only row", best->avg_us);
}

/* ---- reading and choosing the rows ---- */

/* A column's text in row r (as the file writes it). */
static void column_text(const cs_result *r, int col, char *buf, size_t len)
{
    char *line = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&line, &size);
    cs_results_write_row(f, r);
    fclose(f);
    char *fields[CS_RC_NCOLUMNS + 1];
    int n = cs_csv_split(line, fields, CS_RC_NCOLUMNS + 1);
    snprintf(buf, len, "%s", col < n ? fields[col] : "");
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r'))
        buf[--l] = '\0';
    free(line);
}

/* The rows' only value of a column, or NULL with e set when they hold
 * several (naming them and the option that picks one). */
static const char *only_value(const cs_result *const *rows, size_t n, int col, const char *opt,
                              const char *file, char *buf, size_t len, cs_err *e)
{
    char first[512] = "", other[512];
    for (size_t i = 0; i < n; i++) {
        column_text(rows[i], col, other, sizeof other);
        if (!i)
            snprintf(first, sizeof first, "%s", other);
        else if (strcmp(first, other)) {
            cs_fail(e, "tune: %s holds several %ss (%s, %s, ...): choose one with %s", file,
                    cs_result_column(col)->name, first, other, opt);
            return NULL;
        }
    }
    snprintf(buf, len, "%s", first);
    return buf;
}

static int coll_index(const char *name)
{
    const cs_coll_props *c = cs_coll_find(name);
    return c ? (int)(c - cs_colls()) : CS_NCOLL;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    int ca = coll_index(a->collective), cb = coll_index(b->collective);
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (a->np != b->np)
        return a->np < b->np ? -1 : 1;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? -1 : 1;
    if (a->avg_us != b->avg_us)
        return a->avg_us < b->avg_us ? -1 : 1;
    return strcmp(a->algorithm, b->algorithm);
}

static int same_place(const cs_result *a, const cs_result *b)
{
    return !strcmp(a->collective, b->collective) && a->np == b->np && a->bytes == b->bytes;
}

/* The scenario's name from DIR/scenario.id beside the results ("name X"). */
static void scenario_of(const char *results, char *buf, size_t len)
{
    char path[4200];
    const char *slash = strrchr(results, '/');
    snprintf(path, sizeof path, "%.*s%sscenario.id", slash ? (int)(slash - results) : 0, results,
             slash ? "/" : "");
    snprintf(buf, len, "unknown (no scenario.id beside the results)");
    FILE *f = fopen(path, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "name ", 5)) {
            line[strcspn(line, "\r\n")] = '\0';
            snprintf(buf, len, "%s", line + 5);
            break;
        }
    if (f)
        fclose(f);
}

/* ---- writing ---- */
typedef struct {
    const cs_tune_opts *o;
    const char *scenario, *platform, *mapping, *model;
    point *points;
    size_t npoints;
    choice *mine, *ompi, *mpich; /* per point */
} plan;

static void origin_of(FILE *f, const plan *pl, const char *what, const char *row, const char *c)
{
    fprintf(f, "%s %s\n", c, what);
    fprintf(f, "%s written by collsim %s (collsim tune) from %s\n", c, pl->o->version, pl->o->results);
    fprintf(f, "%s scenario %s, platform %s, mapping %s, model %s; threshold %g%%: a choice that "
               "gains less over the library's decision (%s) keeps the library's\n",
            c, pl->scenario, pl->platform, pl->mapping, pl->model, pl->o->threshold_pct, row);
}

static void origin(FILE *f, const plan *pl, const char *what)
{
    origin_of(f, pl, what, LIBRARY_ROW, "#");
}

/* The points of one collective: [*from, *to). */
static int next_coll(const plan *pl, size_t *from, size_t *to)
{
    if (*to >= pl->npoints)
        return 0;
    *from = *to;
    while (*to < pl->npoints &&
           !strcmp(pl->points[*to].rows[0]->collective, pl->points[*from].rows[0]->collective))
        (*to)++;
    return 1;
}

/* alltoallv: one choice per np (neither collsim's layer nor Open MPI can
 * decide by size alike on every process): the one most sizes take, the
 * smallest size's among equals. */
static size_t np_choice(const choice *ch, const plan *pl, size_t from, size_t to, char *why,
                        size_t len)
{
    size_t pick = from, most = 0;
    for (size_t i = from; i < to; i++) {
        size_t same = 0;
        for (size_t j = from; j < to; j++)
            same += (ch[i].row == NULL) == (ch[j].row == NULL) &&
                    (!ch[i].row || !strcmp(ch[i].row->algorithm, ch[j].row->algorithm));
        if (same > most) {
            most = same;
            pick = i;
        }
    }
    snprintf(why, len, "the choice at %zu of %zu sizes (%ld..%ld B): %s", most, to - from,
             pl->points[from].rows[0]->bytes, pl->points[to - 1].rows[0]->bytes, ch[pick].why);
    return pick;
}

static void write_table(FILE *f, const void *arg)
{
    const plan *pl = arg;
    origin(f, pl, "collsim decision table: COLLSIM_<COLLECTIVE>=auto:FILE for libcollsim_pmpi.so");
    fprintf(f, "# A call on a communicator of p ranks with b bytes per rank's block (alltoallv: b "
               "= 0) takes the rule of the largest np <= p and, in it, of the largest bytes <= b; "
               "none: the library's\n# collective.  library: the library's collective.\n");
    fprintf(f, "# collective np bytes algorithm  # why\n");
    size_t from = 0, to = 0;
    while (next_coll(pl, &from, &to)) {
        const char *coll = pl->points[from].rows[0]->collective;
        const int v = !strcmp(coll, "alltoallv");
        int np_max = 0;
        for (size_t i = from; i < to;) {
            size_t j = i;
            const int np = pl->points[i].rows[0]->np;
            while (j < to && pl->points[j].rows[0]->np == np)
                j++;
            np_max = np;
            if (v) {
                char why[512];
                size_t k = np_choice(pl->mine, pl, i, j, why, sizeof why);
                fprintf(f, "%s %d 0 %s  # %s\n", coll, np,
                        pl->mine[k].row ? pl->mine[k].row->algorithm : "library", why);
            } else {
                for (size_t k = i; k < j; k++)
                    fprintf(f, "%s %d %ld %s  # %s\n", coll, np, pl->points[k].rows[0]->bytes,
                            pl->mine[k].row ? pl->mine[k].row->algorithm : "library",
                            pl->mine[k].why);
                fprintf(f, "%s %d %ld library  # beyond the largest simulated size\n", coll, np,
                        pl->points[j - 1].rows[0]->bytes + 1);
            }
            i = j;
        }
        fprintf(f, "%s %d 0 library  # beyond the largest simulated np\n", coll, np_max + 1);
    }
}

static int lib_coll(const char *lib, const char *coll)
{
    for (size_t i = 0; i < NLIB_COLLS; i++)
        if (!strcmp(lib_colls[i].lib, lib) && !strcmp(lib_colls[i].coll, coll))
            return (int)i;
    return -1;
}

/* What a file could not name: " COLL/ALG" for each of collsim's algorithms of the results
 * without a number of the library (each once), or " none". */
static void unnamed(FILE *f, const plan *pl, int (*value)(const char *coll, const char *alg))
{
    int any = 0;
    for (size_t i = 0; i < pl->npoints; i++)
        for (size_t k = 0; k < pl->points[i].n; k++) {
            const cs_result *r = pl->points[i].rows[k];
            if (is_native(r->algorithm) || value(r->collective, r->algorithm) >= 0)
                continue;
            int seen = 0; /* said once */
            for (size_t a = 0; a <= i && !seen; a++)
                for (size_t b = 0; b < (a == i ? k : pl->points[a].n) && !seen; b++)
                    seen = !strcmp(pl->points[a].rows[b]->collective, r->collective) &&
                           !strcmp(pl->points[a].rows[b]->algorithm, r->algorithm);
            if (!seen)
                fprintf(f, " %s/%s", r->collective, r->algorithm), any = 1;
        }
    if (!any)
        fprintf(f, " none");
}

/* The size a library's rules compare for a row's call (algorithms.def's
 * size kinds), in bytes, count for `count`; 0 for `none`. `sum`: the row's
 * blocks as the driver draws them (its dist and seed; none recorded: the
 * driver's uniform), each at most the row's bytes. */
static long long lib_bytes(const cs_result *r, int kind)
{
    const long long bytes = r->bytes;
    char dt[64];
    column_text(r, CS_RC_dtype, dt, sizeof dt);
    const int tsize = cs_dtype_size(dt);
    switch (kind) {
    case SIZE_total:
        return bytes * r->np;
    case SIZE_sum: {
        cs_dist d;
        char err[256];
        long long sum = 0;
        if (tsize <= 0 || cs_dist_parse(r->dist[0] ? r->dist : "uniform", &d, err, sizeof err))
            return bytes * r->np; /* refused when the rows are read */
        for (int j = 0; j < r->np; j++)
            sum += cs_dist_block(&d, r->seed, 0, j, (long)(bytes / tsize));
        return sum * tsize;
    }
    case SIZE_count:
        return (tsize > 0 ? bytes / tsize : bytes) * r->np;
    case SIZE_none:
        return 0;
    default:
        return bytes;
    }
}

static void write_ompi_choice(FILE *f, const char *coll, unsigned long long size, const choice *c,
                              const char *label)
{
    const int number = c->row ? ompi_value(coll, c->row->algorithm) : 0;
    const char *note, *name = ompi_name(coll, number, &note);
    fprintf(f, "%llu %d 0 0  # %s: %d %s: %s%s%s\n", size, number, label, number, name,
            c->why, *note ? "; " : "", note);
}

static void write_ompi(FILE *f, const void *arg)
{
    const plan *pl = arg;
    origin(f, pl, "Open MPI 4.1 coll_tuned dynamic rules: --mca coll_tuned_use_dynamic_rules 1 "
                  "--mca coll_tuned_dynamic_rules_filename FILE");
    fprintf(f, "# Per collective (its Open MPI id), per communicator size (the rule of the largest "
               "size <= the communicator's), per message size (Open MPI's: bytes per rank x np "
               "for\n# allgather, alltoall, gather, scatter, reduce_scatter_block; the buffer's "
               "bytes for bcast, allreduce, reduce; the sum of the blocks' bytes for "
               "reduce_scatter;\n# alltoallv only its first rule): algorithm, fan-in/out, segment "
               "size. 0: Open MPI's own decision.\n");
    /* which of the best rows the file could not name */
    size_t ncoll = 0, from = 0, to = 0;
    while (next_coll(pl, &from, &to))
        ncoll += lib_coll("ompi", pl->points[from].rows[0]->collective) >= 0;
    fprintf(f, "%zu  # collectives\n", ncoll);
    from = to = 0;
    while (next_coll(pl, &from, &to)) {
        const char *coll = pl->points[from].rows[0]->collective;
        const int lc = lib_coll("ompi", coll);
        if (lc < 0)
            continue;
        const int size_kind = lib_colls[lc].size;
        size_t nnp = 0;
        for (size_t i = from; i < to; i++)
            nnp += i == from || pl->points[i].rows[0]->np != pl->points[i - 1].rows[0]->np;
        const int np_min = pl->points[from].rows[0]->np;
        fprintf(f, "%d  # %s\n%zu  # communicator sizes\n", lib_colls[lc].id, coll,
                nnp + 1 + (np_min > 1));
        if (np_min > 1)
            fprintf(f, "1  # below the simulated np: Open MPI's own decision\n1\n0 0 0 0\n");
        for (size_t i = from; i < to;) {
            size_t j = i;
            const int np = pl->points[i].rows[0]->np;
            while (j < to && pl->points[j].rows[0]->np == np)
                j++;
            if (size_kind == SIZE_none) {
                char why[512];
                size_t k = np_choice(pl->ompi, pl, i, j, why, sizeof why);
                choice c = pl->ompi[k];
                snprintf(c.why, sizeof c.why, "%s", why);
                fprintf(f, "%d  # np %d\n1\n", np, np);
                write_ompi_choice(f, coll, 0, &c, "any size");
                i = j;
                continue;
            }
            const unsigned long long first = (unsigned long long)lib_bytes(pl->points[i].rows[0], size_kind);
            fprintf(f, "%d  # np %d\n%zu\n", np, np, (j - i) + 1 + (first > 0));
            if (first > 0)
                fprintf(f, "0 0 0 0  # below the simulated sizes: Open MPI's own decision\n");
            for (size_t k = i; k < j; k++) {
                char label[96];
                snprintf(label, sizeof label, "%ld B per rank", pl->points[k].rows[0]->bytes);
                write_ompi_choice(f, coll, (unsigned long long)lib_bytes(pl->points[k].rows[0], size_kind),
                                  &pl->ompi[k], label);
            }
            fprintf(f, "%llu 0 0 0  # beyond the largest simulated size: Open MPI's own decision\n",
                    (unsigned long long)lib_bytes(pl->points[j - 1].rows[0], size_kind) + 1);
            i = j;
        }
        fprintf(f, "%d  # beyond the largest simulated np: Open MPI's own decision\n1\n0 0 0 0\n",
                pl->points[to - 1].rows[0]->np + 1);
    }
    fprintf(f, "# collsim's algorithms of these results without an Open MPI 4.1 counterpart "
               "(where one was fastest, the file takes the fastest Open MPI has, or its own "
               "decision):");
    unnamed(f, pl, ompi_value);
    fprintf(f, "\n");
}

/* ---- MPICH 4.0's JSON selection file ---- */
typedef struct {
    const plan *pl;
    size_t from, to; /* the collective's points */
    int size_kind;
} mpich_coll_arg;

static const char *mpich_name(const char *coll, const choice *c, const char **note)
{
    return lib_name("mpich", coll, mpich_value(coll, c->row->algorithm), note);
}

/* A leaf: the algorithm the choice names, or MPICH's own choice. */
static void mpich_leaf(FILE *f, const char *coll, const choice *c, const char *label)
{
    const char *note = "";
    if (c->row)
        cs_mpich_leaf(f, coll, mpich_name(coll, c, &note));
    else
        cs_mpich_own(f, coll);
    fprintf(f, " /* %s: %s%s%s */", label, c->why, *note ? "; " : "", note);
}

/* MPICH's size of a call, as its rules compare it (at most INT_MAX: MPICH
 * reads the value with atoi). */
static long long mpich_size(const cs_result *r, int kind)
{
    const long long v = lib_bytes(r, kind);
    return v > 2147483647LL ? 2147483647LL : v;
}

static void mpich_body(FILE *f, const void *arg)
{
    const mpich_coll_arg *a = arg;
    const plan *pl = a->pl;
    const char *coll = pl->points[a->from].rows[0]->collective;
    const char *key = a->size_kind == SIZE_one ? "avg_msg_size" : "total_msg_size";
    const int np_min = pl->points[a->from].rows[0]->np;
    fprintf(f, "{\n");
    if (np_min > 1) {
        fprintf(f, "    \"comm_size<=%d\": ", np_min - 1);
        cs_mpich_own(f, coll);
        fprintf(f, ", /* below the simulated np: MPICH's own decision */\n");
    }
    for (size_t i = a->from; i < a->to;) {
        size_t j = i;
        const int np = pl->points[i].rows[0]->np;
        while (j < a->to && pl->points[j].rows[0]->np == np)
            j++;
        const int upper = j < a->to ? pl->points[j].rows[0]->np - 1 : np;
        fprintf(f, "    \"comm_size<=%d\": ", upper);
        if (a->size_kind == SIZE_none) {
            char why[512];
            size_t k = np_choice(pl->mpich, pl, i, j, why, sizeof why);
            choice c = pl->mpich[k];
            snprintf(c.why, sizeof c.why, "%s", why);
            char label[64];
            snprintf(label, sizeof label, "np %d, any size", np);
            mpich_leaf(f, coll, &c, label);
            fprintf(f, ",\n");
            i = j;
            continue;
        }
        fprintf(f, "{ /* np %d */\n", np);
        const long long first = mpich_size(pl->points[i].rows[0], a->size_kind);
        long long prev = -1; /* the last bound written: MPICH's sizes end at INT_MAX */
        if (first > 0) {
            fprintf(f, "      \"%s<=%lld\": ", key, prev = first - 1);
            cs_mpich_own(f, coll);
            fprintf(f, ", /* below the simulated sizes: MPICH's own decision */\n");
        }
        for (size_t k = i; k < j; k++) {
            const long long up = k + 1 < j ? mpich_size(pl->points[k + 1].rows[0], a->size_kind) - 1
                                           : mpich_size(pl->points[k].rows[0], a->size_kind);
            char label[96];
            snprintf(label, sizeof label, "%ld B per rank", pl->points[k].rows[0]->bytes);
            if (up <= prev) { /* not told apart from the rule before in MPICH's int sizes */
                fprintf(f, "      /* %s: beyond the sizes MPICH compares (an int) */\n", label);
                continue;
            }
            fprintf(f, "      \"%s<=%lld\": ", key, prev = up);
            mpich_leaf(f, coll, &pl->mpich[k], label);
            fprintf(f, ",\n");
        }
        fprintf(f, "      \"%s=any\": ", key);
        cs_mpich_own(f, coll);
        fprintf(f, " /* beyond the largest simulated size: MPICH's own decision */\n    },\n");
        i = j;
    }
    fprintf(f, "    \"comm_size=any\": ");
    cs_mpich_own(f, coll);
    fprintf(f, " /* beyond the largest simulated np: MPICH's own decision */\n  }");
}

static void write_mpich(FILE *f, const void *arg)
{
    const plan *pl = arg;
    fprintf(f, "/*\n");
    origin_of(f, pl, "MPICH 4.0 collective selection: MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE "
                     "(with MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE=" CS_TUNE_MPICH_CH4 ")",
              MPICH_ROW, " *");
    fprintf(f, " * MPICH reads this file instead of its whole built-in selection, so it names an "
               "algorithm for every collective on every communicator:\n"
               " * per collective on an intracommunicator, per communicator size (comm_size<=N), "
               "per message size (MPICH's: total_msg_size, bytes per rank x np for allgather and\n"
               " * reduce_scatter_block, the sum of the blocks' bytes for reduce_scatter, elements "
               "per rank x np for gather and scatter; avg_msg_size, bytes of the buffer\n"
               " * or block for bcast, allreduce, reduce, alltoall; alltoallv by np only) the\n"
               " * algorithm collsim chose, or MPICH 4.0's own choice on a flat communicator; "
               "MPI_IN_PLACE alltoall(v) calls, intercommunicators and the collectives\n"
               " * collsim does not tune: one MPICH algorithm that serves every such call.\n */\n");
    fprintf(f, "{\n");
    const char *done[CS_NCOLL];
    size_t ndone = 0, from = 0, to = 0;
    while (next_coll(pl, &from, &to)) {
        const char *coll = pl->points[from].rows[0]->collective;
        const int lc = lib_coll("mpich", coll);
        if (lc < 0)
            continue;
        mpich_coll_arg a = {pl, from, to, lib_colls[lc].size};
        fprintf(f, "%s", ndone ? ",\n" : "");
        cs_mpich_collective(f, coll, mpich_body, &a);
        done[ndone++] = coll;
    }
    if (!ndone) { /* no tuned collective: MPICH's own choices alone */
        cs_mpich_collective(f, "barrier", NULL, NULL);
        done[ndone++] = "barrier";
    }
    cs_mpich_others(f, done, ndone);
    fprintf(f, "\n}\n");
    /* what the file could not name */
    fprintf(f, "/* collsim's algorithms of these results without an MPICH 4.0 counterpart "
               "(where one was fastest, the file takes the fastest MPICH has, or its own "
               "decision):");
    unnamed(f, pl, mpich_value);
    fprintf(f, " */\n");
}

static void write_mpich_ch4(FILE *f, const void *arg)
{
    (void)arg;
    fprintf(f, "/* MPICH 4.0 ch4 collective selection (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE), "
               "written by collsim tune beside " CS_TUNE_MPICH ":\n"
               " * every collective goes whole to the network module, whose collectives take "
               CS_TUNE_MPICH "'s algorithm (not MPICH's node-aware compositions) */\n");
    cs_mpich_ch4(f);
}

static int make_dir(const char *dir, cs_err *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *s = path + 1;; s++) {
        const char c = *s;
        if (c == '/' || !c) {
            *s = '\0';
            if (mkdir(path, 0777) && errno != EEXIST)
                return cs_fail(e, "tune: cannot create %s: %s", path, strerror(errno));
            *s = c;
        }
        if (!c)
            return 0;
    }
}

int cs_tune(const cs_tune_opts *o, FILE *summary, cs_err *e)
{
    cs_result *all;
    size_t n;
    if (o->threshold_pct < 0)
        return cs_fail(e, "tune: --threshold %g: a percentage >= 0", o->threshold_pct);
    if (cs_results_read(o->results, &all, &n, e))
        return -1;
    const cs_result **rows = cs_xmalloc((n ? n : 1) * sizeof *rows);
    size_t m = 0, other = 0;
    for (size_t i = 0; i < n; i++) {
        const cs_result *r = &all[i];
        const cs_coll_props *c = cs_coll_find(r->collective);
        if (strcmp(r->status, "ok"))
            continue;
        if (!c || !tunable(c)) {
            other++;
            continue;
        }
        if ((o->platform && strcmp(r->platform, o->platform)) ||
            (o->mapping && strcmp(r->mapping, o->mapping)) ||
            (o->model && strcmp(cs_result_model(r), o->model)))
            continue;
        /* the blocks of a row whose size the libraries take as their sum */
        cs_dist d;
        char derr[512];
        const int lc = lib_coll("ompi", r->collective);
        if (lc >= 0 && lib_colls[lc].size == SIZE_sum && r->dist[0] &&
            cs_dist_parse(r->dist, &d, derr, sizeof derr)) {
            cs_fail(e, "tune: %s: %s at np %d, %ld bytes: dist: %s", o->results, r->collective,
                    r->np, r->bytes, derr);
            free(rows);
            free(all);
            return -1;
        }
        rows[m++] = r;
    }
    int rc = -1;
    char platform[512], mapping[64], model[64], scenario[512];
    plan pl = {o, scenario, platform, mapping, model, NULL, 0, NULL, NULL, NULL};
    if (!m) {
        cs_fail(e, "tune: %s has no row with status ok of %s%s%s%s%s%s%s (collectives: %s)",
                o->results, o->platform ? "platform " : "any platform",
                o->platform ? o->platform : "", o->mapping ? ", mapping " : "",
                o->mapping ? o->mapping : "", o->model ? ", model " : "", o->model ? o->model : "",
                "", "allgather, alltoall, alltoallv, gather, scatter, bcast, allreduce, reduce, "
                    "reduce_scatter_block, reduce_scatter");
        goto out;
    }
    if (!only_value(rows, m, CS_RC_platform, "--platform", o->results, platform, sizeof platform, e) ||
        !only_value(rows, m, CS_RC_mapping, "--mapping", o->results, mapping, sizeof mapping, e))
        goto out;
    /* the model: "" reads as network */
    snprintf(model, sizeof model, "%s", cs_result_model(rows[0]));
    for (size_t i = 1; i < m; i++)
        if (strcmp(cs_result_model(rows[i]), model)) {
            cs_fail(e, "tune: %s holds several models (%s, %s): choose one with --model",
                    o->results, model, cs_result_model(rows[i]));
            goto out;
        }
    if (o->scenario)
        snprintf(scenario, sizeof scenario, "%s", o->scenario);
    else
        scenario_of(o->results, scenario, sizeof scenario);
    qsort(rows, m, sizeof *rows, cmp_rows);
    pl.points = cs_xmalloc(m * sizeof *pl.points);
    for (size_t i = 0; i < m;) {
        size_t j = i + 1;
        while (j < m && same_place(rows[i], rows[j]))
            j++;
        /* one point: the other columns of the point alike */
        for (size_t k = i + 1; k < j; k++)
            if (cs_result_cmp_point(rows[i], rows[k])) {
                for (int col = 0; col < CS_RC_NCOLUMNS; col++) {
                    const cs_column_info *ci = cs_result_column(col);
                    char a[512], b[512];
                    if (!ci->point_rank)
                        continue;
                    column_text(rows[i], col, a, sizeof a);
                    column_text(rows[k], col, b, sizeof b);
                    if (strcmp(a, b)) {
                        cs_fail(e, "tune: %s: %s at np %d, %ld bytes was run with two values of "
                                   "%s (%s, %s): give results of one (e.g. the rows of one "
                                   "with `grep`, or a sweep of one)",
                                o->results, rows[i]->collective, rows[i]->np, rows[i]->bytes,
                                ci->name, a, b);
                        goto out;
                    }
                }
            }
        pl.points[pl.npoints++] = (point){rows + i, j - i};
        i = j;
    }
    pl.mine = cs_xmalloc(pl.npoints * sizeof *pl.mine);
    pl.ompi = cs_xmalloc(pl.npoints * sizeof *pl.ompi);
    pl.mpich = cs_xmalloc(pl.npoints * sizeof *pl.mpich);
    const target mine = {"collsim's table", collsim_value, LIBRARY_ROW},
                 ompi = {"Open MPI", ompi_value, LIBRARY_ROW}, mpich = {"MPICH", mpich_value, MPICH_ROW};
    for (size_t i = 0; i < pl.npoints; i++) {
        decide(&mine, &pl.points[i], o->threshold_pct, &pl.mine[i]);
        decide(&ompi, &pl.points[i], o->threshold_pct, &pl.ompi[i]);
        decide(&mpich, &pl.points[i], o->threshold_pct, &pl.mpich[i]);
    }
    if (make_dir(o->out_dir, e))
        goto out;
    static const struct {
        const char *name;
        void (*write)(FILE *, const void *);
    } files[] = {{CS_TUNE_TABLE, write_table},
                 {CS_TUNE_OMPI, write_ompi},
                 {CS_TUNE_MPICH, write_mpich},
                 {CS_TUNE_MPICH_CH4, write_mpich_ch4}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", o->out_dir, files[i].name);
        if (cs_write_replacing(path, files[i].write, &pl, e))
            goto out;
    }
    fprintf(summary, "# scenario %s, platform %s, mapping %s, model %s, threshold %g%%%s\n",
            scenario, platform, mapping, model, o->threshold_pct,
            other ? " (rows of other collectives left out)" : "");
    fprintf(summary, "# %-10s %5s %9s  %-26s %-26s %-28s %s\n", "collective", "np", "bytes",
            "fastest", "collsim table", "Open MPI rules", "MPICH file");
    for (size_t i = 0; i < pl.npoints; i++) {
        const cs_result *b = pl.points[i].rows[0];
        char om[96];
        const int number = pl.ompi[i].row ? ompi_value(b->collective, pl.ompi[i].row->algorithm) : 0;
        const char *note;
        snprintf(om, sizeof om, "%d %s", number, ompi_name(b->collective, number, &note));
        const char *mp = lib_coll("mpich", b->collective) < 0 ? "-"
                         : pl.mpich[i].row ? mpich_name(b->collective, &pl.mpich[i], &note)
                                           : "library";
        fprintf(summary, "%-12s %5d %9ld  %-26s %-26s %-28s %s\n", b->collective, b->np, b->bytes,
                b->algorithm, pl.mine[i].row ? pl.mine[i].row->algorithm : "library", om, mp);
    }
    fprintf(summary, "# written: %s/" CS_TUNE_TABLE ", %s/" CS_TUNE_OMPI ", %s/" CS_TUNE_MPICH
                     ", %s/" CS_TUNE_MPICH_CH4 "\n",
            o->out_dir, o->out_dir, o->out_dir, o->out_dir);
    rc = 0;
out:
    free(pl.points);
    free(pl.mine);
    free(pl.ompi);
    free(pl.mpich);
    free(rows);
    free(all);
    return rc;
}
