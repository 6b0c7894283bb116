/* The `check`, `merge` and `repair` commands of the CLI (main.c dispatches to them):
 * argument handling only; the work is in analysis/regression.c, expect.c and
 * merge.c. Exit codes: 0 passed, 1 a check failed, 2 bad input. */
#ifndef COLLSIM_CLI_CHECK_H
#define COLLSIM_CLI_CHECK_H

int cs_cmd_check(int argc, char **argv);
int cs_cmd_merge(int argc, char **argv);
/* repair RESULTS.csv: one row per case (cs_results_dedupe), the file as it
 * was kept as RESULTS.csv.orig; refused while a sweep holds the directory. */
int cs_cmd_repair(int argc, char **argv);
/* compare MEASURED.csv PREDICTED.csv: a real MPI's measurements (collsim-mpibench)
 * beside a simulation's predictions of the same cases (analysis/compare.h). */
int cs_cmd_compare(int argc, char **argv);

#endif
