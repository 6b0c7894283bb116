/* Runs a scenario: expands it into cases, runs them with N workers, appends
 * each case's rows to OUT/results.csv as soon as it ends. */
#ifndef COLLSIM_RUNNER_H
#define COLLSIM_RUNNER_H

#include "bench_case.h"
#include "cs_error.h"
#include "scenario.h"

typedef struct {
    const char *out_dir;
    int jobs;
    int resume; /* skip cases already recorded in OUT/results.csv */
    int force;  /* start a fresh results.csv even if one exists */
    /* --accept-changes: resume although the scenario file changed since the
     * directory's results were written (outdir.h) */
    int accept_changes;
    const char *only; /* --only KEY=VALUE,...: run the matching cases (select.h) */
    int pick_case;    /* --case: run case case_index of the expansion alone */
    long case_index;
    /* --memory: host memory the sweep's running cases may use together, in
     * bytes; 0: 90% of what /proc/meminfo says is available at its start */
    double memory;
} cs_run_opts;

/* The scenario's cases in the runner's stable order, platform x mapping x ppn
 * x np x region x algorithm (nested in that order), narrowed by o->only and o->case_index;
 * `run`, `--case` and `--emit` all count cases this way. The cases point into
 * the scenario (its platforms, sizes, names): a list lives no longer than it.
 * With <vary>, the list holds the generated platforms it loaded (pfs). */
typedef struct {
    cs_case *v;
    size_t n;
    cs_platform *pfs; /* the platforms the cases point to: the scenario's, or with <vary>
                       * the generated ones, which the list owns (owns_pfs) */
    int npfs;
    /* <sizes unit="node">: the sizes per process at each <ppn> value (the
     * intergroup cases point into them); NULL otherwise */
    cs_numlist *per_process;
    size_t nper_process;
    /* every case of the scenario, before o->only and o->case_index: what a
     * resumed file may hold (v itself when nothing was selected) */
    cs_case *all;
    size_t nall;
    int owns_pfs;
} cs_caselist;
int cs_expand_cases(const cs_scenario *s, const cs_run_opts *o, cs_caselist *out, cs_err *err);
void cs_caselist_free(cs_caselist *l);

/* mkdir -p */
int cs_mkdirs(const char *path, cs_err *err);

/* Returns 0 when every case passed, 1 when some failed (all recorded), -1 on
 * an error that stopped the run (err set). */
int cs_run_scenario(const cs_scenario *s, const cs_run_opts *o, cs_err *err);

#endif
