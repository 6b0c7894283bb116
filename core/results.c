#include "results.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The columns (results_columns.def), in file order: name, type, where in
 * cs_result, whether a file must have it, its default and its roles. One
 * table drives writing, reading and comparing. */
typedef enum { COL_STR, COL_INT, COL_LONG, COL_LLONG, COL_ULONG, COL_DOUBLE } col_type;
typedef struct {
    cs_column_info info;
    col_type type;
    size_t offset, size;
    double dflt;       /* numbers' default (strings': "") */
    int group, ratio;  /* in the report group; compared by ratio in the point and group */
    const char *empty; /* what "" compares as; NULL: itself */
} column;

/* role -> key rank, point rank, in the group, by ratio, cs_column_role */
#define CS_RC_KEYRANK_KEY(k) k
#define CS_RC_KEYRANK_POINT(k, p) k
#define CS_RC_KEYRANK_AXIS(k, p) k
#define CS_RC_KEYRANK_RATIO(k, p) k
#define CS_RC_KEYRANK_SETTING 0
#define CS_RC_KEYRANK_VALUE 0
#define CS_RC_POINTRANK_KEY(k) 0
#define CS_RC_POINTRANK_POINT(k, p) p
#define CS_RC_POINTRANK_AXIS(k, p) p
#define CS_RC_POINTRANK_RATIO(k, p) p
#define CS_RC_POINTRANK_SETTING 0
#define CS_RC_POINTRANK_VALUE 0
#define CS_RC_GROUP_KEY(k) 0
#define CS_RC_GROUP_POINT(k, p) 1
#define CS_RC_GROUP_AXIS(k, p) 0
#define CS_RC_GROUP_RATIO(k, p) 1
#define CS_RC_GROUP_SETTING 0
#define CS_RC_GROUP_VALUE 0
#define CS_RC_RATIO_KEY(k) 0
#define CS_RC_RATIO_POINT(k, p) 0
#define CS_RC_RATIO_AXIS(k, p) 0
#define CS_RC_RATIO_RATIO(k, p) 1
#define CS_RC_RATIO_SETTING 0
#define CS_RC_RATIO_VALUE 0
#define CS_RC_ROLE_KEY(k) CS_ROLE_KEY
#define CS_RC_ROLE_POINT(k, p) CS_ROLE_POINT
#define CS_RC_ROLE_AXIS(k, p) CS_ROLE_AXIS
#define CS_RC_ROLE_RATIO(k, p) CS_ROLE_RATIO
#define CS_RC_ROLE_SETTING CS_ROLE_SETTING
#define CS_RC_ROLE_VALUE CS_ROLE_VALUE
/* a string's default is "" (cs_result_init clears the row): another fails to compile */
#define CS_RC_DFLT_STR(d) (0 * sizeof(char[sizeof(d) == 1 ? 1 : -1]))
#define CS_RC_DFLT_INT(d) (d)
#define CS_RC_DFLT_LONG(d) (d)
#define CS_RC_DFLT_LLONG(d) (d)
#define CS_RC_DFLT_ULONG(d) (d)
#define CS_RC_DFLT_DOUBLE(d) (d)

static const column columns[] = {
#define CS_RESULT_COLUMN(m, type, size, dflt, required, role, site, empty)                         \
    {{#m, CS_RC_ROLE_##role, CS_RC_KEYRANK_##role, CS_RC_POINTRANK_##role, site, required},      \
     COL_##type,                                                                                  \
     offsetof(cs_result, m),                                                                      \
     sizeof(((cs_result *)0)->m),                                                                 \
     (double)CS_RC_DFLT_##type(dflt),                                                             \
     CS_RC_GROUP_##role,                                                                          \
     CS_RC_RATIO_##role,                                                                          \
     empty},
#include "results_columns.def"
#undef CS_RESULT_COLUMN
};
#define NCOLUMNS (sizeof columns / sizeof columns[0])

/* The key's and the point's columns in rank order: order[rank - 1] is the
 * column of that rank; the columns without one fill the tail. A rank given
 * twice or left out is a schema error (a unit test holds them). */
#define CS_RESULT_COLUMN(m, type, size, dflt, required, role, ...)                                \
    [CS_RC_KEYRANK_##role ? CS_RC_KEYRANK_##role - 1 : CS_RC_NCOLUMNS + CS_RC_##m] = CS_RC_##m,
static const unsigned char key_order[2 * CS_RC_NCOLUMNS] = {
#include "results_columns.def"
};
#undef CS_RESULT_COLUMN
#define CS_RESULT_COLUMN(m, type, size, dflt, required, role, ...)                                \
    [CS_RC_POINTRANK_##role ? CS_RC_POINTRANK_##role - 1 : CS_RC_NCOLUMNS + CS_RC_##m] = CS_RC_##m,
static const unsigned char point_order[2 * CS_RC_NCOLUMNS] = {
#include "results_columns.def"
};
#undef CS_RESULT_COLUMN
enum {
    NKEY = 0
#define CS_RESULT_COLUMN(m, type, size, dflt, required, role, ...) +(CS_RC_KEYRANK_##role > 0)
#include "results_columns.def"
#undef CS_RESULT_COLUMN
    ,
    NPOINT = 0
#define CS_RESULT_COLUMN(m, type, size, dflt, required, role, ...) +(CS_RC_POINTRANK_##role > 0)
#include "results_columns.def"
#undef CS_RESULT_COLUMN
};

static const char header_text[] = ""
#define CS_RESULT_COLUMN(m, ...) "," #m
#include "results_columns.def"
#undef CS_RESULT_COLUMN
    ;
_Static_assert(sizeof header_text == CS_RESULTS_HEADER_SIZE + 1, "the header's size");
const char *const cs_results_header = header_text + 1; /* past the first ',' */

const cs_column_info *cs_result_column(int i)
{
    return i >= 0 && i < (int)NCOLUMNS ? &columns[i].info : NULL;
}

int cs_result_column_index(const char *name)
{
    for (size_t i = 0; i < NCOLUMNS; i++)
        if (!strcmp(columns[i].info.name, name))
            return (int)i;
    return -1;
}

void cs_result_init(cs_result *r)
{
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < NCOLUMNS; i++) {
        const column *c = &columns[i];
        char *p = (char *)r + c->offset;
        switch (c->type) {
        case COL_STR: break;
        case COL_INT: *(int *)p = (int)c->dflt; break;
        case COL_LONG: *(long *)p = (long)c->dflt; break;
        case COL_LLONG: *(long long *)p = (long long)c->dflt; break;
        case COL_ULONG: *(unsigned long *)p = (unsigned long)c->dflt; break;
        case COL_DOUBLE: *(double *)p = c->dflt; break;
        }
    }
}

const char *cs_groups_ratio(const char *groups, char *buf, size_t len)
{
    long p, q;
    buf[0] = 0;
    if (sscanf(groups, "%ld:%ld", &p, &q) == 2 && p > 0 && q > 0) {
        long a = p, b = q;
        while (b) {
            long t = a % b;
            a = b;
            b = t;
        }
        snprintf(buf, len, "%ld:%ld", p / a, q / a);
    }
    return buf;
}

#define CMP_NUM(t, pa, pb) ((*(const t *)(pa) > *(const t *)(pb)) - (*(const t *)(pa) < *(const t *)(pb)))

/* Column c of a and b: strings by strcmp (an empty one as c->empty; by their
 * ratio with `ratio`), numbers numerically. */
static int cmp_column(const column *c, const cs_result *a, const cs_result *b, int ratio)
{
    const char *pa = (const char *)a + c->offset, *pb = (const char *)b + c->offset;
    switch (c->type) {
    case COL_STR: {
        char ra[32], rb[32];
        if (ratio) {
            pa = cs_groups_ratio(pa, ra, sizeof ra);
            pb = cs_groups_ratio(pb, rb, sizeof rb);
        }
        if (c->empty) {
            pa = *pa ? pa : c->empty;
            pb = *pb ? pb : c->empty;
        }
        return strcmp(pa, pb);
    }
    case COL_INT: return CMP_NUM(int, pa, pb);
    case COL_LONG: return CMP_NUM(long, pa, pb);
    case COL_LLONG: return CMP_NUM(long long, pa, pb);
    case COL_ULONG: return CMP_NUM(unsigned long, pa, pb);
    case COL_DOUBLE: return CMP_NUM(double, pa, pb);
    }
    return 0;
}

int cs_key_cmp(const cs_result *a, const cs_result *b)
{
    int c = 0;
    for (int k = 0; k < NKEY && !c; k++)
        c = cmp_column(&columns[key_order[k]], a, b, 0);
    return c;
}

/* The point's columns in rank order; with `group`, those of the report group alone. */
static int cmp_point(const cs_result *a, const cs_result *b, int group)
{
    int c = 0;
    for (int k = 0; k < NPOINT && !c; k++) {
        const column *col = &columns[point_order[k]];
        if (!group || col->group)
            c = cmp_column(col, a, b, col->ratio);
    }
    return c;
}

int cs_result_cmp_point(const cs_result *a, const cs_result *b) { return cmp_point(a, b, 0); }

int cs_result_cmp_group(const cs_result *a, const cs_result *b) { return cmp_point(a, b, 1); }

const char *cs_result_model(const cs_result *r)
{
    return r->model[0] ? r->model : columns[CS_RC_model].empty;
}

int cs_result_same_case(const cs_result *a, const cs_result *b)
{
    for (int k = 0; k < NKEY; k++) {
        const column *col = &columns[key_order[k]];
        if (!col->info.site && cmp_column(col, a, b, 0))
            return 0;
    }
    return 1;
}

static int cmp_alg_region(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    int c;
    if ((c = strcmp(a->collective, b->collective)) || (c = strcmp(a->algorithm, b->algorithm)))
        return c;
    return strcmp(a->region, b->region);
}

int cs_results_several_regions(const cs_result *rows, size_t n)
{
    size_t i = 1;
    while (i < n && !strcmp(rows[i].region, rows[0].region))
        i++;
    if (i >= n)
        return 0; /* one region for all (the common case, no sort) */
    const cs_result **v = cs_xmalloc(n * sizeof *v);
    for (i = 0; i < n; i++)
        v[i] = &rows[i];
    qsort(v, n, sizeof *v, cmp_alg_region);
    int several = 0;
    for (i = 1; i < n && !several; i++)
        several = !strcmp(v[i]->collective, v[i - 1]->collective) &&
                  !strcmp(v[i]->algorithm, v[i - 1]->algorithm) &&
                  strcmp(v[i]->region, v[i - 1]->region);
    free(v);
    return several;
}

const char *cs_result_alg_label(const cs_result *x, int several, char *buf, size_t len)
{
    if (!several || !x->region[0])
        return x->algorithm;
    snprintf(buf, len, "%s@%s", x->algorithm, x->region);
    return buf;
}

int cs_placement_regions(const char *placement, const char *level, int np, int *region_of,
                         char *level_out, size_t out_len)
{
    for (const char *p = placement; p && *p;) {
        p += strspn(p, "; ");
        const char *colon = strchr(p, ':'), *end = p + strcspn(p, ";");
        if (!colon || colon > end)
            return -1;
        const size_t n = (size_t)(colon - p);
        if (level && level[0] && (strlen(level) != n || strncmp(level, p, n))) {
            p = end;
            continue;
        }
        if (level_out)
            snprintf(level_out, out_len, "%.*s", (int)n, p);
        int r = 0;
        for (const char *q = colon + 1; q < end && r <= np;) {
            char *stop;
            q += strspn(q, " ");
            if (q >= end)
                break;
            long reg = strtol(q, &stop, 10), run = 1;
            if (stop == q || reg < 0)
                return -1;
            if (*stop == 'x')
                run = strtol(stop + 1, &stop, 10);
            if (run < 1 || r + run > np)
                return -1; /* more ranks than np: another case's column */
            for (long i = 0; i < run; i++)
                region_of[r++] = (int)reg;
            q = stop;
        }
        return r == np ? 0 : -1;
    }
    return -1;
}

void cs_results_write_header(FILE *f) { fprintf(f, "%s\n", CS_RESULTS_HEADER); }

void cs_csv_write_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void cs_results_write_row(FILE *f, const cs_result *r)
{
    for (size_t i = 0; i < NCOLUMNS; i++) {
        const column *c = &columns[i];
        const char *p = (const char *)r + c->offset;
        if (i)
            fputc(',', f);
        switch (c->type) {
        case COL_STR: cs_csv_write_field(f, p); break;
        case COL_INT: fprintf(f, "%d", *(const int *)p); break;
        case COL_LONG: fprintf(f, "%ld", *(const long *)p); break;
        case COL_LLONG: fprintf(f, "%lld", *(const long long *)p); break;
        case COL_ULONG: fprintf(f, "%lu", *(const unsigned long *)p); break;
        /* %.17g: a double printed this way reads back bit for bit */
        case COL_DOUBLE: fprintf(f, "%.17g", *(const double *)p); break;
        }
    }
    fputc('\n', f);
}

int cs_write_replacing(const char *path, void (*body)(FILE *f, const void *arg), const void *arg,
                       cs_err *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cs_fail(err, "cannot write %s: %s", tmp, strerror(errno));
    body(f, arg);
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        remove(tmp);
        return cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}

typedef struct {
    const cs_result *rows;
    size_t n;
} row_span;

static void write_rows(FILE *f, const void *arg)
{
    const row_span *r = arg;
    cs_results_write_header(f);
    for (size_t i = 0; i < r->n; i++)
        cs_results_write_row(f, &r->rows[i]);
}

int cs_results_write_file(const char *path, const cs_result *rows, size_t n, cs_err *err)
{
    row_span r = {rows, n};
    return cs_write_replacing(path, write_rows, &r, err);
}

int cs_csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *c = line;
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = 0;
    for (;;) {
        if (n == max)
            return n + 1; /* too many fields */
        if (*c == '"') {
            char *out = ++c;
            fields[n++] = out;
            while (*c) {
                if (*c == '"' && c[1] == '"') {
                    *out++ = '"';
                    c += 2;
                } else if (*c == '"') {
                    c++;
                    break;
                } else {
                    *out++ = *c++;
                }
            }
            char *after = c;
            *out = 0;
            c = after;
            if (*c == ',') {
                c++;
                continue;
            }
            return n;
        }
        fields[n++] = c;
        char *comma = strchr(c, ',');
        if (!comma)
            return n;
        *comma = 0;
        c = comma + 1;
    }
}

/* Stores one field; returns 0, -1 when a number cannot be read, -2 when it
 * is out of the column's range. */
static int set_field(cs_result *r, const column *c, const char *s)
{
    char *p = (char *)r + c->offset, *end;
    errno = 0;
    switch (c->type) {
    case COL_STR: snprintf(p, c->size, "%s", s); return 0;
    case COL_INT: {
        long v = strtol(s, &end, 10);
        if (v < INT_MIN || v > INT_MAX) /* (int) would keep the low bits: np 4294967297 as 1 */
            errno = ERANGE;
        *(int *)p = (int)v;
        break;
    }
    case COL_LONG: *(long *)p = strtol(s, &end, 10); break;
    case COL_LLONG: *(long long *)p = strtoll(s, &end, 10); break;
    case COL_ULONG: *(unsigned long *)p = strtoul(s, &end, 10); break;
    case COL_DOUBLE: *(double *)p = strtod(s, &end); break;
    default: return -1;
    }
    return end == s || *end ? -1 : errno ? -2 : 0;
}

int cs_result_set(cs_result *r, const char *column, const char *text)
{
    for (size_t i = 0; i < NCOLUMNS; i++)
        if (!strcmp(columns[i].info.name, column))
            return set_field(r, &columns[i], text) ? -1 : 0;
    return -1;
}

/* Whether column c of a row with status ok holds no time: nan, inf or a
 * negative value would win or skew every comparison of report, check and
 * merge. Rows that did not pass hold no measurement (0 or placeholders); an
 * optional time may be -1, "not measured". */
static int not_a_time(const cs_result *r, const column *c)
{
    if (c->type != COL_DOUBLE || strcmp(r->status, "ok"))
        return 0;
    double v = *(const double *)((const char *)r + c->offset);
    return !isfinite(v) || (v < 0 && (c->info.required || v != -1));
}

#define MAX_FIELDS 64

char *cs_skip_bom(char *line)
{
    return strncmp(line, "\xEF\xBB\xBF", 3) ? line : line + 3;
}

int cs_results_read(const char *path, cs_result **rows, size_t *n, cs_err *err)
{
    return cs_results_read_torn(path, rows, n, NULL, err);
}

int cs_results_read_torn(const char *path, cs_result **rows, size_t *n, long *torn, cs_err *err)
{
    FILE *f = fopen(path, "r");
    *rows = NULL;
    *n = 0;
    if (torn)
        *torn = 0;
    if (!f)
        return cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    char line[8192];
    size_t cap = 0;
    long lineno = 0;
    int rc = 0, nhead = 0;
    const column *of_field[MAX_FIELDS]; /* the column of each field; NULL: ignored */
    while (fgets(line, sizeof line, f)) {
        lineno++;
        /* a longer line would be read as two rows: a full buffer must end the line */
        if (!strchr(line, '\n') && strlen(line) == sizeof line - 1) {
            int more = getc(f); /* its line break or the end of the file */
            if (more != '\n' && more != EOF) {
                rc = cs_fail(err, "%s:%ld: line longer than %zu characters", path, lineno,
                             sizeof line - 1);
                break;
            }
        }
        char *fld[MAX_FIELDS + 1];
        if (lineno == 1) {
            /* a byte-order mark (what spreadsheet programs write) is no part of the first name */
            nhead = cs_csv_split(cs_skip_bom(line), fld, MAX_FIELDS);
            if (nhead > MAX_FIELDS) { /* cs_csv_split stopped counting */
                rc = cs_fail(err, "%s:1: more than %d columns in the header", path, MAX_FIELDS);
                break;
            }
            int seen[NCOLUMNS] = {0};
            for (int k = 0; k < nhead && k < MAX_FIELDS; k++) {
                of_field[k] = NULL;
                for (size_t i = 0; i < NCOLUMNS; i++)
                    if (!strcmp(fld[k], columns[i].info.name)) {
                        of_field[k] = &columns[i];
                        seen[i] = 1;
                    }
            }
            for (size_t i = 0; i < NCOLUMNS && !rc; i++)
                if (columns[i].info.required && !seen[i])
                    rc = cs_fail(err, "%s:1: not a collsim results file: no column '%s' "
                                      "(expected a header like '%s')",
                                 path, columns[i].info.name, CS_RESULTS_HEADER);
            if (rc)
                break;
            continue;
        }
        if (line[0] == '\n' || line[0] == 0)
            continue;
        int last = !strchr(line, '\n'); /* a last line without its line break */
        if (last) {
            int more = getc(f);
            last = more == EOF;
            if (!last)
                ungetc(more, f);
        }
        const long bytes = (long)strlen(line);
        /* a carriage return before the line's end (a \r\n ending is fine) would be written back
         * as a space (cs_csv_write_field): a row's key would change when resume, repair or
         * merge rewrites the file */
        long body = bytes;
        while (body && (line[body - 1] == '\n' || line[body - 1] == '\r'))
            body--;
        const char *cr = memchr(line, '\r', (size_t)body);
        int nf = cs_csv_split(line, fld, MAX_FIELDS);
        if (nf != nhead && last && nf < nhead && torn) {
            *torn = bytes; /* what a run killed inside a write leaves: the caller drops it */
            break;
        }
        if (nf != nhead && last && nf < nhead) {
            rc = cs_fail(err, "%s:%ld: an incomplete last row (%d fields, the header has %d), as "
                              "a run killed while writing leaves: `collsim repair %s` drops it "
                              "(keeping the file as it was), `run --resume` too",
                         path, lineno, nf, nhead, path);
            break;
        }
        if (nf != nhead) {
            rc = cs_fail(err, "%s:%ld: %d fields, the header has %d: a damaged row (edit or "
                              "remove that line)",
                         path, lineno, nf, nhead);
            break;
        }
        if (cr) {
            rc = cs_fail(err, "%s:%ld: a carriage return (\\r) inside the row, at character %ld: "
                              "a results file has one only just before a line break (edit or "
                              "remove that line)",
                         path, lineno, (long)(cr - line) + 1);
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            *rows = cs_xrealloc(*rows, cap * sizeof(cs_result));
        }
        cs_result *r = &(*rows)[*n];
        cs_result_init(r);
        for (int k = 0, bad; k < nf && !rc; k++)
            if (of_field[k] && (bad = set_field(r, of_field[k], fld[k])))
                rc = cs_fail(err, "%s:%ld: column %s: '%s' is %s", path, lineno, of_field[k]->info.name,
                             fld[k], bad == -1 ? "not a number" : "out of range");
        /* a second pass: status comes after the times */
        for (int k = 0; k < nf && !rc; k++)
            if (of_field[k] && not_a_time(r, of_field[k]))
                rc = cs_fail(err, "%s:%ld: column %s: '%s' is not a time (a row with status ok "
                                  "needs a finite value >= 0)",
                             path, lineno, of_field[k]->info.name, fld[k]);
        if (rc)
            break;
        (*n)++;
    }
    if (!rc && lineno == 0)
        rc = cs_fail(err, "%s: empty file (expected the header '%s')", path, CS_RESULTS_HEADER);
    fclose(f);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return rc;
}
