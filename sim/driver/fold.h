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
/* The counts of a named layout (o->vdist.matrix, distributions.h) for p
 * ranks and blocks of up to max_count elements, shared by every rank.
 * Toeplitz: 2 (2p - 1) ints, the diagonals k = 1-p..p-1 in order, then in
 * reverse order; rank r's send counts are the p ints at p - 1 - r, its
 * receive counts the p ints at 3p - 2 - r. Hankel: the 2p - 1 anti-diagonals
 * s = 0..2p-2; rank r's send and receive counts are both the p ints at r. */
int *fold_v_layout_counts(const driver_opts *o, int p, long max_count);

#endif
