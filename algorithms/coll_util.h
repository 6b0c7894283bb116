/* Shared helpers for the collective algorithms (the role of Open MPI's coll/base
 * helpers). Plain MPI: nothing here knows about the simulator. */
#ifndef COLLSIM_COLL_UTIL_H
#define COLLSIM_COLL_UTIL_H

#include <mpi.h>

#include "coll_adapt.h"
#include <stddef.h>

#include "coll_blocks.h"

/* Byte size and extent of `count` elements of a basic contiguous datatype.
 * Returns MPI_ERR_TYPE for datatypes with holes (size != extent) or a non-zero
 * lower bound: the algorithms move whole blocks with memcpy/memmove and
 * contiguous sends, which is only valid for contiguous layouts. */
int coll_block_bytes(MPI_Datatype type, int count, size_t *bytes);

/* ---- local work ----
 * Every byte an algorithm moves inside its own memory (copies, rotations,
 * packing into a scratch buffer, metadata) goes through the helpers below, so
 * that it can be costed: under a real MPI they only move bytes; a host program
 * may install a cost hook, which every helper calls with the bytes it moved
 * and the number of copy calls a straightforward implementation makes for
 * them (the simulation driver turns that into simulated time on the calling
 * rank: sim/driver/cost.h). An algorithm never calls memcpy or memmove
 * itself (a test checks it). */
typedef void (*coll_local_cost_fn)(size_t bytes, size_t calls);
void coll_set_local_cost(coll_local_cost_fn fn); /* NULL: no hook (the default) */

/* Tell the hook about local work done without a helper below (e.g. a moved
 * block that the host program chose not to move, see coll_set_local_moves). */
void coll_local_charge(size_t bytes, size_t calls);

/* The arithmetic of a reduction (coll_reduce.h's coll_reduce_local): a
 * second hook, called with the bytes of the vector combined, one call each,
 * so that a host program can cost combining apart from copying (the
 * simulation driver charges it at the platform's reduction rate). NULL: no
 * hook (the default). */
typedef void (*coll_op_cost_fn)(size_t bytes);
void coll_set_op_cost(coll_op_cost_fn fn);
void coll_op_charge(size_t bytes);

/* One copy of `bytes` bytes (memmove semantics: the areas may overlap), one
 * call. Payload and metadata alike. */
void coll_copy(void *dst, const void *src, size_t bytes);

/* The same for payload that nothing reads before the call returns except
 * the caller: skipped on the host when local moves are off (folded buffers,
 * see coll_set_local_moves), costed all the same. */
void coll_copy_data(void *dst, const void *src, size_t bytes);

/* Payload blocks of `block_bytes` each between a run and a block buffer of
 * p blocks (coll_copy_data semantics): run block j is buffer block
 * (first + j * step) mod p, for j < count. Gather fills the run, scatter
 * empties it. Costed as count copies of one block, charged at once. */
void coll_gather_blocks(void *run, const void *buf, int first, int step, int count, int p,
                        size_t block_bytes);
void coll_scatter_blocks(void *buf, const void *run, int first, int step, int count, int p,
                         size_t block_bytes);

/* Copy a caller's send block into its slot of the receive buffer (or do nothing
 * for MPI_IN_PLACE). Local copies use coll_copy, never a message to self. */
int coll_copy_own_block(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvslot, size_t block_bytes);

/* Rotate `nblocks` blocks of `block_bytes` each in place so that block i moves
 * to position (i + shift) % nblocks. Uses the three-reversal method with a
 * small fixed stack buffer: no allocation proportional to the data, so it stays
 * cheap when buffers are folded at 32K ranks. Costed as the method with a
 * scratch buffer of the whole run would move it: both runs out (2 calls) and
 * back (1 call), 2 x nblocks x block_bytes bytes. */
void coll_rotate_blocks(void *buf, int nblocks, size_t block_bytes, int shift);

/* Reverse the order of blocks [lo, hi) in place (bytes inside a block keep
 * their order); same small stack buffer as coll_rotate_blocks. Costed as a
 * scratch-buffer reversal: each block out (one call each), the run back (one
 * call). */
void coll_reverse_blocks(void *buf, int lo, int hi, size_t block_bytes);

/* Block j takes block (r - j) mod nblocks, in place: the reflection that ends
 * the basic Bruck alltoall (block i came from rank r - i). Costed as one
 * scratch-buffer permutation: each block out, the run back. */
void coll_reflect_blocks(void *buf, int nblocks, size_t block_bytes, int r);

/* Local block moves (coll_rotate_blocks, coll_reverse_blocks,
 * coll_reflect_blocks) are on by default. A host program whose buffers hold no
 * meaningful data (the simulation driver's folded buffers) may turn them off:
 * O(p^2) bytes of host CPU per call at 32K ranks. The cost hook is called all
 * the same: the work is skipped on the host, not in the model. */
void coll_set_local_moves(int enabled);
int coll_local_moves(void); /* 1 unless turned off */

/* Scratch memory for algorithms that need it. Defaults to malloc/free; a host
 * program (the simulation driver in fold mode) may install its own allocator so
 * that scratch buffers are folded like the user buffers. */
typedef void *(*coll_alloc_fn)(size_t bytes);
typedef void (*coll_free_fn)(void *ptr);
void coll_set_scratch_allocator(coll_alloc_fn alloc_fn, coll_free_fn free_fn);
void *coll_scratch_alloc(size_t bytes);
void coll_scratch_free(void *ptr);

/* MPI_SUCCESS when comm is an intracommunicator; MPI_ERR_COMM for
 * MPI_COMM_NULL or an intercommunicator (MPI_Comm_test_inter), whose remote
 * group the algorithms' schedules do not address. Every begin function below
 * calls it first, before reading any per-rank array, so every algorithm
 * rejects an intercommunicator the same way. */
int coll_check_intracomm(MPI_Comm comm);

/* Small integer helpers. */
int coll_ceil_log2(int p);        /* smallest k with 2^k >= p, 0 for p <= 1 */
int coll_floor_pow2(int p);       /* largest power of two <= p, p >= 1 */
static inline int coll_mod(int a, int p) { int r = a % p; return r < 0 ? r + p : r; }

/* Tag of every point-to-point message of the allgather algorithms. */
#define COLL_TAG_ALLGATHER 25455
/* ... and of the alltoall algorithms. */
#define COLL_TAG_ALLTOALL 25456
/* ... and of the alltoallv algorithms' data and metadata messages. */
#define COLL_TAG_ALLTOALLV 25457
#define COLL_TAG_ALLTOALLV_META 25458
/* ... and of the gather and scatter algorithms (coll_rooted.h). */
#define COLL_TAG_GATHER 25459
#define COLL_TAG_SCATTER 25460

/* Address of block `index` in a buffer of `block_bytes`-sized blocks. */
static inline void *coll_block(void *buf, int index, size_t block_bytes)
{
    return (char *)buf + (size_t)index * block_bytes;
}

/* The same for a read-only buffer (a send buffer). */
static inline const void *coll_cblock(const void *buf, int index, size_t block_bytes)
{
    return (const char *)buf + (size_t)index * block_bytes;
}

/* Common entry of every allgather: rank and size of `comm`, block size from
 * (recvcount, recvtype), checks that the send signature matches and that
 * msg_blocks(size) * recvcount fits an int (MPI_ERR_COUNT otherwise:
 * msg_blocks is the algorithm's rule of algorithms.def, the most blocks one of
 * its counts, datatypes or int displacements spans), then copies the
 * caller's block to recvbuf[rank]. A datatype with holes is served here,
 * through self (the algorithm) on packed bytes (coll_adapt.h). *block_bytes
 * == 0 means nothing (more) to do. */
int coll_allgather_begin(collsim_block_coll_fn self, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, coll_msg_blocks_fn msg_blocks,
                         int *rank, int *size, size_t *block_bytes);

/* Common entry of every alltoall: rank and size of `comm`, block size from
 * (recvcount, recvtype), checks that the send block has as many bytes and that
 * msg_blocks(size) * recvcount fits an int (MPI_ERR_COUNT otherwise, as for
 * coll_allgather_begin). MPI_IN_PLACE and datatypes with holes are served
 * here, through self on packed bytes (coll_adapt.h). Copies nothing.
 * *block_bytes == 0 means nothing (more) to do. */
int coll_alltoall_begin(collsim_block_coll_fn self, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, coll_msg_blocks_fn msg_blocks,
                        int *rank, int *size, size_t *block_bytes);

/* The relative indices a Bruck step of distance d (a power of two) moves among
 * p blocks: every i in [d, p) with bit d set, ascending (Bruck et al. 1997;
 * Fan et al. 2022, Section 2.1). Declares int i in the loop body's scope. */
#define COLL_FOR_BRUCK_STEP(i, d, p)                                                               \
    for (int lo_##i = (d); lo_##i < (p); lo_##i += 2 * (d))                                       \
        for (int i = lo_##i; i < lo_##i + (d) && i < (p); i++)

/* ---- alltoallv ----
 * The caller's arguments of an MPI_Alltoallv with byte units resolved: block j
 * of the send buffer starts sdispls[j] * send_unit bytes into sendbuf and has
 * sendcounts[j] * send_unit bytes (units = the contiguous types' sizes). The
 * arrays are the caller's and are only ever read. */
typedef struct {
    const char *sendbuf;
    const int *sendcounts, *sdispls;
    char *recvbuf;
    const int *recvcounts, *rdispls;
    size_t send_unit, recv_unit;
    int rank, size;
    int done; /* nothing left to do: one process, or served by coll_adapt_v */
} coll_v_args;

/* Displacements may be negative (MPI allows any displacement whose addressed
 * memory is valid): signed byte offsets. */
static inline const char *coll_v_send_block(const coll_v_args *a, int j)
{
    return a->sendbuf + (ptrdiff_t)a->sdispls[j] * (ptrdiff_t)a->send_unit;
}
static inline size_t coll_v_send_bytes(const coll_v_args *a, int j)
{
    return (size_t)a->sendcounts[j] * a->send_unit;
}
static inline char *coll_v_recv_block(const coll_v_args *a, int j)
{
    return a->recvbuf + (ptrdiff_t)a->rdispls[j] * (ptrdiff_t)a->recv_unit;
}
static inline size_t coll_v_recv_bytes(const coll_v_args *a, int j)
{
    return (size_t)a->recvcounts[j] * a->recv_unit;
}

/* Common entry of every alltoallv: checks comm (an intracommunicator), fills
 * *a, checks the counts (>= 0; displacements may be any int, negative ones
 * included) and the own block's byte count, then copies the own block
 * (sendbuf block rank -> recvbuf block rank). MPI_IN_PLACE and datatypes with
 * holes are served here, through self on packed bytes (coll_adapt.h).
 * a->done: nothing (more) to do. */
int coll_alltoallv_begin(collsim_alltoallv_fn self, const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                         const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm comm, coll_v_args *a);

/* The largest block, in bytes, any rank sends to another rank (own blocks
 * excluded): an MPI_Allreduce of the local maxima (Fan et al. 2022, Section
 * 3.1 and Algorithm 1, line 1). MPI_ERR_COUNT when msg_blocks(size) * max
 * bytes exceeds INT_MAX (the same on every rank): the padded algorithms send
 * MPI_BYTE messages of up to that many N-byte blocks (algorithms.def). */
int coll_alltoallv_max_block(const coll_v_args *a, MPI_Comm comm, coll_msg_blocks_fn msg_blocks,
                             size_t *max_bytes);

/* One MPI_Sendrecv of whole contiguous blocks of `buf` (each `count` x `type`):
 * blocks [send_first, send_first + send_n) to `dest`, blocks
 * [recv_first, recv_first + recv_n) from `source`. */
int coll_sendrecv_blocks(void *buf, size_t block_bytes, int count, MPI_Datatype type,
                         int send_first, int send_n, int dest,
                         int recv_first, int recv_n, int source, MPI_Comm comm);

#endif
