/* COLLSIM_<COLLECTIVE>=auto:FILE of libcollsim_pmpi: the algorithm of each
 * call from a decision table (`collsim tune`, docs/deploy.md) by the
 * communicator's size and the bytes of one rank's block. Lines of the table:
 *
 *   COLLECTIVE NP BYTES ALGORITHM   # comment
 *
 * ALGORITHM is one of the collective's algorithms or `library` (the MPI
 * library's collective); lines of other collectives are not read. A call on
 * p ranks with b bytes takes the rule of the largest NP <= p and, among that
 * NP's rules, of the largest BYTES <= b; without one, the library's. Every
 * process of a call has the same p and b, so all take the same choice. */
#ifndef COLLSIM_DECIDE_H
#define COLLSIM_DECIDE_H

#include <mpi.h>
#include <stddef.h>

#include "collsim.h"

/* Reads collective c's (named coll) rules from file: 0, or 1 with a
 * one-line message naming the file, line and value at fault. */
int collsim_decide_load(int c, const char *coll, const char *file, char *msg, size_t size);
/* Whether collective c has a table. */
int collsim_decide_active(int c);
/* Whether an algorithm of any table is locality-aware (regions to set up). */
int collsim_decide_regions(void);
/* The counters of world_size processes (at MPI_Init, once). */
int collsim_decide_init(int world_size);
/* The table's algorithm for a call of c on comm with `bytes` per block, or
 * NULL for the library's; counted per algorithm for the report. An
 * intercommunicator is not looked up: the first algorithm of the table is
 * returned (the caller hands such calls to the library, counted as such). */
const collsim_alg *collsim_decide(int c, MPI_Comm comm, long long bytes);
/* At MPI_Finalize, on every process: the choices summed over MPI_COMM_WORLD,
 * printed by its rank 0 as one line per collective with a table. */
void collsim_decide_report(int c, const char *coll);

#endif
