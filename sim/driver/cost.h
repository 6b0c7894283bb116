/* The local-work and software-overhead model (the `full` model; `network`
 * charges the network alone). docs/running.md, "The cost model".
 *
 * Under `full`, the calls of an algorithm keep each rank's CPU busy for
 *   - every byte it moves in its own memory: the algorithms' copy helpers
 *     (coll_util.h) report bytes and calls, charged
 *       calls x copy-call + bytes / copy-bw(bytes per call);
 *   - every combination of a reduction (coll_reduce.h's coll_reduce_local,
 *     coll_util.h's op hook), charged copy-call + bytes / reduce-bw(bytes);
 *   - packing a non-contiguous datatype (MPI_Pack / MPI_Unpack, and a send
 *     or receive of a derived datatype, which SMPI packs into a contiguous
 *     buffer): each contiguous piece a copy call, the bytes at copy-bw; the
 *     sender packs before the message leaves, the receiver unpacks after;
 *   - each message's software overhead, LogGP's o (Culler et al. 1993; with
 *     a per-byte term as in LogGOPS): o_s(level, bytes) on the sender and
 *     o_r(level, bytes) on the receiver, level being the finest locality
 *     level whose region holds both ranks (account.h).
 * The platforms' link latencies are end-to-end MPI latencies, which already
 * hold o_s + o_r: a message leaves when it is posted and arrives after the
 * link latency; o_s occupies the sender's CPU from the post on, o_r the
 * receiver's CPU in the o_r before the message completes. The overheads
 * cost time only where the CPU is busy then: a rank posting many messages
 * at once (the next post waits for the CPU: LogGP's gap), a burst of
 * arrivals (each o_r after the previous one), local work before a send.
 * Each rank keeps the simulated time its CPU is busy until; the rank sleeps
 * until then when it next enters MPI or when the collective returns, so an
 * event is added per MPI call at most. Everything is computed from counts
 * (bytes, calls, messages): the same inputs give the same times, bit for bit.
 *
 * The parameters are properties of the platform's root zone
 * (platforms/README.md, "Local work and overheads"):
 *   collsim.local.copy-call   seconds per copy call
 *   collsim.local.copy-bw     bytes/s, piecewise by bytes per call:
 *                             "0:BW0;SIZE1:BW1;..." (SIZE: from this many bytes)
 *   collsim.local.reduce-bw   the same for a reduction's arithmetic (bytes of
 *                             the vector combined per second; one call costs
 *                             copy-call); absent: the copy rate
 *   collsim.overhead.send[.LEVEL], collsim.overhead.recv[.LEVEL]
 *                             "START:OFFSET:PERBYTE;..." (SMPI's smpi/os
 *                             format: from START bytes, OFFSET s + PERBYTE s/B);
 *                             LEVEL a declared level or "system"; the plain
 *                             key holds for the levels not named.
 * A platform without them runs `full` as `network` for what it lacks; the
 * driver says so on stderr once. SMPI's built-in collectives (native:) run
 * inside SimGrid, below this layer: their copies and messages are not
 * charged under either model. */
#ifndef COLLSIM_DRIVER_COST_H
#define COLLSIM_DRIVER_COST_H

#include <mpi.h>
#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The models (the `model` case field, core/case_fields.def): the network
 * alone; the full model; the full model with the reduction arithmetic
 * charged at the copy rate (collsim.local.reduce-bw ignored: the full model
 * as it was before the platforms gave a reduction rate). */
enum { COST_MODEL_NETWORK, COST_MODEL_FULL, COST_MODEL_FULL_ARITH_COPY };

/* A model's name to its enum value, or -1. */
static inline int cost_model_of(const char *name)
{
    return !strcmp(name, "network")           ? COST_MODEL_NETWORK
           : !strcmp(name, "full")            ? COST_MODEL_FULL
           : !strcmp(name, "full-arith-copy") ? COST_MODEL_FULL_ARITH_COPY
                                              : -1;
}

/* After coll_loc_file_init(); a model other than COST_MODEL_NETWORK installs
 * it (every rank calls it; the first call reads the platform). Returns 0, or
 * -1 with a message in err for a malformed property (naming it and its
 * value). */
int cost_init(int model, char *err, size_t errsize);

/* The calling rank's MPI_COMM_WORLD rank (under SMPI, kept per simulated
 * process: MPI_Comm_rank costs a group search at each call). */
int cost_world_rank(void);

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

/* SMPI's network factors per locality level (factors.cc; platforms/README.md,
 * "Lassen's regimes"). Root-zone properties, in SMPI's smpi/lat-factor
 * format "SIZE:FACTOR;..." (a factor applies to messages above SIZE bytes,
 * SMPI's 16-byte envelope included):
 *   collsim.factor.lat, collsim.factor.bw
 *       one factor per size regime for every path: the `network` model's
 *   collsim.factor.lat.LEVEL, collsim.factor.bw.LEVEL
 *       LEVEL a declared level or "system": under `full`, a message between
 *       two hosts takes the factors of the finest level whose region holds
 *       both (the plain key for a level not named).
 * With any of them, the platform's <config> must not set smpi/lat-factor or
 * smpi/bw-factor (SimGrid refuses a factor callback then), and both plain
 * keys are required. Every rank calls it before its first message, after
 * coll_loc_file_init: the first call installs SimGrid's factor callbacks, and
 * each registers its host's regions (its colours in the locality file). A platform without the keys: no
 * callback, SMPI's own factors. Returns 0, or -1 with a message in err. */
int cost_factors_init(int full, int wrank, char *err, size_t errsize);

/* SMPI-format piecewise tables: from[k] bytes up, a[k] + b[k] x bytes (or a[k]
 * alone: a bandwidth, a factor). */
#define COST_MAX_PIECES 16
typedef struct {
    int n;
    double from[COST_MAX_PIECES], a[COST_MAX_PIECES], b[COST_MAX_PIECES];
} cost_piecewise;

/* Parses text, platform property `key`: "F:A:B;..." when two is NULL, else
 * "F:A;..." (two: the form named in the error, e.g. "SIZE:FACTOR"). Sizes
 * increasing from 0, numbers non-negative (two-number values above 0).
 * Returns 0, or -1 with a message in err. */
int cost_parse_piecewise(const char *key, const char *text, const char *two, cost_piecewise *out,
                         char *err, size_t errsize);

/* The model's parameters at a size (the host's calibrate prints them the
 * same way; exposed for tests): a copy, and a reduction's arithmetic over a
 * vector of `bytes` (one call; at the copy rate when the platform gives no
 * collsim.local.reduce-bw or under COST_MODEL_FULL_ARITH_COPY). */
double cost_copy_seconds(size_t bytes, size_t calls);
double cost_op_seconds(size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
