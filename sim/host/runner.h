/* Runs a scenario: expands it into cases, runs them with N workers, appends
 * each case's rows to OUT/results.csv as soon as it ends. */
#ifndef COLLSIM_RUNNER_H
#define COLLSIM_RUNNER_H

#include "cs_error.h"
#include "scenario.h"

typedef struct {
    const char *out_dir;
    int jobs;
    int resume; /* skip cases already recorded in OUT/results.csv */
    int force;  /* start a fresh results.csv even if one exists */
} cs_run_opts;

/* Returns 0 when every case passed, 1 when some failed (all recorded), -1 on
 * an error that stopped the run (err set). */
int cs_run_scenario(const cs_scenario *s, const cs_run_opts *o, cs_err *err);

#endif
