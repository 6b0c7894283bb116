/* collsim-driver: the OSU-like benchmark that runs inside SMPI.
 *
 * For one collective (allgather or alltoall) and algorithm, over a list of
 * message sizes (bytes per block: per rank for allgather, per pair of ranks for
 * alltoall), it times the collective the way osu_allgather does (barrier, warm-up,
 * timed iterations, min/avg/max over ranks of each rank's mean) and, in `check`
 * mode, compares every received byte with its definition. With --np-list it
 * runs the whole benchmark on the sub-communicator made of the first p ranks,
 * for each p in the list, so that one smpirun covers many process counts.
 *
 * This program is launched by the host CLI (sim/host), not by users; its
 * options are an internal interface documented in usage(). */
#include <mpi.h>
#include <smpi/smpi.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"
#include "results.h"
#include "collsim_algorithms.h"

/* ---- the registry, built from the single list in algorithms.def ---- */
typedef struct {
    const char *collective;
    const char *name;
    collsim_block_coll_fn fn;
} driver_alg;

static const driver_alg driver_algs[] = {
#define COLLSIM_ALG(coll, name, fn, paper, section, restriction) {#coll, #name, fn},
#include "algorithms.def"
#undef COLLSIM_ALG
};

/* The built-in SMPI implementations, selected by the host with --cfg options. */
static int native_allgather(COLLSIM_ALLGATHER_ARGS)
{
    return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

static int native_alltoall(COLLSIM_ALLTOALL_ARGS)
{
    return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

/* ---- what differs between collectives: one descriptor each ----
 * Both move blocks of `bytes` (count x dtype); the receive buffer holds p
 * blocks, slot j coming from rank j. They differ in the send buffer (one
 * block, or p blocks with block j for rank j) and in what a block contains:
 * block_id(src, dst, p) names the data rank src sends to rank dst (see the
 * data definition below). */
typedef struct {
    const char *name;
    collsim_block_coll_fn native;
    int send_blocks_per_rank; /* 0: one block; 1: p blocks */
    int in_place_ok;
    long (*block_id)(int src, int dst, int p);
} coll_desc;

static long allgather_block_id(int src, int dst, int p)
{
    (void)dst;
    (void)p;
    return src; /* the same block to everyone */
}

static long alltoall_block_id(int src, int dst, int p)
{
    return (long)src * p + dst; /* a different block per pair */
}

static const coll_desc coll_descs[] = {
    {"allgather", native_allgather, 0, 1, allgather_block_id},
    {"alltoall", native_alltoall, 1, 0, alltoall_block_id},
};

static int send_blocks(const coll_desc *c, int p) { return c->send_blocks_per_rank ? p : 1; }

typedef struct {
    const char *coll;
    const char *alg;
    const coll_desc *desc; /* NULL for pingpong */
    collsim_block_coll_fn fn;
    long *sizes;
    int nsizes;
    long *nps;
    int nnps;
    int fold;
    int iters;
    int warmup;
    int in_place;
    int pingpong; /* --coll pingpong: point-to-point timing, see pingpong_comm */
    MPI_Datatype dtype;
    const char *dtype_name;
    const char *csv_path;
    /* test hook: COLLSIM_FAULT=rank:block:offset flips that received byte after
     * each call, so the tests can prove that the data check catches errors */
    long fault_rank, fault_block, fault_offset;
} driver_opts;

static void usage(void)
{
    fprintf(stderr,
            "usage: collsim-driver --coll allgather|alltoall|pingpong --alg NAME|native --sizes B1,B2,...\n"
            "         [--mode check|fold] [--iters K] [--warmup W] [--dtype byte|int|double]\n"
            "         [--np-list P1,P2,...] [--in-place] [--csv FILE]\n"
            "Environment: COLLSIM_FAULT=rank:block:offset corrupts that received byte (tests).\n");
}

static int parse_long_list(const char *text, long **out)
{
    int n = 1;
    for (const char *c = text; *c; c++)
        n += (*c == ',');
    long *v = malloc(sizeof(long) * (size_t)n);
    int k = 0;
    const char *c = text;
    while (*c) {
        char *end;
        errno = 0;
        long x = strtol(c, &end, 10);
        if (end == c || errno || x < 0 || (*end && *end != ',')) {
            free(v);
            return -1;
        }
        v[k++] = x;
        c = *end ? end + 1 : end;
    }
    *out = v;
    return k;
}

static int parse_args(int argc, char **argv, driver_opts *o)
{
    memset(o, 0, sizeof *o);
    o->iters = 3;
    o->warmup = 1;
    o->dtype = MPI_BYTE;
    o->dtype_name = "byte";
    const char *sizes = NULL, *nps = NULL;
    o->fault_rank = -1;
    const char *fault = getenv("COLLSIM_FAULT");
    if (fault && sscanf(fault, "%ld:%ld:%ld", &o->fault_rank, &o->fault_block, &o->fault_offset) != 3) {
        fprintf(stderr, "collsim-driver: COLLSIM_FAULT='%s' is not rank:block:offset\n", fault);
        return -1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--in-place")) {
            o->in_place = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "collsim-driver: option %s needs a value\n", a);
            return -1;
        }
        i++;
        if (!strcmp(a, "--coll")) o->coll = v;
        else if (!strcmp(a, "--alg")) o->alg = v;
        else if (!strcmp(a, "--sizes")) sizes = v;
        else if (!strcmp(a, "--np-list")) nps = v;
        else if (!strcmp(a, "--csv")) o->csv_path = v;
        else if (!strcmp(a, "--iters")) o->iters = atoi(v);
        else if (!strcmp(a, "--warmup")) o->warmup = atoi(v);
        else if (!strcmp(a, "--mode")) {
            if (!strcmp(v, "fold")) o->fold = 1;
            else if (strcmp(v, "check")) {
                fprintf(stderr, "collsim-driver: unknown mode '%s' (valid: check, fold)\n", v);
                return -1;
            }
        } else if (!strcmp(a, "--dtype")) {
            o->dtype_name = v;
            if (!strcmp(v, "byte")) o->dtype = MPI_BYTE;
            else if (!strcmp(v, "int")) o->dtype = MPI_INT;
            else if (!strcmp(v, "double")) o->dtype = MPI_DOUBLE;
            else {
                fprintf(stderr, "collsim-driver: unknown dtype '%s' (valid: byte, int, double)\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "collsim-driver: unknown option '%s'\n", a);
            return -1;
        }
    }
    if (!o->coll || !o->alg || !sizes) {
        usage();
        return -1;
    }
    o->pingpong = !strcmp(o->coll, "pingpong");
    for (size_t k = 0; k < sizeof coll_descs / sizeof coll_descs[0]; k++)
        if (!strcmp(coll_descs[k].name, o->coll))
            o->desc = &coll_descs[k];
    if (!o->desc && !o->pingpong) {
        fprintf(stderr, "collsim-driver: unknown collective '%s' (valid: allgather, alltoall, pingpong)\n",
                o->coll);
        return -1;
    }
    if (o->desc && o->in_place && !o->desc->in_place_ok) {
        fprintf(stderr, "collsim-driver: --in-place is not supported for %s\n", o->coll);
        return -1;
    }
    if (o->pingpong) {
        /* no algorithm: pingpong_comm is the whole benchmark */
    } else if (!strcmp(o->alg, "native")) {
        o->fn = o->desc->native;
    } else {
        for (size_t k = 0; k < sizeof driver_algs / sizeof driver_algs[0]; k++)
            if (!strcmp(driver_algs[k].collective, o->coll) && !strcmp(driver_algs[k].name, o->alg))
                o->fn = driver_algs[k].fn;
        if (!o->fn) {
            fprintf(stderr, "collsim-driver: unknown algorithm '%s/%s'\n", o->coll, o->alg);
            return -1;
        }
    }
    if ((o->nsizes = parse_long_list(sizes, &o->sizes)) <= 0) {
        fprintf(stderr, "collsim-driver: bad --sizes '%s' (comma-separated byte counts)\n", sizes);
        return -1;
    }
    if (nps && (o->nnps = parse_long_list(nps, &o->nps)) <= 0) {
        fprintf(stderr, "collsim-driver: bad --np-list '%s'\n", nps);
        return -1;
    }
    if (o->iters < 1 || o->warmup < 0) {
        fprintf(stderr, "collsim-driver: --iters must be >= 1 and --warmup >= 0\n");
        return -1;
    }
    int tsize;
    MPI_Type_size(o->dtype, &tsize);
    for (int k = 0; k < o->nsizes; k++)
        if (o->sizes[k] % tsize) {
            fprintf(stderr, "collsim-driver: size %ld is not a multiple of the %s size (%d)\n",
                    o->sizes[k], o->dtype_name, tsize);
            return -1;
        }
    return 0;
}

/* ---- data definition for check mode ----
 * The block with id b (block_id(src, dst, p): src for allgather, src*p + dst
 * for alltoall) is the window of a fixed pseudo-random byte sequence that
 * starts at offset (b * STRIDE) mod PRIME. Different blocks are therefore
 * different shifts of one sequence, so a block landing in the wrong slot,
 * shifted or truncated is caught while ids stay below PRIME (p < PRIME for
 * allgather, p*p < PRIME, i.e. p <= 1000, for alltoall); and filling, poisoning and checking are memcpy/memcmp, fast
 * enough to check every p in 1..64 at 64 KiB in seconds. The poison written
 * before each call is the complement, so a slot never written cannot pass. */
#define PATTERN_PRIME 1000003L
#define PATTERN_STRIDE 7919L

/* Shared by all ranks (privatization is off): built once, read-only after. */
static unsigned char *pattern, *antipattern;
static long pattern_len;

static void pattern_init(long maxbytes)
{
    if (pattern)
        return;
    pattern_len = PATTERN_PRIME + maxbytes;
    pattern = malloc((size_t)pattern_len + 1);
    antipattern = malloc((size_t)pattern_len + 1);
    uint32_t x = 2463534242u; /* xorshift32: deterministic, no libc state */
    for (long i = 0; i < pattern_len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        pattern[i] = (unsigned char)(x >> 24);
        antipattern[i] = (unsigned char)~pattern[i];
    }
}

static inline long pattern_offset(long id) { return (id * PATTERN_STRIDE) % PATTERN_PRIME; }

/* Send block t of `rank` is what it sends to rank t (to everyone if only one). */
static void fill_send(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes)
{
    for (int t = 0; t < send_blocks(c, p); t++)
        memcpy(buf + (size_t)t * (size_t)bytes, pattern + pattern_offset(c->block_id(rank, t, p)),
               (size_t)bytes);
}

static void poison_recv(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes)
{
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)j * (size_t)bytes,
               antipattern + pattern_offset(c->block_id(j, rank, p)), (size_t)bytes);
}

typedef struct {
    long block, offset;
    int expected, got;
    int bad;
    int in_send; /* the send buffer was modified (block: its send block) */
} check_result;

static check_result first_difference(const unsigned char *got, const unsigned char *want,
                                     long block, long bytes, int in_send)
{
    for (long i = 0; i < bytes; i++)
        if (got[i] != want[i])
            return (check_result){block, i, want[i], got[i], 1, in_send};
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* Receive slot j must hold what rank j sends to `rank`; the send buffer must
 * be as filled. The first difference is reported by block and offset. */
static check_result verify(const coll_desc *c, const unsigned char *recv,
                           const unsigned char *send, int rank, int p, long bytes)
{
    for (int t = 0; t < send_blocks(c, p); t++) {
        const unsigned char *got = send + (size_t)t * (size_t)bytes;
        const unsigned char *want = pattern + pattern_offset(c->block_id(rank, t, p));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, t, bytes, 1);
    }
    for (int j = 0; j < p; j++) {
        const unsigned char *got = recv + (size_t)j * (size_t)bytes;
        const unsigned char *want = pattern + pattern_offset(c->block_id(j, rank, p));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, j, bytes, 0);
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* ---- folded memory, in fold mode ---- */
static int folded_users; /* ranks still using the folded buffer */

static void *fold_alloc(size_t bytes) { return SMPI_SHARED_MALLOC(bytes ? bytes : 1); }
static void fold_free(void *ptr) { SMPI_SHARED_FREE(ptr); }

/* ---- the driver's own synchronisation ----
 * SMPI's default barrier and reduce are linear (the root waits on p-1
 * requests at once, O(p^2) work for the simulator): fine at 64 ranks, hours at
 * 32K. The driver therefore uses its own logarithmic ones, the same for every
 * algorithm benchmarked (and independent of a native:<selector> baseline). */

/* Dissemination barrier (Hensgen, Finkel, Manber 1988): ceil(log2 p) rounds. */
static void driver_barrier(MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int d = 1; d < p; d <<= 1) {
        char out = 0, in;
        MPI_Sendrecv(&out, 0, MPI_BYTE, (rank + d) % p, 77, &in, 0, MPI_BYTE, (rank - d + p) % p, 77,
                     comm, MPI_STATUS_IGNORE);
    }
}

/* What rank 0 needs of one size: timing statistics and the first failure. */
typedef struct {
    double sum_us, min_us, max_us;
    int bad_rank; /* lowest failing rank, p if none */
    int err;
    check_result cr;
} size_stats;

static void merge_stats(size_stats *acc, const size_stats *in)
{
    acc->sum_us += in->sum_us;
    if (in->min_us < acc->min_us)
        acc->min_us = in->min_us;
    if (in->max_us > acc->max_us)
        acc->max_us = in->max_us;
    if (in->bad_rank < acc->bad_rank) {
        acc->bad_rank = in->bad_rank;
        acc->err = in->err;
        acc->cr = in->cr;
    }
}

/* Binomial-tree reduction of size_stats to rank 0. */
static void reduce_stats(size_stats *st, MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rank & mask) {
            MPI_Send(st, (int)sizeof *st, MPI_BYTE, rank - mask, 78, comm);
            return;
        }
        if (rank + mask < p) {
            size_stats in;
            MPI_Recv(&in, (int)sizeof in, MPI_BYTE, rank + mask, 78, comm, MPI_STATUS_IGNORE);
            merge_stats(st, &in);
        }
    }
}

/* One CSV row (analysis/results.h, the format every collsim tool reads) with
 * what the driver knows: the host fills platform, mapping and ppn. */
static void write_row(FILE *csv, const driver_opts *o, int p, long bytes, long long data_bytes,
                      double avg_us, double min_us, double max_us, int ok)
{
    cs_result r;
    cs_result_init(&r);
    r.np = p;
    snprintf(r.collective, sizeof r.collective, "%s", o->coll);
    snprintf(r.algorithm, sizeof r.algorithm, "%s", o->alg);
    snprintf(r.dtype, sizeof r.dtype, "%s", o->dtype_name);
    snprintf(r.mode, sizeof r.mode, "%s", o->fold ? "fold" : "check");
    r.bytes = bytes;
    r.data_bytes = data_bytes;
    r.avg_us = avg_us;
    r.min_us = min_us;
    r.max_us = max_us;
    r.iterations = o->iters;
    snprintf(r.status, sizeof r.status, "%s", ok ? "ok" : "fail");
    cs_results_write_row(csv, &r);
}

/* Run every size on `comm`; append CSV rows (rank 0); return the number of
 * sizes whose validation failed. */
static int bench_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
                      unsigned char *recvbuf, FILE *csv)
{
    int rank, p, tsize, failures = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Type_size(o->dtype, &tsize);
    if (rank == 0) {
        printf("# collsim %s/%s np=%d mode=%s dtype=%s%s\n", o->coll, o->alg, p,
               o->fold ? "fold" : "check", o->dtype_name, o->in_place ? " in-place" : "");
        printf("%-10s %18s %18s %18s %12s %12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
               "Max Latency(us)", "Iterations", "Validation");
    }
    for (int s = 0; s < o->nsizes; s++) {
        long bytes = o->sizes[s];
        int count = (int)(bytes / tsize);
        check_result cr = {0, 0, 0, 0, 0, 0};
        int err = MPI_SUCCESS;
        if (!o->fold)
            fill_send(o->desc, sendbuf, rank, p, bytes);
        double elapsed = 0.0;
        for (int it = 0; it < o->warmup + o->iters; it++) {
            if (!o->fold)
                poison_recv(o->desc, recvbuf, rank, p, bytes);
            if (o->in_place) /* MPI_IN_PLACE: own block already in its slot */
                memcpy(recvbuf + (size_t)rank * (size_t)bytes, sendbuf, (size_t)bytes);
            driver_barrier(comm);
            double t0 = MPI_Wtime();
            int e = o->fn(o->in_place ? MPI_IN_PLACE : sendbuf, count, o->dtype, recvbuf, count,
                          o->dtype, comm);
            double t1 = MPI_Wtime();
            if (rank == o->fault_rank && o->fault_block < p && o->fault_offset < bytes)
                recvbuf[o->fault_block * bytes + o->fault_offset] ^= 0x5a;
            if (e != MPI_SUCCESS)
                err = e;
            if (it >= o->warmup)
                elapsed += t1 - t0;
            /* check the first call and the last one: a wrong first result, or
             * state leaking from one call into the next, are both caught. */
            if (!o->fold && !cr.bad && (it == 0 || it == o->warmup + o->iters - 1))
                cr = verify(o->desc, recvbuf, sendbuf, rank, p, bytes);
        }
        double mean_us = elapsed / o->iters * 1e6;
        int failed = cr.bad || err != MPI_SUCCESS;
        size_stats st = {mean_us, mean_us, mean_us, failed ? rank : p, err, cr};
        reduce_stats(&st, comm);
        int first_bad = st.bad_rank;
        if (rank == 0 && first_bad < p) {
            if (st.err != MPI_SUCCESS)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: algorithm returned MPI error %d\n",
                        o->coll, o->alg, p, bytes, first_bad, st.err);
            else if (st.cr.in_send && !o->desc->send_blocks_per_rank)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer at offset %ld\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.offset);
            else if (st.cr.in_send)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer, "
                                "block %ld, offset %ld\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.block, st.cr.offset);
            else
                fprintf(stderr,
                        "collsim: %s/%s np=%d size=%ld: check failed on rank %d, block %ld, offset %ld: "
                        "expected 0x%02x, got 0x%02x\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.block, st.cr.offset,
                        st.cr.expected, st.cr.got);
        }
        double sum_us = st.sum_us, min_us = st.min_us, max_us = st.max_us;
        const char *status = first_bad < p ? "FAIL" : (o->fold ? "unchecked" : "Pass");
        failures += first_bad < p;
        if (rank == 0) {
            printf("%-10ld %18.2f %18.2f %18.2f %12d %12s\n", bytes, sum_us / p, min_us, max_us,
                   o->iters, status);
            if (csv)
                /* allgather and alltoall: every rank has p-1 blocks of `bytes` for others */
                write_row(csv, o, p, bytes, (long long)p * (p - 1) * bytes, sum_us / p, min_us,
                          max_us, first_bad >= p);
        }
    }
    if (rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}

/* ---- --coll pingpong: the point-to-point times behind the cost models ----
 * Ranks 0 and 1 bounce one message of each size back and forth (rank 1 echoes
 * what it received, so check mode verifies the round trip); the row reports
 * rank 0's one-way time = round trip / 2 as avg, min and max, in the same CSV
 * format as the collectives. Other ranks take no part. The host fits the
 * Hockney alpha and beta to these rows (sim/host/postal.c). */
static int pingpong_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
                         unsigned char *recvbuf, FILE *csv)
{
    int rank, p, tsize, failures = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Type_size(o->dtype, &tsize);
    if (p < 2) {
        if (rank == 0)
            fprintf(stderr, "collsim-driver: pingpong needs at least 2 ranks (got %d)\n", p);
        return o->nsizes;
    }
    if (rank == 0) {
        printf("# collsim pingpong rank 0 <-> rank 1, one-way time = round trip / 2, mode=%s\n",
               o->fold ? "fold" : "check");
        printf("%-10s %18s %12s %12s\n", "# Size", "One-way(us)", "Iterations", "Validation");
    }
    if (rank > 1)
        return 0;
    const int peer = 1 - rank;
    for (int s = 0; s < o->nsizes; s++) {
        long bytes = o->sizes[s];
        int count = (int)(bytes / tsize), bad = 0;
        if (!o->fold && rank == 0)
            memcpy(sendbuf, pattern, (size_t)bytes);
        double elapsed = 0.0;
        for (int it = 0; it < o->warmup + o->iters; it++) {
            if (!o->fold)
                memcpy(recvbuf, antipattern, (size_t)bytes);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(sendbuf, count, o->dtype, peer, 79, comm);
                MPI_Recv(recvbuf, count, o->dtype, peer, 79, comm, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(recvbuf, count, o->dtype, peer, 79, comm, MPI_STATUS_IGNORE);
                MPI_Send(recvbuf, count, o->dtype, peer, 79, comm);
            }
            double t1 = MPI_Wtime();
            if (it >= o->warmup)
                elapsed += t1 - t0;
            if (!o->fold && rank == 0 && memcmp(recvbuf, sendbuf, (size_t)bytes))
                bad = 1;
        }
        if (rank != 0)
            continue;
        double one_way_us = elapsed / o->iters / 2 * 1e6;
        failures += bad;
        if (bad)
            fprintf(stderr, "collsim: pingpong size=%ld: the echoed message differs from the one sent\n",
                    bytes);
        printf("%-10ld %18.4f %12d %12s\n", bytes, one_way_us, o->iters,
               bad ? "FAIL" : (o->fold ? "unchecked" : "Pass"));
        if (csv)
            write_row(csv, o, p, bytes, 2LL * bytes, one_way_us, one_way_us, one_way_us, !bad);
    }
    if (rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    driver_opts o;
    if (parse_args(argc, argv, &o)) {
        MPI_Finalize();
        return 2;
    }
    long maxbytes = 0;
    for (int s = 0; s < o.nsizes; s++)
        if (o.sizes[s] > maxbytes)
            maxbytes = o.sizes[s];
    if (o.nnps == 0) {
        o.nps = malloc(sizeof(long));
        o.nps[0] = wsize;
        o.nnps = 1;
    }
    for (int k = 0; k < o.nnps; k++)
        if (o.nps[k] < 1 || o.nps[k] > wsize) {
            if (wrank == 0)
                fprintf(stderr, "collsim-driver: np %ld outside 1..%d (the number of simulated ranks)\n",
                        o.nps[k], wsize);
            MPI_Finalize();
            return 2;
        }

    unsigned char *sendbuf, *recvbuf;
    /* sized for the largest p: one or p send blocks, p receive blocks */
    size_t sendbytes = (size_t)maxbytes * (size_t)(o.desc ? send_blocks(o.desc, wsize) : 1),
           recvbytes = (size_t)maxbytes * (size_t)wsize;
    if (o.fold) {
        /* Folded: one SMPI shared allocation serves every rank (privatization is
         * off, so this static is common to all ranks, and ranks run one at a
         * time). All ranks see the same bytes and SMPI skips payload copies.
         * One allocation rather than one per rank: each SMPI_SHARED_MALLOC
         * costs memory maps, and 2 per rank exceed the kernel's 65,530 at 32K
         * ranks. */
        static unsigned char *folded;
        if (!folded)
            folded = SMPI_SHARED_MALLOC(sendbytes + recvbytes + 1);
        folded_users++;
        sendbuf = folded;
        recvbuf = folded + sendbytes;
        coll_set_scratch_allocator(fold_alloc, fold_free);
    } else {
        pattern_init(maxbytes);
        sendbuf = malloc(sendbytes ? sendbytes : 1);
        recvbuf = malloc(recvbytes ? recvbytes : 1);
        if (!sendbuf || !recvbuf) {
            fprintf(stderr, "collsim-driver: rank %d cannot allocate %zu bytes of real buffers; "
                            "use --fold at this scale\n", wrank, sendbytes + recvbytes);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }

    FILE *csv = NULL;
    if (wrank == 0 && o.csv_path) {
        csv = fopen(o.csv_path, "a");
        if (!csv) {
            fprintf(stderr, "collsim-driver: cannot open %s: %s\n", o.csv_path, strerror(errno));
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        if (ftell(csv) == 0)
            cs_results_write_header(csv);
    }

    int failures = 0;
    for (int k = 0; k < o.nnps; k++) {
        int p = (int)o.nps[k];
        MPI_Comm comm;
        if (p == wsize) {
            comm = MPI_COMM_WORLD;
        } else {
            MPI_Comm_split(MPI_COMM_WORLD, wrank < p ? 0 : MPI_UNDEFINED, wrank, &comm);
        }
        if (comm != MPI_COMM_NULL) {
            failures += o.pingpong ? pingpong_comm(&o, comm, sendbuf, recvbuf, csv)
                                   : bench_comm(&o, comm, sendbuf, recvbuf, csv);
            if (comm != MPI_COMM_WORLD)
                MPI_Comm_free(&comm);
        }
        /* ranks outside the sub-communicator wait here, sending nothing */
        driver_barrier(MPI_COMM_WORLD);
    }

    if (csv)
        fclose(csv);
    if (o.fold) {
        if (--folded_users == 0)
            SMPI_SHARED_FREE(sendbuf);
    } else {
        free(sendbuf);
        free(recvbuf);
    }
    free(o.sizes);
    free(o.nps);
    MPI_Finalize();
    return failures ? 1 : 0;
}
