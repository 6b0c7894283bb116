/* Per-level message accounting: how many messages, and how many payload bytes
 * (count x MPI_Type_size), each rank sends in one call of a collective,
 * classified by locality (locality.h). A message belongs to the finest level
 * whose region holds both its sender and its receiver; "system" holds the
 * others (they cross the coarsest declared region); "nonlocal" counts, on
 * top, every message that leaves the sender's node.
 *
 * It is a profiling layer at MPI's point-to-point calls: account.c defines
 * MPI_Send, MPI_Isend, MPI_Sendrecv, ... and forwards them to PMPI_*. It sees
 * what collsim's own algorithms send (they are compiled into the driver,
 * which is linked -Bsymbolic so that its calls bind to these definitions);
 * SMPI's built-in collectives run inside SimGrid and are never seen, so the
 * driver reports them as not measured. A counted call that uses a persistent
 * send or one of SMPI's collectives (whose messages would be missed) is
 * marked incomplete, and reported as not measured too. Counting is off
 * unless this rank is between acct_begin() and acct_end(). */
#ifndef COLLSIM_DRIVER_ACCOUNT_H
#define COLLSIM_DRIVER_ACCOUNT_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "coll_locality_file.h"

/* levels + "system" + "nonlocal" */
#define ACCT_SLOTS (COLL_LOC_FILE_MAX_LEVELS + 2)

typedef struct {
    long long msgs[ACCT_SLOTS], bytes[ACCT_SLOTS];
    int incomplete; /* a persistent send or a built-in collective was called */
} acct_counts;

/* After coll_loc_file_init() on every rank. */
void acct_init(void);
/* This rank: start counting from zero / stop. */
void acct_begin(void);
void acct_end(void);
/* This rank's counts since acct_begin(). Slots: 0..nlevels-1 the levels,
 * nlevels "system", nlevels + 1 "nonlocal". */
void acct_get(acct_counts *out);
/* The name of slot s ("system", "nonlocal" after the levels). */
const char *acct_slot_name(int s);
int acct_nslots(void);

/* Over the ranks of a communicator, per slot: the largest count of any rank
 * (messages and bytes separately) and the sum. */
typedef struct {
    int measured; /* 0: not measured (a built-in, or an incomplete count) */
    int incomplete;
    int nslots;
    long long max_msgs[ACCT_SLOTS], max_bytes[ACCT_SLOTS];
    long long total_msgs[ACCT_SLOTS], total_bytes[ACCT_SLOTS];
} acct_summary;

/* Called by every rank of comm after the driver's statistics reduction, with
 * whether the call was counted (the same on every rank); rank 0 gets the
 * summary of the ranks' counts, read from memory (no simulated message, so
 * predicted times do not move). */
void acct_reduce(MPI_Comm comm, int counted, acct_summary *out);

/* "LEVEL:max_msgs:max_bytes:total_msgs:total_bytes" for every level and
 * "system", finest first, joined by ';' (results.h's account column); "" when
 * not measured. */
void acct_format(const acct_summary *s, char *buf, size_t len);

/* One line per slot: "# account LEVEL max_msgs N max_bytes B total_msgs N
 * total_bytes B" (or "# account not measured: WHY"). */
void acct_print(FILE *f, const acct_summary *s, const char *why_not);

#endif
