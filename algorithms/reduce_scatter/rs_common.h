/* What the reduce-scatter algorithms (MPI_Reduce_scatter_block,
 * MPI_Reduce_scatter) share: the blocks' layout, the entry checks, the tag
 * and the schedules themselves, each written once for per-rank counts. A
 * reduce_scatter_block algorithm is its reduce_scatter one with equal
 * counts (a layout without a counts array). Plain MPI, as coll_reduce.h. */
#ifndef COLLSIM_RS_COMMON_H
#define COLLSIM_RS_COMMON_H

#include <mpi.h>
#include <stddef.h>

#include "../coll_reduce.h"

#define COLL_TAG_REDUCE_SCATTER 25464

/* The p blocks of the vector being reduced: block j (rank j's result) has
 * coll_rs_count(L, j) elements and starts at element coll_rs_start(L, j)
 * (j = p: the vector's length). */
typedef struct {
    int p, each;  /* each: every block's count when start is NULL */
    long *start;  /* p + 1 starts (per-rank counts), or NULL (equal counts) */
} coll_rs_layout;

static inline long coll_rs_start(const coll_rs_layout *L, int j)
{
    return L->start ? L->start[j] : (long)j * L->each;
}
static inline int coll_rs_count(const coll_rs_layout *L, int j)
{
    return (int)(coll_rs_start(L, j + 1) - coll_rs_start(L, j));
}

/* The arguments of every reduce-scatter schedule: counts NULL means every
 * block has `each` elements (reduce_scatter_block's recvcount); each =
 * COLL_RS_COUNTS: the counts array (MPI_Reduce_scatter's recvcounts, which
 * must not be NULL). */
#define COLL_RS_COUNTS (-1)
#define COLL_RS_ARGS                                                                               \
    const void *sendbuf, void *recvbuf, const int *counts, int each, MPI_Datatype datatype,       \
        MPI_Op op, MPI_Comm comm
#define COLL_RS_CALL sendbuf, recvbuf, counts, each, datatype, op, comm

/* Common entry: checks comm (an intracommunicator), the counts (none
 * negative, MPI_ERR_COUNT; the whole vector within an int, MPI_ERR_COUNT:
 * some schedules send it in one message), the datatype (no holes,
 * MPI_ERR_TYPE) and, when `commutative_only`, the operation (MPI_ERR_OP for
 * a non-commutative one), all before any message, alike on every process.
 * Builds the layout (coll_rs_end frees it). On one process, or an empty
 * vector, this process's block goes to recvbuf (nothing for MPI_IN_PLACE,
 * whose input is recvbuf) and *elem is 0: nothing more to do. */
int coll_rs_begin(COLL_RS_ARGS, int commutative_only, int *rank, int *p, size_t *elem,
                  coll_rs_layout *L);

/* Two scratch buffers of a and b bytes (an empty one may be NULL):
 * MPI_SUCCESS, or MPI_ERR_NO_MEM with neither kept. */
int coll_rs_scratch(size_t a, size_t b, void **x, void **y);

/* The common exit: unless err, this process's block of `vec` (the reduced
 * vector's layout) into recvbuf (nothing when vec is NULL); then s1, s2
 * and the layout freed. Returns err. */
int coll_rs_end(int err, int rank, void *recvbuf, const void *vec, size_t elem,
                coll_rs_layout *L, void *s1, void *s2);

/* The caller's input vector: recvbuf for MPI_IN_PLACE, else sendbuf. */
static inline const void *coll_rs_input(const void *sendbuf, const void *recvbuf)
{
    return sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
}

/* The schedules (one file each, beside their reduce_scatter entry point). */
int coll_rs_recursive_halving(COLL_RS_ARGS);
int coll_rs_pairwise(COLL_RS_ARGS);
int coll_rs_ring(COLL_RS_ARGS);
int coll_rs_reduce_scatterv(COLL_RS_ARGS);

#endif
