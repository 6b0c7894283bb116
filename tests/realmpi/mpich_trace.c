/* mpich_trace: a test library preloaded into an MPICH 4.0 program to see what
 * MPICH's algorithms do in each MPI_Allgather, MPI_Alltoall, MPI_Alltoallv,
 * MPI_Gather, MPI_Scatter, MPI_Bcast, MPI_Allreduce, MPI_Reduce,
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter of the program.
 * Debian's MPICH exports none of its MPIR_<Coll>_intra_<algorithm> functions
 * (nm -D lists only the MPI_, PMPI_, MPIX_ and a few MPII_/MPIR_ symbols)
 * and prints nothing about its selection, so the algorithms are told apart
 * by the messages they receive: its ch4:ucx device posts every receive
 * through UCX's ucp_tag_recv_nbx, which libmpich calls through the dynamic
 * linker, with a tag that holds the sender's rank in the communicator (bits
 * 32..47: MPIDI_UCX_init_tag of MPICH 4.0) and a buffer of the bytes it
 * expects. Each such receive posted during a call is noted as
 * "SOURCE:BYTES" ("*" for any source) and passed on unchanged.
 *
 * With MPICH_TRACE_DIR=DIR, each process writes DIR/rank.R (R its rank in
 * MPI_COMM_WORLD), one line per call it takes part in:
 * "COLLECTIVE P BYTES RECEIVES..." (P the communicator's size, BYTES one
 * rank's block: count x type size, 0 for alltoallv, reduce_scatter's
 * largest; RECEIVES the receives it
 * posted in order, `-` when none). The same algorithm on the same call
 * posts the same receives on every rank; two of MPICH's algorithms differ on
 * some rank for most (P, BYTES) of more than two ranks. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *(*recv_fn)(void *, void *, size_t, uint64_t, uint64_t, const void *);

static int in_call;
static char seq[1 << 16];
static size_t used;

static void note(const char *what)
{
    size_t n = strlen(what);
    if (used + n + 2 < sizeof seq) {
        seq[used++] = ' ';
        memcpy(seq + used, what, n + 1);
        used += n;
    }
}

void *ucp_tag_recv_nbx(void *worker, void *buffer, size_t count, uint64_t tag, uint64_t mask,
                       const void *param)
{
    static recv_fn real;
    if (!real)
        real = (recv_fn)dlsym(RTLD_NEXT, "ucp_tag_recv_nbx");
    if (in_call) {
        char w[64];
        const uint64_t rank_bits = 0xffffULL << 32;
        if ((mask & rank_bits) == rank_bits)
            snprintf(w, sizeof w, "%u:%zu", (unsigned)((tag >> 32) & 0xffff), count);
        else
            snprintf(w, sizeof w, "*:%zu", count);
        note(w);
    }
    return real(worker, buffer, count, tag, mask, param);
}

/* The test runs more processes than cores: a process whose progress call
 * found nothing to do gives its core away instead of spinning, and sleeps
 * 20 us once it has found nothing 64 times in a row (the test's CPU time;
 * what the processes receive does not change). */
unsigned ucp_worker_progress(void *worker)
{
    static unsigned (*real)(void *);
    if (!real)
        real = (unsigned (*)(void *))dlsym(RTLD_NEXT, "ucp_worker_progress");
    static unsigned idle;
    unsigned n = real(worker);
    if (n)
        idle = 0;
    else if (++idle < 64)
        sched_yield();
    else
        nanosleep(&(struct timespec){0, 20000}, NULL);
    return n;
}

static FILE *out;

static void begin(void)
{
    used = 0;
    seq[0] = '\0';
    in_call = 1;
}

static int end(int err, const char *coll, MPI_Comm comm, long long bytes)
{
    int p, r;
    in_call = 0;
    if (!getenv("MPICH_TRACE_DIR"))
        return err;
    if (!out) {
        char path[4096];
        PMPI_Comm_rank(MPI_COMM_WORLD, &r);
        snprintf(path, sizeof path, "%s/rank.%d", getenv("MPICH_TRACE_DIR"), r);
        if (!(out = fopen(path, "w")))
            return err;
    }
    PMPI_Comm_size(comm, &p);
    fprintf(out, "%s %d %lld%s\n", coll, p, bytes, used ? seq : " -");
    fflush(out);
    return err;
}

static long long size_of(int count, MPI_Datatype t)
{
    int size;
    PMPI_Type_size(t, &size);
    return (long long)count * size;
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm comm)
{
    begin();
    return end(PMPI_Allgather(sb, sc, st, rb, rc, rt, comm), "allgather", comm, size_of(rc, rt));
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm comm)
{
    begin();
    return end(PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm), "alltoall", comm, size_of(rc, rt));
}

int MPI_Alltoallv(const void *sb, const int *sc, const int *sd, MPI_Datatype st, void *rb,
                  const int *rc, const int *rd, MPI_Datatype rt, MPI_Comm comm)
{
    begin();
    return end(PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm), "alltoallv", comm, 0);
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Gather(sb, sc, st, rb, rc, rt, root, comm), "gather", comm, size_of(sc, st));
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Scatter(sb, sc, st, rb, rc, rt, root, comm), "scatter", comm, size_of(rc, rt));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Bcast(buf, count, t, root, comm), "bcast", comm, size_of(count, t));
}

int MPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    begin();
    return end(PMPI_Allreduce(sb, rb, count, t, op, comm), "allreduce", comm, size_of(count, t));
}

int MPI_Reduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    begin();
    return end(PMPI_Reduce(sb, rb, count, t, op, root, comm), "reduce", comm, size_of(count, t));
}

int MPI_Reduce_scatter_block(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op,
                             MPI_Comm comm)
{
    begin();
    return end(PMPI_Reduce_scatter_block(sb, rb, count, t, op, comm), "reduce_scatter_block", comm,
               size_of(count, t));
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int *counts, MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm)
{
    int p, largest = 0;
    begin();
    const int err = PMPI_Reduce_scatter(sb, rb, counts, t, op, comm);
    PMPI_Comm_size(comm, &p);
    for (int j = 0; j < p; j++)
        largest = counts[j] > largest ? counts[j] : largest;
    return end(err, "reduce_scatter", comm, size_of(largest, t));
}
