#include "postal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_case.h"

int cs_postal_fit(const long *bytes, const double *t_s, size_t n, cs_hockney *h, double *max_rel,
                  cs_err *err)
{
    double s = 0, sx = 0, sxx = 0, st = 0, sxt = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(t_s[i] > 0))
            return cs_fail(err, "cannot fit alpha and beta: time %g s at %ld bytes is not positive",
                           t_s[i], bytes[i]);
        double w = 1.0 / (t_s[i] * t_s[i]), x = (double)bytes[i];
        s += w;
        sx += w * x;
        sxx += w * x * x;
        st += w * t_s[i];
        sxt += w * x * t_s[i];
    }
    double det = s * sxx - sx * sx;
    /* det is a weighted variance of the sizes: 0 when they are all equal */
    if (n < 2 || !(det > 1e-12 * s * sxx))
        return cs_fail(err, "cannot fit alpha and beta from %zu point(s): need at least two "
                            "different message sizes", n);
    h->beta = (s * sxt - sx * st) / det;
    h->alpha = (st - h->beta * sx) / s;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double rel = fabs(h->alpha + h->beta * (double)bytes[i] - t_s[i]) / t_s[i];
        if (rel > worst)
            worst = rel;
    }
    if (max_rel)
        *max_rel = worst;
    return 0;
}

static void remove_case_files(const char *dir)
{
    static const char *const files[] = {"hostfile", "locality", "rows.csv", "stdout.txt",
                                                "stderr.txt"};
    char path[1100];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    rmdir(dir);
}

int cs_postal_points(const cs_platform *pf, const char *host_a, const char *host_b,
                     const cs_numlist *sizes, long **bytes_out, double **t_out, size_t *n_out,
                     cs_err *err)
{
    cs_numlist dflt = {NULL, 0};
    if (!sizes) {
        if (cs_numlist_parse(CS_POSTAL_SIZES, "ping-pong sizes", 1, 0, &dflt, err))
            return -1;
        sizes = &dflt;
    }
    /* The case machinery maps ranks over pf->nodes. A view of the platform
     * that holds only the chosen hosts as one-host nodes (nhosts 0), one slot
     * each (or one host with two), puts rank 0 on host_a and rank 1 on host_b
     * under the sequential mapping; smpirun still gets the real file
     * (view.path). */
    int same = !strcmp(host_a, host_b);
    cs_node nodes[2] = {{(char *)host_a, same ? 2 : 1, 0, 0}, {(char *)host_b, 1, 0, 0}};
    cs_platform view = *pf;
    view.nodes = nodes;
    view.nnodes = same ? 1 : 2;
    view.total_cores = 2;

    cs_case c;
    memset(&c, 0, sizeof c);
    c.platform = &view;
    c.mapping = CS_MAP_SEQUENTIAL;
    c.np = 2;
    if (cs_resolve_alg("pingpong", CS_PINGPONG_ALG, &c.alg, err)) {
        cs_numlist_free(&dflt);
        return -1;
    }
    c.sizes = sizes;
    c.iters = 10; /* as the measurements in platforms/README.md */
    c.warmup = 1;
    c.dtype = "byte";
    c.timeout_s = 300;

    char dir[512];
    snprintf(dir, sizeof dir, "%s/collsim-postal-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        cs_numlist_free(&dflt);
        return cs_fail(err, "cannot create a temporary directory under %s for the ping-pong",
                       getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    }
    int rc = 0;
    cs_case_place place = {NULL, 0, ""};
    pid_t pid = cs_case_resolve(&c, err) || cs_case_check(&c, &place, err)
                    ? -1
                    : cs_case_start(&c, &place, dir, 0, err);
    if (pid < 0) {
        cs_case_place_free(&place);
        remove_case_files(dir);
        cs_numlist_free(&dflt);
        return -1;
    }
    cs_result *rows;
    size_t n;
    cs_case_wait(&c, &place, dir, pid, &rows, &n);
    cs_case_place_free(&place);
    long *x = cs_xmalloc((n ? n : 1) * sizeof *x);
    double *t = cs_xmalloc((n ? n : 1) * sizeof *t);
    for (size_t i = 0; i < n && !rc; i++) {
        if (strcmp(rows[i].status, "ok")) {
            rc = cs_fail(err, "ping-pong on %s (%s <-> %s), %ld bytes: %s: %s (files kept in %s)",
                         pf->name, host_a, host_b, rows[i].bytes, rows[i].status,
                         rows[i].note, dir);
            break;
        }
        x[i] = rows[i].bytes;
        t[i] = rows[i].avg_us * 1e-6;
    }
    if (!rc)
        remove_case_files(dir);
    free(rows);
    cs_numlist_free(&dflt);
    if (rc) {
        free(x);
        free(t);
        return rc;
    }
    *bytes_out = x;
    *t_out = t;
    *n_out = n;
    return 0;
}

int cs_postal_measure(const cs_platform *pf, int node_a, int node_b, const cs_numlist *sizes,
                      cs_postal *out, cs_err *err)
{
    if (node_a < 0 || node_b < 0 || node_a >= pf->nnodes || node_b >= pf->nnodes)
        return cs_fail(err, "ping-pong nodes %d and %d: platform '%s' has nodes 0..%d", node_a,
                       node_b, pf->name, pf->nnodes - 1);
    /* a node of several hosts: its first host */
    const cs_node *na = &pf->nodes[node_a], *nb = &pf->nodes[node_b];
    const char *ha = na->nhosts ? pf->hosts[na->first_host].name : na->name;
    const char *hb = nb->nhosts ? pf->hosts[nb->first_host].name : nb->name;
    long *x;
    double *t;
    size_t n;
    if (cs_postal_points(pf, ha, hb, sizes, &x, &t, &n, err))
        return -1;
    memset(out, 0, sizeof *out);
    snprintf(out->node_a, sizeof out->node_a, "%s", na->name);
    snprintf(out->node_b, sizeof out->node_b, "%s", nb->name);
    out->nsizes = n;
    int rc = cs_postal_fit(x, t, n, &out->h, &out->max_rel_residual, err);
    free(x);
    free(t);
    return rc;
}

int cs_postal_pairs(const cs_platform *pf, const cs_numlist *sizes, cs_postal *intra,
                    cs_postal *inter, int *has_inter, cs_err *err)
{
    *has_inter = pf->nnodes > 1;
    if (cs_postal_measure(pf, 0, 0, sizes, intra, err))
        return -1;
    return *has_inter ? cs_postal_measure(pf, 0, pf->nnodes - 1, sizes, inter, err) : 0;
}

void cs_postal_platform_fit(const cs_platform *pf, cs_platform_fit *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->platform, sizeof out->platform, "%s", pf->name);
    snprintf(out->copy_call, sizeof out->copy_call, "%s", pf->copy_call);
    snprintf(out->copy_bw, sizeof out->copy_bw, "%s", pf->copy_bw);
    snprintf(out->reduce_bw, sizeof out->reduce_bw, "%s", pf->reduce_bw);
    cs_err e;
    if (cs_postal_pairs(pf, NULL, &out->intra, &out->inter, &out->has_inter, &e))
        snprintf(out->why, sizeof out->why, "%s", e.msg);
    else
        out->measured = 1;
}
