/* ompi_trace: a test library preloaded into an Open MPI program to see which
 * of Open MPI's own algorithms (its ompi_coll_base_<coll>_intra_<alg>
 * functions in libmpi, which the coll tuned component calls through the
 * dynamic linker) serves each MPI_Allgather, MPI_Alltoall, MPI_Alltoallv,
 * MPI_Gather, MPI_Scatter, MPI_Bcast, MPI_Allreduce, MPI_Reduce,
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter of the program. Open
 * MPI 4.1 as Debian builds it (no --enable-debug) compiles out the
 * coll_tuned messages that would name the rule and algorithm it takes, so
 * the functions themselves are watched: each is replaced by one that notes
 * its name and calls Open MPI's (dlsym RTLD_NEXT, every argument passed on
 * unchanged: the x86-64 calling convention passes the first six integer or
 * pointer arguments in registers and the rest on the stack in order, so a
 * function of twelve long arguments forwards any of these signatures of at
 * most twelve such arguments: the chain reduce has eleven).
 *
 * With OMPI_TRACE_FILE=PATH, MPI_COMM_WORLD's rank 0 writes one line per call
 * it takes part in: "COLLECTIVE P BYTES FUNCTION" (P the communicator's
 * size, BYTES one rank's block: count x type size, reduce_scatter's largest;
 * FUNCTION the first
 * ompi_coll_base_ function entered during the call, `none` when the call
 * entered none, e.g. on one rank, which Open MPI's self component serves). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const char *current; /* the watched function first entered in the call */
static int in_call;

typedef int (*fwd_fn)(long, long, long, long, long, long, long, long, long, long, long, long);

#define WATCH(fn)                                                                                  \
    int fn(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, \
           long l)                                                                                 \
    {                                                                                              \
        static fwd_fn real;                                                                        \
        if (!real)                                                                                 \
            real = (fwd_fn)dlsym(RTLD_NEXT, #fn);                                                  \
        if (in_call && !current)                                                                   \
            current = #fn;                                                                         \
        return real(a, b, c, d, e, f, g, h, i, j, k, l);                                           \
    }
WATCH(ompi_coll_base_allgather_intra_basic_linear)
WATCH(ompi_coll_base_allgather_intra_bruck)
WATCH(ompi_coll_base_allgather_intra_recursivedoubling)
WATCH(ompi_coll_base_allgather_intra_ring)
WATCH(ompi_coll_base_allgather_intra_neighborexchange)
WATCH(ompi_coll_base_allgather_intra_two_procs)
WATCH(ompi_coll_base_alltoall_intra_basic_linear)
WATCH(ompi_coll_base_alltoall_intra_pairwise)
WATCH(ompi_coll_base_alltoall_intra_bruck)
WATCH(ompi_coll_base_alltoall_intra_linear_sync)
WATCH(ompi_coll_base_alltoall_intra_two_procs)
WATCH(ompi_coll_base_alltoallv_intra_basic_linear)
WATCH(ompi_coll_base_alltoallv_intra_pairwise)
WATCH(ompi_coll_base_gather_intra_basic_linear)
WATCH(ompi_coll_base_gather_intra_binomial)
WATCH(ompi_coll_base_gather_intra_linear_sync)
WATCH(ompi_coll_base_scatter_intra_basic_linear)
WATCH(ompi_coll_base_scatter_intra_binomial)
WATCH(ompi_coll_base_scatter_intra_linear_nb)
WATCH(ompi_coll_base_bcast_intra_basic_linear)
WATCH(ompi_coll_base_bcast_intra_chain)
WATCH(ompi_coll_base_bcast_intra_pipeline)
WATCH(ompi_coll_base_bcast_intra_split_bintree)
WATCH(ompi_coll_base_bcast_intra_bintree)
WATCH(ompi_coll_base_bcast_intra_binomial)
WATCH(ompi_coll_base_bcast_intra_knomial)
WATCH(ompi_coll_base_bcast_intra_scatter_allgather)
WATCH(ompi_coll_base_bcast_intra_scatter_allgather_ring)
WATCH(ompi_coll_base_allreduce_intra_basic_linear)
WATCH(ompi_coll_base_allreduce_intra_nonoverlapping)
WATCH(ompi_coll_base_allreduce_intra_recursivedoubling)
WATCH(ompi_coll_base_allreduce_intra_ring)
WATCH(ompi_coll_base_allreduce_intra_ring_segmented)
WATCH(ompi_coll_base_allreduce_intra_redscat_allgather)
WATCH(ompi_coll_base_reduce_intra_basic_linear)
WATCH(ompi_coll_base_reduce_intra_chain)
WATCH(ompi_coll_base_reduce_intra_pipeline)
WATCH(ompi_coll_base_reduce_intra_binary)
WATCH(ompi_coll_base_reduce_intra_binomial)
WATCH(ompi_coll_base_reduce_intra_in_order_binary)
WATCH(ompi_coll_base_reduce_intra_redscat_gather)
WATCH(ompi_coll_base_reduce_scatter_intra_nonoverlapping)
WATCH(ompi_coll_base_reduce_scatter_intra_basic_recursivehalving)
WATCH(ompi_coll_base_reduce_scatter_intra_ring)
WATCH(ompi_coll_base_reduce_scatter_intra_butterfly)
WATCH(ompi_coll_base_reduce_scatter_block_basic_linear)
WATCH(ompi_coll_base_reduce_scatter_block_intra_recursivedoubling)
WATCH(ompi_coll_base_reduce_scatter_block_intra_recursivehalving)
WATCH(ompi_coll_base_reduce_scatter_block_intra_butterfly)

static FILE *out;

static void begin(void)
{
    current = NULL;
    in_call = 1;
}

static int end(int err, const char *coll, MPI_Comm comm, int count, MPI_Datatype t)
{
    int p, size, r;
    in_call = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (r || !getenv("OMPI_TRACE_FILE"))
        return err;
    if (!out && !(out = fopen(getenv("OMPI_TRACE_FILE"), "w")))
        return err;
    PMPI_Comm_size(comm, &p);
    PMPI_Type_size(t, &size);
    fprintf(out, "%s %d %lld %s\n", coll, p, (long long)count * size, current ? current : "none");
    fflush(out);
    return err;
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm comm)
{
    begin();
    return end(PMPI_Allgather(sb, sc, st, rb, rc, rt, comm), "allgather", comm, rc, rt);
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm comm)
{
    begin();
    return end(PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm), "alltoall", comm, rc, rt);
}

/* alltoallv: BYTES 0 (Open MPI's rules take no size for it) */
int MPI_Alltoallv(const void *sb, const int *sc, const int *sd, MPI_Datatype st, void *rb,
                  const int *rc, const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
    begin();
    return end(PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm), "alltoallv", comm, 0, rt);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Gather(sb, sc, st, rb, rc, rt, root, comm), "gather", comm, sc, st);
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Scatter(sb, sc, st, rb, rc, rt, root, comm), "scatter", comm, rc, rt);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Bcast(buf, count, t, root, comm), "bcast", comm, count, t);
}

int MPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    begin();
    return end(PMPI_Allreduce(sb, rb, count, t, op, comm), "allreduce", comm, count, t);
}

int MPI_Reduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Reduce(sb, rb, count, t, op, root, comm), "reduce", comm, count, t);
}

int MPI_Reduce_scatter_block(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op,
                             MPI_Comm comm)
{
    begin();
    return end(PMPI_Reduce_scatter_block(sb, rb, count, t, op, comm), "reduce_scatter_block", comm,
               count, t);
}

/* reduce_scatter: BYTES the largest block (as collsim's results) */
int MPI_Reduce_scatter(const void *sb, void *rb, const int *counts, MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm)
{
    int p, largest = 0;
    begin();
    const int err = PMPI_Reduce_scatter(sb, rb, counts, t, op, comm);
    PMPI_Comm_size(comm, &p);
    for (int j = 0; j < p; j++)
        largest = counts[j] > largest ? counts[j] : largest;
    return end(err, "reduce_scatter", comm, largest, t);
}
