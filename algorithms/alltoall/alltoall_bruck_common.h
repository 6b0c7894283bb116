/* What the packed uniform Bruck alltoalls share (Bruck et al. 1997; variants
 * as reviewed by Fan et al. 2022, Section 2.1): bruck_basic, bruck_modified
 * and bruck_zero_rotation differ only in the local rotation before the
 * exchange, the direction of the steps and the rotation after them;
 * bruck_zero_copy shares the entry only.
 *
 * A rank's p blocks are indexed by a relative index i; in step k (distance
 * d = 2^k < p) every block whose i has bit k set travels d ranks in one
 * message, so ceil(log2 p) messages of at most p/2 blocks each. */
#ifndef COLLSIM_ALLTOALL_BRUCK_COMMON_H
#define COLLSIM_ALLTOALL_BRUCK_COMMON_H

#include "../collsim_algorithms.h"

#include <stddef.h>

typedef struct {
    const void *sendbuf;
    void *recvbuf;
    size_t bb; /* bytes of a block */
    int rank, p, count;
    MPI_Datatype type;
    MPI_Comm comm;
} bruck_alltoall_args;

/* What a variant does once the arguments are checked, p > 1 and blocks are
 * not empty. */
typedef int (*bruck_alltoall_body)(const bruck_alltoall_args *a);

/* coll_alltoall_begin (with the variant's msg_blocks rule), the one-rank case
 * (a local copy), then body. */
int bruck_alltoall(collsim_block_coll_fn self, bruck_alltoall_body body, coll_msg_blocks_fn msg_blocks, COLLSIM_ALLTOALL_ARGS);

/* The ceil(log2 p) exchanges. The blocks of a step are packed into a scratch
 * buffer (memcpy, as the paper's non-datatype variants), exchanged with one
 * MPI_Sendrecv and unpacked into the same relative slots; scratch: 2 floor(p/2)
 * blocks through coll_scratch_alloc. Step d sends the slots (base + i) mod p,
 * i with bit d set, to rank + dir*d and refills them from rank - dir*d.
 * from_send: a slot not yet received (no bit of i below d set) is read from
 * S[(2 rank - t) mod p] instead of R (the zero-rotation schedule). */
int bruck_alltoall_exchange(const bruck_alltoall_args *a, int base, int dir, int from_send);

#endif
