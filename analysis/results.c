#include "results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void cs_results_write_header(FILE *f) { fprintf(f, "%s\n", CS_RESULTS_HEADER); }

static void write_field(FILE *f, const char *s)
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
    write_field(f, r->platform);
    fprintf(f, ",%s,%d,%s,", r->mapping, r->np, r->collective);
    write_field(f, r->algorithm);
    /* %.17g: a double printed this way reads back bit for bit */
    fprintf(f, ",%s,%s,%ld,%.17g,%.17g,%.17g,%d,%s,", r->dtype, r->mode, r->bytes, r->avg_us,
            r->min_us, r->max_us, r->iterations, r->status);
    write_field(f, r->note);
    fputc('\n', f);
}

int cs_results_write_file(const char *path, const cs_result *rows, size_t n, cs_err *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cs_fail(err, "cannot write %s: %s", tmp, strerror(errno));
    cs_results_write_header(f);
    for (size_t i = 0; i < n; i++)
        cs_results_write_row(f, &rows[i]);
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        remove(tmp);
        return cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
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

#define COPY(dst, src) snprintf((dst), sizeof(dst), "%s", (src))

static int parse_num(const char *s, double *d)
{
    char *end;
    errno = 0;
    *d = strtod(s, &end);
    return end == s || *end || errno;
}

/* fields in the order np,collective,algorithm,dtype,mode,bytes,avg,min,max,iterations,status */
static int fill_common(cs_result *r, char **f)
{
    double np, bytes, it;
    if (parse_num(f[0], &np) || parse_num(f[5], &bytes) || parse_num(f[6], &r->avg_us) ||
        parse_num(f[7], &r->min_us) || parse_num(f[8], &r->max_us) || parse_num(f[9], &it))
        return -1;
    r->np = (int)np;
    r->bytes = (long)bytes;
    r->iterations = (int)it;
    COPY(r->collective, f[1]);
    COPY(r->algorithm, f[2]);
    COPY(r->dtype, f[3]);
    COPY(r->mode, f[4]);
    COPY(r->status, f[10]);
    return 0;
}

static int read_rows(const char *path, int with_header, cs_result **rows, size_t *n, cs_err *err)
{
    FILE *f = fopen(path, "r");
    *rows = NULL;
    *n = 0;
    if (!f)
        return cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    char line[4096];
    size_t cap = 0;
    long lineno = 0;
    int rc = 0;
    const int want = with_header ? 14 : 11;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (with_header && lineno == 1) {
            if (strncmp(line, CS_RESULTS_HEADER, strlen(CS_RESULTS_HEADER))) {
                rc = cs_fail(err, "%s:1: not a collsim results file (expected header '%s')", path,
                             CS_RESULTS_HEADER);
                break;
            }
            continue;
        }
        if (line[0] == '\n' || line[0] == 0)
            continue;
        char *fld[16];
        int nf = cs_csv_split(line, fld, 16);
        if (nf != want) {
            rc = cs_fail(err, "%s:%ld: %d fields, expected %d", path, lineno, nf, want);
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            *rows = cs_xrealloc(*rows, cap * sizeof(cs_result));
        }
        cs_result *r = &(*rows)[*n];
        memset(r, 0, sizeof *r);
        char **common = with_header ? fld + 2 : fld;
        if (fill_common(r, common)) {
            rc = cs_fail(err, "%s:%ld: a numeric field cannot be read", path, lineno);
            break;
        }
        if (with_header) {
            COPY(r->platform, fld[0]);
            COPY(r->mapping, fld[1]);
            COPY(r->note, fld[13]);
        }
        (*n)++;
    }
    fclose(f);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return rc;
}

int cs_results_read(const char *path, cs_result **rows, size_t *n, cs_err *err)
{
    return read_rows(path, 1, rows, n, err);
}

int cs_results_read_driver(const char *path, cs_result **rows, size_t *n, cs_err *err)
{
    return read_rows(path, 0, rows, n, err);
}
