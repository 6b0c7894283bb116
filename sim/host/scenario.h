/* Scenario files: an experiment described once (schema: scenarios/README.md).
 * Errors name the file, line and element, and what would be valid. */
#ifndef COLLSIM_SCENARIO_H
#define COLLSIM_SCENARIO_H

#include "cs_error.h"
#include "mapping.h"
#include "numlist.h"
#include "registry.h"

typedef struct {
    char *path, *name, *description;
    char **platforms; /* resolved paths */
    int nplatforms;
    cs_mapping mappings[2];
    int nmappings;
    cs_numlist nps;
    int oversubscribe;
    cs_alg_sel *algs; /* each with its collective */
    int nalgs;
    cs_numlist sizes;
    int iters, warmup;
    int fold;
    char dtype[16];
    int timeout_s;
} cs_scenario;

int cs_scenario_load(const char *path, cs_scenario *s, cs_err *err);
void cs_scenario_free(cs_scenario *s);

#endif
