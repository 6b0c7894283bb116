/* The thin C wrapper the GoogleTest suites drive: small, test-shaped entry
 * points over the host library (sim/host, analysis), so the C++ side never
 * handles C ownership rules itself. */
#ifndef COLLSIM_TEST_WRAPPER_H
#define COLLSIM_TEST_WRAPPER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "case_fields.h"
#include "cost_model.h"
#include "results.h"

/* Parses a list; returns the count (<= max) or -1 with the error in errbuf. */
int tw_numlist(const char *text, int allow_suffix, long min, long *out, int max, char *errbuf,
               size_t errlen);

/* Maps np ranks on a platform (name or file); fills node_of_rank and returns
 * 0, or -1 with the error in errbuf. */
int tw_map(const char *platform, const char *mapping, int np, int oversubscribe, int *node_of_rank,
           char *errbuf, size_t errlen);
/* tw_map with ranks per node (0: the default); host_of_rank (may be NULL)
 * gets each rank's host name index in the platform's hosts, and host names
 * are written to names (one per rank, '\n'-separated) when names is not NULL. */
int tw_map_ppn(const char *platform, const char *mapping, int np, int oversubscribe, int ppn,
               int *node_of_rank, int *host_of_rank, char *errbuf, size_t errlen);
/* A background job of k ranks beside np measured ranks mapped by mapping
 * (mapping.h, cs_map_background) between regions of `level`: node_of_bg
 * gets k node indices, spread the placement in words. 0, or -1 with errbuf. */
int tw_map_background(const char *platform, const char *mapping, int np, const char *level, int k,
                      int *node_of_bg, char *spread, size_t spread_len, char *errbuf,
                      size_t errlen);
/* The nodes a --hosts SPEC chooses on a platform (hostspec.h), in order:
 * their count (at most max written to nodes), or -1 with errbuf. */
int tw_hosts(const char *platform, const char *spec, int *nodes, int max, char *errbuf,
             size_t errlen);
/* The placement a case runs with (bench_case.h, cs_case_map): np ranks
 * mapped by mapping and ppn over the nodes hosts chooses (NULL: every node),
 * then a background (NULL: none): node_of_rank gets np node indices and
 * the background's after them. 0, or -1 with errbuf. */
int tw_case_map(const char *platform, const char *mapping, int np, int ppn, const char *hosts,
                const char *background, int *node_of_rank, char *errbuf, size_t errlen);
/* The placement column of that case's rows (mapping.h, cs_placement_text),
 * into out: 0, or -1 with errbuf. */
int tw_placement(const char *platform, const char *mapping, int np, int ppn, const char *hosts,
                 char *out, size_t len, char *errbuf, size_t errlen);
/* The files cs_case_start writes for a case (mapping.h, cs_write_case_files):
 * the hostfile and the driver's locality file, for np ranks mapped by
 * mapping and ppn, or placed on the nodes node_of_rank when not NULL.
 * Returns 0, or -1 with errbuf. */
int tw_case_files(const char *platform, const char *mapping, int np, int ppn,
                  const int *node_of_rank, const char *hostfile, const char *locality,
                  char *errbuf, size_t errlen);
/* Locality levels of a platform as the host reads them: names (space-
 * separated, finest first) and each host's region per level
 * (regions[h * CS_MAX_LEVELS + l]; at most max_hosts hosts). Returns the
 * number of hosts, or -1 with errbuf. */
int tw_platform_levels(const char *platform, char *names, size_t names_len, int *regions,
                       int max_hosts, char *errbuf, size_t errlen);
/* The warnings of loading a platform (one a line, "" when none), or -1 with the error in buf. */
int tw_platform_warnings(const char *platform, char *buf, size_t len);
/* Nodes and cores of a platform, or -1 with errbuf. */
int tw_platform_shape(const char *platform, int *nnodes, long *cores, char *errbuf, size_t errlen);

/* Resolves an algorithm; fills the selected SMPI --cfg (or "") and driver name. */
int tw_resolve(const char *coll, const char *spec, char *cfg, size_t cfglen, char *driver_alg,
               size_t alglen, char *errbuf, size_t errlen);

/* Loads a scenario, returns 0 and the number of cases it expands to, or -1. */
int tw_scenario(const char *path, long *ncases, char *errbuf, size_t errlen);
/* Expands a scenario as `run` does (cs_expand_cases; only: --only terms or
 * NULL): returns the number of cases, each case's region level written to
 * regions ("" for the default; space-separated, in case order), or -1. */
long tw_expand(const char *path, const char *only, char *regions, size_t regions_len,
               char *errbuf, size_t errlen);
/* tw_expand writing each case's value of case field `field` (CS_F_...; as
 * cs_field_text spells it; CS_F_algorithm: its name) instead of its region. */
long tw_expand_field(const char *path, const char *only, int field, char *values,
                     size_t values_len, char *errbuf, size_t errlen);
/* The tables of case_fields.def over cs_case and over cs_scenario. */
const cs_field *tw_case_fields(void);
const cs_field *tw_scenario_fields(void);
/* cs_fields_row of a default allgather case with np's column renamed to
 * `column` (aborts when results.c has no such column); r gets the row. */
void tw_fields_row_as(const char *column, cs_result *r);

/* Runs the driver once under smpirun (np ranks on `platform`), optionally for
 * each p of np_list on the first p ranks. Rows are malloc'ed; free with
 * tw_free_rows. Returns 0, or -1 when the run could not start. */
typedef struct {
    /* every field of core/case_fields.def (np, ppn, region, dtype, fold,
     * dist, seed, iters, warmup, in_place, account, timeout_s, groups,
     * layout, block_ratio, counts, ...); zero: the default, except iters (0: 1) */
#define CS_CASE_FIELD CS_CASE_MEMBER
#include "case_fields.def"
#undef CS_CASE_FIELD
    const char *platform, *mapping, *coll, *alg, *sizes, *np_list;
} tw_run_spec;
int tw_run(const tw_run_spec *spec, cs_result **rows, size_t *nrows, char *errbuf, size_t errlen);
void tw_free_rows(cs_result *rows);

/* Runs a scenario into out_dir with `jobs` workers (the `run` command's path).
 * Returns the runner's code: 0 all passed, 1 some failed, -1 error. Its
 * progress output goes to the given file (or /dev/null when NULL). */
int tw_run_scenario(const char *path, const char *out_dir, int jobs, const char *log_path,
                    char *errbuf, size_t errlen);
/* The same, narrowed to the cases `--only ONLY` selects (NULL: every case). */
int tw_run_scenario_only(const char *path, const char *out_dir, int jobs, const char *log_path,
                         const char *only, char *errbuf, size_t errlen);

/* `collsim check`'s comparison (analysis/regression.c) of a results file
 * with a baseline: 0 pass, 1 fail, -1 unreadable input; the report (or the
 * error) goes to report. */
int tw_check(const char *results, const char *baseline, double rtol, int strict, char *report,
             size_t len);

/* Reads a results CSV. */
int tw_read_results(const char *path, cs_result **rows, size_t *nrows, char *errbuf, size_t errlen);

/* The best-algorithm table `collsim run` prints after a sweep, of a results
 * CSV, into out (truncated to len): 0, or -1 with errbuf. */
int tw_print_best(const char *path, char *out, size_t len, char *errbuf, size_t errlen);

/* A cost model's prediction in seconds (analysis/cost_model.h); NaN: no model. */
double tw_cost(const char *coll, const char *alg, int p, long bytes, double alpha, double beta);

/* The postal fit of points (bytes, seconds): 0, or -1 with errbuf. */
int tw_postal_fit(const long *bytes, const double *t_s, size_t n, double *alpha, double *beta,
                  char *errbuf, size_t errlen);

/* A simulated ping-pong between two nodes of a platform (names), fitted:
 * alpha (s), beta (s/B) and the worst relative residual. */
int tw_postal(const char *platform, const char *node_a, const char *node_b, double *alpha,
              double *beta, double *max_rel, char *errbuf, size_t errlen);

/* `collsim report` (NULL options: defaults); report.md's path in md_path. */
int tw_report(const char *results, const char *out_dir, const char *focus, const char *baseline,
              char *md_path, size_t md_len, char *errbuf, size_t errlen);

/* Block-size distributions (core/distributions.h): parses a spelling
 * into a handle (0, or -1 with the one-line error); the size of block
 * (src, dst) for at most max elements; the canonical name. */
typedef struct tw_dist tw_dist;
tw_dist *tw_dist_new(const char *spec, char *errbuf, size_t errlen);
long tw_dist_block(const tw_dist *d, unsigned long seed, long src, long dst, long max);
long long tw_dist_total(const tw_dist *d, unsigned long seed, int p, long max);
const char *tw_dist_name(const tw_dist *d);
void tw_dist_free(tw_dist *d);

/* The calibration properties of a platform (sim/host/model/calibrate.h), without
 * simulating: level names and regime names (space-separated, in order) and
 * the number of (level, regime) pairs with published values; -1 with the
 * one-line error. */
int tw_calibration(const char *platform, char *levels, size_t levels_len, char *regimes,
                   size_t regimes_len, int *npublished, char *errbuf, size_t errlen);

/* A fresh temporary directory (removed by the caller's tw_rmtree). */
int tw_tempdir(char *out, size_t len);
void tw_rmtree(const char *dir);

#ifdef __cplusplus
}
#endif

#endif
