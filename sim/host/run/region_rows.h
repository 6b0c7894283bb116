/* Rows of algorithms that take no region (algorithms.def: no_regions, and
 * every native:) in files written before a scenario's <region> stopped
 * sweeping them: there each such case was run once per level, its rows
 * carrying the level, while `run` now runs it once with an empty region. */
#ifndef COLLSIM_REGION_ROWS_H
#define COLLSIM_REGION_ROWS_H

#include <stddef.h>

#include "results.h"

/* 1 when r is a row of an algorithm that takes no region but carries one. */
int cs_row_region_stale(const cs_result *r);

/* Gives rows[0..*n) today's shape: a stale row's region is cleared, and of
 * the rows whose keys then agree (the same simulation, once per level) one
 * stays, the first with status ok, else the first; file order is kept.
 * Returns the number of stale rows (0: nothing changed); *dropped gets how
 * many rows left. */
size_t cs_rows_clear_stale_regions(cs_result *rows, size_t *n, size_t *dropped);

/* The names of the algorithms of stale rows, ", "-joined, into buf. */
void cs_rows_stale_algorithms(const cs_result *rows, size_t n, char *buf, size_t len);

#endif
