/* mpi_mixed: an MPI program whose processes describe the same data with
 * different datatypes, as MPI allows: only the type signatures must match
 * (a root sending 4 x MPI_INT to a process that receives one vector of 4
 * ints at stride 2). Run plainly or under libcollsim_pmpi (LD_PRELOAD), on
 * any number of processes.
 *
 * Every process picks its layout of the ints it passes from seven, by its
 * rank and a shift that changes from call to call (so that every rank, the
 * root included, gets every layout):
 *   int     n x MPI_INT
 *   contig  1 x MPI_Type_contiguous(n, MPI_INT)           (no hole, count 1)
 *   vector  1 x MPI_Type_vector(n, 1, 2, MPI_INT)         (a hole after each int)
 *   rindex  1 x an indexed type, the n ints in reverse order, a hole between
 *   resized n x MPI_INT resized to an extent of 8 bytes
 *   pair    n/2 x MPI_Type_contiguous(2, MPI_INT)
 *   pvector n/2 x MPI_Type_vector(2, 1, 2, MPI_INT)       (extent 12)
 * The reductions need the same count on every process: their layouts mix
 * int with resized, or pair with pvector.
 *
 * Checked, every int against the collective's definition and every hole of a
 * receive buffer untouched: bcast (4, 6 and 1000 ints from every root, and
 * every layout at the root), allgather (and in place), alltoall (and in
 * place), alltoallv (uneven blocks at gapped displacements, and in place),
 * gather and scatter to and from every root (and in place at the root),
 * allreduce and reduce_scatter_block (and in place), reduce to every root (and in place at
 * the root), reduce_scatter (uneven blocks, empty ones among them; and in place); with
 * --intercomm, allgather and allgatherv between the two halves of
 * MPI_COMM_WORLD (the allgatherv's send layout one per group). Prints "FAIL ..." lines and, on rank 0, "mpi_mixed: N
 * checks, F failed"; exits 1 on any failure. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENT (-7)

enum { K_INT, K_CONTIG, K_VECTOR, K_RINDEX, K_RESIZED, K_PAIR, K_PVECTOR, NKIND };
static const char *kind_name[NKIND] = {"int",     "contig", "vector", "rindex",
                                       "resized", "pair",   "pvector"};

/* n ints as count x type: the w-th int of an element at inner(w) ints from
 * the element's start, elements `ext` ints apart */
typedef struct {
    int kind, n, count, per, ext;
    MPI_Datatype type;
} layout;

static long checks, failed;
static int wrank;

static void expect(int ok, const char *what, const char *coll, int p, int at)
{
    checks++;
    if (!ok && ++failed < 20)
        printf("FAIL rank %d: %s %s (np %d, int %d)\n", wrank, coll, what, p, at);
}

static layout make(int kind, int n)
{
    layout L = {kind, n, n, 1, 1, MPI_INT};
    if (n == 0 || ((kind == K_PAIR || kind == K_PVECTOR) && n % 2))
        kind = L.kind = K_INT;
    switch (kind) {
    case K_CONTIG:
        MPI_Type_contiguous(n, MPI_INT, &L.type);
        L.count = 1, L.per = n, L.ext = n;
        break;
    case K_VECTOR:
        MPI_Type_vector(n, 1, 2, MPI_INT, &L.type);
        L.count = 1, L.per = n, L.ext = 2 * n - 1;
        break;
    case K_RINDEX: {
        int *len = malloc(sizeof(int) * (size_t)n), *at = malloc(sizeof(int) * (size_t)n);
        for (int w = 0; w < n; w++)
            len[w] = 1, at[w] = 2 * (n - 1 - w);
        MPI_Type_indexed(n, len, at, MPI_INT, &L.type);
        free(len);
        free(at);
        L.count = 1, L.per = n, L.ext = 2 * n - 1;
        break;
    }
    case K_RESIZED:
        MPI_Type_create_resized(MPI_INT, 0, 8, &L.type);
        L.ext = 2;
        break;
    case K_PAIR:
        MPI_Type_contiguous(2, MPI_INT, &L.type);
        L.count = n / 2, L.per = 2, L.ext = 2;
        break;
    case K_PVECTOR:
        MPI_Type_vector(2, 1, 2, MPI_INT, &L.type);
        L.count = n / 2, L.per = 2, L.ext = 3;
        break;
    }
    if (L.type != MPI_INT)
        MPI_Type_commit(&L.type);
    return L;
}

static void drop(layout *L)
{
    if (L->type != MPI_INT)
        MPI_Type_free(&L->type);
}

/* where int i of the layout's n ints is, in ints from its start */
static int pos(const layout *L, int i)
{
    const int e = i / L->per, w = i % L->per;
    const int inner = L->kind == K_RINDEX ? 2 * (L->n - 1 - w)
                      : L->kind == K_VECTOR || L->kind == K_PVECTOR ? 2 * w
                                                                    : w;
    return e * L->ext + inner;
}

static int span(const layout *L) { return L->count * L->ext; } /* ints from start to end */

static int *alloc_ints(long n)
{
    int *b = malloc(sizeof(int) * (size_t)(n + 4));
    for (long i = 0; i < n + 4; i++)
        b[i] = SENT;
    return b;
}

static void put(int *at, const layout *L, int (*v)(int, int, int), int a, int b)
{
    for (int i = 0; i < L->n; i++)
        at[pos(L, i)] = v(a, b, i);
}

/* the ints [from, to) of a receive buffer: L's n ints at `at` hold v(a, b, i),
 * the rest of [from, to) is untouched (call once per buffer with the blocks
 * marked: mark[k] = 1 for a data int) */
static void mark(char *m, int at, const layout *L)
{
    for (int i = 0; i < L->n; i++)
        m[at + pos(L, i)] = 1;
}

static void check_block(const int *buf, int at, const layout *L, int (*v)(int, int, int), int a,
                        int b, const char *coll, int p)
{
    for (int i = 0; i < L->n; i++)
        expect(buf[at + pos(L, i)] == v(a, b, i), "data", coll, p, at + pos(L, i));
}

static void check_holes(const int *buf, const char *m, long n, const char *coll, int p)
{
    for (long k = 0; k < n; k++)
        if (!m[k])
            expect(buf[k] == SENT, "hole overwritten", coll, p, (int)k);
}

static int val(int src, int dst, int i) { return 100000 * (src + 1) + 100 * dst + i; }
static int one(int src, int dst, int i) { return 1000 * src + 7 * i + dst + 1; }

static int kind_of(int rank, int shift) { return (rank + shift) % NKIND; }

/* ---- bcast ---- */
static void check_bcast(MPI_Comm comm, int p, int rank)
{
    static const int sizes[] = {4, 6, 1000};
    for (int s = 0; s < 3; s++)
        for (int root = 0; root < p; root++)
            for (int shift = 0; shift < NKIND; shift++) {
                layout L = make(kind_of(rank, shift), sizes[s]);
                int *buf = alloc_ints(span(&L));
                char *m = calloc((size_t)span(&L) + 4, 1);
                if (rank == root)
                    put(buf, &L, one, root, shift);
                MPI_Bcast(buf, L.count, L.type, root, comm);
                check_block(buf, 0, &L, one, root, shift, "bcast", p);
                mark(m, 0, &L);
                check_holes(buf, m, span(&L) + 4, "bcast", p);
                free(buf);
                free(m);
                drop(&L);
            }
}

/* ---- allgather, alltoall ---- */
static void check_allgather(MPI_Comm comm, int p, int rank, int n, int shift, int in_place)
{
    layout S = make(kind_of(rank, shift), n), R = make(kind_of(rank, shift + 1), n);
    const long rs = (long)span(&R) * p;
    int *sb = alloc_ints(span(&S)), *rb = alloc_ints(rs);
    char *m = calloc((size_t)rs + 4, 1);
    put(sb, &S, val, rank, 0);
    if (in_place)
        put(rb + (long)rank * span(&R), &R, val, rank, 0);
    MPI_Allgather(in_place ? MPI_IN_PLACE : sb, S.count, S.type, rb, R.count, R.type, comm);
    for (int j = 0; j < p; j++) {
        check_block(rb, j * span(&R), &R, val, j, 0, in_place ? "allgather in place" : "allgather", p);
        mark(m, j * span(&R), &R);
    }
    check_holes(rb, m, rs + 4, "allgather", p);
    free(sb), free(rb), free(m);
    drop(&S), drop(&R);
}

static void check_alltoall(MPI_Comm comm, int p, int rank, int n, int shift, int in_place)
{
    layout S = make(kind_of(rank, shift), n), R = make(kind_of(rank, shift + 2), n);
    const long rs = (long)span(&R) * p;
    int *sb = alloc_ints((long)span(&S) * p), *rb = alloc_ints(rs);
    char *m = calloc((size_t)rs + 4, 1);
    for (int j = 0; j < p; j++)
        if (in_place)
            put(rb + (long)j * span(&R), &R, val, rank, j);
        else
            put(sb + (long)j * span(&S), &S, val, rank, j);
    MPI_Alltoall(in_place ? MPI_IN_PLACE : sb, S.count, S.type, rb, R.count, R.type, comm);
    for (int j = 0; j < p; j++) {
        check_block(rb, j * span(&R), &R, val, j, rank, in_place ? "alltoall in place" : "alltoall", p);
        mark(m, j * span(&R), &R);
    }
    check_holes(rb, m, rs + 4, "alltoall", p);
    free(sb), free(rb), free(m);
    drop(&S), drop(&R);
}

/* alltoallv: src sends vints(src, dst) ints to dst (even: the pair layouts
 * take them), block j of a buffer one element after block j - 1 */
static int vints(int src, int dst) { return 2 * ((src + dst) % 3); }

static void v_layout(int p, int rank, int send, const layout *L, int *counts, int *displs)
{
    int at = 0;
    for (int j = 0; j < p; j++) {
        counts[j] = (send ? vints(rank, j) : vints(j, rank)) / L->per;
        displs[j] = at;
        at += counts[j] + 1;
    }
}

static void check_alltoallv(MPI_Comm comm, int p, int rank, int shift, int in_place)
{
    static const int kinds[] = {K_INT, K_RESIZED, K_PAIR, K_PVECTOR};
    /* an element of the layout: per ints, the element's layout */
    layout S = make(kinds[(rank + shift) % 4], 2), R = make(kinds[(rank + shift + 1) % 4], 2);
    S.n = S.per, R.n = R.per; /* one element */
    int *sc = malloc(sizeof(int) * (size_t)p * 4), *sd = sc + p, *rc = sd + p, *rd = rc + p;
    v_layout(p, rank, 1, &S, sc, sd);
    v_layout(p, rank, 0, &R, rc, rd);
    const long rs = (long)(rd[p - 1] + rc[p - 1] + 1) * R.ext, ss = (long)(sd[p - 1] + sc[p - 1] + 1) * S.ext;
    int *sb = alloc_ints(ss), *rb = alloc_ints(rs);
    char *m = calloc((size_t)rs + 4, 1);
    /* in place (the blocks symmetric: vints(r, j) == vints(j, r)): what goes to
     * j is in block j of the receive buffer */
    for (int j = 0; j < p; j++)
        for (int e = 0; e < (in_place ? rc[j] : sc[j]); e++)
            for (int w = 0; w < (in_place ? R.per : S.per); w++) {
                const int i = e * (in_place ? R.per : S.per) + w;
                if (in_place)
                    rb[(rd[j] + e) * R.ext + pos(&R, w)] = val(rank, j, i);
                else
                    sb[(sd[j] + e) * S.ext + pos(&S, w)] = val(rank, j, i);
            }
    MPI_Alltoallv(in_place ? MPI_IN_PLACE : sb, sc, sd, S.type, rb, rc, rd, R.type, comm);
    for (int j = 0; j < p; j++)
        for (int e = 0; e < rc[j]; e++)
            for (int w = 0; w < R.per; w++) {
                const int at = (rd[j] + e) * R.ext + pos(&R, w);
                expect(rb[at] == val(j, rank, e * R.per + w), "data",
                       in_place ? "alltoallv in place" : "alltoallv", p, at);
                m[at] = 1;
            }
    check_holes(rb, m, rs + 4, "alltoallv", p);
    free(sc), free(sb), free(rb), free(m);
    drop(&S), drop(&R);
}

/* ---- gather, scatter ---- */
static void check_rooted(MPI_Comm comm, int p, int rank, int n, int shift, int root, int in_place)
{
    const int at_root = rank == root;
    layout O = make(kind_of(rank, shift), n), A = make(kind_of(rank, shift + 3), n);
    const long as = (long)span(&A) * p;
    int *own = alloc_ints(span(&O)), *all = alloc_ints(as);
    char *m = calloc((size_t)as + 4, 1);
    const int ip = in_place && at_root;
    /* gather */
    put(ip ? all + (long)root * span(&A) : own, ip ? &A : &O, val, rank, 0);
    MPI_Gather(ip ? MPI_IN_PLACE : own, O.count, O.type, all, A.count, A.type, root, comm);
    for (int j = 0; at_root && j < p; j++) {
        check_block(all, j * span(&A), &A, val, j, 0, ip ? "gather in place" : "gather", p);
        mark(m, j * span(&A), &A);
    }
    if (at_root)
        check_holes(all, m, as + 4, "gather", p);
    /* scatter: the root's blocks, each to its rank */
    for (long k = 0; k < as + 4; k++)
        all[k] = SENT;
    for (long k = 0; k < span(&O) + 4; k++)
        own[k] = SENT;
    for (int j = 0; at_root && j < p; j++)
        put(all + (long)j * span(&A), &A, val, root, j);
    MPI_Scatter(all, A.count, A.type, ip ? MPI_IN_PLACE : own, O.count, O.type, root, comm);
    if (!ip) {
        memset(m, 0, (size_t)as + 4);
        check_block(own, 0, &O, val, root, rank, "scatter", p);
        mark(m, 0, &O);
        check_holes(own, m, span(&O) + 4, "scatter", p);
    } else {
        check_block(all, root * span(&A), &A, val, root, root, "scatter in place", p);
    }
    free(own), free(all), free(m);
    drop(&O), drop(&A);
}

/* ---- reductions ----
 * MPI requires the same datatype on every process of a reduction (and a
 * predefined operation takes predefined types only), so their calls vary the
 * datatype from call to call, alike on all processes: MPI_SUM on MPI_INT; a
 * commutative user-defined sum on pairs of ints (contiguous) and on ints
 * resized to 8 bytes (a hole after each: the library serves it, on every
 * process alike); MPI_MINLOC on MPI_2INT. MPI_IN_PLACE: on all processes, and
 * at the root alone for reduce. */
enum { R_SUM, R_USER_PAIR, R_USER_HOLES, R_MINLOC, NRED };
static MPI_Datatype t_pair, t_res;
static MPI_Op user_sum;
static int cur_p, cur_red;

static void user_sum_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const int *x = in;
    int *y = inout;
    const int step = *type == t_res ? 2 : 1, n = *type == t_pair ? 2 * *len : *len;
    for (int k = 0; k < n; k++)
        y[k * step] += x[k * step];
}

static layout red_layout(int variant, int n)
{
    layout L = make(variant == R_USER_HOLES ? K_RESIZED : variant == R_SUM ? K_INT : K_PAIR, n);
    drop(&L); /* the shared handles instead (the user function tells them apart) */
    L.type = variant == R_SUM ? MPI_INT : variant == R_USER_HOLES ? t_res : variant == R_MINLOC ? MPI_2INT : t_pair;
    return L;
}

static MPI_Op red_op(int variant)
{
    return variant == R_SUM ? MPI_SUM : variant == R_MINLOC ? MPI_MINLOC : user_sum;
}

/* int i of rank's input, and of the result on p processes (MINLOC: pairs of
 * a value, smallest at the last rank, and the rank) */
static int red_in(int rank, int unused, int i)
{
    (void)unused;
    if (cur_red == R_MINLOC)
        return i % 2 ? rank : 7 * (cur_p - rank) + i / 2;
    return (rank + 1) * 11 + 3 * i;
}

static int red_out(int unused, int first, int i)
{
    (void)unused;
    i += first;
    if (cur_red == R_MINLOC)
        return i % 2 ? cur_p - 1 : 7 + i / 2;
    int s = 0;
    for (int r = 0; r < cur_p; r++)
        s += red_in(r, 0, i);
    return s;
}

static void check_allreduce(MPI_Comm comm, int p, int rank, int n, int variant, int in_place)
{
    layout L = red_layout(variant, n);
    int *sb = alloc_ints(span(&L)), *rb = alloc_ints(span(&L));
    char *m = calloc((size_t)span(&L) + 4, 1);
    cur_red = variant;
    put(in_place ? rb : sb, &L, red_in, rank, 0);
    MPI_Allreduce(in_place ? MPI_IN_PLACE : sb, rb, L.count, L.type, red_op(variant), comm);
    check_block(rb, 0, &L, red_out, 0, 0, in_place ? "allreduce in place" : "allreduce", p);
    mark(m, 0, &L);
    check_holes(rb, m, span(&L) + 4, "allreduce", p);
    free(sb), free(rb), free(m);
}

static void check_reduce(MPI_Comm comm, int p, int rank, int n, int variant, int root, int in_place)
{
    layout L = red_layout(variant, n);
    int *sb = alloc_ints(span(&L)), *rb = alloc_ints(span(&L));
    char *m = calloc((size_t)span(&L) + 4, 1);
    const int ip = in_place && rank == root;
    cur_red = variant;
    put(ip ? rb : sb, &L, red_in, rank, 0);
    MPI_Reduce(ip ? MPI_IN_PLACE : sb, rb, L.count, L.type, red_op(variant), root, comm);
    if (rank == root) {
        check_block(rb, 0, &L, red_out, 0, 0, ip ? "reduce in place" : "reduce", p);
        mark(m, 0, &L);
        check_holes(rb, m, span(&L) + 4, "reduce", p);
    }
    free(sb), free(rb), free(m);
}

/* reduce_scatter(_block): rank j's block of the reduced vector: rs_ints(j)
 * ints (n each for the block form; uneven, even numbers, for the v form) */
static int rs_ints(int j, int n, int uneven) { return uneven ? 2 * ((j + n) % 3) : n; }

static void check_reduce_scatter(MPI_Comm comm, int p, int rank, int n, int variant, int uneven,
                                 int in_place)
{
    int total = 0, first = 0;
    for (int j = 0; j < p; j++) {
        first += j < rank ? rs_ints(j, n, uneven) : 0;
        total += rs_ints(j, n, uneven);
    }
    const int mine = rs_ints(rank, n, uneven);
    /* the element of the variant's layout (n = 2 fits every one) */
    layout T = red_layout(variant, total ? 2 : 0), M = red_layout(variant, mine);
    T.n = total;
    const long ts = (long)total / T.per * T.ext;
    int *sb = alloc_ints(ts), *rb = alloc_ints(ts > span(&M) ? ts : span(&M));
    int *counts = malloc(sizeof(int) * (size_t)p);
    const char *what = uneven ? (in_place ? "reduce_scatter in place" : "reduce_scatter")
                              : (in_place ? "reduce_scatter_block in place" : "reduce_scatter_block");
    for (int j = 0; j < p; j++)
        counts[j] = rs_ints(j, n, uneven) / T.per;
    cur_red = variant;
    for (int i = 0; i < total; i++)
        (in_place ? rb : sb)[pos(&T, i)] = red_in(rank, 0, i);
    if (uneven)
        MPI_Reduce_scatter(in_place ? MPI_IN_PLACE : sb, rb, counts, T.type, red_op(variant), comm);
    else
        MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : sb, rb, counts[0], T.type,
                                 red_op(variant), comm);
    /* this rank's block at the receive buffer's start */
    check_block(rb, 0, &M, red_out, 0, first, what, p);
    if (!in_place) {
        char *m = calloc((size_t)span(&M) + 4, 1);
        mark(m, 0, &M);
        check_holes(rb, m, span(&M) + 4, what, p);
        free(m);
    }
    free(sb), free(rb), free(counts);
}

/* MPI_MINLOC on MPI_DOUBLE_INT: a predefined type with holes (the library
 * serves it, on every process alike) */
static void check_double_int(MPI_Comm comm, int p, int rank)
{
    struct { double v; int at; } in[3], out[3];
    for (int root = -1; root < p; root++) {
        for (int e = 0; e < 3; e++)
            in[e].v = 0.5 * (p - rank) + e, in[e].at = rank, out[e].v = -1, out[e].at = -1;
        if (root < 0)
            MPI_Allreduce(in, out, 3, MPI_DOUBLE_INT, MPI_MINLOC, comm);
        else
            MPI_Reduce(in, out, 3, MPI_DOUBLE_INT, MPI_MINLOC, root, comm);
        for (int e = 0; e < 3 && (root < 0 || rank == root); e++)
            expect(out[e].v == 0.5 + e && out[e].at == p - 1, "data", "MPI_DOUBLE_INT minloc", p, e);
    }
}

/* ---- the intergroup allgather(v) between the two halves ---- */
static void check_intercomm(int p, int rank)
{
    MPI_Comm half, inter;
    const int low = rank < p / 2 || p == 1;
    if (p < 2)
        return;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? p / 2 : 0, 7, &inter);
    int rsize, lrank;
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(half, &lrank);
    const int base = low ? p / 2 : 0; /* the remote group's first world rank */
    for (int shift = 0; shift < NKIND; shift++) {
        layout S = make(kind_of(rank, shift), 4), R = make(kind_of(rank, shift + 1), 4);
        const long rs = (long)(R.count + 1) * R.ext * rsize;
        int *sb = alloc_ints(span(&S)), *rb = alloc_ints(rs);
        char *m = calloc((size_t)rs + 4, 1);
        put(sb, &S, val, rank, 0);
        MPI_Allgather(sb, S.count, S.type, rb, R.count, R.type, inter);
        for (int j = 0; j < rsize; j++) {
            check_block(rb, j * span(&R), &R, val, base + j, 0, "inter allgather", p);
            mark(m, j * span(&R), &R);
        }
        check_holes(rb, m, rs + 4, "inter allgather", p);
        /* allgatherv: the remote blocks one element of R apart, in reverse order */
        int *counts = malloc(sizeof(int) * (size_t)rsize * 2), *displs = counts + rsize;
        for (int j = 0; j < rsize; j++) {
            counts[j] = R.count;
            displs[j] = (rsize - 1 - j) * (R.count + 1);
        }
        for (long k = 0; k < rs + 4; k++)
            rb[k] = SENT, m[k] = 0;
        /* one send layout per group here: Open MPI 4.1's own intercommunicator
         * allgatherv gathers a group's blocks at its root in the root's send
         * datatype, with the senders' counts */
        layout G = make(kind_of(low, shift), 4);
        int *gb = alloc_ints(span(&G));
        put(gb, &G, val, rank, 0);
        MPI_Allgatherv(gb, G.count, G.type, rb, counts, displs, R.type, inter);
        free(gb);
        drop(&G);
        for (int j = 0; j < rsize; j++) {
            check_block(rb, displs[j] * R.ext, &R, val, base + j, 0, "inter allgatherv", p);
            mark(m, displs[j] * R.ext, &R);
        }
        check_holes(rb, m, rs + 4, "inter allgatherv", p);
        free(counts), free(sb), free(rb), free(m);
        drop(&S), drop(&R);
    }
    (void)lrank;
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    int p, intercomm = argc > 1 && !strcmp(argv[1], "--intercomm");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    cur_p = p;
    const MPI_Comm comm = MPI_COMM_WORLD;
    check_bcast(comm, p, wrank);
    static const int ns[] = {0, 4, 6};
    for (int k = 0; k < 3; k++)
        for (int shift = 0; shift < NKIND; shift++)
            for (int ip = 0; ip < 2; ip++) {
                check_allgather(comm, p, wrank, ns[k], shift, ip);
                check_alltoall(comm, p, wrank, ns[k], shift, ip);
                for (int root = 0; root < p; root++)
                    check_rooted(comm, p, wrank, ns[k], shift, root, ip);
            }
    for (int shift = 0; shift < 4; shift++)
        for (int ip = 0; ip < 2; ip++)
            check_alltoallv(comm, p, wrank, shift, ip);
    MPI_Type_contiguous(2, MPI_INT, &t_pair);
    MPI_Type_create_resized(MPI_INT, 0, 8, &t_res);
    MPI_Type_commit(&t_pair);
    MPI_Type_commit(&t_res);
    MPI_Op_create(user_sum_fn, 1, &user_sum);
    for (int variant = 0; variant < NRED; variant++)
        for (int ip = 0; ip < 2; ip++)
            for (int k = 0; k < 3; k++) {
                check_allreduce(comm, p, wrank, ns[k], variant, ip);
                for (int root = 0; root < p; root++)
                    check_reduce(comm, p, wrank, ns[k], variant, root, ip);
                check_reduce_scatter(comm, p, wrank, ns[k], variant, 0, ip);
                check_reduce_scatter(comm, p, wrank, ns[k], variant, 1, ip);
            }
    check_double_int(comm, p, wrank);
    MPI_Op_free(&user_sum);
    MPI_Type_free(&t_pair);
    MPI_Type_free(&t_res);
    if (intercomm)
        check_intercomm(p, wrank);
    long sums[2] = {checks, failed}, all[2];
    MPI_Reduce(sums, all, 2, MPI_LONG, MPI_SUM, 0, comm);
    if (wrank == 0)
        printf("mpi_mixed: %ld checks, %ld failed\n", all[0], all[1]);
    MPI_Finalize();
    (void)kind_name;
    return failed ? 1 : 0;
}
