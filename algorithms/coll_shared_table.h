/* Read-only int tables kept once for identical copies, reference-counted.
 * The region tables of coll_locality.h (region sizes, first members, the
 * general layout's rank table) are the same on every process of a
 * communicator. Under SMPI all simulated ranks live in one OS process, so
 * identical tables are kept once: at 32K ranks a copy per rank would cost
 * gigabytes. Under a real MPI this only ever finds the process's own tables.
 * Process-wide state, not thread-safe (as coll_locality.h). */
#ifndef COLLSIM_COLL_SHARED_TABLE_H
#define COLLSIM_COLL_SHARED_TABLE_H

/* Returns the shared copy of a[0..n-1] (a, malloc'd, is freed if an equal
 * table was already shared) or a itself, now shared; NULL stays NULL. */
int *coll_share_table(int *a, int n);

/* One more reference to a table coll_share_table() returned. */
int *coll_retain_table(int *a);

/* Drops a reference; the last one frees the table (an unshared a is freed). */
void coll_release_table(int *a);

#endif
