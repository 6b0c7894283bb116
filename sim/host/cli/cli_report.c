#include "cli_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_error.h"
#include "platform.h"
#include "postal.h"
#include "outdir.h"
#include "report.h"
#include "resume.h"

int cs_cmd_report(int argc, char **argv)
{
    cs_report_opts o = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(a, "--out")        ? &o.out_dir
                            : !strcmp(a, "--focus")    ? &o.focus
                            : !strcmp(a, "--baseline") ? &o.baseline
                                                       : NULL;
        if (slot) {
            if (!v) {
                fprintf(stderr, "collsim: report: %s needs a value\n", a);
                return 2;
            }
            *slot = v;
            i++;
        } else if (a[0] != '-' && !o.results) {
            o.results = a;
        } else {
            fprintf(stderr, "collsim: report: unexpected argument '%s' (valid: RESULTS.csv "
                            "[--out DIR] [--focus ALG] [--baseline ALG])\n", a);
            return 2;
        }
    }
    if (!o.results) {
        fprintf(stderr, "collsim: report needs a results file (e.g. results/quickstart/results.csv)\n");
        return 2;
    }
    char md[1200];
    cs_err e;
    cs_result *rows;
    size_t n;
    if (!cs_results_read(o.results, &rows, &n, &e)) {
        /* a sweep still writing the file: the report is of the rows so far */
        char dir[2048], who[1400];
        cs_dir_of(o.results, dir, sizeof dir);
        if (cs_outdir_busy(dir, who, sizeof who))
            fprintf(stderr, "collsim: report: warning: the sweep writing %s is still running (%s): "
                            "this report covers the %zu rows written so far; report again when it "
                            "ends\n", o.results, who, n);
        cs_warn_foreign_recorded(stderr, "report", o.results, rows, n);
        free(rows);
    }
    if (cs_report(&o, md, sizeof md, &e)) {
        fprintf(stderr, "collsim: %s\n", e.msg);
        return 2;
    }
    printf("collsim: report written to %s\n", md);
    return 0;
}

/* A node given by name (node-15) or index (15). */
static int node_index(const cs_platform *pf, const char *s, cs_err *err)
{
    for (int i = 0; i < pf->nnodes; i++)
        if (!strcmp(pf->nodes[i].name, s))
            return i;
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end != s && !*end && !errno && x >= 0 && x < pf->nnodes)
        return (int)x;
    return cs_fail(err, "--nodes: '%s' is not a node of %s (valid: %s .. %s, or 0 .. %d)", s,
                   pf->name, pf->nodes[0].name, pf->nodes[pf->nnodes - 1].name, pf->nnodes - 1);
}

static void print_fit(const char *pair, const cs_postal *p)
{
    char nodes[300];
    snprintf(nodes, sizeof nodes, "%s,%s", p->node_a, p->node_b);
    printf("%-11s %-24s %11.4f %12.5f %16.2f %18.4f\n", pair, nodes, p->h.alpha * 1e6,
           p->h.beta * 1e9, 1e-6 / p->h.beta, 100 * p->max_rel_residual);
}

int cs_cmd_postal(int argc, char **argv)
{
    const char *platform = NULL, *nodes = NULL, *sizes = NULL;
    for (int i = 0; i < argc; i += 2) { /* OPTION VALUE pairs */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(a, "--platform") ? &platform
                            : !strcmp(a, "--nodes")  ? &nodes
                            : !strcmp(a, "--sizes")  ? &sizes
                                                     : NULL;
        if (!slot || !v) {
            fprintf(stderr, "collsim: postal: %s '%s' (valid: --platform NAME|FILE [--nodes A,B] "
                            "[--sizes LIST])\n", slot ? "no value after" : "unexpected argument", a);
            return 2;
        }
        *slot = v;
    }
    cs_err e;
    cs_platform pf;
    if (cs_platform_open_for(platform, "postal needs --platform NAME|FILE", &pf))
        return 2;
    /* every argument checked before the header: an error is the only line */
    int rc = 0, ia = -1, ib = -1;
    cs_numlist sl = {NULL, 0};
    if (sizes && cs_numlist_parse(sizes, "size list", 1, 0, &sl, &e))
        rc = -1;
    if (!rc && nodes) {
        char a[256], *b;
        snprintf(a, sizeof a, "%s", nodes);
        b = strchr(a, ',');
        if (!b)
            rc = cs_fail(&e, "--nodes takes two nodes A,B (names or indices), got '%s'", nodes);
        else {
            *b++ = 0;
            if ((ia = node_index(&pf, a, &e)) < 0 || (ib = node_index(&pf, b, &e)) < 0)
                rc = -1;
        }
    }
    if (!rc) {
        printf("# %s: Hockney fit of a simulated ping-pong (one-way time = round trip / 2), "
               "t = alpha + bytes * beta\n", pf.name);
        printf("%-11s %-24s %11s %12s %16s %18s\n", "# pair", "nodes", "alpha(us)", "beta(ns/B)",
               "bandwidth(MB/s)", "worst residual(%)");
    }
    if (!rc && nodes) {
        cs_postal p;
        if (!(rc = cs_postal_measure(&pf, ia, ib, sizes ? &sl : NULL, &p, &e)))
            print_fit(ia == ib ? "intra-node" : "inter-node", &p);
    } else if (!rc) {
        cs_postal intra, inter;
        int has_inter;
        if (!(rc = cs_postal_pairs(&pf, sizes ? &sl : NULL, &intra, &inter, &has_inter, &e))) {
            print_fit("intra-node", &intra);
            if (has_inter)
                print_fit("inter-node", &inter);
        }
    }
    cs_numlist_free(&sl);
    cs_platform_free(&pf);
    if (rc) {
        fprintf(stderr, "collsim: %s\n", e.msg);
        return 2;
    }
    return 0;
}
