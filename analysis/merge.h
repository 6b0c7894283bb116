/* `collsim merge`: the per-task results of a scale-out run (Slurm array tasks,
 * GNU parallel jobs) joined into one results file, as one `run` would have
 * written it: one header, rows in key order, each case once; the tasks'
 * platform fits (fits.h) are joined beside it the same way. */
#ifndef COLLSIM_MERGE_H
#define COLLSIM_MERGE_H

#include <stdio.h>

#include "cs_error.h"

/* Reads every input, writes out. Returns 0 when every row passed, 1 when some
 * row did not pass (out written all the same) or a case is given twice
 * (each reported on f, nothing written), -1 on unreadable input (err set).
 * When the inputs are DIR/tasks/K/results.csv and DIR holds the job list
 * `run --emit` wrote (jobs.txt or collsim.sbatch), the tasks it runs that no
 * input brings a row of are named on f, and make it return 1 when strict. */
int cs_merge_files(FILE *f, const char *const *inputs, int ninputs, const char *out, int strict,
                   cs_err *err);

#endif
