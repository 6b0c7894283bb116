/* collsim tune: from a sweep's results, the files that put its choices into
 * an MPI program (docs/deploy.md):
 *   collsim-decisions.txt  the decision table of libcollsim_pmpi.so
 *                          (COLLSIM_<COLLECTIVE>=auto:FILE), collsim's
 *                          algorithms per communicator size and bytes
 *   ompi-rules.conf        Open MPI 4.1's coll_tuned dynamic rules
 *                          (coll_tuned_dynamic_rules_filename)
 *   mpich-selection.json   MPICH 4.0's collective selection
 *                          (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), with
 *   mpich-ch4-selection.json  its ch4 device's, which hands every call to it
 *                          (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE)
 * At each point (collective, np, bytes) of one platform, mapping and model,
 * each file takes the fastest algorithm it can name, or the library's own
 * decision when that is as fast, when it ties with another, or when it gains
 * less than the threshold over the library's decision (the `native:ompi` row,
 * `native:mpich` for MPICH's file;
 * without one, over the next fastest that file can name). Reads result files
 * only; never simulates. */
#ifndef COLLSIM_TUNE_H
#define COLLSIM_TUNE_H

#include <stdio.h>

#include "cs_error.h"

typedef struct {
    const char *results;                    /* RESULTS.csv */
    const char *platform, *mapping, *model; /* NULL: the only one the rows hold */
    const char *scenario;                   /* recorded; NULL: DIR/scenario.id's name */
    const char *out_dir;                    /* where the files go (created) */
    const char *version;                    /* collsim's version, recorded */
    double threshold_pct;                   /* the least gain, percent, >= 0 */
} cs_tune_opts;

/* The files' names in out_dir. */
#define CS_TUNE_TABLE "collsim-decisions.txt"
#define CS_TUNE_OMPI "ompi-rules.conf"
#define CS_TUNE_MPICH "mpich-selection.json"
#define CS_TUNE_MPICH_CH4 "mpich-ch4-selection.json"

/* Writes the files and prints, to summary, one line per point: the fastest
 * row and each file's choice. 0, or -1 with e set (a file, a value or a
 * choice that is missing or ambiguous, named). */
int cs_tune(const cs_tune_opts *o, FILE *summary, cs_err *e);

#endif
