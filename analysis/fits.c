#include "fits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

#define NFIELDS_V1 12 /* the header without the local-work columns */
#define NFIELDS_V2 14 /* without the reduction rate */
#define NFIELDS 15

static void write_pair(FILE *f, const cs_postal *p)
{
    fprintf(f, ",%.17g,%.17g,%.17g", p->h.alpha, p->h.beta, p->max_rel_residual);
}

static void write_fit(FILE *f, const cs_platform_fit *x)
{
    cs_csv_write_field(f, x->platform);
    fprintf(f, ",%s,", x->measured ? "ok" : "error");
    if (x->measured) {
        cs_csv_write_field(f, x->intra.node_a);
        write_pair(f, &x->intra);
    } else {
        fprintf(f, ",,,");
    }
    fputc(',', f);
    if (x->measured && x->has_inter) {
        cs_csv_write_field(f, x->inter.node_a);
        fputc(',', f);
        cs_csv_write_field(f, x->inter.node_b);
        write_pair(f, &x->inter);
    } else {
        fprintf(f, ",,,,");
    }
    fputc(',', f);
    cs_csv_write_field(f, x->measured ? "" : x->why);
    fputc(',', f);
    cs_csv_write_field(f, x->copy_call);
    fputc(',', f);
    cs_csv_write_field(f, x->copy_bw);
    fputc(',', f);
    cs_csv_write_field(f, x->reduce_bw);
    fputc('\n', f);
}

/* arg: the fits, ending with a row whose platform is "" */
static void write_fits(FILE *out, const void *arg)
{
    fprintf(out, "%s\n", CS_FITS_HEADER);
    for (const cs_platform_fit *f = arg; f->platform[0]; f++)
        write_fit(out, f);
}

int cs_fits_write(const char *path, const cs_platform_fit *f, size_t n, cs_err *err)
{
    cs_platform_fit *all = cs_xmalloc((n + 1) * sizeof *all);
    if (n)
        memcpy(all, f, n * sizeof *f);
    all[n].platform[0] = 0;
    int rc = cs_write_replacing(path, write_fits, all, err);
    free(all);
    return rc;
}

static int read_num(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return !*s || *end;
}

/* fld: node_a, node_b, alpha, beta, residual */
static int read_pair(char **fld, cs_postal *p)
{
    snprintf(p->node_a, sizeof p->node_a, "%s", fld[0]);
    snprintf(p->node_b, sizeof p->node_b, "%s", fld[1]);
    return read_num(fld[2], &p->h.alpha) || read_num(fld[3], &p->h.beta) ||
           read_num(fld[4], &p->max_rel_residual);
}

static int read_fit(char **fld, int nf, cs_platform_fit *x)
{
    memset(x, 0, sizeof *x);
    if (nf > NFIELDS_V1) {
        snprintf(x->copy_call, sizeof x->copy_call, "%s", fld[12]);
        snprintf(x->copy_bw, sizeof x->copy_bw, "%s", fld[13]);
    }
    if (nf > NFIELDS_V2)
        snprintf(x->reduce_bw, sizeof x->reduce_bw, "%s", fld[14]);
    snprintf(x->platform, sizeof x->platform, "%s", fld[0]);
    snprintf(x->why, sizeof x->why, "%s", fld[11]);
    x->measured = !strcmp(fld[1], "ok");
    x->has_inter = x->measured && fld[6][0];
    if (!x->measured)
        return strcmp(fld[1], "error") != 0;
    char *intra[5] = {fld[2], fld[2], fld[3], fld[4], fld[5]};
    return read_pair(intra, &x->intra) || (x->has_inter && read_pair(fld + 6, &x->inter));
}

int cs_fits_read(const char *path, cs_platform_fit **f, size_t *n, cs_err *err)
{
    *f = NULL;
    *n = 0;
    FILE *in = fopen(path, "r");
    if (!in && errno == ENOENT)
        return 1;
    if (!in)
        return cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    char line[4096];
    long lineno = 0;
    size_t cap = 0;
    int rc = 0, nf = NFIELDS;
    while (!rc && fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        if (++lineno == 1) {
            if (!strcmp(cs_skip_bom(line), CS_FITS_HEADER_V1))
                nf = NFIELDS_V1;
            else if (!strcmp(cs_skip_bom(line), CS_FITS_HEADER_V2))
                nf = NFIELDS_V2;
            else if (strcmp(cs_skip_bom(line), CS_FITS_HEADER))
                rc = cs_fail(err, "%s:1: not a platform fits file (expected the header '%s')",
                             path, CS_FITS_HEADER);
            continue;
        }
        if (!line[0])
            continue;
        char *fld[NFIELDS + 1];
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            *f = cs_xrealloc(*f, cap * sizeof **f);
        }
        if (cs_csv_split(line, fld, NFIELDS + 1) != nf || read_fit(fld, nf, &(*f)[*n]))
            rc = cs_fail(err, "%s:%ld: not a row of %d fields as the header says", path, lineno,
                         nf);
        else
            (*n)++;
    }
    if (!rc && !lineno)
        rc = cs_fail(err, "%s: empty file (expected the header '%s')", path, CS_FITS_HEADER);
    fclose(in);
    if (rc) {
        free(*f);
        *f = NULL;
        *n = 0;
    }
    return rc ? -1 : 0;
}

void cs_fits_path_beside(const char *results, char *buf, size_t len)
{
    const char *slash = strrchr(results, '/');
    snprintf(buf, len, "%.*s" CS_FITS_FILE, slash ? (int)(slash - results) + 1 : 0, results);
}

const cs_platform_fit *cs_fits_find(const cs_platform_fit *f, size_t n, const char *platform)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].platform, platform))
            return &f[i];
    return NULL;
}

int cs_fits_local_work(const cs_platform_fit *f, int arith_copy, cs_cost_params *c)
{
    return f && f->copy_bw[0] ? cs_cost_params_local_work(c, f->copy_call, f->copy_bw,
                                                          arith_copy ? "" : f->reduce_bw)
                              : -1;
}
