/* Helpers of the broadcast and reduction algorithms (bcast/, allreduce/):
 * their common entry checks and the one way an algorithm combines data.
 * Plain MPI, as coll_util.h. */
#ifndef COLLSIM_COLL_REDUCE_H
#define COLLSIM_COLL_REDUCE_H

#include <mpi.h>
#include <stddef.h>

#include "coll_util.h"

/* Tags of the broadcast and allreduce algorithms' messages. */
#define COLL_TAG_BCAST 25461
#define COLL_TAG_ALLREDUCE 25462

/* ---- local work: the reduction arithmetic ----
 * inout[i] = in[i] op inout[i] for count elements (MPI_Reduce_local: in is
 * the left operand, which matters for a non-commutative op). Every
 * combination an algorithm makes goes through it, so that it is costed
 * (coll_util.h's coll_op_charge with the bytes of inout, one call: the
 * simulation driver charges it at the platform's reduction rate,
 * docs/running.md, "The cost model"); an algorithm never calls
 * MPI_Reduce_local itself (a test checks it). With local moves off (folded
 * buffers, coll_set_local_moves) the arithmetic is skipped on the host and
 * costed all the same. */
int coll_reduce_local(const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op);

/* Element k..k+n of a buffer of `elem`-byte elements. */
static inline void *coll_elems(void *buf, long k, size_t elem)
{
    return (char *)buf + (size_t)k * elem;
}

/* Common entry of every broadcast: checks comm (an intracommunicator), the
 * count (>= 0, MPI_ERR_COUNT), the root (MPI_ERR_ROOT) and the datatype (no
 * holes, MPI_ERR_TYPE: the algorithms address elements as bytes), gives the
 * rank, the size and the bytes of one element; *elem == 0: nothing (more)
 * to do (count 0, or one process). */
int coll_bcast_begin(int count, MPI_Datatype type, int root, MPI_Comm comm, int *rank, int *size,
                     size_t *elem);

/* Common entry of every allreduce: the checks of coll_bcast_begin less the
 * root; MPI_ERR_OP for a non-commutative op when `commutative_only` (before
 * any message: every process returns it alike); then the caller's data into
 * recvbuf (nothing for MPI_IN_PLACE). *elem == 0: nothing more to do. */
int coll_allreduce_begin(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                         MPI_Op op, int commutative_only, MPI_Comm comm, int *rank, int *size,
                         size_t *elem);

/* The processes of a recursive-doubling or -halving schedule on any p
 * (Thakur, Rabenseifner, Gropp 2005, Section 4.5; Rabenseifner 2004): the
 * largest power of two pof2 <= p takes part; of the first 2 rem ranks (rem =
 * p - pof2) the even ones hand their data to the odd one above them first
 * and get the result back last. newrank is the rank in the schedule, -1 for
 * a rank that sits out; coll_fold_real maps a schedule rank back. */
typedef struct {
    int pof2, rem, newrank;
} coll_fold;
coll_fold coll_fold_of(int rank, int p);
static inline int coll_fold_real(const coll_fold *f, int newrank)
{
    return newrank < f->rem ? 2 * newrank + 1 : newrank + f->rem;
}
/* The fold's first step (the even rank below 2 rem sends its data to the
 * odd one above it, which combines: the lower rank's data on the left) and
 * its last (the result back). tmp: count elements of scratch. */
int coll_fold_in(const coll_fold *f, int rank, void *recvbuf, void *tmp, int count,
                 MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int coll_fold_out(const coll_fold *f, int rank, void *recvbuf, int count, MPI_Datatype type,
                  MPI_Comm comm);

/* The p segments of count elements, as even as they go: segment j has
 * count / p elements, one more for j < count % p, and starts at element
 * coll_seg_start(count, p, j) (j = p: count). */
static inline long coll_seg_start(int count, int p, int j)
{
    const int base = count / p, extra = count % p;
    return (long)j * base + (j < extra ? j : extra);
}
static inline int coll_seg_count(int count, int p, int j)
{
    return (int)(coll_seg_start(count, p, j + 1) - coll_seg_start(count, p, j));
}

/* The segments of van de Geijn's broadcasts (Thakur, Rabenseifner, Gropp
 * 2005, Section 4): the buffer cut into p segments of `chunk` =
 * ceil(count/p) elements (the last ones shorter or empty), segment j
 * belonging to relative rank j = (rank - root) mod p. coll_bcast_seg: the
 * element where segment j starts (j >= p: count). coll_bcast_scatter: the
 * binomial scatter that gives relative rank vr its segment: a process
 * receives its subtree's segments [vr, vr + its lowest bit) in place and
 * passes the upper halves on, largest first; empty ranges are not sent. */
static inline long coll_bcast_seg(long chunk, int count, long j)
{
    const long at = j * chunk;
    return at < count ? at : count;
}
int coll_bcast_scatter(void *buffer, int count, MPI_Datatype type, size_t elem, long chunk,
                       int root, int vr, int p, MPI_Comm comm);

/* Which process a schedule rank is: by default coll_fold_real's (the rank in
 * the communicator); a caller whose schedule ranks stand for other
 * processes (the hierarchical allreduce's region leaders) passes its own. */
typedef struct {
    int (*rank_of)(const void *ctx, const coll_fold *f, int newrank);
    const void *ctx;
} coll_rank_map;

/* The reduce-scatter by recursive vector halving and distance doubling of
 * Rabenseifner's schedules (Rabenseifner 2004; Thakur, Rabenseifner, Gropp
 * 2005, Section 4), on the fold's pof2 processes (newrank >= 0), over pof2
 * segments of buf as even as they go (coll_seg_start): in step k a process
 * keeps the half of its current segment range on its side of its partner
 * (2^k away; the lower rank keeps the lower half), sends the other half and
 * combines the half it receives (into tmp first, count elements of
 * scratch). Partners through map (NULL: coll_fold_real). On return [*lo,
 * *hi) is the one segment it holds reduced and *mask pof2 (the gathers that
 * follow retrace the steps from *mask / 2). */
int coll_halving_reduce_scatter(const coll_fold *f, const coll_rank_map *map, void *buf,
                                void *tmp, int count, MPI_Datatype type, size_t elem, MPI_Op op,
                                int tag, MPI_Comm comm, int *lo, int *hi, int *mask);

#endif
