/* Regression checks of result rows against a baseline (`collsim check`), and
 * what they, `merge` and the expectations do with the case key (cs_key_cmp,
 * results.h: the KEY columns of results_columns.def). */
#ifndef COLLSIM_REGRESSION_H
#define COLLSIM_REGRESSION_H

#include <stdio.h>

#include "cs_error.h"
#include "results.h"

/* Rows sorted by key (pointers into rows; caller frees the array). */
const cs_result **cs_sort_by_key(const cs_result *rows, size_t n);
/* Copies of the rows v points to, in that order (caller frees). */
cs_result *cs_rows_copy(const cs_result *const *v, size_t n);

/* How many keys rows holds more than once (a results file holds one row per
 * case and size); the first of them, in key order, formatted into example. */
size_t cs_results_dup_keys(const cs_result *rows, size_t n, char *example, size_t len);
/* Keeps one row per key, in file order: an ok row if the key has one, else
 * its first row. Only keys with a row marked in `among` (n flags; NULL: every
 * key) lose rows. Each dropped row is printed to log (key, status, note;
 * NULL: not printed). Returns how many rows remain (the first ones of rows). */
size_t cs_results_dedupe(cs_result *rows, size_t n, const char *among, FILE *log);

typedef struct {
    double rtol;  /* relative tolerance on avg, min and max (0: bit for bit) */
    int strict;   /* cases added against the baseline fail too */
} cs_check_opts;

/* Compares the results file with the baseline file and prints a report to f: the cases that
 * moved beyond rtol (key, field, old, new, ratio), missing and added cases, rows whose status is
 * not ok, keys given more than once in either file (with their lines; the first row of each is
 * compared). Returns 0 when the check passes, 1 when it fails, -1 (err set) when a file cannot
 * be read. */
int cs_check_files(FILE *f, const char *results, const char *baseline, const cs_check_opts *o,
                   cs_err *err);

/* Rewrites baseline from results (refused when a row did not pass). */
int cs_baseline_update(FILE *f, const char *results, const char *baseline, cs_err *err);

#endif
