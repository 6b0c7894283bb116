/* Shared helpers for the collective algorithms (see coll_util.h). */
#include "coll_util.h"

#include <limits.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

int coll_block_bytes(MPI_Datatype type, int count, size_t *bytes)
{
    int size, err;
    MPI_Aint lb, extent;

    if (count < 0)
        return MPI_ERR_COUNT;
    if ((err = MPI_Type_size(type, &size)) != MPI_SUCCESS)
        return err;
    if ((err = MPI_Type_get_extent(type, &lb, &extent)) != MPI_SUCCESS)
        return err;
    /* Blocks are moved as raw bytes: only gap-free layouts qualify. */
    if (lb != 0 || (MPI_Aint)size != extent)
        return MPI_ERR_TYPE;
    *bytes = (size_t)size * (size_t)count;
    return MPI_SUCCESS;
}

/* Set once by the host program before any rank runs; read-only afterwards. */
static coll_local_cost_fn local_cost;
static int local_moves = 1;

void coll_set_local_cost(coll_local_cost_fn fn) { local_cost = fn; }

void coll_local_charge(size_t bytes, size_t calls)
{
    if (local_cost && (bytes || calls))
        local_cost(bytes, calls);
}

static coll_op_cost_fn op_cost;

void coll_set_op_cost(coll_op_cost_fn fn) { op_cost = fn; }

void coll_op_charge(size_t bytes)
{
    if (op_cost && bytes)
        op_cost(bytes);
}

void coll_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return;
    if (dst != src)
        memmove(dst, src, bytes);
    coll_local_charge(bytes, 1);
}

void coll_copy_data(void *dst, const void *src, size_t bytes)
{
    if (local_moves)
        coll_copy(dst, src, bytes);
    else
        coll_local_charge(bytes, bytes ? 1 : 0);
}

static void move_blocks(unsigned char *buf, unsigned char *run, int first, int step, int count,
                        int p, size_t bb, int gather)
{
    if (count <= 0 || bb == 0)
        return;
    if (local_moves) {
        long b = coll_mod(first, p);
        const long st = coll_mod(step, p);
        for (int j = 0; j < count; j++) {
            unsigned char *blk = buf + (size_t)b * bb, *slot = run + (size_t)j * bb;
            if (gather)
                memmove(slot, blk, bb);
            else
                memmove(blk, slot, bb);
            b += st;
            if (b >= p)
                b -= p;
        }
    }
    coll_local_charge((size_t)count * bb, (size_t)count);
}

void coll_gather_blocks(void *run, const void *buf, int first, int step, int count, int p,
                        size_t block_bytes)
{
    move_blocks((unsigned char *)(uintptr_t)buf, run, first, step, count, p, block_bytes, 1);
}

void coll_scatter_blocks(void *buf, const void *run, int first, int step, int count, int p,
                         size_t block_bytes)
{
    move_blocks(buf, (unsigned char *)(uintptr_t)run, first, step, count, p, block_bytes, 0);
}

int coll_copy_own_block(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvslot, size_t block_bytes)
{
    size_t send_bytes;
    int err;

    if (sendbuf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    if ((err = coll_block_bytes(sendtype, sendcount, &send_bytes)) != MPI_SUCCESS)
        return err;
    /* Type signatures must match; only the byte count can be checked here. */
    if (send_bytes != block_bytes)
        return send_bytes > block_bytes ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
    coll_copy(recvslot, sendbuf, block_bytes); /* costed even where folded buffers coincide */
    return MPI_SUCCESS;
}

/* Exchange two non-overlapping blocks through a small stack buffer. */
static void swap_blocks(char *a, char *b, size_t bytes)
{
    unsigned char tmp[1024];

    while (bytes > 0) {
        size_t n = bytes < sizeof tmp ? bytes : sizeof tmp;
        memcpy(tmp, a, n);
        memcpy(a, b, n);
        memcpy(b, tmp, n);
        a += n;
        b += n;
        bytes -= n;
    }
}

void coll_set_local_moves(int enabled) { local_moves = enabled; }

int coll_local_moves(void) { return local_moves; }

/* The moves themselves, uncharged (the public functions charge once). */
static void reverse_moves(void *buf, int lo, int hi, size_t block_bytes)
{
    if (!local_moves)
        return;
    char *b = buf;

    for (hi--; lo < hi; lo++, hi--)
        swap_blocks(b + (size_t)lo * block_bytes, b + (size_t)hi * block_bytes, block_bytes);
}

/* Rotating right by s = reverse all, then reverse the first s and the rest. */
static void rotate_moves(void *buf, int nblocks, size_t block_bytes, int shift)
{
    reverse_moves(buf, 0, nblocks, block_bytes);
    reverse_moves(buf, 0, shift, block_bytes);
    reverse_moves(buf, shift, nblocks, block_bytes);
}

void coll_reverse_blocks(void *buf, int lo, int hi, size_t block_bytes)
{
    if (hi - lo <= 1 || block_bytes == 0)
        return;
    reverse_moves(buf, lo, hi, block_bytes);
    coll_local_charge(2 * (size_t)(hi - lo) * block_bytes, (size_t)(hi - lo) + 1);
}

void coll_rotate_blocks(void *buf, int nblocks, size_t block_bytes, int shift)
{
    if (nblocks <= 1 || block_bytes == 0)
        return;
    shift = coll_mod(shift, nblocks);
    if (shift == 0)
        return;
    rotate_moves(buf, nblocks, block_bytes, shift);
    coll_local_charge(2 * (size_t)nblocks * block_bytes, 3);
}

void coll_reflect_blocks(void *buf, int nblocks, size_t block_bytes, int r)
{
    if (nblocks <= 1 || block_bytes == 0)
        return;
    /* j <- (r - j) mod n: reverse (j <- n-1-j), then rotate right by r + 1 */
    reverse_moves(buf, 0, nblocks, block_bytes);
    const int shift = coll_mod(r + 1, nblocks);
    if (shift)
        rotate_moves(buf, nblocks, block_bytes, shift);
    coll_local_charge(2 * (size_t)nblocks * block_bytes, (size_t)nblocks + 1);
}

/* Set once by the host program before any rank runs; read-only afterwards. */
static coll_alloc_fn scratch_alloc = malloc;
static coll_free_fn scratch_free = free;

void coll_set_scratch_allocator(coll_alloc_fn alloc_fn, coll_free_fn free_fn)
{
    scratch_alloc = alloc_fn ? alloc_fn : malloc;
    scratch_free = free_fn ? free_fn : free;
}

void *coll_scratch_alloc(size_t bytes)
{
    return scratch_alloc(bytes);
}

void coll_scratch_free(void *ptr)
{
    if (ptr)
        scratch_free(ptr);
}

int coll_check_intracomm(MPI_Comm comm)
{
    int inter = 0, err;

    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    if ((err = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS)
        return err;
    return inter ? MPI_ERR_COMM : MPI_SUCCESS;
}

int coll_ceil_log2(int p)
{
    int k = 0;

    while (k < 31 && (1 << k) < p)
        k++;
    return k;
}

int coll_floor_pow2(int p)
{
    int v = 1;

    while (v <= p / 2)
        v <<= 1;
    return v;
}

int coll_allgather_begin(collsim_block_coll_fn self, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, coll_msg_blocks_fn msg_blocks,
                         int *rank, int *size, size_t *block_bytes)
{
    int err;

    *block_bytes = 0;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    if (coll_adapt_block(self, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                         comm, &err))
        return err;
    if ((err = MPI_Comm_rank(comm, rank)) != MPI_SUCCESS ||
        (err = MPI_Comm_size(comm, size)) != MPI_SUCCESS ||
        (err = coll_block_bytes(recvtype, recvcount, block_bytes)) != MPI_SUCCESS)
        return err;
    if (*block_bytes == 0)
        return MPI_SUCCESS;
    /* Counts, datatypes and int displacements span up to msg_blocks(size)
     * blocks (the algorithm's rule, algorithms.def): check once here rather
     * than risk a silently wrapped int count in some step. */
    if (msg_blocks(*size) * recvcount > INT_MAX) {
        *block_bytes = 0;
        return MPI_ERR_COUNT;
    }
    err = coll_copy_own_block(sendbuf, sendcount, sendtype,
                              coll_block(recvbuf, *rank, *block_bytes), *block_bytes);
    if (err != MPI_SUCCESS)
        *block_bytes = 0;
    return err;
}

int coll_alltoall_begin(collsim_block_coll_fn self, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, coll_msg_blocks_fn msg_blocks,
                        int *rank, int *size, size_t *block_bytes)
{
    size_t send_bytes;
    int err;

    *block_bytes = 0;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    if (recvbuf == MPI_IN_PLACE) /* only the send buffer may be */
        return MPI_ERR_ARG;
    if (coll_adapt_block(self, 1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                         comm, &err))
        return err;
    if ((err = MPI_Comm_rank(comm, rank)) != MPI_SUCCESS ||
        (err = MPI_Comm_size(comm, size)) != MPI_SUCCESS ||
        (err = coll_block_bytes(sendtype, sendcount, &send_bytes)) != MPI_SUCCESS ||
        (err = coll_block_bytes(recvtype, recvcount, block_bytes)) != MPI_SUCCESS)
        return err;
    /* Type signatures must match; only the byte count can be checked here. */
    if (send_bytes != *block_bytes) {
        err = send_bytes > *block_bytes ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
        *block_bytes = 0;
        return err;
    }
    /* Messages carry up to msg_blocks(size) blocks (the Bruck steps:
     * floor(size/2)). */
    if (msg_blocks(*size) * recvcount > INT_MAX) {
        *block_bytes = 0;
        return MPI_ERR_COUNT;
    }
    return MPI_SUCCESS;
}

int coll_sendrecv_blocks(void *buf, size_t block_bytes, int count, MPI_Datatype type,
                         int send_first, int send_n, int dest,
                         int recv_first, int recv_n, int source, MPI_Comm comm)
{
    return MPI_Sendrecv(coll_block(buf, send_first, block_bytes), send_n * count, type,
                        dest, COLL_TAG_ALLGATHER,
                        coll_block(buf, recv_first, block_bytes), recv_n * count, type,
                        source, COLL_TAG_ALLGATHER, comm, MPI_STATUS_IGNORE);
}

int coll_alltoallv_begin(collsim_alltoallv_fn self, const void *sendbuf, const int *sendcounts,
                         const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                         const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                         MPI_Comm comm, coll_v_args *a)
{
    int err;

    memset(a, 0, sizeof *a);
    /* first: on an intercommunicator the size is the local group's, and the
     * arrays hold the remote group's entries */
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    if (recvbuf == MPI_IN_PLACE) /* only the send buffer may be */
        return MPI_ERR_ARG;
    a->done = 1;
    if (coll_adapt_v(self, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                     recvtype, comm, &err))
        return err;
    if ((err = MPI_Comm_rank(comm, &a->rank)) != MPI_SUCCESS ||
        (err = MPI_Comm_size(comm, &a->size)) != MPI_SUCCESS ||
        (err = coll_block_bytes(sendtype, 1, &a->send_unit)) != MPI_SUCCESS ||
        (err = coll_block_bytes(recvtype, 1, &a->recv_unit)) != MPI_SUCCESS)
        return err;
    /* any displacement is valid if the memory it addresses is */
    for (int j = 0; j < a->size; j++)
        if (sendcounts[j] < 0 || recvcounts[j] < 0)
            return MPI_ERR_COUNT;
    a->sendbuf = sendbuf;
    a->sendcounts = sendcounts;
    a->sdispls = sdispls;
    a->recvbuf = recvbuf;
    a->recvcounts = recvcounts;
    a->rdispls = rdispls;
    /* Type signatures must match; only the byte count can be checked here. */
    const size_t own = coll_v_send_bytes(a, a->rank), room = coll_v_recv_bytes(a, a->rank);
    if (own != room)
        return own > room ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
    if (own > 0)
        coll_copy(coll_v_recv_block(a, a->rank), coll_v_send_block(a, a->rank), own);
    a->done = a->size == 1;
    return MPI_SUCCESS;
}

int coll_alltoallv_max_block(const coll_v_args *a, MPI_Comm comm, coll_msg_blocks_fn msg_blocks,
                             size_t *max_bytes)
{
    long local = 0, global = 0;

    *max_bytes = 0;
    for (int j = 0; j < a->size; j++)
        if (j != a->rank && (long)coll_v_send_bytes(a, j) > local)
            local = (long)coll_v_send_bytes(a, j);
    const int err = MPI_Allreduce(&local, &global, 1, MPI_LONG, MPI_MAX, comm);
    if (err != MPI_SUCCESS)
        return err;
    /* MPI_BYTE messages of up to msg_blocks(size) blocks of this size (the
     * buffers are addressed with size_t) */
    if (msg_blocks(a->size) * global > INT_MAX)
        return MPI_ERR_COUNT;
    *max_bytes = (size_t)global;
    return MPI_SUCCESS;
}
