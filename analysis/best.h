/* The best algorithm per comparison point (cs_result_cmp_point, from
 * results_columns.def) and its improvement over the second best: the
 * quantity of the Sparbit paper's Figure 5 and Table II,
 * (t_second - t_best) / t_second. */
#ifndef COLLSIM_BEST_H
#define COLLSIM_BEST_H

#include <stdio.h>

#include "results.h"

/* Two times tie when they differ by at most CS_TIE_REL times the smaller:
 * identical algorithms (native:ompi and recursive_doubling) differ by
 * rounding only, and such a difference names no winner. */
#define CS_TIE_REL 1e-9
/* its text for reports ("1e-9", where %g would print 1e-09) */
#define CS_TIE_STR_(x) #x
#define CS_TIE_STR(x) CS_TIE_STR_(x)
#define CS_TIE_REL_TEXT CS_TIE_STR(CS_TIE_REL)
int cs_times_tie(double a, double b);

typedef struct {
    /* best: the fastest, or in a tie the first tied one by name (whatever
     * the rounding); second: the fastest not tied; NULL when there is none */
    const cs_result *best, *second;
    double improvement_pct;       /* the fastest's over second; 0 when second is NULL */
    size_t ntied;                 /* algorithms tied for best, best included: 1 = outright win */
    const cs_result *const *tied; /* those ntied rows in name order: tied[0] is best */
} cs_best;

/* Groups the rows with status ok; returns the number of groups, in the order
 * of cs_result_cmp_point. *out is malloc'ed, tied lists included (one free). */
size_t cs_best_per_case(const cs_result *rows, size_t n, cs_best **out);
void cs_print_best(FILE *f, const cs_result *rows, size_t n);
/* The names of b's tied algorithms joined by '=' (one word: a column). */
const char *cs_best_names(const cs_best *b, int levels, char *buf, size_t len);

#endif
