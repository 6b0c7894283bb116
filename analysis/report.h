/* `collsim report`: turns a results CSV into DIR/report.md with gnuplot
 * figures (scripts and data kept next to them, rendered to PNG and SVG):
 * latency per algorithm, the best algorithm per (np, size) as a hybrid heat
 * map (Sparbit paper, Figure 5), the focus algorithm's speedup over a baseline
 * (intergroup allgather paper, Figure 6), best-algorithm counts, the focus
 * algorithm's improvement over the second best (Sparbit paper, Table II), the
 * cost models against the simulation, what-if platform variants (<vary>)
 * against each other, and every row that did not pass. */
#ifndef COLLSIM_REPORT_H
#define COLLSIM_REPORT_H

#include <stddef.h>

#include "cs_error.h"

typedef struct {
    const char *results;  /* a results CSV as `collsim run` writes it */
    const char *out_dir;  /* NULL: the results file's directory + "/report" */
    const char *focus;    /* NULL: sparbit when the results have it, else none */
    const char *baseline; /* NULL: the best other algorithm of each case */
} cs_report_opts;

/* Writes the report; the path of report.md goes to md_path. */
int cs_report(const cs_report_opts *o, char *md_path, size_t md_len, cs_err *err);

#endif
