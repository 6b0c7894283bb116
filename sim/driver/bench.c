/* The timing loop (bench.h): for each size, osu_allgather's shape (barrier,
 * warm-up, timed iterations, min/avg/max over ranks of each rank's mean), the
 * slowest rank of each call averaged over the calls, the root's mean (gather,
 * scatter), the data check of the first and the last call, one call counted
 * per level. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "bench_sig.h"
#include "coll_locality.h"
#include "cost.h"

/* ---- the driver's own synchronisation ----
 * SMPI's default barrier and reduce are linear (the root waits on p-1
 * requests at once, O(p^2) work for the simulator): fine at 64 ranks, hours at
 * 32K. The driver therefore uses its own logarithmic ones, the same for every
 * algorithm benchmarked (and independent of a native:<selector> baseline). */
void driver_barrier(MPI_Comm comm)
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

/* Element-wise maximum of n doubles over comm, on rank 0 (a binomial tree,
 * after the timed calls). */
static void reduce_max(double *v, int n, MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    double *in = malloc(sizeof(double) * (size_t)n);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rank & mask) {
            MPI_Send(v, n, MPI_DOUBLE, rank - mask, 79, comm);
            break;
        }
        if (rank + mask < p) {
            MPI_Recv(in, n, MPI_DOUBLE, rank + mask, 79, comm, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++)
                if (in[i] > v[i])
                    v[i] = in[i];
        }
    }
    free(in);
}

/* The regions are part of the communicator, not of the timed call (see
 * algorithms.def, `setup`); not counted by the accounting either. The
 * barrier first: every rank installs the locality provider after MPI_Init
 * (coll_loc_file_init), which invalidates the caches, so no rank may build
 * before all have installed it. */
static void prepare_regions(const bench_ctx *b)
{
    driver_barrier(b->comm);
    int e = coll_loc_prepare(b->comm);
    /* the node-level two-level gathers and scatters split the whole
     * communicator by node, whatever the region level */
    const coll_loc_info *node_info;
    if (e == MPI_SUCCESS && b->o->desc->props->rooted && coll_loc_level_index("node") >= 0)
        e = coll_loc_info_get(b->comm, coll_loc_level_index("node"), &node_info);
    if (e != MPI_SUCCESS) {
        fprintf(stderr, "collsim-driver: rank %d: building the %s regions failed (MPI error %d)\n",
                b->rank, coll_loc_region_level_name(), e);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

static void print_header(const driver_opts *o, int p)
{
    char info[96] = "";
    if (o->desc->sig->info)
        o->desc->sig->info(o, info, sizeof info);
    printf("# collsim %s/%s np=%d mode=%s dtype=%s%s%s\n", o->coll, o->alg, p,
           o->fold ? "fold" : "check", o->dtype, o->in_place ? " in-place" : "", info);
    if (o->desc->sig->legend)
        o->desc->sig->legend(o);
    printf("%-10s %18s %18s %18s %12s %12s%s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
           "Max Latency(us)", "Iterations", "Validation",
           o->desc->props->rooted ? "      CallMax(us)         Root(us)" : "");
}

/* This rank's side of one size's calls. */
typedef struct {
    double elapsed; /* seconds, summed over the timed calls */
    double *call;   /* [iters]: seconds of each timed call */
    int err;        /* an MPI error an algorithm returned, or MPI_SUCCESS */
    check_result cr;
} size_run;

/* The warm-up and timed calls of one size, each after fresh poison and a
 * barrier; the send buffer is filled already. */
static size_run run_calls(const bench_ctx *b, long bytes, int count)
{
    const driver_opts *o = b->o;
    const drv_sig *sig = o->desc->sig;
    /* MPI_IN_PLACE on every rank, or at the root only (collectives.def) */
    const int in_place = o->in_place && (o->desc->props->in_place_rule == CS_IN_PLACE_all ||
                                         b->rank == o->root);
    size_run r = {0.0, calloc((size_t)o->iters, sizeof(double)), MPI_SUCCESS, {0, 0, 0, 0, 0, 0}};
    for (int it = 0; it < o->warmup + o->iters; it++) {
        sig->poison(b, bytes, in_place);
        driver_barrier(b->comm);
        /* one timed call is counted (account.h): the algorithms are deterministic */
        const int count_it = b->counted && it == o->warmup;
        if (count_it)
            acct_begin();
        cost_begin();
        double t0 = MPI_Wtime();
        int e = sig->call(b, count, in_place);
        cost_end(); /* the rank's pending local work and overheads, before t1 */
        double t1 = MPI_Wtime();
        if (count_it)
            acct_end();
        sig->fault(b, bytes);
        if (e != MPI_SUCCESS)
            r.err = e;
        if (it >= o->warmup) {
            r.elapsed += t1 - t0;
            r.call[it - o->warmup] = t1 - t0;
        }
        /* check the first call and the last one: a wrong first result, or
         * state leaking from one call into the next, are both caught. */
        if (!o->fold && !r.cr.bad && (it == 0 || it == o->warmup + o->iters - 1))
            r.cr = sig->verify(b, bytes, in_place);
    }
    return r;
}

/* Rank 0: why the lowest failing rank failed. */
static void report_failure(const driver_opts *o, int p, long bytes, const size_stats *st)
{
    const int first_bad = st->bad_rank;
    if (st->err != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        MPI_Error_string(st->err, text, &len);
        fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: algorithm returned MPI error %d "
                        "(%s)\n", o->coll, o->alg, p, bytes, first_bad, st->err, text);
    } else if (st->cr.block == -2)
        fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: the algorithm modified the "
                        "caller's %s[%ld]\n",
                o->coll, o->alg, p, bytes, first_bad,
                (const char *[]){"sendcounts", "sdispls", "recvcounts", "rdispls"}[st->cr.offset / p],
                st->cr.offset % p);
    else if (st->cr.block < 0)
        fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d wrote outside the blocks of "
                        "its %s buffer, after its last block (%ld bytes before the end)\n",
                o->coll, o->alg, p, bytes, first_bad, st->cr.in_send ? "send" : "receive",
                -st->cr.offset);
    else if (st->cr.offset < 0)
        fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d wrote outside the blocks of "
                        "its %s buffer, %ld bytes before block %ld\n",
                o->coll, o->alg, p, bytes, first_bad, st->cr.in_send ? "send" : "receive",
                -st->cr.offset, st->cr.block);
    else if (st->cr.in_send && !o->desc->props->send_blocks_per_rank)
        fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer at offset %ld\n",
                o->coll, o->alg, p, bytes, first_bad, st->cr.offset);
    else if (st->cr.in_send)
        fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer, "
                        "block %ld, offset %ld\n",
                o->coll, o->alg, p, bytes, first_bad, st->cr.block, st->cr.offset);
    else
        fprintf(stderr,
                "collsim: %s/%s np=%d size=%ld: check failed on rank %d, block %ld, offset %ld: "
                "expected 0x%02x, got 0x%02x\n",
                o->coll, o->alg, p, bytes, first_bad, st->cr.block, st->cr.offset,
                st->cr.expected, st->cr.got);
}

/* One size: fill, run the calls, gather the statistics and the counts on
 * rank 0, which reports them. Returns whether some rank failed. */
static int bench_size(bench_ctx *b, long bytes, FILE *csv)
{
    const driver_opts *o = b->o;
    const int rank = b->rank, p = b->p, tsize = b->tsize;
    const drv_sig *sig = o->desc->sig;
    int count = (int)(bytes / tsize);
    if (sig->size)
        sig->size(b, bytes, count);
    if (!o->fold)
        sig->fill(b, bytes);
    size_run r = run_calls(b, bytes, count);
    double mean_us = r.elapsed / o->iters * 1e6;
    int failed = r.cr.bad || r.err != MPI_SUCCESS;
    size_stats st = {mean_us, mean_us, mean_us, failed ? rank : p, r.err, r.cr};
    reduce_stats(&st, b->comm);
    /* Rooted collectives: the slowest process of each call and the root's
     * mean (on rank 0). The others skip these messages: any message between
     * two sizes moves the next size's barrier exits, and so its times, and
     * their stored baselines would no longer hold. */
    double call_max_us = -1, root_us = -1;
    if (o->desc->props->rooted) {
        reduce_max(r.call, o->iters, b->comm);
        call_max_us = 0;
        for (int i = 0; i < o->iters; i++)
            call_max_us += r.call[i] / o->iters * 1e6;
        root_us = mean_us;
        if (o->root != 0 && rank == o->root)
            MPI_Send(&root_us, 1, MPI_DOUBLE, 0, 80, b->comm);
        else if (o->root != 0 && rank == 0)
            MPI_Recv(&root_us, 1, MPI_DOUBLE, o->root, 80, b->comm, MPI_STATUS_IGNORE);
    }
    free(r.call);
    acct_summary as;
    acct_reduce(b->comm, b->counted, &as);
    int first_bad = st.bad_rank;
    if (rank == 0 && first_bad < p)
        report_failure(o, p, bytes, &st);
    double sum_us = st.sum_us, min_us = st.min_us, max_us = st.max_us;
    /* an MPI error from the algorithm is an error, a wrong byte a failure */
    const int ok = first_bad >= p ? 1 : st.err != MPI_SUCCESS ? -1 : 0;
    const char *status = ok < 0 ? "ERROR" : ok == 0 ? "FAIL" : (o->fold ? "unchecked" : "Pass");
    if (rank == 0) {
        printf("%-10ld %18.2f %18.2f %18.2f %12d %12s", bytes, sum_us / p, min_us, max_us,
               o->iters, status);
        if (o->desc->props->rooted)
            printf(" %16.2f %16.2f", call_max_us, root_us);
        printf("\n");
        if (o->account)
            acct_print(stdout, &as, "SMPI's built-in collectives run inside SimGrid, out of "
                                    "the profiling layer's sight");
        long long data_bytes = sig->data_bytes(b, bytes, count);
        if (csv)
            driver_write_row_metrics(csv, o, p, bytes, data_bytes, sum_us / p, min_us, max_us,
                                     call_max_us, root_us, ok, &as);
    }
    return first_bad < p;
}

int bench_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
               unsigned char *recvbuf, FILE *csv)
{
    /* a kind's own members (bench_sig.h) start zero */
    bench_ctx b = {.o = o, .comm = comm, .sendbuf = sendbuf, .recvbuf = recvbuf};
    int failures = 0;
    MPI_Comm_rank(comm, &b.rank);
    MPI_Comm_size(comm, &b.p);
    MPI_Type_size(o->mpi_dtype, &b.tsize);
    /* SMPI's built-ins run inside SimGrid: their messages cannot be counted.
     * Under a real MPI (collsim-mpibench) rank 0 cannot read the other
     * processes' counters (account.c): nothing is counted. */
#ifdef COLLSIM_REAL_MPI_DRIVER
    b.counted = 0;
#else
    b.counted = strcmp(o->alg, "native") != 0;
#endif
    if (o->desc->props->rooted && o->root >= b.p) {
        if (b.rank == 0)
            fprintf(stderr, "collsim-driver: --root %d at %d processes: the root must be a rank, "
                            "0..%d\n", o->root, b.p, b.p - 1);
        return o->nsizes;
    }
    if (o->region_setup)
        prepare_regions(&b);
    if (o->desc->sig->prepare)
        o->desc->sig->prepare(&b);
    if (b.rank == 0)
        print_header(o, b.p);
    for (int s = 0; s < o->nsizes; s++)
        failures += bench_size(&b, o->sizes[s], csv);
    if (o->desc->sig->release)
        o->desc->sig->release(&b);
    if (b.rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}
