/* The timing loop (bench.h): for each size, osu_allgather's shape (barrier,
 * warm-up, timed iterations, min/avg/max over ranks of each rank's mean), the
 * slowest rank of each call averaged over the calls, the root's mean (gather,
 * scatter), the data check of the first and the last call, one call counted
 * per level. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "coll_locality.h"
#include "cost.h"
#include "datacheck.h"
#include "fold.h"
#include "intergroup.h"
#include "vlayout.h"

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

/* What every step of one communicator's run needs. */
typedef struct {
    const driver_opts *o;
    MPI_Comm comm;
    int rank, p, tsize;
    int counted; /* one call per size goes through the accounting */
    unsigned char *sendbuf, *recvbuf;
    v_layout L; /* v-collectives: this rank's counts and displacements */
    collsim_intergroup *ig; /* intergroup collectives: the descriptor, built before timing */
    ig_size I;              /* and this process's view of the current size */
} bench_ctx;

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
    if (e == MPI_SUCCESS && b->o->rfn && coll_loc_level_index("node") >= 0)
        e = coll_loc_info_get(b->comm, coll_loc_level_index("node"), &node_info);
    if (e != MPI_SUCCESS) {
        fprintf(stderr, "collsim-driver: rank %d: building the %s regions failed (MPI error %d)\n",
                b->rank, coll_loc_region_level_name(), e);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
}

static void print_header(const driver_opts *o, int p)
{
    char vinfo[96] = "";
    if (o->vfn)
        snprintf(vinfo, sizeof vinfo, " dist=%s seed=%lu", o->vdist.name, o->seed);
    if (o->ifn || o->ivfn)
        snprintf(vinfo, sizeof vinfo, " groups=%d:%d layout=%s block-ratio=%d:%d%s%s",
                 o->ig_groups.p, o->ig_groups.q, o->ig_interleaved ? "interleaved" : "block",
                 o->ig_groups.ra, o->ig_groups.rb, o->ivfn ? " counts=" : "",
                 o->ivfn ? (o->ig_arith ? "arithmetic" : "equal") : "");
    if (o->rfn)
        snprintf(vinfo, sizeof vinfo, " root=%d", o->root);
    printf("# collsim %s/%s np=%d mode=%s dtype=%s%s%s\n", o->coll, o->alg, p,
           o->fold ? "fold" : "check", o->dtype, o->in_place ? " in-place" : "", vinfo);
    if (o->rfn)
        printf("# latency: one call per process; avg/min/max over processes of their means "
               "(Avg: Kandalla et al.'s metric), then the slowest process per call and the "
               "root, averaged over the calls\n");
    if (o->ifn || o->ivfn)
        printf("# Size: bytes of a group A process's block (group B's: Size x %d / %d%s); "
               "latency: one call per process, avg/min/max over processes (Max: Kang et al.'s "
               "metric)\n", o->ig_groups.rb, o->ig_groups.ra,
               o->ig_arith ? "; each group's largest, counts arithmetic" : "");
    printf("%-10s %18s %18s %18s %12s %12s%s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
           "Max Latency(us)", "Iterations", "Validation",
           o->rfn ? "      CallMax(us)         Root(us)" : "");
}

/* COLLSIM_FAULT's test hook: flip one received byte after the call. */
static void inject_fault(const bench_ctx *b, long bytes)
{
    const driver_opts *o = b->o;
    if (b->ig) {
        ig_inject_fault(o, b->ig, &b->I, b->recvbuf, b->rank, b->tsize);
        return;
    }
    if (b->rank == o->fault_rank && o->fault_block < b->p) {
        const long fb = o->fault_block;
        const long fb_bytes = o->vfn ? (long)b->L.rcounts[fb] * b->tsize : bytes;
        const long fb_start = o->vfn ? (long)b->L.rdispls[fb] * b->tsize : fb * bytes;
        /* v-collectives: a negative offset hits the gap before the block */
        if (o->fault_offset < fb_bytes && (o->vfn ? fb_start + o->fault_offset >= 0
                                                  : o->fault_offset >= 0))
            b->recvbuf[fb_start + o->fault_offset] ^= 0x5a;
    }
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
    const int rank = b->rank, p = b->p, tsize = b->tsize;
    unsigned char *sendbuf = b->sendbuf, *recvbuf = b->recvbuf;
    const v_layout *L = &b->L;
    /* MPI_IN_PLACE at the root only for the rooted collectives (a gather's
     * send buffer, a scatter's receive buffer), everywhere for the others */
    const int in_place = o->in_place && (!o->rfn || rank == o->root);
    size_run r = {0.0, calloc((size_t)o->iters, sizeof(double)), MPI_SUCCESS, {0, 0, 0, 0, 0, 0}};
    for (int it = 0; it < o->warmup + o->iters; it++) {
        if (!o->fold && b->ig)
            ig_poison(b->ig, &b->I, recvbuf, tsize);
        else if (!o->fold && o->vfn)
            poison_recv_v(o->desc, L, recvbuf, rank, p, tsize);
        else if (!o->fold && o->rfn)
            poison_recv_rooted(o->desc, recvbuf, rank, o->root, p, bytes);
        else if (!o->fold)
            poison_recv(o->desc, recvbuf, rank, p, bytes);
        if (in_place && !o->desc->rooted && o->desc->send_blocks_per_rank) /* alltoall: the blocks to send */
            memcpy(recvbuf, sendbuf, (size_t)p * (size_t)bytes);
        else if (in_place && o->desc->rooted != 2) /* MPI_IN_PLACE: own block already in its slot */
            memcpy(recvbuf + (size_t)rank * (size_t)bytes, sendbuf, (size_t)bytes);
        driver_barrier(b->comm);
        /* one timed call is counted (account.h): the algorithms are deterministic */
        const int count_it = b->counted && it == o->warmup;
        if (count_it)
            acct_begin();
        cost_begin();
        double t0 = MPI_Wtime();
        int e = b->ig ? ig_call(o, b->ig, &b->I, sendbuf, recvbuf, tsize)
                : o->vfn ? o->vfn(sendbuf, L->scounts, L->sdispls, o->mpi_dtype, recvbuf, L->rcounts,
                                L->rdispls, o->mpi_dtype, b->comm)
                : o->rfn ? o->rfn(in_place && o->desc->rooted == 1 ? MPI_IN_PLACE : sendbuf, count,
                                o->mpi_dtype, in_place && o->desc->rooted == 2 ? MPI_IN_PLACE : recvbuf,
                                count, o->mpi_dtype, o->root, b->comm)
                       : o->fn(in_place ? MPI_IN_PLACE : sendbuf, count, o->mpi_dtype, recvbuf,
                               count, o->mpi_dtype, b->comm);
        cost_end(); /* the rank's pending local work and overheads, before t1 */
        double t1 = MPI_Wtime();
        if (count_it)
            acct_end();
        inject_fault(b, bytes);
        if (e != MPI_SUCCESS)
            r.err = e;
        if (it >= o->warmup) {
            r.elapsed += t1 - t0;
            r.call[it - o->warmup] = t1 - t0;
        }
        /* check the first call and the last one: a wrong first result, or
         * state leaking from one call into the next, are both caught. */
        if (!o->fold && !r.cr.bad && (it == 0 || it == o->warmup + o->iters - 1))
            r.cr = b->ig   ? ig_verify(b->ig, &b->I, recvbuf, sendbuf, rank, tsize)
                   : o->vfn ? verify_v(o->desc, L, recvbuf, sendbuf, rank, p, tsize)
                   : o->rfn ? verify_rooted(o->desc, recvbuf, sendbuf, rank, o->root, p, bytes,
                                            in_place)
                            : verify(o->desc, recvbuf, sendbuf, rank, p, bytes);
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
    else if (st->cr.in_send && !o->desc->send_blocks_per_rank)
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
    int count = (int)(bytes / tsize);
    if (o->vfn)
        v_layout_build(o, &b->L, rank, p, count, tsize);
    if (b->ig)
        ig_size_build(o, b->ig, bytes, tsize, &b->I);
    if (!o->fold && b->ig)
        ig_fill_send(&b->I, b->sendbuf, rank);
    else if (!o->fold && o->vfn)
        fill_send_v(o->desc, &b->L, b->sendbuf, rank, p, tsize);
    else if (!o->fold)
        fill_send(o->desc, b->sendbuf, rank, p, bytes);
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
    if (o->rfn) {
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
        if (o->rfn)
            printf(" %16.2f %16.2f", call_max_us, root_us);
        printf("\n");
        if (o->account)
            acct_print(stdout, &as, "SMPI's built-in collectives run inside SimGrid, out of "
                                    "the profiling layer's sight");
        /* allgather and alltoall: every rank has p-1 blocks of `bytes` for
         * others; alltoallv: the sum of its blocks for others; gather and
         * scatter: p-1 blocks to or from the root */
        long long data_bytes = b->ig   ? b->I.data_bytes
                               : o->vfn ? cs_dist_total(&o->vdist, o->seed, p, count) * tsize
                               : o->rfn ? (long long)(p - 1) * bytes
                                        : (long long)p * (p - 1) * bytes;
        if (csv)
            driver_write_row_metrics(csv, o, p, bytes, data_bytes, sum_us / p, min_us, max_us,
                                     call_max_us, root_us, ok, &as);
    }
    return first_bad < p;
}

int bench_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
               unsigned char *recvbuf, FILE *csv)
{
    bench_ctx b = {o,       comm,    0,    0, 0, 0, sendbuf, recvbuf, {NULL, NULL, NULL, NULL, NULL, NULL, 0, 0},
                   NULL, {0, NULL, NULL, 0, 0}};
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
    const int layout_err = v_layout_alloc(o, b.p, fold_v_displs(), &b.L);
    if (o->rfn && o->root >= b.p) {
        if (b.rank == 0)
            fprintf(stderr, "collsim-driver: --root %d at %d processes: the root must be a rank, "
                            "0..%d\n", o->root, b.p, b.p - 1);
        return o->nsizes;
    }
    if (o->region_setup)
        prepare_regions(&b);
    if (o->ifn || o->ivfn) { /* the groups are part of the communicator, as regions are */
        driver_barrier(comm);
        b.ig = ig_prepare(o, comm);
    }
    if (o->vfn && layout_err) {
        fprintf(stderr, "collsim-driver: rank %d cannot allocate its alltoallv counts (%d ranks)\n",
                b.rank, b.p);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (b.rank == 0)
        print_header(o, b.p);
    for (int s = 0; s < o->nsizes; s++)
        failures += bench_size(&b, o->sizes[s], csv);
    v_layout_free(&b.L);
    if (b.ig) {
        ig_size_free(&b.I);
        collsim_intergroup_free(&b.ig);
    }
    if (b.rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}
