/* Background traffic (--background alltoall:inter-LEVEL:SIZE:PROCS): a second
 * job in the same simulation, the last PROCS ranks of MPI_COMM_WORLD, on
 * nodes of their own (the host placed them: mapping.h, cs_map_background).
 * Kandalla et al. 2010, Section 5.1: "an MPI_Alltoall ... modified to
 * perform only the inter-switch exchanges", continuously in a loop.
 * alltoall-port moves the same bytes per round with one sender per node (its
 * first background rank, carrying its node's ranks' bytes) exchanging with
 * the other nodes' senders: a node's traffic as one flow per step, the share
 * an InfiniBand switch gives one input port whatever the flows behind it
 * (platforms/README.md, "Port-level sharing"); the node's other ranks only
 * take part in the agreement between rounds.
 *
 * The measured job runs on the other ranks, in a communicator of its own, so
 * nothing of the benchmark (its collective, regions, barriers, statistics)
 * involves a background rank. Protocol, on MPI_COMM_WORLD (no algorithm uses
 * it when a background runs):
 *   - background rank 0 tells measured rank 0 (START) once every background
 *     rank has completed a first round, so the measured job's first call,
 *     warm-up included, already runs under load;
 *   - measured rank 0 tells background rank 0 (STOP) after a barrier of the
 *     measured job that follows its last timed call;
 *   - between rounds the background ranks agree (a dissemination OR of
 *     "STOP seen", ceil(log2 PROCS) steps of one int), so they all leave
 *     after the same round: nobody waits for a peer that has gone, and
 *     every rank reaches MPI_Finalize with no request pending.
 * Background rank 0 notices STOP while it waits for its own exchanges
 * (MPI_Waitany over them and the pre-posted STOP receive), not by polling:
 * SMPI injects simulated time into every MPI_Test (smpi/test, 100 us by
 * default, growing on repeated failures), which would thin the load. */
#ifndef COLLSIM_DRIVER_BACKGROUND_H
#define COLLSIM_DRIVER_BACKGROUND_H

#include <mpi.h>

#include "driver.h"

typedef struct {
    int active;       /* a background runs */
    int is_background; /* this rank belongs to it */
    int nmeasured;    /* ranks 0 .. nmeasured-1 of MPI_COMM_WORLD measure */
    MPI_Comm comm;    /* this rank's part: the measured job's or the background's */
    int started;      /* measured rank 0: START received */
} bg_state;

/* Collective over MPI_COMM_WORLD: splits it (without --background the
 * measured part is MPI_COMM_WORLD itself). */
void bg_split(const driver_opts *o, bg_state *bg);

/* A background rank: the rounds, until stopped; rank 0 prints what ran. */
void bg_run(const driver_opts *o, bg_state *bg);

/* Measured rank 0 (others: no-op): returns once the background runs. */
void bg_wait_started(bg_state *bg);

/* Every measured rank, after its last call (also on an early exit, so that
 * the background never runs on alone): a barrier of the measured job, then
 * rank 0 stops the background. */
void bg_stop(bg_state *bg);

/* Frees the part communicator. */
void bg_free(bg_state *bg);

#endif
