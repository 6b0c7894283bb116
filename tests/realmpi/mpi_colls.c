/* mpi_colls: an MPI test program of its own, not collsim's driver.
 *
 * Built plainly (mpicc) it is an ordinary program calling MPI_Allgather,
 * MPI_Alltoall and MPI_Alltoallv: run under libcollsim_pmpi with LD_PRELOAD,
 * the calls reach the algorithms the environment names. Built with
 * -DCOLLSIM_DIRECT it calls every algorithm of the registry (collsim.h) itself,
 * one after the other; that form also runs under SMPI (a module smpirun loads).
 *
 * Checks, every element against the collective's definition, on the first q
 * ranks of MPI_COMM_WORLD for every q in 1..np (with --some-q: 1..5, 8, np - 1
 * and np; rank order reversed for odd q),
 * counts 0, 1 and 13 ints:
 *   allgather (and in place); allgather into a vector datatype (a hole after
 *   every int, holes checked untouched) and from one; alltoall, plain and
 *   from and into vectors; alltoallv with uneven blocks at permuted, gapped
 *   and negative displacements, gaps checked untouched, plain and with a hole
 *   after every int on both sides (a resized MPI_INT); bcast from the first
 *   and the last rank; allreduce with MPI_SUM (and in place) and with a
 *   non-commutative user operation (the left operand: the result is rank
 *   0's), which an algorithm that needs a commutative one refuses with
 *   MPI_ERR_OP (called directly) or hands to the library (PMPI layer);
 *   reduce the same to the first and the last rank (in place at the root);
 *   reduce_scatter_block and reduce_scatter (uneven blocks, empty ones among them) the same,
 *   every rank's block, the rest of its receive buffer untouched.
 * Then, on MPI_COMM_WORLD: alltoall and alltoallv with MPI_IN_PLACE (uneven,
 * symmetric blocks for alltoallv); with --intercomm (not under SMPI 3.32, which
 * has no MPI_Intercomm_create), an intercommunicator of the two halves:
 * plain, the intergroup data of allgather and alltoall (the library serves
 * them); direct, MPI_ERR_COMM from every algorithm with the buffers untouched.
 *
 * Prints "FAIL ..." lines and, on rank 0, "mpi_colls: N checks, F failed";
 * exits 1 on any failure. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef COLLSIM_DIRECT
#include "collsim.h"
#endif

#define SENTINEL (-7)

typedef struct {
    long checks, failed;
    int world_rank;
} tally;

static void expect(tally *t, int ok, const char *what, int q, int n, int a, int b)
{
    t->checks++;
    if (!ok) {
        t->failed++;
        if (t->failed < 20)
            printf("FAIL rank %d: %s (q %d, n %d, at %d/%d)\n", t->world_rank, what, q, n, a, b);
    }
}

static int val(int src, int dst, int i) { return 1000000 * (src + 1) + 1000 * dst + i; }

/* ---- the collectives the program calls ---- */
typedef int (*block_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
typedef int (*v_fn)(const void *, const int *, const int *, MPI_Datatype, void *, const int *,
                    const int *, MPI_Datatype, MPI_Comm);
typedef int (*rooted_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
typedef int (*bcast_fn)(void *, int, MPI_Datatype, int, MPI_Comm);
typedef int (*allreduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
typedef int (*reduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
typedef int (*reduce_scatter_fn)(const void *, void *, const int *, MPI_Datatype, MPI_Op,
                                 MPI_Comm);
typedef struct {
    const char *name; /* for messages */
    block_fn allgather, alltoall;
    v_fn alltoallv;
    rooted_fn gather, scatter;
    int direct; /* the algorithms themselves (MPI_ERR_COMM on an intercommunicator) */
    bcast_fn bcast;
    allreduce_fn allreduce;
    reduce_fn reduce;
    allreduce_fn reduce_scatter_block; /* MPI_Allreduce's signature, p blocks sent */
    reduce_scatter_fn reduce_scatter;
} colls;

/* n ints with a hole after each: a vector, resized to span its holes */
static MPI_Datatype vector_type(int n)
{
    MPI_Datatype vec, holes;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * n * sizeof(int)), &holes);
    MPI_Type_commit(&holes);
    MPI_Type_free(&vec);
    return holes;
}

static void check_allgather(tally *t, const colls *c, MPI_Comm comm, int q, int n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *send = malloc(sizeof(int) * (size_t)(n + 1)), *recv = malloc(sizeof(int) * (size_t)(p * n + 1));
    for (int in_place = 0; in_place < 2; in_place++) {
        for (int k = 0; k < p * n; k++)
            recv[k] = SENTINEL;
        for (int i = 0; i < n; i++)
            (in_place ? recv + r * n : send)[i] = val(r, 0, i);
        int err = c->allgather(in_place ? MPI_IN_PLACE : send, n, MPI_INT, recv, n, MPI_INT, comm);
        expect(t, err == MPI_SUCCESS, in_place ? "allgather in place: error" : "allgather: error", q, n, err, 0);
        for (int j = 0; j < p; j++)
            for (int i = 0; i < n; i++)
                expect(t, recv[j * n + i] == val(j, 0, i), in_place ? "allgather in place" : "allgather", q, n, j, i);
    }
    if (n > 0) { /* receive into a vector (int, hole, int, hole, ...), then send from one */
        MPI_Datatype holes = vector_type(n);
        int *wide = malloc(sizeof(int) * (size_t)(2 * p * n));
        for (int k = 0; k < 2 * p * n; k++)
            wide[k] = SENTINEL;
        for (int i = 0; i < n; i++)
            send[i] = val(r, 0, i);
        int err = c->allgather(send, n, MPI_INT, wide, 1, holes, comm);
        expect(t, err == MPI_SUCCESS, "allgather into a vector: error", q, n, err, 0);
        for (int j = 0; j < p; j++)
            for (int i = 0; i < n; i++) {
                expect(t, wide[2 * (j * n + i)] == val(j, 0, i), "allgather into a vector", q, n, j, i);
                expect(t, wide[2 * (j * n + i) + 1] == SENTINEL, "allgather into a vector: hole written", q, n, j, i);
            }
        for (int i = 0; i < 2 * n; i++)
            wide[i] = i % 2 ? SENTINEL : val(r, 0, i / 2);
        for (int k = 0; k < p * n; k++)
            recv[k] = SENTINEL;
        err = c->allgather(wide, 1, holes, recv, n, MPI_INT, comm);
        expect(t, err == MPI_SUCCESS, "allgather from a vector: error", q, n, err, 0);
        for (int j = 0; j < p; j++)
            for (int i = 0; i < n; i++)
                expect(t, recv[j * n + i] == val(j, 0, i), "allgather from a vector", q, n, j, i);
        free(wide);
        MPI_Type_free(&holes);
    }
    free(send);
    free(recv);
}

static void check_alltoall(tally *t, const colls *c, MPI_Comm comm, int q, int n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *send = malloc(sizeof(int) * (size_t)(p * n + 1)), *recv = malloc(sizeof(int) * (size_t)(p * n + 1));
    for (int j = 0; j < p; j++)
        for (int i = 0; i < n; i++) {
            send[j * n + i] = val(r, j, i);
            recv[j * n + i] = SENTINEL;
        }
    int err = c->alltoall(send, n, MPI_INT, recv, n, MPI_INT, comm);
    expect(t, err == MPI_SUCCESS, "alltoall: error", q, n, err, 0);
    for (int j = 0; j < p; j++)
        for (int i = 0; i < n; i++)
            expect(t, recv[j * n + i] == val(j, r, i), "alltoall", q, n, j, i);
    if (n > 0) { /* from and into vectors: block j is one vector of n ints and n holes */
        MPI_Datatype holes = vector_type(n);
        int *ws = malloc(sizeof(int) * (size_t)(2 * p * n)), *wr = malloc(sizeof(int) * (size_t)(2 * p * n));
        for (int k = 0; k < 2 * p * n; k++) {
            ws[k] = k % 2 ? SENTINEL : val(r, k / (2 * n), k / 2 % n);
            wr[k] = SENTINEL;
        }
        err = c->alltoall(ws, 1, holes, wr, 1, holes, comm);
        expect(t, err == MPI_SUCCESS, "alltoall with vectors: error", q, n, err, 0);
        for (int k = 0; k < 2 * p * n; k++)
            expect(t, wr[k] == (k % 2 ? SENTINEL : val(k / (2 * n), r, k / 2 % n)),
                   "alltoall with vectors", q, n, k / (2 * n), k % (2 * n));
        free(ws);
        free(wr);
        MPI_Type_free(&holes);
    }
    free(send);
    free(recv);
}

/* Block src -> dst has (src + 2 dst + n) % 5 ints; slot of 8 ints per peer, even peers
 * after the base pointer, odd ones before it (negative displacements), one int of gap
 * before each block. */
static int vcount(int src, int dst, int n) { return n ? (src + 2 * dst + n) % 5 : 0; }
static int vdispl(int peer) { return peer % 2 ? -8 * (peer + 1) + 1 : 8 * peer + 1; }

/* gap 0: MPI_INT; gap 1: an int and a hole (MPI_INT resized to two ints), on
 * both sides: element k of a block at 2 k ints. */
static void check_alltoallv(tally *t, const colls *c, MPI_Comm comm, int q, int n, int gap)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    const int w = gap + 1; /* ints per element */
    MPI_Datatype type = MPI_INT;
    if (gap) {
        MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)(2 * sizeof(int)), &type);
        MPI_Type_commit(&type);
    }
    const size_t len = (size_t)(16 * p + 16) * (size_t)w;
    int *sall = malloc(sizeof(int) * len), *rall = malloc(sizeof(int) * len);
    int *sc = malloc(sizeof(int) * (size_t)p), *sd = malloc(sizeof(int) * (size_t)p);
    int *rc = malloc(sizeof(int) * (size_t)p), *rd = malloc(sizeof(int) * (size_t)p);
    int *sbase = sall + (8 * p + 8) * w, *rbase = rall + (8 * p + 8) * w;
    for (size_t k = 0; k < len; k++)
        sall[k] = rall[k] = SENTINEL;
    for (int j = 0; j < p; j++) {
        sc[j] = vcount(r, j, n);
        rc[j] = vcount(j, r, n);
        sd[j] = vdispl(j);
        rd[j] = vdispl(p - 1 - j); /* another permutation on the receive side */
        for (int i = 0; i < sc[j]; i++)
            sbase[(sd[j] + i) * w] = val(r, j, i);
    }
    const char *what = gap ? "alltoallv with holes" : "alltoallv";
    int err = c->alltoallv(sbase, sc, sd, type, rbase, rc, rd, type, comm);
    expect(t, err == MPI_SUCCESS, what, q, n, err, -1);
    for (int j = 0; j < p; j++)
        for (int i = 0; i < rc[j]; i++) {
            expect(t, rbase[(rd[j] + i) * w] == val(j, r, i), what, q, n, j, i);
            rbase[(rd[j] + i) * w] = SENTINEL;
        }
    for (size_t k = 0; k < len; k++)
        expect(t, rall[k] == SENTINEL, gap ? "alltoallv with holes: a gap written" : "alltoallv: a gap written", q, n, (int)k, 0);
    if (gap)
        MPI_Type_free(&type);
    free(sall);
    free(rall);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* Gather and scatter at root (q + 1) % p: plain, in place at the root, and
 * with the root's p blocks in a vector type (holes checked untouched) while
 * the others use MPI_INT; gather from a vector on the non-roots too. */
static void check_rooted(tally *t, const colls *c, MPI_Comm comm, int q, int n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    const int root = (q + 1) % p, at_root = r == root;
    int *one = malloc(sizeof(int) * (size_t)(2 * n + 1)), *all = malloc(sizeof(int) * (size_t)(2 * p * n + 1));
    MPI_Datatype holes = n ? vector_type(n) : MPI_INT;
    for (int variant = 0; variant < 3; variant++) {
        if (variant == 2 && !n)
            break;
        const int in_place = variant == 1 && at_root, wide = variant == 2;
        const int stride = wide ? 2 : 1; /* ints per element on the vector sides */
        /* gather: rank j's block j of the root's buffer */
        if (c->gather) {
            for (int k = 0; k < 2 * p * n; k++)
                all[k] = SENTINEL;
            for (int i = 0; i < 2 * n; i++)
                one[i] = SENTINEL;
            for (int i = 0; i < n; i++)
                (in_place ? all + (size_t)(root * n * stride) : one)[i * stride] = val(r, 9, i);
            int err = c->gather(in_place ? MPI_IN_PLACE : one, wide ? 1 : n, wide ? holes : MPI_INT,
                                all, at_root && wide ? 1 : n, at_root && wide ? holes : MPI_INT,
                                root, comm);
            expect(t, err == MPI_SUCCESS, "gather: error", q, n, err, variant);
            for (int k = 0; at_root && k < p * n * stride; k++)
                expect(t, all[k] == (k % stride ? SENTINEL : val(k / stride / n, 9, k / stride % n)),
                       wide ? "gather with vectors" : in_place ? "gather in place" : "gather", q, n,
                       k / stride / n, variant);
        }
        /* scatter: block j of the root's buffer to rank j */
        if (c->scatter) {
            for (int k = 0; k < 2 * p * n; k++)
                all[k] = k % stride ? SENTINEL : val(root, k / stride / n, k / stride % n);
            for (int i = 0; i < 2 * n; i++)
                one[i] = SENTINEL;
            int err = c->scatter(all, at_root && wide ? 1 : n, at_root && wide ? holes : MPI_INT,
                                 in_place ? MPI_IN_PLACE : one, wide ? 1 : n,
                                 wide ? holes : MPI_INT, root, comm);
            expect(t, err == MPI_SUCCESS, "scatter: error", q, n, err, variant);
            for (int i = 0; !in_place && i < n * stride; i++)
                expect(t, one[i] == (i % stride ? SENTINEL : val(root, r, i / stride)),
                       wide ? "scatter with vectors" : "scatter", q, n, r, i);
        }
    }
    if (n)
        MPI_Type_free(&holes);
    free(one);
    free(all);
}

/* MPI_IN_PLACE for alltoall and alltoallv on comm (alltoallv: block j <-> r
 * has (j + r + n) % 5 ints, as in place requires the same both ways). */
static void check_in_place(tally *t, const colls *c, MPI_Comm comm, int n)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *buf = malloc(sizeof(int) * (size_t)(p * (n + 5))), *cnt = malloc(sizeof(int) * (size_t)p),
        *dsp = malloc(sizeof(int) * (size_t)p);
    for (int v = 0; v < 2; v++) {
        if (!(v ? (void *)c->alltoallv : (void *)c->alltoall))
            continue;
        const int slot = v ? 5 : n; /* alltoallv: up to 4 ints and a gap */
        for (int j = 0; j < p; j++) {
            cnt[j] = v ? (j + r + n) % 5 : n;
            dsp[j] = j * slot;
            for (int i = 0; i < slot; i++)
                buf[j * slot + i] = i < cnt[j] ? val(r, j, i) : SENTINEL;
        }
        int err = v ? c->alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp, MPI_INT, comm)
                    : c->alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n, MPI_INT, comm);
        expect(t, err == MPI_SUCCESS, v ? "alltoallv in place: error" : "alltoall in place: error", p, n, err, 0);
        for (int j = 0; j < p; j++)
            for (int i = 0; i < slot; i++)
                expect(t, buf[j * slot + i] == (i < cnt[j] ? val(j, r, i) : SENTINEL),
                       v ? "alltoallv in place" : "alltoall in place", p, n, j, i);
    }
    free(buf);
    free(cnt);
    free(dsp);
}

/* The outcome of an alltoall(v) on an intercommunicator: remote rank j's block
 * for me is val(j, mine, i); the algorithms themselves: MPI_ERR_COMM, nothing
 * written. */
static void check_inter_exchange(tally *t, const colls *c, const char *what, int err,
                                 const int *recv, int rsize, int n, int mine)
{
    char msg[96];
    snprintf(msg, sizeof msg, "%s: %s", what, c->direct ? "not MPI_ERR_COMM" : "error");
    expect(t, err == (c->direct ? MPI_ERR_COMM : MPI_SUCCESS), msg, rsize, n, err, 0);
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < n; i++)
            expect(t, recv[j * n + i] == (c->direct ? SENTINEL : val(j, mine, i)), what, rsize, n, j, i);
}

/* An intercommunicator of the two halves of MPI_COMM_WORLD (np >= 2). */
static void check_intercomm(tally *t, const colls *c, int n)
{
    int w, np, lr, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2)
        return;
    const int low = w < np / 2;
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low, w, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? np / 2 : 0, 99, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_remote_size(inter, &rsize);
    const int tag = low ? 0 : 1; /* which half a value came from */
    int *send = malloc(sizeof(int) * (size_t)(rsize * n + n + 1)),
        *recv = malloc(sizeof(int) * (size_t)(rsize * n + 1));
    /* allgather: every process receives the remote group's blocks */
    for (int i = 0; i < n; i++)
        send[i] = val(lr, tag, i);
    for (int k = 0; k < rsize * n; k++)
        recv[k] = SENTINEL;
    int err = !c->allgather ? MPI_SUCCESS : c->allgather(send, n, MPI_INT, recv, n, MPI_INT, inter);
    if (!c->allgather) {
    } else if (c->direct) {
        expect(t, err == MPI_ERR_COMM, "intercommunicator allgather: not MPI_ERR_COMM", rsize, n, err, 0);
        for (int k = 0; k < rsize * n; k++)
            expect(t, recv[k] == SENTINEL, "intercommunicator allgather: buffer written", rsize, n, k, 0);
    } else {
        expect(t, err == MPI_SUCCESS, "intercommunicator allgather: error", rsize, n, err, 0);
        for (int j = 0; j < rsize; j++)
            for (int i = 0; i < n; i++)
                expect(t, recv[j * n + i] == val(j, 1 - tag, i), "intercommunicator allgather", rsize, n, j, i);
    }
    /* alltoall: block j of the send buffer goes to remote rank j */
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < n; i++) {
            send[j * n + i] = val(lr, 2 * j + tag, i);
            recv[j * n + i] = SENTINEL;
        }
    err = !c->alltoall ? MPI_SUCCESS : c->alltoall(send, n, MPI_INT, recv, n, MPI_INT, inter);
    if (c->alltoall)
        check_inter_exchange(t, c, "intercommunicator alltoall", err, recv, rsize, n, 2 * lr + 1 - tag);
    /* alltoallv: the arrays have the remote group's size (the local one may be larger) */
    int *cnt = malloc(sizeof(int) * (size_t)rsize), *dsp = malloc(sizeof(int) * (size_t)rsize);
    for (int j = 0; j < rsize; j++) {
        cnt[j] = n;
        dsp[j] = j * n;
        for (int i = 0; i < n; i++)
            recv[j * n + i] = SENTINEL;
    }
    err = !c->alltoallv ? MPI_SUCCESS : c->alltoallv(send, cnt, dsp, MPI_INT, recv, cnt, dsp, MPI_INT, inter);
    if (c->alltoallv)
        check_inter_exchange(t, c, "intercommunicator alltoallv", err, recv, rsize, n, 2 * lr + 1 - tag);
    free(cnt);
    free(dsp);
    free(send);
    free(recv);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* the non-commutative user operation: inout = in (the left operand) */
static void left_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

/* reduce to the first and the last rank: sum, sum in place at the root, the
 * left operand (rank 0's values at the root) */
static void check_reduce(tally *t, const colls *c, MPI_Comm comm, int q, int n, int *buf, int *out)
{
    int r;
    MPI_Comm_rank(comm, &r);
    MPI_Op left;
    MPI_Op_create(left_op, 0, &left);
    for (int root = 0; root < q; root += q > 1 ? q - 1 : 1)
        for (int variant = 0; variant < 3; variant++) { /* sum, sum in place, left */
            const int in_place = variant == 1 && r == root;
            for (int i = 0; i < n; i++)
                buf[i] = val(r, 0, i), out[i] = in_place ? buf[i] : SENTINEL;
            int err = c->reduce(in_place ? MPI_IN_PLACE : buf, out, n, MPI_INT,
                                variant == 2 ? left : MPI_SUM, root, comm);
            if (variant == 2 && c->direct && err == MPI_ERR_OP)
                continue; /* an algorithm for commutative operations only */
            expect(t, err == MPI_SUCCESS, "reduce: error", q, n, err, variant);
            for (int i = 0; i < n && err == MPI_SUCCESS && r == root; i++) {
                long want = 0;
                for (int j = 0; j < q; j++)
                    want += val(j, 0, i);
                expect(t, out[i] == (variant == 2 ? val(0, 0, i) : want),
                       variant == 2 ? "reduce, non-commutative" : "reduce", q, n, root, i);
            }
        }
    MPI_Op_free(&left);
}

/* reduce_scatter_block (blocks of n) and reduce_scatter (uneven blocks, empty ones among
 * them): sum, sum in place, the left operand (block r of rank 0's values on rank r); element
 * i of rank r's block j is val(r, j, i) */
static void check_reduce_scatter(tally *t, const colls *c, MPI_Comm comm, int q, int n)
{
    int r;
    MPI_Comm_rank(comm, &r);
    int *counts = malloc(sizeof(int) * (size_t)q), *start = malloc(sizeof(int) * (size_t)(q + 1));
    start[0] = 0;
    for (int j = 0; j < q; j++) {
        counts[j] = n ? (7 * j + n) % 5 : 0;
        start[j + 1] = start[j] + counts[j];
    }
    const int total = q * n > start[q] ? q * n : start[q];
    int *buf = malloc(sizeof(int) * (size_t)(total + 1)), *out = malloc(sizeof(int) * (size_t)(total + 1));
    MPI_Op left;
    MPI_Op_create(left_op, 0, &left);
    for (int v = 0; v < 2; v++) { /* v = 0: reduce_scatter_block, 1: reduce_scatter */
        if (v == 0 ? !c->reduce_scatter_block : !c->reduce_scatter)
            continue;
        const char *what = v ? "reduce_scatter" : "reduce_scatter_block";
        for (int variant = 0; variant < 3; variant++) { /* sum, sum in place, left */
            const int mine = v ? counts[r] : n;
            for (int j = 0; j < q; j++)
                for (int i = 0; i < (v ? counts[j] : n); i++)
                    buf[(v ? start[j] : j * n) + i] = val(r, j, i);
            for (int i = 0; i < total; i++)
                out[i] = variant == 1 ? buf[i] : SENTINEL;
            const void *in = variant == 1 ? MPI_IN_PLACE : buf;
            MPI_Op op = variant == 2 ? left : MPI_SUM;
            int err = v ? c->reduce_scatter(in, out, counts, MPI_INT, op, comm)
                        : c->reduce_scatter_block(in, out, n, MPI_INT, op, comm);
            if (variant == 2 && c->direct && err == MPI_ERR_OP)
                continue; /* an algorithm for commutative operations only */
            expect(t, err == MPI_SUCCESS, what, q, n, err, variant);
            for (int i = 0; i < mine && err == MPI_SUCCESS; i++) {
                long want = 0;
                for (int k = 0; k < q; k++)
                    want += val(k, r, i);
                expect(t, out[i] == (variant == 2 ? val(0, r, i) : want), what, q, n, variant, i);
            }
            for (int i = mine; variant != 1 && i < total; i++) /* the rest untouched */
                expect(t, out[i] == SENTINEL, what, q, n, variant, i);
        }
    }
    MPI_Op_free(&left);
    free(counts);
    free(start);
    free(buf);
    free(out);
}

static void check_reductions(tally *t, const colls *c, MPI_Comm comm, int q, int n)
{
    int r;
    MPI_Comm_rank(comm, &r);
    int *buf = malloc(sizeof(int) * (size_t)(n + 1)), *out = malloc(sizeof(int) * (size_t)(n + 1));
    for (int root = 0; c->bcast && root < q; root += q > 1 ? q - 1 : 1) {
        for (int i = 0; i < n; i++)
            buf[i] = r == root ? val(root, 0, i) : SENTINEL;
        int err = c->bcast(buf, n, MPI_INT, root, comm);
        expect(t, err == MPI_SUCCESS, "bcast: error", q, n, err, root);
        for (int i = 0; i < n && err == MPI_SUCCESS; i++)
            expect(t, buf[i] == val(root, 0, i), "bcast", q, n, root, i);
    }
    if (c->allreduce) {
        MPI_Op left;
        MPI_Op_create(left_op, 0, &left);
        for (int variant = 0; variant < 3; variant++) { /* sum, sum in place, left */
            for (int i = 0; i < n; i++)
                buf[i] = val(r, 0, i), out[i] = variant == 1 ? buf[i] : SENTINEL;
            int err = c->allreduce(variant == 1 ? MPI_IN_PLACE : buf, out, n, MPI_INT,
                                   variant == 2 ? left : MPI_SUM, comm);
            if (variant == 2 && c->direct && err == MPI_ERR_OP)
                continue; /* an algorithm for commutative operations only */
            expect(t, err == MPI_SUCCESS, "allreduce: error", q, n, err, variant);
            for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
                long want = 0;
                for (int j = 0; j < q; j++)
                    want += val(j, 0, i);
                expect(t, out[i] == (variant == 2 ? val(0, 0, i) : want),
                       variant == 2 ? "allreduce, non-commutative" : "allreduce", q, n, variant, i);
            }
        }
        MPI_Op_free(&left);
    }
    if (c->reduce)
        check_reduce(t, c, comm, q, n, buf, out);
    if (c->reduce_scatter_block || c->reduce_scatter)
        check_reduce_scatter(t, c, comm, q, n);
    free(buf);
    free(out);
}

static void run_all(tally *t, const colls *c, int intercomm, int some_q)
{
    int w, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    static const int counts[] = {0, 1, 13};
    for (int q = 1; q <= np; q++) {
        if (some_q && q > 5 && q != 8 && q < np - 1)
            continue; /* the small ones, a power of two, the largest two */
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, w < q ? 0 : MPI_UNDEFINED, q % 2 ? -w : w, &comm);
        if (comm == MPI_COMM_NULL)
            continue;
        for (int k = 0; k < 3; k++) {
            if (c->allgather)
                check_allgather(t, c, comm, q, counts[k]);
            if (c->alltoall)
                check_alltoall(t, c, comm, q, counts[k]);
            for (int gap = 0; gap < 2 && c->alltoallv; gap++)
                check_alltoallv(t, c, comm, q, counts[k], gap);
            if (c->gather || c->scatter)
                check_rooted(t, c, comm, q, counts[k]);
            if (c->bcast || c->allreduce || c->reduce || c->reduce_scatter_block ||
                c->reduce_scatter)
                check_reductions(t, c, comm, q, counts[k]);
        }
        MPI_Comm_free(&comm);
    }
    check_in_place(t, c, MPI_COMM_WORLD, 3);
    check_in_place(t, c, MPI_COMM_WORLD, 4);
    if (intercomm)
        check_intercomm(t, c, 3);
}

int main(int argc, char **argv)
{
    tally t = {0, 0, 0};
    int intercomm = 0, some_q = 0;
    for (int i = 1; i < argc; i++) {
        intercomm |= !strcmp(argv[i], "--intercomm");
        some_q |= !strcmp(argv[i], "--some-q");
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &t.world_rank);
#ifdef COLLSIM_DIRECT
    /* every algorithm of the registry; regions of 3 consecutive ranks */
    collsim_set_block_regions(3);
    for (int i = 0; i < collsim_alg_count(); i++) {
        const collsim_alg *a = collsim_alg_at(i);
        colls c = {a->name, NULL, NULL, NULL, NULL, NULL, 1, NULL, NULL, NULL, NULL, NULL};
        if (!strcmp(a->collective, "allgather"))
            c.allgather = a->block;
        else if (!strcmp(a->collective, "alltoall"))
            c.alltoall = a->block;
        else if (!strcmp(a->collective, "gather"))
            c.gather = a->rooted;
        else if (!strcmp(a->collective, "scatter"))
            c.scatter = a->rooted;
        else if (!strcmp(a->collective, "bcast"))
            c.bcast = a->onebuf;
        else if (!strcmp(a->collective, "allreduce"))
            c.allreduce = a->reduction;
        else if (!strcmp(a->collective, "reduce"))
            c.reduce = a->rooted_reduction;
        else if (!strcmp(a->collective, "reduce_scatter_block"))
            c.reduce_scatter_block = a->reduction;
        else if (!strcmp(a->collective, "reduce_scatter"))
            c.reduce_scatter = a->vreduction;
        else
            c.alltoallv = a->v;
        const long before = t.failed;
        run_all(&t, &c, intercomm, some_q);
        if (t.failed > before && t.world_rank == 0)
            printf("FAIL: %s/%s\n", a->collective, a->name);
    }
#else
    colls c = {"MPI", MPI_Allgather, MPI_Alltoall, MPI_Alltoallv, MPI_Gather, MPI_Scatter, 0,
               MPI_Bcast, MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block, MPI_Reduce_scatter};
    run_all(&t, &c, intercomm, some_q);
#endif
    long mine[2] = {t.checks, t.failed}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (t.world_rank == 0)
        printf("mpi_colls: %ld checks, %ld failed\n", sum[0], sum[1]);
    MPI_Finalize();
    return t.failed ? 1 : 0;
}
