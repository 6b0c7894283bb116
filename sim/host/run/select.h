/* Which of a scenario's cases a run runs: `--only` (key=value terms) and
 * `--case K` (one case by its index in the runner's order). Both keep the
 * runner's order, so indices and results do not depend on the selection
 * mechanism. */
#ifndef COLLSIM_SELECT_H
#define COLLSIM_SELECT_H

#include <stddef.h>

#include "bench_case.h"
#include "cs_error.h"

/* only: terms separated by commas, "alg=sparbit,np=128,mapping=cyclic"; the
 * keys are the case fields' (case_fields.def). A term without '=' is one
 * more value of the key before it (alg=ring,bruck);
 * values of one key are alternatives, keys must all match. np values are
 * number-list items (8:64). Keeps the matching cases of cases[0..*n) in
 * order and updates *n. Errors: unknown keys (listing the valid ones), a
 * value no case has (listing the values the scenario has), no case left. */
int cs_select_only(const char *only, cs_case *cases, size_t *n, cs_err *err);

/* Keeps case k (0-based) alone; errors give the valid range. */
int cs_select_index(long k, cs_case *cases, size_t *n, cs_err *err);

#endif
