/* Bookkeeping of a sweep's results directory (resume.c): what `run` and
 * `run --resume` read and append, case by case. */
#ifndef COLLSIM_RESUME_H
#define COLLSIM_RESUME_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"
#include "runner.h"

/* Whether a row with r's key is among the sorted rows of the resumed file. */
int have_row(const cs_result *r, const cs_result *sorted, size_t n);

/* A case is recorded when a row exists for each of its sizes. */
int recorded(const cs_case *c, const cs_result *sorted, size_t n);

/* One case's rows in a single write(2), those the resumed file holds left out. */
int append_rows(int fd, const char *path, const cs_result *rows, size_t n,
                const cs_result *old, size_t nold, cs_err *err);

/* OUT/results.csv opened for appending (csv_path: 2048 bytes), with --resume
 * the rows it holds, sorted. Returns the descriptor, or -1 (err). */
int open_results(const cs_run_opts *o, const cs_caselist *list, char *csv_path,
                 cs_result **old_out, size_t *nold_out, cs_err *err);

/* How many rows are of no case of the scenario's list (list->all: before
 * --only), the first of them at *first. */
size_t cs_rows_foreign(const cs_result *rows, size_t n, const cs_caselist *list, size_t *first);

/* For a command reading a results file (cmd: "check", "report", "merge"): one
 * warning line on f naming how many of path's rows are of no case of s and
 * one of them. Returns how many (0 too when s's cases cannot be listed here). */
size_t cs_warn_foreign(FILE *f, const char *cmd, const char *path, const cs_result *rows,
                       size_t n, const cs_scenario *s);

/* The same against the scenario path's directory records (outdir.h), when
 * its file is unchanged since; 0 without a record. */
size_t cs_warn_foreign_recorded(FILE *f, const char *cmd, const char *path, const cs_result *rows,
                                size_t n);

/* OUT/platforms.csv: the fits of the platforms the cases ran on. */
int write_platform_fits(const cs_caselist *l, const cs_run_opts *o, cs_err *err);

#endif
