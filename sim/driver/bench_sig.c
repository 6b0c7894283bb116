/* The signature kinds' hooks (bench_sig.h). */
#include "bench_sig.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fold.h"
#include "pingpong.h"

/* ---- block: MPI_Allgather's and MPI_Alltoall's arguments ---- */

static void block_fill(const bench_ctx *b, long bytes)
{
    fill_send(b->o->desc, b->sendbuf, b->rank, b->p, bytes);
}

/* MPI_IN_PLACE: the blocks to send in the receive buffer (one per rank), or
 * this rank's own block already in its slot */
static void in_place_copy(const bench_ctx *b, long bytes)
{
    if (b->o->desc->props->send_blocks_per_rank)
        memcpy(b->recvbuf, b->sendbuf, (size_t)b->p * (size_t)bytes);
    else
        memcpy(b->recvbuf + (size_t)b->rank * (size_t)bytes, b->sendbuf, (size_t)bytes);
}

static void block_poison(const bench_ctx *b, long bytes, int in_place)
{
    if (!b->o->fold)
        poison_recv(b->o->desc, b->recvbuf, b->rank, b->p, bytes);
    if (in_place)
        in_place_copy(b, bytes);
}

static int block_call(const bench_ctx *b, int count, int in_place)
{
    const driver_opts *o = b->o;
    return o->fn.block(in_place ? MPI_IN_PLACE : b->sendbuf, count, o->mpi_dtype, b->recvbuf,
                       count, o->mpi_dtype, b->comm);
}

/* blocks of `bytes`, slot j from rank j */
static void block_fault(const bench_ctx *b, long bytes)
{
    const driver_opts *o = b->o;
    if (b->rank == o->fault_rank && o->fault_block < b->p && o->fault_offset >= 0 &&
        o->fault_offset < bytes)
        b->recvbuf[o->fault_block * bytes + o->fault_offset] ^= 0x5a;
}

static check_result block_verify(const bench_ctx *b, long bytes, int in_place)
{
    (void)in_place;
    return verify(b->o->desc, b->recvbuf, b->sendbuf, b->rank, b->p, bytes);
}

/* every rank has p-1 blocks of `bytes` for others */
static long long block_data_bytes(const bench_ctx *b, long bytes, int count)
{
    (void)count;
    return (long long)b->p * (b->p - 1) * bytes;
}

const drv_sig drv_sig_block = {
    .run = bench_comm, .fill = block_fill, .poison = block_poison, .call = block_call,
    .fault = block_fault, .verify = block_verify, .data_bytes = block_data_bytes};

/* ---- rooted: the block arguments and the root ---- */

static void rooted_info(const driver_opts *o, char *out, size_t len)
{
    snprintf(out, len, " root=%d", o->root);
}

static void rooted_legend(const driver_opts *o)
{
    (void)o;
    printf("# latency: one call per process; avg/min/max over processes of their means "
           "(Avg: Kandalla et al.'s metric), then the slowest process per call and the "
           "root, averaged over the calls\n");
}

/* MPI_IN_PLACE at the root: a gather's own block already in its slot (a
 * scatter's root keeps its block where the send buffer has it) */
static void rooted_poison(const bench_ctx *b, long bytes, int in_place)
{
    if (!b->o->fold)
        poison_recv_rooted(b->o->desc, b->recvbuf, b->rank, b->o->root, b->p, bytes);
    if (in_place && b->o->desc->props->rooted == CS_ROOT_to)
        memcpy(b->recvbuf + (size_t)b->rank * (size_t)bytes, b->sendbuf, (size_t)bytes);
}

/* MPI_IN_PLACE: a gather root's send buffer, a scatter root's receive buffer */
static int rooted_call(const bench_ctx *b, int count, int in_place)
{
    const driver_opts *o = b->o;
    const int to = o->desc->props->rooted == CS_ROOT_to;
    return o->fn.rooted(in_place && to ? MPI_IN_PLACE : b->sendbuf, count, o->mpi_dtype,
                        in_place && !to ? MPI_IN_PLACE : b->recvbuf, count, o->mpi_dtype, o->root,
                        b->comm);
}

static check_result rooted_verify(const bench_ctx *b, long bytes, int in_place)
{
    return verify_rooted(b->o->desc, b->recvbuf, b->sendbuf, b->rank, b->o->root, b->p, bytes,
                         in_place);
}

/* p-1 blocks to or from the root */
static long long rooted_data_bytes(const bench_ctx *b, long bytes, int count)
{
    (void)count;
    return (long long)(b->p - 1) * bytes;
}

const drv_sig drv_sig_rooted = {
    .run = bench_comm, .info = rooted_info, .legend = rooted_legend, .fill = block_fill,
    .poison = rooted_poison, .call = rooted_call, .fault = block_fault, .verify = rooted_verify,
    .data_bytes = rooted_data_bytes};

/* ---- onebuf: MPI_Bcast's one buffer and the root ---- */

/* the root's buffer holds its block (its send buffer's), the others' the
 * complement of it */
static void onebuf_poison(const bench_ctx *b, long bytes, int in_place)
{
    (void)in_place; /* refused (collectives.def) */
    const long id = b->o->desc->block_id(b->o->root, b->rank, b->p);
    if (b->rank == b->o->root)
        memcpy(b->recvbuf, b->sendbuf, (size_t)bytes);
    else if (!b->o->fold)
        memcpy(b->recvbuf, antipattern_block(id), (size_t)bytes);
}

static int onebuf_call(const bench_ctx *b, int count, int in_place)
{
    (void)in_place;
    return b->o->fn.onebuf(b->recvbuf, count, b->o->mpi_dtype, b->o->root, b->comm);
}

static check_result onebuf_verify(const bench_ctx *b, long bytes, int in_place)
{
    (void)in_place;
    const long id = b->o->desc->block_id(b->o->root, b->rank, b->p);
    return first_difference(b->recvbuf, pattern_block(id), 0, bytes, 0);
}

const drv_sig drv_sig_onebuf = {
    .run = bench_comm, .info = rooted_info, .legend = rooted_legend, .fill = block_fill,
    .poison = onebuf_poison, .call = onebuf_call, .fault = block_fault, .verify = onebuf_verify,
    .data_bytes = rooted_data_bytes};

/* ---- v: MPI_Alltoallv's counts and displacements (vlayout.h) ---- */

/* blocks of up to maxbytes at displacements with gaps (int elements) */
static int v_buffers(const driver_opts *o, int wrank, int wsize, long *maxbytes,
                     size_t *sendbytes, size_t *recvbytes)
{
    int tsize;
    MPI_Type_size(o->mpi_dtype, &tsize);
    *sendbytes = *recvbytes = v_buffer_bytes(wsize, *maxbytes, tsize);
    if (*sendbytes / (size_t)tsize > INT_MAX) {
        if (wrank == 0)
            fprintf(stderr, "collsim-driver: %d blocks of up to %ld bytes do not fit int "
                            "displacements\n", wsize, *maxbytes);
        return -1;
    }
    return 0;
}

static void v_info(const driver_opts *o, char *out, size_t len)
{
    snprintf(out, len, " dist=%s seed=%lu", o->vdist.name, o->seed);
}

static void v_prepare(bench_ctx *b)
{
    if (v_layout_alloc(b->o, b->p, fold_v_displs(), &b->L)) {
        fprintf(stderr, "collsim-driver: rank %d cannot allocate its alltoallv counts (%d ranks)\n",
                b->rank, b->p);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

static void v_release(bench_ctx *b) { v_layout_free(&b->L); }

static void v_size(bench_ctx *b, long bytes, int count)
{
    (void)bytes;
    v_layout_build(b->o, &b->L, b->rank, b->p, count, b->tsize);
}

static void v_fill(const bench_ctx *b, long bytes)
{
    (void)bytes;
    fill_send_v(b->o->desc, &b->L, b->sendbuf, b->rank, b->p, b->tsize);
}

static void v_poison(const bench_ctx *b, long bytes, int in_place)
{
    (void)bytes;
    (void)in_place; /* refused (collectives.def) */
    if (!b->o->fold)
        poison_recv_v(b->o->desc, &b->L, b->recvbuf, b->rank, b->p, b->tsize);
}

static int v_call(const bench_ctx *b, int count, int in_place)
{
    const driver_opts *o = b->o;
    const v_layout *L = &b->L;
    (void)count;
    (void)in_place;
    return o->fn.v(b->sendbuf, L->scounts, L->sdispls, o->mpi_dtype, b->recvbuf, L->rcounts,
                   L->rdispls, o->mpi_dtype, b->comm);
}

/* a negative offset hits the gap before the block */
static void v_fault(const bench_ctx *b, long bytes)
{
    const driver_opts *o = b->o;
    (void)bytes;
    if (b->rank != o->fault_rank || o->fault_block >= b->p)
        return;
    const long fb = o->fault_block;
    const long fb_bytes = (long)b->L.rcounts[fb] * b->tsize;
    const long fb_start = (long)b->L.rdispls[fb] * b->tsize;
    if (o->fault_offset < fb_bytes && fb_start + o->fault_offset >= 0)
        b->recvbuf[fb_start + o->fault_offset] ^= 0x5a;
}

static check_result v_verify(const bench_ctx *b, long bytes, int in_place)
{
    (void)bytes;
    (void)in_place;
    return verify_v(b->o->desc, &b->L, b->recvbuf, b->sendbuf, b->rank, b->p, b->tsize);
}

/* the sum of its blocks for others */
static long long v_data_bytes(const bench_ctx *b, long bytes, int count)
{
    (void)bytes;
    return cs_dist_total(&b->o->vdist, b->o->seed, b->p, count) * b->tsize;
}

const drv_sig drv_sig_v = {
    .run = bench_comm, .buffers = v_buffers, .info = v_info, .prepare = v_prepare,
    .release = v_release, .size = v_size, .fill = v_fill, .poison = v_poison, .call = v_call,
    .fault = v_fault, .verify = v_verify, .data_bytes = v_data_bytes};

/* ---- inter, interv: two groups on the group descriptor (intergroup.h) ---- */

/* one block; the other group's blocks and the guard */
static int ig_buffers(const driver_opts *o, int wrank, int wsize, long *maxbytes,
                      size_t *sendbytes, size_t *recvbytes)
{
    (void)wrank;
    *maxbytes = ig_max_block(o, *maxbytes);
    *sendbytes = (size_t)*maxbytes;
    *recvbytes = (size_t)*maxbytes * (size_t)wsize + IG_GUARD;
    return 0;
}

static void ig_info(const driver_opts *o, char *out, size_t len)
{
    const int v = o->desc->props->groups == 2;
    snprintf(out, len, " groups=%d:%d layout=%s block-ratio=%d:%d%s%s", o->ig_groups.p,
             o->ig_groups.q, o->ig_interleaved ? "interleaved" : "block", o->ig_groups.ra,
             o->ig_groups.rb, v ? " counts=" : "", v ? (o->ig_arith ? "arithmetic" : "equal") : "");
}

static void ig_legend(const driver_opts *o)
{
    printf("# Size: bytes of a group A process's block (group B's: Size x %d / %d%s); "
           "latency: one call per process, avg/min/max over processes (Max: Kang et al.'s "
           "metric)\n", o->ig_groups.rb, o->ig_groups.ra,
           o->ig_arith ? "; each group's largest, counts arithmetic" : "");
}

/* the groups are part of the communicator, as regions are */
static void ig_bench_prepare(bench_ctx *b)
{
    driver_barrier(b->comm);
    b->ig = ig_prepare(b->o, b->comm);
}

static void ig_release(bench_ctx *b)
{
    ig_size_free(&b->I);
    collsim_intergroup_free(&b->ig);
}

static void ig_bench_size(bench_ctx *b, long bytes, int count)
{
    (void)count;
    ig_size_build(b->o, b->ig, bytes, b->tsize, &b->I);
}

static void ig_fill(const bench_ctx *b, long bytes)
{
    (void)bytes;
    ig_fill_send(&b->I, b->sendbuf, b->rank);
}

static void ig_bench_poison(const bench_ctx *b, long bytes, int in_place)
{
    (void)bytes;
    (void)in_place; /* refused (collectives.def) */
    if (!b->o->fold)
        ig_poison(b->ig, &b->I, b->recvbuf, b->tsize);
}

/* sendcount is this process's block, the receive counts the remote group's */
static int inter_call(const bench_ctx *b, int count, int in_place)
{
    const driver_opts *o = b->o;
    (void)count;
    (void)in_place;
    return o->fn.inter(b->sendbuf, (int)(b->I.mine / b->tsize), o->mpi_dtype, b->recvbuf,
                       b->I.rcounts[0], o->mpi_dtype, b->ig);
}

static int interv_call(const bench_ctx *b, int count, int in_place)
{
    const driver_opts *o = b->o;
    (void)count;
    (void)in_place;
    return o->fn.interv(b->sendbuf, (int)(b->I.mine / b->tsize), o->mpi_dtype, b->recvbuf,
                        b->I.rcounts, b->I.rdispls, o->mpi_dtype, b->ig);
}

static void ig_fault(const bench_ctx *b, long bytes)
{
    (void)bytes;
    ig_inject_fault(b->o, b->ig, &b->I, b->recvbuf, b->rank, b->tsize);
}

static check_result ig_bench_verify(const bench_ctx *b, long bytes, int in_place)
{
    (void)bytes;
    (void)in_place;
    return ig_verify(b->ig, &b->I, b->recvbuf, b->sendbuf, b->rank, b->tsize);
}

static long long ig_data_bytes(const bench_ctx *b, long bytes, int count)
{
    (void)bytes;
    (void)count;
    return b->I.data_bytes;
}

const drv_sig drv_sig_inter = {
    .run = bench_comm, .buffers = ig_buffers, .info = ig_info, .legend = ig_legend,
    .prepare = ig_bench_prepare, .release = ig_release, .size = ig_bench_size, .fill = ig_fill,
    .poison = ig_bench_poison, .call = inter_call, .fault = ig_fault, .verify = ig_bench_verify,
    .data_bytes = ig_data_bytes};
const drv_sig drv_sig_interv = {
    .run = bench_comm, .buffers = ig_buffers, .info = ig_info, .legend = ig_legend,
    .prepare = ig_bench_prepare, .release = ig_release, .size = ig_bench_size, .fill = ig_fill,
    .poison = ig_bench_poison, .call = interv_call, .fault = ig_fault, .verify = ig_bench_verify,
    .data_bytes = ig_data_bytes};

/* ---- p2p: the ping-pong, a benchmark of its own (pingpong.h) ---- */
const drv_sig drv_sig_p2p = {
    .run = pingpong_comm};
