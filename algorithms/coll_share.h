/* Read-only data the locality set-up (coll_locality.h) builds per process:
 * reference-counted int tables, and the groups of the region communicators.
 *
 * Plain MPI. By default every process holds its own: a table is freed with
 * its last reference, a group is made by MPI_Group_incl and freed by
 * MPI_Group_free once its communicator is made. A program whose processes
 * share one address space can install hooks that hand out one copy of
 * identical data (collsim's driver does under SMPI, where all simulated ranks
 * live in one OS process: sim/driver/share.h). Process-wide, not thread-safe
 * (as coll_locality.h). */
#ifndef COLLSIM_COLL_SHARE_H
#define COLLSIM_COLL_SHARE_H

#include <mpi.h>

/* A new table of n ints (contents undefined), one reference; NULL if out of
 * memory. */
int *coll_table_new(int n);

/* One more reference to t (NULL stays NULL). */
int *coll_table_retain(int *t);

/* The n of coll_table_new. */
int coll_table_size(const int *t);

/* Drops a reference; the last one frees t (the hooks' forget first). */
void coll_table_release(int *t);

/* t[0..n-1] is written and from now on read-only: returns t, or, with a
 * hook, an identical table (one more reference to it; t is released). */
int *coll_table_share(int *t, int n);

/* MPI_Group_incl(g, n, ranks, out), or with a hook a group of the same
 * processes the hook keeps. Its result is given back by coll_group_done(). */
int coll_group_incl(MPI_Group g, int n, const int *ranks, MPI_Group *out);

/* Done with a group of coll_group_incl (its communicator is made): freed,
 * unless a hook keeps it. Sets *g to MPI_GROUP_NULL. */
void coll_group_done(MPI_Group *g);

typedef struct coll_share_hooks {
    /* t (one reference, n entries, read-only) or an identical table with one
     * more reference, in which case the hook releases t */
    int *(*table_share)(int *t, int n);
    /* t's last reference is being dropped: forget it (t may be unknown) */
    void (*table_forget)(const int *t);
    /* a group of the processes ranks[0..n-1] of g, kept by the hook
     * (MPI_SUCCESS or an MPI error code) */
    int (*group_incl)(MPI_Group g, int n, const int *ranks, MPI_Group *out);
} coll_share_hooks;

/* Installs hooks (copied; NULL: none, every process holds its own). Call
 * before the first locality set-up, and not again while tables are held. */
void coll_share_set_hooks(const coll_share_hooks *hooks);

#endif
