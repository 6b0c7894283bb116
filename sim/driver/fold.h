/* Fold mode's memory: user buffers and algorithm scratch that every rank
 * shares (SMPI shared allocations), for runs whose real buffers would not fit. */
#ifndef COLLSIM_DRIVER_FOLD_H
#define COLLSIM_DRIVER_FOLD_H

#include <stddef.h>

#include "driver.h"

/* This rank's send buffer (sendbytes), followed by its receive buffer
 * (recvbytes): the same bytes for every rank. Also installs the shared
 * scratch allocator and turns the algorithms' local moves off. For alltoallv,
 * the shared displacements are built for wsize ranks and blocks of up to
 * maxbytes. */
unsigned char *fold_buffers(const driver_opts *o, int wsize, long maxbytes, size_t sendbytes,
                            size_t recvbytes);
/* This rank is done with them; the last one frees them and the scratch. */
void fold_buffers_release(void);
/* The displacements every rank uses for alltoallv in fold mode (v_fold_displs). */
int *fold_v_displs(void);

#endif
