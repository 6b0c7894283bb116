/* A scenario's expectations as analysis/expect.h checks them: each <expect>
 * expanded over the scenario's platforms, mappings, ranks per node, region
 * levels, process counts and sizes into the row keys it covers. */
#ifndef COLLSIM_EXPECT_POINTS_H
#define COLLSIM_EXPECT_POINTS_H

#include <stdio.h>

#include "expect.h"
#include "scenario.h"

/* cs_expect_check over the scenario's expectations (see expect.h). */
int cs_scenario_expect_check(FILE *f, const cs_scenario *s, const cs_result *rows, size_t n,
                             int partial);

#endif
