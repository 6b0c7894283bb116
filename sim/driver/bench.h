/* The OSU-shaped benchmark of one collective on one communicator, and the
 * driver's own synchronisation. */
#ifndef COLLSIM_DRIVER_BENCH_H
#define COLLSIM_DRIVER_BENCH_H

#include <mpi.h>
#include <stdio.h>

#include "driver.h"

/* Dissemination barrier (Hensgen, Finkel, Manber 1988): ceil(log2 p) rounds. */
void driver_barrier(MPI_Comm comm);

/* Run every size on `comm`; append CSV rows (rank 0); return the number of
 * sizes whose validation failed. */
int bench_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
               unsigned char *recvbuf, FILE *csv);

#endif
