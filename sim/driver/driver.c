/* collsim-driver: the OSU-like benchmark that runs inside SMPI.
 *
 * For one collective and algorithm, over a list of message sizes (bytes per
 * rank), it times the collective the way osu_allgather does (barrier, warm-up,
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
#include "collsim_algorithms.h"

/* ---- the registry, built from the single list in algorithms.def ---- */
typedef struct {
    const char *collective;
    const char *name;
    collsim_allgather_fn fn;
} driver_alg;

static const driver_alg driver_algs[] = {
#define COLLSIM_ALG(coll, name, fn, paper, section, restriction) {#coll, #name, fn},
#include "algorithms.def"
#undef COLLSIM_ALG
};

/* The built-in SMPI implementation, selected by the host with --cfg options. */
static int native_allgather(COLLSIM_ALLGATHER_ARGS)
{
    return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

typedef struct {
    const char *coll;
    const char *alg;
    collsim_allgather_fn fn;
    long *sizes;
    int nsizes;
    long *nps;
    int nnps;
    int fold;
    int iters;
    int warmup;
    int in_place;
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
            "usage: collsim-driver --coll allgather --alg NAME|native --sizes B1,B2,...\n"
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
    if (strcmp(o->coll, "allgather")) {
        fprintf(stderr, "collsim-driver: unknown collective '%s' (valid: allgather)\n", o->coll);
        return -1;
    }
    if (!strcmp(o->alg, "native")) {
        o->fn = native_allgather;
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
 * Byte `off` of the block contributed by rank `src` has a value that depends on
 * both, so that a block landing in the wrong slot or shifted is caught. The
 * poison written before each call is its complement, so a slot never written
 * can never pass by chance. */
static inline unsigned char expected_byte(long src, long off)
{
    uint32_t h = (uint32_t)src * 2654435761u ^ (uint32_t)off * 40503u;
    return (unsigned char)(h ^ (h >> 13) ^ (h >> 24));
}

static void fill_send(unsigned char *buf, int rank, long bytes)
{
    for (long i = 0; i < bytes; i++)
        buf[i] = expected_byte(rank, i);
}

static void poison_recv(unsigned char *buf, int p, long bytes)
{
    for (long j = 0; j < p; j++)
        for (long i = 0; i < bytes; i++)
            buf[j * bytes + i] = (unsigned char)~expected_byte(j, i);
}

typedef struct {
    long block, offset;
    int expected, got;
    int bad;
} check_result;

static check_result verify(const unsigned char *recv, const unsigned char *send, int rank, int p,
                           long bytes)
{
    check_result r = {0, 0, 0, 0, 0};
    for (long i = 0; i < bytes; i++)
        if (send[i] != expected_byte(rank, i)) {
            r = (check_result){-1, i, expected_byte(rank, i), send[i], 1};
            return r; /* block -1: the send buffer was modified */
        }
    for (long j = 0; j < p; j++)
        for (long i = 0; i < bytes; i++)
            if (recv[j * bytes + i] != expected_byte(j, i)) {
                r = (check_result){j, i, expected_byte(j, i), recv[j * bytes + i], 1};
                return r;
            }
    return r;
}

/* ---- folded scratch memory for algorithms, in fold mode ---- */
static void *fold_alloc(size_t bytes) { return SMPI_SHARED_MALLOC(bytes ? bytes : 1); }
static void fold_free(void *ptr) { SMPI_SHARED_FREE(ptr); }

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
        check_result cr = {0, 0, 0, 0, 0};
        int err = MPI_SUCCESS;
        if (!o->fold)
            fill_send(sendbuf, rank, bytes);
        double elapsed = 0.0;
        for (int it = 0; it < o->warmup + o->iters; it++) {
            if (!o->fold)
                poison_recv(recvbuf, p, bytes);
            if (o->in_place) /* MPI_IN_PLACE: own block already in its slot */
                memcpy(recvbuf + (size_t)rank * (size_t)bytes, sendbuf, (size_t)bytes);
            MPI_Barrier(comm);
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
                cr = verify(recvbuf, sendbuf, rank, p, bytes);
        }
        double mean_us = elapsed / o->iters * 1e6;
        double sum_us, min_us, max_us;
        MPI_Reduce(&mean_us, &sum_us, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
        MPI_Reduce(&mean_us, &min_us, 1, MPI_DOUBLE, MPI_MIN, 0, comm);
        MPI_Reduce(&mean_us, &max_us, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
        /* the lowest failing rank reports the first wrong byte it saw */
        int bad_rank = (cr.bad || err != MPI_SUCCESS) ? rank : p, first_bad;
        MPI_Allreduce(&bad_rank, &first_bad, 1, MPI_INT, MPI_MIN, comm);
        if (first_bad == rank) {
            if (err != MPI_SUCCESS)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: algorithm returned MPI error %d\n",
                        o->coll, o->alg, p, bytes, rank, err);
            else if (cr.block < 0)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer at offset %ld\n",
                        o->coll, o->alg, p, bytes, rank, cr.offset);
            else
                fprintf(stderr,
                        "collsim: %s/%s np=%d size=%ld: check failed on rank %d, block %ld, offset %ld: "
                        "expected 0x%02x, got 0x%02x\n",
                        o->coll, o->alg, p, bytes, rank, cr.block, cr.offset, cr.expected, cr.got);
        }
        const char *status = first_bad < p ? "FAIL" : (o->fold ? "unchecked" : "Pass");
        failures += first_bad < p;
        if (rank == 0) {
            printf("%-10ld %18.2f %18.2f %18.2f %12d %12s\n", bytes, sum_us / p, min_us, max_us,
                   o->iters, status);
            if (csv)
                fprintf(csv, "%d,%s,%s,%s,%s,%ld,%.17g,%.17g,%.17g,%d,%s\n", p, o->coll, o->alg,
                        o->dtype_name, o->fold ? "fold" : "check", bytes, sum_us / p, min_us, max_us,
                        o->iters, first_bad < p ? "fail" : "ok");
        }
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
    size_t sendbytes = (size_t)maxbytes, recvbytes = (size_t)maxbytes * (size_t)wsize;
    if (o.fold) {
        /* folded: all ranks share the same physical pages; SMPI skips payload copies */
        sendbuf = SMPI_SHARED_MALLOC(sendbytes ? sendbytes : 1);
        recvbuf = SMPI_SHARED_MALLOC(recvbytes ? recvbytes : 1);
        coll_set_scratch_allocator(fold_alloc, fold_free);
    } else {
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
            failures += bench_comm(&o, comm, sendbuf, recvbuf, csv);
            if (comm != MPI_COMM_WORLD)
                MPI_Comm_free(&comm);
        }
        /* ranks outside the sub-communicator wait here, sending nothing */
        MPI_Barrier(MPI_COMM_WORLD);
    }

    if (csv)
        fclose(csv);
    if (o.fold) {
        SMPI_SHARED_FREE(sendbuf);
        SMPI_SHARED_FREE(recvbuf);
    } else {
        free(sendbuf);
        free(recvbuf);
    }
    free(o.sizes);
    free(o.nps);
    MPI_Finalize();
    return failures ? 1 : 0;
}
