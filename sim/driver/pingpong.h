/* --coll pingpong: the point-to-point times behind the cost models. */
#ifndef COLLSIM_DRIVER_PINGPONG_H
#define COLLSIM_DRIVER_PINGPONG_H

#include <mpi.h>
#include <stdio.h>

#include "driver.h"

/* Every size between ranks 0 and 1 of `comm`; CSV rows from rank 0. Returns
 * the number of sizes whose echo differed (all of them if p < 2). */
int pingpong_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
                  unsigned char *recvbuf, FILE *csv);

#endif
