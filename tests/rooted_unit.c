/* rooted_unit: an SMPI program of its own for tests/test_rooted.cc: one
 * gather or scatter algorithm of algorithms.def checked against the
 * definition of MPI_Gather / MPI_Scatter on every p in 1..64 (the first p
 * ranks of 64, a sub-communicator each), every root for p <= 16 and a spread
 * of roots above (0, 1, p/3, p/2, 2p/3 + 1, p - 1: regions' first, middle and
 * last members), counts 0, 1, 13 elements and 4 KiB, int and double (the
 * datatype alternating with the root, so every (p, count) sees both), and
 * MPI_IN_PLACE at the root for every other root.
 *
 * Regions: a rank map (coll_loc_set_rank_map) of levels socket, node, switch
 * over 26 synthetic nodes of 4, 1, 2, 3, 4, 1, ... cores (uneven, some of one
 * core), two sockets per node (the first ceil(n/2) cores, the rest), switches
 * of 3 nodes, ranks dealt `sequential` (filling nodes in order) or `cyclic`
 * (one per node with room left, round after round). Region level switch, so
 * topo_aware's regions are switches, two_level's nodes, and multilevel
 * descends socket, node, switch; sub-communicators cut regions anywhere.
 *
 * Checked per call: the root's every received byte (gather) or every rank's
 * (scatter); that nothing else was written: the bytes after every buffer,
 * the send buffers; the arguments that are not significant (a gather's
 * receive buffer off the root, a scatter's send buffer) are NULL. Prints "FAIL ..." lines
 * and, on rank 0, "rooted_unit: N checks, F failed"; exits 1 on a failure.
 *
 * Usage: rooted_unit COLL/NAME sequential|cyclic (environment
 * ROOTED_UNIT_FAULT: rank 2 of p = 5 flips a received byte after each call,
 * which must be reported). */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_locality.h"
#include "collsim_algorithms.h"
#include "smpi_unit.h"

/* ---- the algorithms, from algorithms.def ---- */
typedef struct {
    const char *coll, *name;
    collsim_rooted_fn fn;
} alg;

#define AS_R(f)                                                                                    \
    _Generic((f), collsim_rooted_fn: (f), default: NULL)
static const alg algs[] = {
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    {#coll, #name, AS_R(fn)},
#include "algorithms.def"
#undef COLLSIM_ALG
};

/* ---- the synthetic machine: node of each world rank, its core there ---- */
#define NRANKS 64
#define NNODES 26
static int node_of[NRANKS], core_of[NRANKS];

static int node_size(int i) { return 1 + (i * 5 + 3) % 4; }

static void deal(int cyclic)
{
    int used[NNODES] = {0};
    for (int w = 0, i = 0; w < NRANKS; w++) {
        if (cyclic) { /* the next node with room, round after round */
            while (used[i % NNODES] >= node_size(i % NNODES))
                i++;
        } else {
            while (used[i] >= node_size(i))
                i++;
        }
        const int n = cyclic ? i % NNODES : i;
        node_of[w] = n;
        core_of[w] = used[n]++;
        if (cyclic)
            i++;
    }
}

static int rank_map(int level, int w, long *color)
{
    const int n = node_of[w];
    if (level == 0)
        *color = 2L * n + (core_of[w] >= (node_size(n) + 1) / 2);
    else
        *color = level == 1 ? n : n / 3;
    return MPI_SUCCESS;
}

/* ---- data ---- */
#define POISON 0xA5
#define GUARD 64

/* byte i of the block rank `src` sends to rank `dst` */
static unsigned char val(int src, int dst, size_t i)
{
    return (unsigned char)(src * 31 + dst * 17 + i * 7 + 1 + (i >> 8));
}

static unsigned char poison_run[4096];
static int fault; /* ROOTED_UNIT_FAULT set: one received byte flipped (tests) */

static void check_bytes(const unsigned char *got, size_t n, int src, int dst, int poison,
                        const char *what, const char *ctx)
{
    check();
    if (poison) { /* the common case, most of the bytes: compared a run at a time */
        size_t k = 0;
        if (!poison_run[0])
            memset(poison_run, POISON, sizeof poison_run);
        while (k < n) {
            const size_t m = n - k < sizeof poison_run ? n - k : sizeof poison_run;
            if (memcmp(got + k, poison_run, m))
                break;
            k += m;
        }
        if (k >= n)
            return;
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char want = poison ? POISON : val(src, dst, i);
        if (got[i] != want) {
            fail("%s: %s, byte %zu: expected 0x%02x, got 0x%02x", ctx, what, i, want, got[i]);
            return;
        }
    }
}

/* One call: gather or scatter of `count` elements of `type` at `root`. */
static void one(const alg *a, MPI_Comm comm, int root, int count, MPI_Datatype type, int in_place,
                unsigned char *sbuf, unsigned char *rbuf)
{
    int rank, p, tsize;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Type_size(type, &tsize);
    const size_t bb = (size_t)count * (size_t)tsize, all = bb * (size_t)p;
    const int gather = !strcmp(a->coll, "gather"), at_root = rank == root;
    char ctx[192];
    snprintf(ctx, sizeof ctx, "%s/%s p=%d root=%d count=%d %s%s rank=%d", a->coll, a->name, p, root,
             count, type == MPI_INT ? "int" : "double", in_place ? " in-place" : "", rank);

    /* The arguments MPI says are not significant are NULL: a gather's
     * receive buffer off the root, a scatter's send buffer; touching them
     * crashes the run. Every buffer passed is poisoned, then filled. */
    const size_t sbytes = gather ? bb : all, rbytes = gather ? all : bb;
    if (gather || at_root)
        memset(sbuf, POISON, sbytes + GUARD);
    if (!gather || at_root)
        memset(rbuf, POISON, rbytes + GUARD);
    if (gather)
        for (size_t i = 0; i < bb; i++)
            (in_place && at_root ? rbuf + (size_t)rank * bb : sbuf)[i] = val(rank, root, i);
    else if (at_root)
        for (int t = 0; t < p; t++)
            for (size_t i = 0; i < bb; i++)
                sbuf[(size_t)t * bb + i] = val(root, t, i);
    const void *s = gather && in_place && at_root ? MPI_IN_PLACE : gather || at_root ? sbuf : NULL;
    void *r = !gather && in_place && at_root ? MPI_IN_PLACE : !gather || at_root ? rbuf : NULL;
    int err = a->fn(s, count, type, r, count, type, root, comm);
    if (fault && p == 5 && rank == 2 && bb > 0 && r != MPI_IN_PLACE && r)
        rbuf[bb - 1] ^= 0x5a; /* the check must see it */
    check();
    if (err != MPI_SUCCESS) {
        fail("%s: MPI error %d", ctx, err);
        return;
    }
    if (gather) {
        for (int j = 0; at_root && j < p; j++)
            check_bytes(rbuf + (size_t)j * bb, bb, j, root, 0, "receive block", ctx);
        if (!in_place || !at_root)
            check_bytes(sbuf, bb, rank, root, 0, "send block", ctx);
        check_bytes(sbuf + bb, GUARD, 0, 0, 1, "after the send block", ctx);
    } else {
        check_bytes(rbuf, bb, root, rank, in_place && at_root, "receive block", ctx);
        for (int t = 0; at_root && t < p; t++)
            check_bytes(sbuf + (size_t)t * bb, bb, root, t, 0, "send block", ctx);
        if (at_root)
            check_bytes(sbuf + all, GUARD, 0, 0, 1, "after the send buffer", ctx);
    }
    if (!gather || at_root)
        check_bytes(rbuf + rbytes, GUARD, 0, 0, 1, "after the receive buffer", ctx);
}

/* The roots of p: all up to 16, else a spread. */
static int roots_of(int p, int *roots)
{
    if (p <= 16) {
        for (int i = 0; i < p; i++)
            roots[i] = i;
        return p;
    }
    const int cand[] = {0, 1, p / 3, p / 2, 2 * p / 3 + 1, p - 1};
    int n = 0;
    for (size_t k = 0; k < sizeof cand / sizeof cand[0]; k++) {
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= roots[i] == cand[k];
        if (!dup)
            roots[n++] = cand[k];
    }
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const int w = world_rank();
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    const alg *a = NULL;
    for (size_t k = 0; argc == 3 && k < sizeof algs / sizeof algs[0]; k++) {
        char full[128];
        snprintf(full, sizeof full, "%s/%s", algs[k].coll, algs[k].name);
        if (algs[k].fn && !strcmp(full, argv[1]))
            a = &algs[k];
    }
    if (!a || wsize != NRANKS || (strcmp(argv[2], "sequential") && strcmp(argv[2], "cyclic"))) {
        if (w == 0)
            printf("FAIL usage: rooted_unit COLL/NAME sequential|cyclic on %d ranks (a gather or "
                   "scatter algorithm of algorithms.def)\n", NRANKS);
        MPI_Finalize();
        return 2;
    }
    deal(!strcmp(argv[2], "cyclic"));
    fault = getenv("ROOTED_UNIT_FAULT") != NULL;
    const char *names[] = {"socket", "node", "switch"};
    if (coll_loc_set_rank_map(3, names, rank_map) || coll_loc_set_region_level("switch"))
        fail("installing the rank map failed");
    MPI_Barrier(MPI_COMM_WORLD);

    const int counts[] = {0, 1, 13, -1 /* 4 KiB */};
    const size_t cap = 4096 * (size_t)NRANKS + GUARD;
    unsigned char *sbuf = malloc(cap), *rbuf = malloc(cap);
    for (int p = 1; p <= NRANKS; p++) {
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, w < p ? 0 : MPI_UNDEFINED, w, &comm);
        if (comm == MPI_COMM_NULL)
            continue;
        int roots[NRANKS];
        const int nr = roots_of(p, roots);
        for (int k = 0; k < nr; k++) {
            const MPI_Datatype type = (p + k) % 2 ? MPI_DOUBLE : MPI_INT;
            const int tsize = type == MPI_INT ? 4 : 8;
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
                one(a, comm, roots[k], counts[c] < 0 ? 4096 / tsize : counts[c], type, k % 2, sbuf,
                    rbuf);
        }
        MPI_Comm_free(&comm);
    }
    free(sbuf);
    free(rbuf);

    long in[2] = {checks[w], failures[w]}, sum[2];
    MPI_Allreduce(in, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (w == 0) {
        printf("rooted_unit: %ld checks, %ld failed\n", sum[0], sum[1]);
        fflush(stdout);
    }
    MPI_Finalize();
    return sum[1] ? 1 : 0;
}
