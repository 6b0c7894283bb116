/* The local-work and software-overhead model (the `full` model; `network`
 * charges the network alone).
 *
 * Under `full`, the timed calls of an algorithm pay simulated time on the
 * calling rank for
 *   - every byte it moves in its own memory: the algorithms' copy helpers
 *     (coll_util.h) report bytes and calls, charged
 *       calls x copy-call + bytes / copy-bw(bytes per call);
 *   - packing a non-contiguous datatype (MPI_Pack / MPI_Unpack, and a send
 *     or receive of a derived datatype, which SMPI packs into a contiguous
 *     buffer): each contiguous piece a copy call, the bytes at copy-bw;
 *   - each message's software overhead: o_s(level, bytes) before the send is
 *     posted, o_r(level, bytes) after the receive completes (LogGP's o,
 *     Culler et al.; with a per-byte term, LogGOPS's O), where level is the
 *     finest locality level whose region holds both ranks (account.h).
 * Charges accumulate per rank and are paid as one simulated sleep when the
 * rank next enters MPI or when the call returns, so a step's local work
 * delays the rank exactly as it would on the machine, and an event is added
 * per MPI call at most. Everything is computed from counts (bytes, calls,
 * messages): the same inputs give the same times, bit for bit.
 *
 * The parameters are properties of the platform's root zone
 * (platforms/README.md, "Local work and overheads"):
 *   collsim.local.copy-call   seconds per copy call
 *   collsim.local.copy-bw     bytes/s, piecewise by bytes per call:
 *                             "0:BW0;SIZE1:BW1;..." (SIZE: from this many bytes)
 *   collsim.overhead.send[.LEVEL], collsim.overhead.recv[.LEVEL]
 *                             "START:OFFSET:PERBYTE;..." (SMPI's smpi/os
 *                             format: from START bytes, OFFSET s + PERBYTE s/B);
 *                             LEVEL a declared level or "system"; the plain
 *                             key holds for the levels not named.
 * A platform without them runs `full` as `network` for what it lacks; the
 * driver says so on stderr once. SMPI's built-in collectives (native:) run
 * inside SimGrid: their messages and copies are not seen here, so under
 * `full` they are charged SMPI's own smpi/os, smpi/or, smpi/ois (set by the
 * host from the same properties, system level; eager messages only, as SMPI
 * 3.32 charges them). */
#ifndef COLLSIM_DRIVER_COST_H
#define COLLSIM_DRIVER_COST_H

#include <mpi.h>
#include <stddef.h>

/* After coll_loc_file_init(); `full` non-zero installs the model (every rank
 * calls it; the first call reads the platform). Returns 0, or -1 with a
 * message in err for a malformed property (naming it and its value). */
int cost_init(int full, char *err, size_t errsize);

/* This rank: charge its algorithm's work from now / stop and pay what is
 * pending (so that the caller's next MPI_Wtime sees it). */
void cost_begin(void);
void cost_end(void);

/* Seconds charged to this rank since cost_begin (for the tests' hooks). */
double cost_charged(void);

/* The profiling layer's hooks (account.c and cost.c's own wrappers). */
void cost_before_send(int dst, int count, MPI_Datatype type, MPI_Comm comm);
void cost_pay(void);   /* before any other MPI call: wait for the CPU */
void cost_after_recv(int src, int count, MPI_Datatype type, MPI_Comm comm); /* completed now */
void cost_add(double seconds); /* CPU work from now */

/* The model's parameters at a size (the host's calibrate prints them the
 * same way; exposed for tests). */
double cost_copy_seconds(size_t bytes, size_t calls);

#endif
