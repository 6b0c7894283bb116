/* What the reduce algorithms (MPI_Reduce) share: their entry checks and tag.
 * Plain MPI, as coll_reduce.h. */
#ifndef COLLSIM_REDUCE_COMMON_H
#define COLLSIM_REDUCE_COMMON_H

#include <mpi.h>
#include <stddef.h>

#include "../coll_reduce.h"

#define COLL_TAG_REDUCE 25463

/* Common entry of every reduce: the checks of coll_bcast_begin (an
 * intracommunicator, count >= 0, the root, a datatype without holes), then
 * MPI_ERR_OP for a non-commutative op when `commutative_only` (before any
 * message: every process returns it alike). On one process the data goes to
 * recvbuf (nothing for MPI_IN_PLACE). *elem == 0: nothing more to do. */
int reduce_begin(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 int root, int commutative_only, MPI_Comm comm, int *rank, int *size,
                 size_t *elem);

#endif
