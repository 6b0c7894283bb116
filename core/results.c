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
            int closed = 0;
            fields[n++] = out;
            while (*c && !closed) {
                if (*c == '"' && c[1] == '"') {
                    *out++ = '"';
                    c += 2;
                } else if (*c == '"') {
                    c++;
                    closed = 1;
                } else {
                    *out++ = *c++;
                }
            }
            *out = 0;
            if (!closed || (*c && *c != ','))
                return -1; /* the rest of the line would be lost */
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
#define MAX_LINE 8191 /* characters before the line break */

char *cs_skip_bom(char *line)
{
    return strncmp(line, "\xEF\xBB\xBF", 3) ? line : line + 3;
}

void cs_key_format(const cs_result *r, char *buf, size_t len)
{
    char ppn[32] = "", region[48] = "", dist[80] = "", groups[120] = "", root[24] = "";
    if (r->root)
        snprintf(root, sizeof root, " root=%d", r->root);
    if (r->ppn)
        snprintf(ppn, sizeof ppn, " ppn=%d", r->ppn);
    if (r->region[0])
        snprintf(region, sizeof region, " region=%s", r->region);
    if (r->dist[0])
        snprintf(dist, sizeof dist, " dist=%s seed=%lu", r->dist, r->seed);
    if (r->groups[0])
        snprintf(groups, sizeof groups, " groups=%s layout=%s%s%s%s%s", r->groups, r->layout,
                 r->block_ratio[0] ? " block_ratio=" : "", r->block_ratio,
                 r->counts[0] ? " counts=" : "", r->counts);
    char bg[sizeof r->background + 16] = "", hosts[sizeof r->hosts + 8] = "";
    if (r->background[0])
        snprintf(bg, sizeof bg, " background=%s", r->background);
    if (r->hosts[0])
        snprintf(hosts, sizeof hosts, " hosts=%s", r->hosts);
    char model[32] = "";
    if (r->model[0] && strcmp(r->model, "full"))
        snprintf(model, sizeof model, " model=%s", r->model);
    char unit[sizeof r->size_unit + 16] = "";
    if (r->size_unit[0] && strcmp(r->size_unit, "process")) /* sizes per node: another case */
        snprintf(unit, sizeof unit, " size_unit=%s", r->size_unit);
    snprintf(buf, len, "%s %s np=%d%s%s %s/%s%s%s %s %s%s%s%s%s%s %ld B", r->platform, r->mapping,
             r->np, ppn, hosts, r->collective, r->algorithm, region, model, r->dtype, r->mode,
             dist, groups, unit, root, bg, r->bytes);
}

/* What the header says: the column of each field (NULL: a column collsim ignores) and its text
 * (past a byte-order mark, without the line break), to know it again further down. */
typedef struct {
    const column *of_field[MAX_FIELDS];
    int nfields;
    char *text;
} header;

static int read_header(const char *path, char *line, size_t len, header *h, cs_err *err)
{
    char *fld[MAX_FIELDS + 1];
    if (memchr(line, 0, len))
        return cs_fail(err, "%s:1: NUL bytes in the header (what a crash that zero-fills part of a "
                            "file leaves): not a results file header (expected '%s')",
                       path, CS_RESULTS_HEADER);
    /* a byte-order mark (what spreadsheet programs write) is no part of the first name */
    char *head = cs_skip_bom(line);
    size_t body = strlen(head);
    if (body && head[body - 1] == '\n')
        body--;
    if (body && head[body - 1] == '\r')
        body--;
    head[body] = 0;
    if (strchr(head, '\r'))
        return cs_fail(err, "%s:1: a carriage return (\\r) inside the header: a results file has "
                            "one only just before a line break", path);
    h->text = cs_xmalloc(strlen(head) + 1);
    strcpy(h->text, head);
    h->nfields = cs_csv_split(head, fld, MAX_FIELDS);
    if (h->nfields > MAX_FIELDS) /* cs_csv_split stopped counting */
        return cs_fail(err, "%s:1: more than %d columns in the header", path, MAX_FIELDS);
    if (h->nfields < 0)
        return cs_fail(err, "%s:1: a quote out of place in the header (a quoted name must end "
                            "with its quote, then a comma)", path);
    int seen[NCOLUMNS] = {0};
    for (int k = 0; k < h->nfields; k++) {
        h->of_field[k] = NULL;
        for (size_t i = 0; i < NCOLUMNS; i++)
            if (!strcmp(fld[k], columns[i].info.name)) {
                if (seen[i]++)
                    return cs_fail(err, "%s:1: column '%s' given twice in the header", path,
                                   fld[k]);
                h->of_field[k] = &columns[i];
            }
    }
    for (size_t i = 0; i < NCOLUMNS; i++)
        if (columns[i].info.required && !seen[i])
            return cs_fail(err, "%s:1: not a collsim results file: no column '%s' (expected a "
                                "header like '%s')",
                           path, columns[i].info.name, CS_RESULTS_HEADER);
    return 0;
}

/* NUL bytes in line[0 .. len): how many and where the first is (what a crash that zero-fills
 * part of a file leaves; strlen would end the line there, losing the rest), in why. */
static int nul_bytes(const char *line, size_t len, char *why, size_t wlen)
{
    const char *first = memchr(line, 0, len);
    if (!first)
        return 0;
    size_t count = 0;
    for (size_t i = 0; i < len; i++)
        count += !line[i];
    if (count == len)
        snprintf(why, wlen, "a line of %zu NUL byte%s", count, count > 1 ? "s" : "");
    else
        snprintf(why, wlen, "%zu NUL byte%s from character %ld", count, count > 1 ? "s" : "",
                 (long)(first - line) + 1);
    return 1;
}

/* What else makes line (the body of line lineno, NUL-free, its line break removed) no row,
 * before its fields are counted: 0, or -1 (err). */
static int not_a_row(const char *path, long lineno, const char *line, const header *h, cs_err *err)
{
    if (!strncmp(line, "\xEF\xBB\xBF", 3))
        return cs_fail(err, "%s:%ld: a byte-order mark (what spreadsheet programs write at the "
                            "start of a file) at the start of a row: two files joined? (`collsim "
                            "merge` joins results files; else edit or remove that line)",
                       path, lineno);
    if (!strcmp(line, h->text))
        return cs_fail(err, "%s:%ld: the header again: two files joined? (`collsim merge` joins "
                            "results files; else remove that line)", path, lineno);
    if (!line[strspn(line, " \t")])
        return cs_fail(err, "%s:%ld: a line of spaces or tabs alone (a results file has a row on "
                            "each line: remove it)", path, lineno);
    /* a carriage return before the line's end (a \r\n ending is fine) would be written back
     * as a space (cs_csv_write_field): a row's key would change when resume, repair or
     * merge rewrites the file */
    const char *cr = strchr(line, '\r');
    if (cr)
        return cs_fail(err, "%s:%ld: a carriage return (\\r) inside the row, at character %ld: "
                            "a results file has one only just before a line break (edit or "
                            "remove that line)",
                       path, lineno, (long)(cr - line) + 1);
    return 0;
}

/* Stores the fields of a row read from line lineno into r: 0, or -1 (err). */
static int set_fields(const char *path, long lineno, char **fld, int nf, const header *h,
                      cs_result *r, cs_err *err)
{
    cs_result_init(r);
    for (int k = 0; k < nf; k++) {
        const column *c = h->of_field[k];
        int bad;
        if (!c)
            continue;
        if (c->type == COL_STR && strlen(fld[k]) >= c->size)
            return cs_fail(err, "%s:%ld: column %s: %zu characters, more than the %zu it holds",
                           path, lineno, c->info.name, strlen(fld[k]), c->size - 1);
        if ((bad = set_field(r, c, fld[k])))
            return cs_fail(err, "%s:%ld: column %s: '%s' is %s", path, lineno, c->info.name,
                           fld[k], bad == -1 ? "not a number" : "out of range");
    }
    /* a second pass: status comes after the times */
    for (int k = 0; k < nf; k++)
        if (h->of_field[k] && not_a_time(r, h->of_field[k]))
            return cs_fail(err, "%s:%ld: column %s: '%s' is not a time (a row with status ok "
                                "needs a finite value >= 0)",
                           path, lineno, h->of_field[k]->info.name, fld[k]);
    return 0;
}

/* One line after the header, len bytes with its line break (none: the file's last line):
 * appended to out as a row, left out and named (flags), or blank; 0, or -1 (err). */
static int read_line(const char *path, long lineno, char *line, size_t len, const header *h,
                     int flags, cs_results_file *out, size_t *cap, cs_err *err)
{
    const int last = !len || line[len - 1] != '\n';
    size_t body = len - !last;
    if (body && line[body - 1] == '\r')
        body--;
    char why[160];
    if (nul_bytes(line, len - !last, why, sizeof why)) {
        if (!(flags & CS_READ_DAMAGED))
            return cs_fail(err, "%s:%ld: %s (what a crash that zero-fills part of a file "
                                "leaves): a damaged row; `collsim repair %s` drops that line "
                                "(keeping the file as it was)",
                           path, lineno, why, path);
        out->damaged = cs_xrealloc(out->damaged, (out->ndamaged + 1) * sizeof *out->damaged);
        out->damaged[out->ndamaged].line = lineno;
        snprintf(out->damaged[out->ndamaged++].why, sizeof why, "%s", why);
        return 0;
    }
    if (len - !last > MAX_LINE)
        return cs_fail(err, "%s:%ld: line longer than %d characters", path, lineno, MAX_LINE);
    line[body] = 0;
    if (!body)
        return 0; /* a blank line holds nothing */
    if (not_a_row(path, lineno, line, h, err))
        return -1;
    char *fld[MAX_FIELDS + 1];
    const int nf = cs_csv_split(line, fld, MAX_FIELDS);
    if (nf >= 0 && nf < h->nfields && last && (flags & CS_READ_TORN)) {
        out->torn = (long)len; /* what a run killed inside a write leaves: the caller drops it */
        out->torn_line = lineno;
        return 0;
    }
    if (nf >= 0 && nf < h->nfields && last)
        return cs_fail(err, "%s:%ld: an incomplete last row (%d fields, the header has %d), as "
                            "a run killed while writing leaves: `collsim repair %s` drops it "
                            "(keeping the file as it was), `run --resume` too",
                       path, lineno, nf, h->nfields, path);
    if (nf < 0)
        return cs_fail(err, "%s:%ld: a quote out of place: a quoted field must end with its "
                            "quote, then a comma or the line's end (edit or remove that line)",
                       path, lineno);
    if (nf != h->nfields)
        return cs_fail(err, "%s:%ld: %d fields, the header has %d: a damaged row (edit or "
                            "remove that line)",
                       path, lineno, nf, h->nfields);
    if (out->n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        out->rows = cs_xrealloc(out->rows, *cap * sizeof *out->rows);
        out->lines = cs_xrealloc(out->lines, *cap * sizeof *out->lines);
    }
    if (set_fields(path, lineno, fld, nf, h, &out->rows[out->n], err))
        return -1;
    out->lines[out->n++] = lineno;
    return 0;
}

static int cmp_row_ptr(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    const int c = cs_key_cmp(a, b);
    return c ? c : (a > b) - (a < b); /* equal keys in file order */
}

/* A key given more than once makes every comparison ambiguous (a case drawn twice could win
 * against itself): refused, naming how many, the first in key order and its lines, and the
 * repair. */
static int refuse_dups(const char *path, const cs_results_file *f, cs_err *err)
{
    const cs_result **v = cs_xmalloc((f->n ? f->n : 1) * sizeof *v);
    size_t keys = 0, first = 0;
    for (size_t i = 0; i < f->n; i++)
        v[i] = &f->rows[i];
    if (f->n)
        qsort(v, f->n, sizeof *v, cmp_row_ptr);
    for (size_t i = 1; i < f->n; i++)
        if (!cs_key_cmp(v[i - 1], v[i]) && (i < 2 || cs_key_cmp(v[i - 2], v[i - 1])) && !keys++)
            first = i;
    int rc = 0;
    if (keys) {
        char key[512];
        cs_key_format(v[first], key, sizeof key);
        rc = cs_fail(err, "%s holds %zu (case, size) key%s more than once (e.g. %s, lines %ld "
                          "and %ld): a results file holds one row per case and size, so it was "
                          "written by two sweeps at once or joined twice. `collsim repair %s` "
                          "keeps one row per key (a passing one first) and saves the file as it "
                          "was beside it",
                     path, keys, keys > 1 ? "s" : "", key, f->lines[v[first - 1] - f->rows],
                     f->lines[v[first] - f->rows], path);
    }
    free(v);
    return rc;
}

void cs_results_file_free(cs_results_file *f)
{
    free(f->rows);
    free(f->lines);
    free(f->damaged);
    memset(f, 0, sizeof *f);
}

int cs_results_load(const char *path, int flags, cs_results_file *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    char *line = NULL;
    size_t size = 0, cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0;
    header h = {.text = NULL};
    /* getline, not fgets: a line's length counts its NUL bytes, so none ends it unseen */
    while (!rc && (len = getline(&line, &size, f)) >= 0) {
        if (++lineno == 1)
            rc = read_header(path, line, (size_t)len, &h, err);
        else
            rc = read_line(path, lineno, line, (size_t)len, &h, flags, out, &cap, err);
    }
    if (!rc && lineno == 0)
        rc = cs_fail(err, "%s: empty file (expected the header '%s')", path, CS_RESULTS_HEADER);
    if (!rc && !(flags & CS_READ_DUPS))
        rc = refuse_dups(path, out, err);
    fclose(f);
    free(line);
    free(h.text);
    if (rc)
        cs_results_file_free(out);
    return rc;
}

int cs_results_read(const char *path, cs_result **rows, size_t *n, cs_err *err)
{
    cs_results_file f;
    int rc = cs_results_load(path, 0, &f, err);
    free(f.lines);
    free(f.damaged);
    *rows = f.rows;
    *n = f.n;
    return rc;
}
