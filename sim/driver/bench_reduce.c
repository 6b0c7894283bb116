/* The reduction kinds' hooks (bench_sig.h; core/signatures.h, reduction:
 * MPI_Allreduce's arguments and --op, and MPI_Reduce_scatter_block's, whose
 * send buffer holds p blocks (send per_rank); rooted_reduction:
 * MPI_Reduce's, the same and the root; vreduction: MPI_Reduce_scatter's,
 * a count per rank from --dist and --seed). Check mode computes the reduced
 * values: element i of rank r's send buffer is x(r, i), a fixed function of
 * both (below), and the reduced vector is
 * x(0, i) op x(1, i) op ... op x(p-1, i), combined in rank order (MPI's
 * order for a non-commutative operation): every process's result for an
 * allreduce, the root's for a reduce, block r of it (recvcount elements, or
 * recvcounts[r]) on rank r for a reduce-scatter. The values make the operation
 * exact in any order where it is commutative: integers of at most 1000 in
 * magnitude for MPI_SUM, quarter-integers for doubles. matmul, the
 * non-commutative user operation, reads each 4-byte element as a 2x2 matrix
 * of bytes [[a, b], [c, d]] (a, b, c, d at increasing addresses) multiplied
 * mod 256; x(r, i) is [[1 + uv, u], [v, 1]] (determinant 1, so a product
 * never degenerates), a product of one rank's value in the wrong place
 * differs. A wrong element is named by its index, its value and the expected
 * one, and whether it is the product in reverse rank order. */
#include "bench_sig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "distributions.h"

enum { OP_SUM, OP_MAX, OP_BXOR, OP_MATMUL };

static int op_index(const char *name)
{
    static const char *const names[] = {"sum", "max", "bxor", "matmul"};
    for (int k = 0; k < 4; k++)
        if (name && !strcmp(name, names[k]))
            return k;
    return OP_SUM;
}

static uint32_t mix(int r, long i)
{
    uint32_t h = (uint32_t)r * 0x9E3779B1u ^ (uint32_t)i * 0x85EBCA77u ^ 0x27d4eb2fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    return h ^ (h >> 15);
}

/* element i of rank r, written at out (tsize bytes) */
static void value(int op, int tsize, int r, long i, unsigned char *out)
{
    const uint32_t h = mix(r, i);
    if (op == OP_MATMUL) {
        const unsigned char u = (unsigned char)h, v = (unsigned char)(h >> 8);
        const unsigned char m[4] = {(unsigned char)(1 + u * v), u, v, 1};
        memcpy(out, m, 4);
    } else if (tsize == 1) {
        *out = (unsigned char)h;
    } else if (tsize == (int)sizeof(double)) {
        double d = op == OP_SUM ? (double)((int)(h % 2001u) - 1000) + 0.25 * (double)(h >> 30)
                                : (double)(int32_t)h / 8.0;
        memcpy(out, &d, sizeof d);
    } else {
        int32_t x = op == OP_SUM ? (int32_t)(h % 2001u) - 1000 : (int32_t)h;
        memcpy(out, &x, sizeof x);
    }
}

/* acc = acc op x (acc on the left) */
static void combine(int op, int tsize, unsigned char *acc, const unsigned char *x)
{
    if (op == OP_MATMUL) {
        unsigned char r[4];
        r[0] = (unsigned char)(acc[0] * x[0] + acc[1] * x[2]);
        r[1] = (unsigned char)(acc[0] * x[1] + acc[1] * x[3]);
        r[2] = (unsigned char)(acc[2] * x[0] + acc[3] * x[2]);
        r[3] = (unsigned char)(acc[2] * x[1] + acc[3] * x[3]);
        memcpy(acc, r, 4);
    } else if (tsize == 1) {
        *acc ^= *x; /* byte: bxor only */
    } else if (tsize == (int)sizeof(double)) {
        double a, b;
        memcpy(&a, acc, sizeof a);
        memcpy(&b, x, sizeof b);
        a = op == OP_SUM ? a + b : (b > a ? b : a);
        memcpy(acc, &a, sizeof a);
    } else {
        int32_t a, b;
        memcpy(&a, acc, sizeof a);
        memcpy(&b, x, sizeof b);
        a = op == OP_SUM ? a + b : op == OP_MAX ? (b > a ? b : a) : a ^ b;
        memcpy(acc, &a, sizeof a);
    }
}

/* the user operation: inout[i] = in[i] x inout[i], matrices mod 256 */
static void matmul_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned char *io = inout;
    const unsigned char *a = in;
    for (int k = 0; k < *len; k++) {
        unsigned char acc[4];
        memcpy(acc, a + 4 * k, 4);
        combine(OP_MATMUL, 4, acc, io + 4 * k);
        memcpy(io + 4 * k, acc, 4);
    }
}

/* COLLSIM_FAULT_ORDER's test hook: the operands swapped (inout = inout x in),
 * so that the tests can prove that the check names a wrong order */
static void matmul_swapped_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned char *io = inout;
    const unsigned char *a = in;
    for (int k = 0; k < *len; k++)
        combine(OP_MATMUL, 4, io + 4 * k, a + 4 * k);
}

/* The expected result of p ranks and `count` elements, the same on every
 * rank: computed once per (p, count) and kept (ranks share it under SMPI). */
static struct {
    unsigned char *data;
    int p, op, tsize;
    long count;
} expect;

static const unsigned char *expected(int op, int tsize, int p, long count)
{
    if (expect.data && expect.p == p && expect.op == op && expect.tsize == tsize &&
        expect.count == count)
        return expect.data;
    free(expect.data);
    expect.data = malloc((size_t)count * (size_t)tsize + 1);
    expect.p = p, expect.op = op, expect.tsize = tsize, expect.count = count;
    unsigned char x[8];
    for (long i = 0; i < count; i++) {
        unsigned char *acc = expect.data + (size_t)i * (size_t)tsize;
        value(op, tsize, 0, i, acc);
        for (int r = 1; r < p; r++) {
            value(op, tsize, r, i, x);
            combine(op, tsize, acc, x);
        }
    }
    return expect.data;
}

/* reduce_scatter's counts for p ranks and blocks of up to max elements:
 * recvcounts[j] is the distribution's block (0, j), the same array on every
 * rank; start[j] where block j begins in the vector (start[p]: its length).
 * Computed once per (p, max) and kept for the whole run (ranks share them
 * under SMPI): a rank may still be inside a call with one size's counts
 * while another computes the next size's. */
typedef struct rs_counts_entry {
    struct rs_counts_entry *next;
    int p;
    long max;
    int *counts;
    long *start;
} rs_counts_entry;

static const rs_counts_entry *rs_counts(const driver_opts *o, int p, long max)
{
    static rs_counts_entry *kept;
    for (const rs_counts_entry *e = kept; e; e = e->next)
        if (e->p == p && e->max == max)
            return e;
    rs_counts_entry *e = malloc(sizeof *e);
    if (e) {
        e->counts = malloc(sizeof(int) * (size_t)p);
        e->start = malloc(sizeof(long) * ((size_t)p + 1));
    }
    if (!e || !e->counts || !e->start) {
        fprintf(stderr, "collsim-driver: cannot allocate reduce_scatter's counts (%d ranks)\n", p);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    e->p = p, e->max = max, e->start[0] = 0, e->next = kept;
    for (int j = 0; j < p; j++) {
        e->counts[j] = (int)cs_dist_block(&o->vdist, o->seed, 0, j, max);
        e->start[j + 1] = e->start[j] + e->counts[j];
    }
    kept = e;
    return e;
}

/* What a size reduces: `total` elements of every rank's send buffer, this
 * rank's result `n` of them from element `at` of the reduced vector. */
typedef struct {
    long total, at, n;
} red_part;

static red_part part_of(const bench_ctx *b, long bytes)
{
    const long count = bytes / b->tsize;
    red_part r = {count, 0, count};
    if (b->o->desc->props->sig == CS_SIG_vreduction) {
        const rs_counts_entry *e = rs_counts(b->o, b->p, count);
        r.total = e->start[b->p];
        r.at = e->start[b->rank];
        r.n = e->counts[b->rank];
    } else if (b->o->desc->props->send_blocks_per_rank) { /* reduce_scatter_block */
        r.total = count * b->p;
        r.at = count * b->rank;
    }
    return r;
}

/* the operation and datatype must go together (cs_op_dtypes); a reduce-scatter's
 * MPI_IN_PLACE takes its input, p blocks, from the receive buffer */
static int red_buffers(const driver_opts *o, int wrank, int wsize, long *maxbytes,
                       size_t *sendbytes, size_t *recvbytes)
{
    (void)wsize, (void)maxbytes, (void)sendbytes, (void)recvbytes;
    const char *valid = cs_op_dtypes(o->op, o->dtype);
    if (!valid)
        return 0;
    if (wrank == 0)
        fprintf(stderr, "collsim-driver: --op %s does not take --dtype %s (valid: %s)\n", o->op,
                o->dtype, valid);
    return -1;
}

static void red_info(const driver_opts *o, char *out, size_t len)
{
    snprintf(out, len, " op=%s", o->op ? o->op : "sum");
}

static void vred_info(const driver_opts *o, char *out, size_t len)
{
    snprintf(out, len, " op=%s dist=%s seed=%lu", o->op ? o->op : "sum", o->vdist.name, o->seed);
}

/* a reduce: only the root's receive buffer holds a result */
static int has_result(const bench_ctx *b)
{
    return b->o->desc->props->rooted != CS_ROOT_to || b->rank == b->o->root;
}

static void red_prepare(bench_ctx *b)
{
    const int op = op_index(b->o->op);
    b->op = op == OP_SUM ? MPI_SUM : op == OP_MAX ? MPI_MAX : op == OP_BXOR ? MPI_BXOR : MPI_OP_NULL;
    if (op == OP_MATMUL)
        MPI_Op_create(getenv("COLLSIM_FAULT_ORDER") ? matmul_swapped_op : matmul_op, 0, &b->op);
}

static void red_release(bench_ctx *b)
{
    if (op_index(b->o->op) == OP_MATMUL)
        MPI_Op_free(&b->op);
}

static void red_fill(const bench_ctx *b, long bytes)
{
    const long count = part_of(b, bytes).total;
    for (long i = 0; i < count; i++)
        value(op_index(b->o->op), b->tsize, b->rank, i, b->sendbuf + (size_t)i * (size_t)b->tsize);
}

/* the complement of the result; MPI_IN_PLACE: the rank's own values (a
 * reduce-scatter's: all p blocks) */
static void red_poison(const bench_ctx *b, long bytes, int in_place)
{
    const red_part r = part_of(b, bytes);
    const long ts = b->tsize;
    if (in_place)
        memcpy(b->recvbuf, b->sendbuf, (size_t)(r.total * ts));
    else if (!b->o->fold && has_result(b)) {
        const unsigned char *e = expected(op_index(b->o->op), b->tsize, b->p, r.total) + r.at * ts;
        for (long k = 0; k < r.n * ts; k++)
            b->recvbuf[k] = (unsigned char)~e[k];
    }
}

static int red_call(const bench_ctx *b, int count, int in_place)
{
    return b->o->fn.reduction(in_place ? MPI_IN_PLACE : b->sendbuf, b->recvbuf, count,
                              b->o->mpi_dtype, b->op, b->comm);
}

static int vred_call(const bench_ctx *b, int count, int in_place)
{
    return b->o->fn.vreduction(in_place ? MPI_IN_PLACE : b->sendbuf, b->recvbuf,
                               rs_counts(b->o, b->p, count)->counts, b->o->mpi_dtype, b->op, b->comm);
}

/* the result is one block (0) */
static void red_fault(const bench_ctx *b, long bytes)
{
    const driver_opts *o = b->o;
    if (b->rank == o->fault_rank && o->fault_block == 0 && o->fault_offset >= 0 &&
        o->fault_offset < part_of(b, bytes).n * b->tsize)
        b->recvbuf[o->fault_offset] ^= 0x5a;
}

static void print_hex(FILE *f, const unsigned char *v, int n)
{
    for (int k = 0; k < n; k++)
        fprintf(f, "%02x", v[k]);
}

static check_result red_verify(const bench_ctx *b, long bytes, int in_place)
{
    const int op = op_index(b->o->op), ts = b->tsize;
    const red_part r = part_of(b, bytes);
    unsigned char x[8];
    check_result cr = {0, 0, 0, 0, 0, 0};
    if (!in_place)
        for (long i = 0; i < r.total && !cr.bad; i++) {
            value(op, ts, b->rank, i, x);
            cr = first_difference(b->sendbuf + i * ts, x, 0, ts, 1);
            cr.offset += i * ts;
        }
    if (cr.bad || !has_result(b))
        return cr;
    const unsigned char *e = expected(op, ts, b->p, r.total) + r.at * ts;
    cr = first_difference(b->recvbuf, e, 0, r.n * ts, 0);
    if (!cr.bad)
        return cr;
    /* name the element, and a reversed order */
    const long i = cr.offset / ts;
    unsigned char rev[8];
    value(op, ts, b->p - 1, r.at + i, rev);
    for (int k = b->p - 2; k >= 0; k--) {
        value(op, ts, k, r.at + i, x);
        combine(op, ts, rev, x);
    }
    const unsigned char *got = b->recvbuf + i * ts;
    fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: --op %s: element %ld of the result is ",
            b->o->coll, b->o->alg, b->p, bytes, b->rank, b->o->op, i);
    print_hex(stderr, got, ts);
    fprintf(stderr, ", expected ");
    print_hex(stderr, e + i * ts, ts);
    if (r.at || r.n != r.total)
        fprintf(stderr, " (element %ld of the reduced vector)", r.at + i);
    fprintf(stderr, " (ranks 0..%d in order)%s\n", b->p - 1,
            memcmp(got, rev, (size_t)ts) ? ""
                                        : ": it is the ranks' values combined in reverse order");
    return cr;
}

/* an allreduce: a reduce-scatter's and an allgather's worth, every process
 * receives (p-1)/p of the vector twice (Patarasuk and Yuan's lower bound); a
 * reduce-scatter: every process its block from each of the p-1 others */
static long long red_data_bytes(const bench_ctx *b, long bytes, int count)
{
    (void)count;
    if (b->o->desc->props->send_blocks_per_rank)
        return (long long)(b->p - 1) * part_of(b, bytes).total * b->tsize;
    return 2LL * (b->p - 1) * bytes;
}

/* ---- rooted_reduction: MPI_Reduce, the reduced vector at the root ---- */

static void rred_info(const driver_opts *o, char *out, size_t len)
{
    snprintf(out, len, " op=%s root=%d", o->op ? o->op : "sum", o->root);
}

static void rred_legend(const driver_opts *o)
{
    (void)o;
    printf("# latency: one call per process; avg/min/max over processes of their means, then "
           "the slowest process per call and the root (which holds the result), averaged over "
           "the calls\n");
}

/* MPI_IN_PLACE: the root's send buffer */
static int rred_call(const bench_ctx *b, int count, int in_place)
{
    return b->o->fn.rooted_reduction(in_place ? MPI_IN_PLACE : b->sendbuf, b->recvbuf, count,
                                     b->o->mpi_dtype, b->op, b->o->root, b->comm);
}

/* every other process's vector, combined into the result once (a
 * gather's worth, as the rooted kind counts it) */
static long long rred_data_bytes(const bench_ctx *b, long bytes, int count)
{
    (void)count;
    return (long long)(b->p - 1) * bytes;
}

const drv_sig drv_sig_rooted_reduction = {
    .run = bench_comm, .buffers = red_buffers, .info = rred_info, .legend = rred_legend,
    .prepare = red_prepare, .release = red_release, .fill = red_fill, .poison = red_poison,
    .call = rred_call, .fault = red_fault, .verify = red_verify, .data_bytes = rred_data_bytes};

const drv_sig drv_sig_vreduction = {
    .run = bench_comm, .buffers = red_buffers, .info = vred_info, .prepare = red_prepare,
    .release = red_release, .fill = red_fill, .poison = red_poison, .call = vred_call,
    .fault = red_fault, .verify = red_verify, .data_bytes = red_data_bytes};

const drv_sig drv_sig_reduction = {
    .run = bench_comm, .buffers = red_buffers, .info = red_info, .prepare = red_prepare,
    .release = red_release, .fill = red_fill, .poison = red_poison, .call = red_call,
    .fault = red_fault, .verify = red_verify, .data_bytes = red_data_bytes};
