/* Scenario expectations (<expect faster="A" than="B" .../>, parsed by
 * sim/host/scenario.c) checked on result rows: after `run`, and by
 * `collsim check RESULTS --scenario FILE`, through this one function. */
#ifndef COLLSIM_EXPECT_H
#define COLLSIM_EXPECT_H

#include <stdio.h>

#include "results.h"
#include "scenario.h"

/* Prints one line per expectation, PASS, FAIL or SKIP, with the numbers
 * (the closest point of a pass, every failing point of a failure), then a
 * summary; nothing when the scenario has no expectation. A point is one
 * (platform, mapping, np, bytes) of the expectation's scope; it fails when A
 * is not faster than B by the margin, or a row is not ok, or (unless
 * `partial`) a row is missing. `partial`: the rows cover only some cases
 * (--only, --case), so points without both rows are skipped. Returns the
 * number of failed expectations. */
int cs_expect_check(FILE *f, const cs_scenario *s, const cs_result *rows, size_t n, int partial);

#endif
