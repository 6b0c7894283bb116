/* What padded_bruck and padded_alltoall share (Fan et al. 2022, Section 3.1):
 * a non-uniform exchange made uniform.
 *  (a) the largest block N over all ranks is agreed with one MPI_Allreduce of
 *      the local maxima; every block is copied into an N-byte slot of a
 *      p x N buffer (the bytes after the block are padding);
 *  (b) a uniform alltoall of N-byte blocks, the one thing the two differ in;
 *  (c) the scan: each received slot's first recvcounts[i] elements go to
 *      rdispls[i].
 * The own block is a local copy and its slot is neither filled nor read; N
 * is the largest block sent to another rank (own blocks excluded, they never
 * travel). Scratch: 2 p N bytes through coll_scratch_alloc. MPI_IN_PLACE:
 * MPI_ERR_ARG. A block announced larger than any rank's largest cannot match
 * its sender's: MPI_ERR_COUNT after the exchange. */
#ifndef COLLSIM_ALLTOALLV_PADDED_COMMON_H
#define COLLSIM_ALLTOALLV_PADDED_COMMON_H

#include "../collsim_algorithms.h"

typedef int (*padded_uniform_fn)(COLLSIM_ALLTOALL_ARGS);

/* msg_blocks: the algorithm's rule of algorithms.def (coll_alltoallv_max_block) */
int padded_alltoallv(collsim_alltoallv_fn self, padded_uniform_fn exchange, coll_msg_blocks_fn msg_blocks,
                     COLLSIM_ALLTOALLV_ARGS);

#endif
