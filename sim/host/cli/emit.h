/* Scale-out: `run SCENARIO --emit slurm|parallel` writes, instead of running,
 * one task per case for a Slurm job array (DIR/collsim.sbatch) or for GNU
 * parallel (DIR/jobs.txt). Task K runs `collsim run SCENARIO --case K --out
 * DIR/tasks/K`; `collsim merge` joins the tasks' results afterwards. */
#ifndef COLLSIM_EMIT_H
#define COLLSIM_EMIT_H

#include <stdio.h>

#include "cs_error.h"
#include "runner.h"
#include "scenario.h"

typedef enum { CS_EMIT_SLURM, CS_EMIT_PARALLEL } cs_emit_kind;

int cs_emit_kind_parse(const char *text, cs_emit_kind *out, cs_err *err);

/* Writes the task file into o->out_dir (created, with tasks/ in it) for the
 * cases o selects (--only is passed on to every task, so that K indexes the
 * same list), with absolute paths, and prints on f how to run and merge.
 * entry: the command tasks run; NULL means the repository's ./collsim. */
int cs_emit(FILE *f, const cs_scenario *s, const cs_run_opts *o, cs_emit_kind kind,
            const char *entry, cs_err *err);

#endif
