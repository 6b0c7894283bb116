/* Lists of numbers as users write them for message sizes and process counts.
 *
 *   items separated by commas and/or white space;
 *   N        one value;
 *   A:B      doubling from A up to B (OSU's convention: 1:1048576);
 *   A:B:S    arithmetic, step S (the Sparbit paper's 5:253:8);
 *   A:B:xF   geometric, factor F;
 * With suffixes allowed (sizes), a value may end in K, M or G (binary: 64K = 65536).
 * The result keeps the written order and drops nothing; duplicates are an error. */
#ifndef COLLSIM_NUMLIST_H
#define COLLSIM_NUMLIST_H

#include <stddef.h>

#include "cs_error.h"

#define CS_NUMLIST_MAX 100000

typedef struct {
    long *v;
    size_t n;
} cs_numlist;

/* `what` names the list in errors ("size list", "process counts"); values below
 * `min` are rejected. Returns 0, or -1 with err set. */
int cs_numlist_parse(const char *text, const char *what, int allow_suffix, long min,
                     cs_numlist *out, cs_err *err);
void cs_numlist_free(cs_numlist *l);
/* Sorts the list ascending. A case runs its message sizes in this order: a
 * size's predicted time depends on the sizes simulated before it (each leaves
 * the ranks at the next size's first barrier in another order), so the order
 * a list is written in must not change its rows, and the sizes a memory
 * limit refuses, the largest, are then always the last to run: the rows of
 * the sizes that ran are those of a run without the limit. */
void cs_numlist_sort(cs_numlist *l);
/* An amount of memory as a person reads it: "2.4 GB", "12.0 MB", "512 B"
 * (decimal units, one decimal), so that small limits do not print 0.0 GB. */
const char *cs_fmt_bytes(double bytes, char *buf, size_t len);
/* "1,2,4" for the driver's command line; caller frees. */
char *cs_numlist_join(const cs_numlist *l);

#endif
