/* `collsim compare`: measured rows (collsim-mpibench under a real MPI) beside
 * predicted ones (a simulation's results.csv) of the same cases. */
#ifndef COLLSIM_ANALYSIS_COMPARE_H
#define COLLSIM_ANALYSIS_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* One line per measured row with status ok and every predicted row of the
 * same case (cs_result_same_case: the key less where and how it ran, e.g.
 * any platform, mapping and ppn): measured and predicted avg, min and max,
 * and predicted / measured. Returns the number of pairs printed. */
size_t cs_compare_print(FILE *f, const cs_result *measured, size_t nm, const cs_result *predicted,
                        size_t np);

#endif
