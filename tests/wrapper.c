#include "wrapper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_case.h"
#include "best.h"
#include "calibrate.h"
#include "distributions.h"
#include "hostspec.h"
#include "regression.h"
#include "mapping.h"
#include "numlist.h"
#include "platform.h"
#include "postal.h"
#include "registry.h"
#include "report.h"
#include "runner.h"
#include "scenario.h"
#include "smpirun.h"

static int fail(const cs_err *e, char *errbuf, size_t errlen)
{
    snprintf(errbuf, errlen, "%s", e->msg);
    return -1;
}

int tw_numlist(const char *text, int allow_suffix, long min, long *out, int max, char *errbuf,
               size_t errlen)
{
    cs_numlist l;
    cs_err e;
    if (cs_numlist_parse(text, "list", allow_suffix, min, &l, &e))
        return fail(&e, errbuf, errlen);
    int n = (int)l.n;
    for (int i = 0; i < n && i < max; i++)
        out[i] = l.v[i];
    cs_numlist_free(&l);
    return n;
}

int tw_map(const char *platform, const char *mapping, int np, int oversubscribe, int *node_of_rank,
           char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_mapping m;
    cs_err e;
    if (cs_mapping_parse(mapping, &m, &e) || cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int rc = cs_map_ranks(&pf, NULL, 0, m, np, oversubscribe, 0, node_of_rank, &e);
    cs_platform_free(&pf);
    return rc ? fail(&e, errbuf, errlen) : 0;
}

int tw_map_ppn(const char *platform, const char *mapping, int np, int oversubscribe, int ppn,
               int *node_of_rank, int *host_of_rank, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_mapping m;
    cs_err e;
    if (cs_mapping_parse(mapping, &m, &e) || cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int rc = cs_map_ranks(&pf, NULL, 0, m, np, oversubscribe, ppn, node_of_rank, &e);
    if (!rc && host_of_rank) {
        cs_hosts_of_ranks(&pf, node_of_rank, np, host_of_rank);
        for (int r = 0; r < np; r++) /* a single-host node: its host */
            if (host_of_rank[r] < 0)
                host_of_rank[r] = pf.nodes[node_of_rank[r]].first_host;
    }
    cs_platform_free(&pf);
    return rc ? fail(&e, errbuf, errlen) : 0;
}

int tw_map_background(const char *platform, const char *mapping, int np, const char *level, int k,
                      int *node_of_bg, char *spread, size_t spread_len, char *errbuf,
                      size_t errlen)
{
    cs_platform pf;
    cs_mapping m;
    cs_err e;
    if (cs_mapping_parse(mapping, &m, &e) || cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int *map = cs_xmalloc((size_t)np * sizeof(int)), l = -1;
    for (int i = 0; i < pf.nlevels; i++)
        if (!strcmp(pf.levels[i], level))
            l = i;
    int rc = cs_map_ranks(&pf, NULL, 0, m, np, 0, 0, map, &e) ||
             cs_map_background(&pf, map, np, NULL, 0, l, k, NULL, node_of_bg, spread, spread_len,
                               &e);
    free(map);
    cs_platform_free(&pf);
    return rc ? fail(&e, errbuf, errlen) : 0;
}

int tw_hosts(const char *platform, const char *spec, int *nodes, int max, char *errbuf,
             size_t errlen)
{
    cs_platform pf;
    cs_err e;
    int *v, n;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int rc = cs_hostspec_select(&pf, spec, "--hosts", &v, &n, &e);
    cs_platform_free(&pf);
    if (rc)
        return fail(&e, errbuf, errlen);
    memcpy(nodes, v, sizeof(int) * (size_t)(n < max ? n : max));
    free(v);
    return n;
}

int tw_case_map(const char *platform, const char *mapping, int np, int ppn, const char *hosts,
                const char *background, int *node_of_rank, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_case c;
    cs_err e;
    cs_case_init(&c);
    if (cs_mapping_parse(mapping, &c.mapping, &e) || cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    c.platform = &pf;
    c.np = np;
    c.ppn = ppn;
    c.hosts = hosts;
    c.background = background;
    int rc = cs_case_resolve(&c, &e) || cs_case_map(&c, node_of_rank, NULL, 0, &e);
    cs_platform_free(&pf);
    return rc ? fail(&e, errbuf, errlen) : 0;
}

int tw_placement(const char *platform, const char *mapping, int np, int ppn, const char *hosts,
                 char *out, size_t len, char *errbuf, size_t errlen)
{
    int *map = cs_xmalloc(sizeof(int) * (size_t)np);
    int rc = tw_case_map(platform, mapping, np, ppn, hosts, NULL, map, errbuf, errlen);
    cs_platform pf;
    cs_err e;
    if (!rc && cs_platform_open(platform, &pf, &e))
        rc = fail(&e, errbuf, errlen);
    else if (!rc) {
        cs_placement_text(&pf, map, np, out, len);
        cs_platform_free(&pf);
    }
    free(map);
    return rc;
}

int tw_case_files(const char *platform, const char *mapping, int np, int ppn,
                  const int *node_of_rank, const char *hostfile, const char *locality,
                  char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_mapping m;
    cs_err e;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int *map = cs_xmalloc((size_t)np * sizeof(int));
    int rc = 0;
    if (node_of_rank)
        memcpy(map, node_of_rank, (size_t)np * sizeof(int));
    else
        rc = cs_mapping_parse(mapping, &m, &e) || cs_map_ranks(&pf, NULL, 0, m, np, 0, ppn, map, &e);
    if (!rc)
        rc = cs_write_case_files(&pf, map, np, hostfile, locality, &e);
    free(map);
    cs_platform_free(&pf);
    return rc ? fail(&e, errbuf, errlen) : 0;
}

int tw_platform_levels(const char *platform, char *names, size_t names_len, int *regions,
                       int max_hosts, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_err e;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    names[0] = 0;
    for (int l = 0; l < pf.nlevels; l++) {
        size_t u = strlen(names);
        snprintf(names + u, names_len - u, "%s%s", l ? " " : "", pf.levels[l]);
    }
    for (int h = 0; h < pf.nhosts && h < max_hosts; h++)
        for (int l = 0; l < CS_MAX_LEVELS; l++)
            regions[h * CS_MAX_LEVELS + l] = l < pf.nlevels ? pf.hosts[h].region[l] : -1;
    int n = pf.nhosts;
    cs_platform_free(&pf);
    return n;
}

int tw_platform_warnings(const char *platform, char *buf, size_t len)
{
    cs_platform pf;
    cs_err e;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, buf, len);
    snprintf(buf, len, "%s", pf.warnings);
    cs_platform_free(&pf);
    return 0;
}

int tw_platform_shape(const char *platform, int *nnodes, long *cores, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_err e;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    *nnodes = pf.nnodes;
    *cores = pf.total_cores;
    cs_platform_free(&pf);
    return 0;
}

int tw_resolve(const char *coll, const char *spec, char *cfg, size_t cfglen, char *driver_alg,
               size_t alglen, char *errbuf, size_t errlen)
{
    cs_alg_sel s;
    cs_err e;
    if (cs_resolve_alg(coll, spec, &s, &e))
        return fail(&e, errbuf, errlen);
    snprintf(cfg, cfglen, "%s", s.cfg);
    snprintf(driver_alg, alglen, "%s", s.driver_alg);
    return 0;
}

int tw_scenario(const char *path, long *ncases, char *errbuf, size_t errlen)
{
    cs_scenario s;
    cs_err e;
    if (cs_scenario_load(path, &s, &e))
        return fail(&e, errbuf, errlen);
    /* an algorithm that takes no region runs once, whatever <region> lists */
    long per_np = 0;
    for (int a = 0; a < s.nalgs; a++)
        per_np += cs_alg_locality_aware(s.algs[a].collective, s.algs[a].name) && s.nregions
                      ? s.nregions
                      : 1;
    *ncases = (long)s.nplatforms * (s.has_vary ? s.vary.nvalues : 1) * s.nmappings *
              (long)s.nps.n * per_np * (long)(s.ppns.n ? s.ppns.n : 1);
    cs_scenario_free(&s);
    return 0;
}

long tw_expand(const char *path, const char *only, char *regions, size_t regions_len,
               char *errbuf, size_t errlen)
{
    return tw_expand_field(path, only, CS_F_region, regions, regions_len, errbuf, errlen);
}

const cs_field *tw_case_fields(void) { return cs_case_fields; }
const cs_field *tw_scenario_fields(void) { return cs_scenario_fields; }

void tw_fields_row_as(const char *column, cs_result *r)
{
    cs_field t[CS_NFIELDS];
    cs_case c;
    memcpy(t, cs_case_fields, sizeof t);
    t[CS_F_np].csv = column;
    memset(&c, 0, sizeof c);
    cs_fields_defaults(t, &c);
    c.np = 6;
    cs_result_init(r);
    cs_fields_row(t, &c, "allgather", NULL, r);
}

long tw_expand_field(const char *path, const char *only, int field, char *values,
                     size_t values_len, char *errbuf, size_t errlen)
{
    cs_scenario s;
    cs_err e;
    if (cs_scenario_load(path, &s, &e))
        return fail(&e, errbuf, errlen);
    cs_run_opts o = {.out_dir = "/tmp", .jobs = 1, .only = only};
    cs_caselist l;
    if (cs_expand_cases(&s, &o, &l, &e)) {
        cs_scenario_free(&s);
        return fail(&e, errbuf, errlen);
    }
    values[0] = 0; /* the cases point into the scenario: read them first */
    for (size_t i = 0; i < l.n; i++) {
        char v[256];
        size_t u = strlen(values);
        if (field == CS_F_algorithm) /* SPECIAL: no text of its own */
            snprintf(v, sizeof v, "%s", l.v[i].alg.name);
        else
            cs_field_text(&cs_case_fields[field], &l.v[i], v, sizeof v);
        snprintf(values + u, values_len - u, "%s%s", i ? " " : "", v);
    }
    long n = (long)l.n;
    cs_caselist_free(&l);
    cs_scenario_free(&s);
    return n;
}

int tw_run(const tw_run_spec *spec, cs_result **rows, size_t *nrows, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_err e;
    cs_case c;
    cs_numlist sizes, nps = {NULL, 0};
    memset(&c, 0, sizeof c);
    if (cs_platform_open(spec->platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    if (cs_mapping_parse(spec->mapping, &c.mapping, &e) ||
        cs_resolve_alg(spec->coll, spec->alg, &c.alg, &e) ||
        cs_numlist_parse(spec->sizes, "sizes", 1, 0, &sizes, &e)) {
        cs_platform_free(&pf);
        return fail(&e, errbuf, errlen);
    }
    if (spec->np_list && cs_numlist_parse(spec->np_list, "np list", 0, 1, &nps, &e)) {
        cs_platform_free(&pf);
        cs_numlist_free(&sizes);
        return fail(&e, errbuf, errlen);
    }
    static const cs_field spec_fields[CS_NFIELDS] = {
#define CS_CASE_FIELD(...) CS_FIELD_ENTRY(tw_run_spec, __VA_ARGS__)
#include "case_fields.def"
#undef CS_CASE_FIELD
    };
    cs_fields_copy(cs_case_fields, &c, spec_fields, spec);
    c.platform = &pf;
    c.sizes = &sizes;
    c.np_list = spec->np_list ? &nps : NULL;
    c.iters = spec->iters ? spec->iters : 1;
    c.dtype = spec->dtype ? spec->dtype : "byte";
    c.model = spec->model ? spec->model : "full";
    c.layout = spec->layout ? spec->layout : "block";
    c.counts = spec->counts ? spec->counts : "equal";
    char dir[256];
    int rc = tw_tempdir(dir, sizeof dir);
    cs_case_place place = {NULL, 0, ""};
    pid_t pid = rc || cs_case_resolve(&c, &e) || cs_case_check(&c, &place, &e)
                    ? -1
                    : cs_case_start(&c, &place, dir, 0, &e);
    if (pid < 0) {
        rc = fail(&e, errbuf, errlen);
    } else {
        int timed_out;
        int code = cs_smpirun_wait(pid, c.timeout_s, &timed_out);
        cs_case_collect(&c, &place, dir, code, timed_out, rows, nrows);
        rc = 0;
    }
    cs_case_place_free(&place);
    tw_rmtree(dir);
    cs_platform_free(&pf);
    cs_numlist_free(&sizes);
    cs_numlist_free(&nps);
    return rc;
}

void tw_free_rows(cs_result *rows) { free(rows); }

int tw_run_scenario(const char *path, const char *out_dir, int jobs, const char *log_path,
                    char *errbuf, size_t errlen)
{
    return tw_run_scenario_only(path, out_dir, jobs, log_path, NULL, errbuf, errlen);
}

int tw_run_scenario_only(const char *path, const char *out_dir, int jobs, const char *log_path,
                         const char *only, char *errbuf, size_t errlen)
{
    cs_scenario s;
    cs_err e;
    if (cs_scenario_load(path, &s, &e))
        return fail(&e, errbuf, errlen);
    cs_run_opts o = {.out_dir = out_dir, .jobs = jobs, .force = 1, .only = only};
    /* the runner prints progress on stdout: send it to the log */
    fflush(stdout);
    int saved = dup(1);
    FILE *log = fopen(log_path ? log_path : "/dev/null", "w");
    if (log) {
        dup2(fileno(log), 1);
        fclose(log);
    }
    int rc = cs_run_scenario(&s, &o, &e);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    cs_scenario_free(&s);
    if (rc < 0)
        return fail(&e, errbuf, errlen);
    return rc;
}

int tw_check(const char *results, const char *baseline, double rtol, int strict, char *report,
             size_t len)
{
    cs_check_opts o = {rtol, strict};
    cs_err e;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    int rc = cs_check_files(f, results, baseline, &o, &e);
    fclose(f);
    snprintf(report, len, "%s", rc < 0 ? e.msg : text);
    free(text);
    return rc;
}

int tw_read_results(const char *path, cs_result **rows, size_t *nrows, char *errbuf, size_t errlen)
{
    cs_err e;
    return cs_results_read(path, rows, nrows, &e) ? fail(&e, errbuf, errlen) : 0;
}

int tw_print_best(const char *path, char *out, size_t len, char *errbuf, size_t errlen)
{
    cs_result *rows;
    size_t n;
    cs_err e;
    if (cs_results_read(path, &rows, &n, &e))
        return fail(&e, errbuf, errlen);
    FILE *f = fmemopen(out, len, "w");
    if (!f) {
        free(rows);
        snprintf(errbuf, errlen, "fmemopen failed");
        return -1;
    }
    cs_print_best(f, rows, n);
    fclose(f);
    free(rows);
    return 0;
}

struct tw_dist {
    cs_dist d;
};

tw_dist *tw_dist_new(const char *spec, char *errbuf, size_t errlen)
{
    tw_dist *t = cs_xmalloc(sizeof *t);
    if (cs_dist_parse(spec, &t->d, errbuf, errlen)) {
        free(t);
        return NULL;
    }
    return t;
}

long tw_dist_block(const tw_dist *d, unsigned long seed, long src, long dst, long max)
{
    return cs_dist_block(&d->d, seed, src, dst, max);
}

long long tw_dist_total(const tw_dist *d, unsigned long seed, int p, long max)
{
    return cs_dist_total(&d->d, seed, p, max);
}

const char *tw_dist_name(const tw_dist *d) { return d->d.name; }

void tw_dist_free(tw_dist *d) { free(d); }

int tw_tempdir(char *out, size_t len)
{
    snprintf(out, len, "%s/collsim-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(out) ? 0 : -1;
}

void tw_rmtree(const char *dir)
{
    char cmd[1024];
    if (strncmp(dir, "/tmp/", 5) && !getenv("TMPDIR"))
        return; /* only ever removes what tw_tempdir made */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", dir);
}

double tw_cost(const char *coll, const char *alg, int p, long bytes, double alpha, double beta)
{
    cs_hockney h = {alpha, beta};
    return cs_cost_predict(coll, alg, p, bytes, &h);
}

int tw_postal_fit(const long *bytes, const double *t_s, size_t n, double *alpha, double *beta,
                  char *errbuf, size_t errlen)
{
    cs_hockney h;
    cs_err e;
    if (cs_postal_fit(bytes, t_s, n, &h, NULL, &e))
        return fail(&e, errbuf, errlen);
    *alpha = h.alpha;
    *beta = h.beta;
    return 0;
}

int tw_postal(const char *platform, const char *node_a, const char *node_b, double *alpha,
              double *beta, double *max_rel, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_err e;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int a = -1, b = -1;
    for (int i = 0; i < pf.nnodes; i++) {
        if (!strcmp(pf.nodes[i].name, node_a))
            a = i;
        if (!strcmp(pf.nodes[i].name, node_b))
            b = i;
    }
    cs_postal p;
    int rc = a < 0 || b < 0 ? cs_fail(&e, "no node %s or %s on %s", node_a, node_b, platform)
                            : cs_postal_measure(&pf, a, b, NULL, &p, &e);
    cs_platform_free(&pf);
    if (rc)
        return fail(&e, errbuf, errlen);
    *alpha = p.h.alpha;
    *beta = p.h.beta;
    *max_rel = p.max_rel_residual;
    return 0;
}

int tw_report(const char *results, const char *out_dir, const char *focus, const char *baseline,
              char *md_path, size_t md_len, char *errbuf, size_t errlen)
{
    cs_report_opts o = {results, out_dir, focus, baseline};
    cs_err e;
    return cs_report(&o, md_path, md_len, &e) ? fail(&e, errbuf, errlen) : 0;
}

int tw_calibration(const char *platform, char *levels, size_t levels_len, char *regimes,
                   size_t regimes_len, int *npublished, char *errbuf, size_t errlen)
{
    cs_platform pf;
    cs_calibration cal;
    cs_err e;
    if (cs_platform_open(platform, &pf, &e))
        return fail(&e, errbuf, errlen);
    int rc = cs_calibration_load(&pf, &cal, &e);
    cs_platform_free(&pf);
    if (rc)
        return fail(&e, errbuf, errlen);
    levels[0] = regimes[0] = 0;
    for (int i = 0; i < cal.nlevels; i++)
        snprintf(levels + strlen(levels), levels_len - strlen(levels), "%s%s", i ? " " : "",
                 cal.levels[i].name);
    for (int i = 0; i < cal.nregimes; i++)
        snprintf(regimes + strlen(regimes), regimes_len - strlen(regimes), "%s%s", i ? " " : "",
                 cal.regimes[i].name);
    *npublished = 0;
    for (int i = 0; i < cal.nlevels * cal.nregimes; i++)
        *npublished += cal.pub_alpha[i] > 0;
    cs_calibration_free(&cal);
    return 0;
}
