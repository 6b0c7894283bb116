/* Scenario expectations (<expect faster="A" than="B" .../>) checked on
 * result rows: after `run`, and by `collsim check RESULTS --scenario FILE`.
 * The host expands each expectation's scope over the scenario into the
 * points it covers (sim/host/run/expect_points.c); this file only reads rows. */
#ifndef COLLSIM_EXPECT_H
#define COLLSIM_EXPECT_H

#include <stdio.h>

#include "results.h"

/* Which of a row's times an expectation compares: the average over
 * processes (OSU's, the default), the maximum (Kang et al.'s metric) or the
 * minimum. */
enum { CS_METRIC_AVG, CS_METRIC_MAX, CS_METRIC_MIN };
extern const char *const cs_metric_names[3]; /* "avg", "max", "min" */

/* One expectation: A's time (avg, max or min over processes) is below B's by at least by_pct percent
 * of B's at every point. A point is a row key without its algorithm
 * (platform, mapping, ppn, region, np, bytes, collective, dtype, mode). An
 * algorithm that takes no region (faster_no_region, than_no_region) has its
 * rows at region "" whatever the point's region: loc_bruck at region node
 * is compared with bruck's one row. */
typedef struct {
    long line; /* in the scenario file */
    const char *faster, *than;
    double by_pct;
    const char *scope; /* the filters as written */
    int metric;        /* CS_METRIC_* */
    double by_factor;  /* by="Fx": B's time at least F times A's (by_pct = 100 (1 - 1/F)); 0: by % */
    cs_result *points;
    size_t npoints;
    int faster_no_region, than_no_region;
    /* time_us > 0: not a comparison, but `faster`'s time is time_us within
     * within_pct percent of it (a published figure) */
    double time_us, within_pct;
} cs_expect_points;

/* Prints one line per expectation, PASS, FAIL or SKIP, with the numbers
 * (the closest point of a pass, every failing point of a failure), then a
 * summary; nothing when there is no expectation. A point fails when A is not
 * faster than B by the margin, or a row is not ok, or (unless `partial`) a
 * row is missing. `partial`: the rows cover only some cases (--only,
 * --case), so points without both rows are skipped. `path` names the
 * scenario. Returns the number of failed expectations. */
int cs_expect_check(FILE *f, const char *path, const cs_expect_points *x, size_t nx,
                    const cs_result *rows, size_t n, int partial);

#endif
