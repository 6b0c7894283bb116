/* What the Sparbit allgathers share (Loch and Koslovski, Sparbit paper
 * Section III-B, Algorithm 1): the entry checks and the schedule, which
 * sparbit, sparbit_indexed and sparbit_packed run with different messages.
 *
 * Every rank roots a binomial tree for its own block; distances halve from
 * 2^(ceil(log2 p)-1) down to 1 while the data doubles, so the large late
 * steps stay between near ranks. Invariant: at the step with distance d a
 * rank holds the blocks (rank - 2jd) mod p for j < data, each in its final
 * slot. It forwards the first data - ignore of them to rank+d and receives
 * blocks (rank - (2j+1)d) mod p from rank-d straight into their slots, so no
 * rotation is needed. On steps flagged in ignore_steps (built from the bits
 * of p, paper Fig. 4) the last block held came from a tree in which this
 * rank is a leaf and is not sent. */
#ifndef COLLSIM_ALLGATHER_SPARBIT_COMMON_H
#define COLLSIM_ALLGATHER_SPARBIT_COMMON_H

#include "../collsim_algorithms.h"

#include <stddef.h>

/* The blocks a step moves: the first `n` held blocks, walked from `rank` by
 * -2d, each sent to rank+d while block (held - d) arrives from rank-d. */
typedef struct {
    int d, n;
} sparbit_step;

typedef struct {
    int rank, p;
    size_t bb; /* bytes of a block */
    int nsteps;
    sparbit_step steps[32];
} sparbit_plan;

/* What a variant does with the schedule once the arguments are checked (the
 * own block copied), p > 1 and blocks are not empty. */
typedef int (*sparbit_body)(const sparbit_plan *plan, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm);

/* coll_allgather_begin (with the variant's msg_blocks rule), the schedule,
 * then body. */
int sparbit_allgather(collsim_block_coll_fn self, sparbit_body body, coll_msg_blocks_fn msg_blocks, COLLSIM_ALLGATHER_ARGS);

#endif
