/* The best algorithm per case (platform, collective, mapping, ppn,
 * distribution, np, size) and its improvement over the second best: the
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

/* Orders rows by platform, collective, mapping, ppn, distribution and seed,
 * the intergroup case (group ratio, layout, block ratio, counts), np, bytes
 * (0: same point: the algorithms there compete). The groups compare by
 * their ratio (cs_groups_ratio): with the process count it gives the groups,
 * and a <groups ratio> sweep stays one series across process counts. */
int cs_result_cmp_point(const cs_result *a, const cs_result *b);

/* The ratio of groups "P:Q" in lowest terms ("50:14" -> "25:7"); "" when
 * groups is empty or does not read. */
const char *cs_groups_ratio(const char *groups, char *buf, size_t len);

/* Groups the rows with status ok; returns the number of groups, in the order
 * of cs_result_cmp_point. *out is malloc'ed, tied lists included (one free). */
size_t cs_best_per_case(const cs_result *rows, size_t n, cs_best **out);
void cs_print_best(FILE *f, const cs_result *rows, size_t n);
/* The names of b's tied algorithms joined by '=' (one word: a column). */
const char *cs_best_names(const cs_best *b, int levels, char *buf, size_t len);

#endif
