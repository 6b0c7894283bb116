/* The best algorithm per case (platform, collective, mapping, ppn,
 * distribution, np, size) and its improvement over the second best: the
 * quantity of the Sparbit paper's Figure 5 and Table II,
 * (t_second - t_best) / t_second. */
#ifndef COLLSIM_BEST_H
#define COLLSIM_BEST_H

#include <stdio.h>

#include "results.h"

typedef struct {
    const cs_result *best, *second; /* second is NULL when only one algorithm ran */
    double improvement_pct;         /* 0 when second is NULL */
} cs_best;

/* Orders rows by platform, collective, mapping, ppn, distribution and seed,
 * np, bytes (0: same point: the algorithms there compete). */
int cs_result_cmp_point(const cs_result *a, const cs_result *b);

/* Groups the rows with status ok; returns the number of groups, in the order
 * of cs_result_cmp_point. *out is malloc'ed. */
size_t cs_best_per_case(const cs_result *rows, size_t n, cs_best **out);
void cs_print_best(FILE *f, const cs_result *rows, size_t n);

#endif
