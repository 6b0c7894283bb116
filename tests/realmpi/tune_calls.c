/* tune_calls: an MPI test program of its own for the decision tables
 * (`collsim tune`): on the first q ranks of MPI_COMM_WORLD for every q in
 * 1..np, one call of each of MPI_Allgather, MPI_Alltoall, MPI_Alltoallv,
 * MPI_Gather, MPI_Scatter (root 0), MPI_Bcast (root 0), MPI_Allreduce,
 * MPI_Reduce (root 0), MPI_Reduce_scatter_block and MPI_Reduce_scatter (every
 * rank's count the same; MPI_SUM) per size given on the command line (bytes
 * per rank's block, or of the buffer, in MPI_INT elements: a multiple of 4),
 * every element checked against the
 * collective's definition. What runs the calls is the environment's: the
 * library, libcollsim_pmpi with COLLSIM_<COLL>=auto:FILE, or Open MPI's
 * rules file. Prints "FAIL ..." lines and, on rank 0, "tune_calls: N checks,
 * F failed"; exits 1 on any failure. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

static long checks, failed;
static int world_rank;

static void expect(int ok, const char *what, int q, int bytes, int at)
{
    checks++;
    if (!ok && ++failed < 20)
        printf("FAIL rank %d: %s (q %d, %d bytes, at %d)\n", world_rank, what, q, bytes, at);
}

static int val(int src, int dst, int i) { return 1000000 * (src + 1) + 1000 * dst + i; }

static void calls(MPI_Comm comm, int bytes)
{
    int q, r;
    MPI_Comm_size(comm, &q);
    MPI_Comm_rank(comm, &r);
    const int n = bytes / 4;
    int *s = malloc(sizeof(int) * ((size_t)n * q + 1)), *d = malloc(sizeof(int) * ((size_t)n * q + 1));
    int *cnt = malloc(sizeof(int) * q), *dsp = malloc(sizeof(int) * q);

    for (int i = 0; i < n; i++)
        s[i] = val(r, 0, i);
    MPI_Allgather(s, n, MPI_INT, d, n, MPI_INT, comm);
    for (int k = 0; k < n * q; k++)
        expect(d[k] == val(k / n, 0, k % n), "allgather", q, bytes, k);

    for (int k = 0; k < n * q; k++)
        s[k] = val(r, k / n, k % n);
    MPI_Alltoall(s, n, MPI_INT, d, n, MPI_INT, comm);
    for (int k = 0; k < n * q; k++)
        expect(d[k] == val(k / n, r, k % n), "alltoall", q, bytes, k);

    for (int p = 0; p < q; p++)
        cnt[p] = n, dsp[p] = p * n;
    for (int k = 0; k < n * q; k++)
        d[k] = -1;
    MPI_Alltoallv(s, cnt, dsp, MPI_INT, d, cnt, dsp, MPI_INT, comm);
    for (int k = 0; k < n * q; k++)
        expect(d[k] == val(k / n, r, k % n), "alltoallv", q, bytes, k);

    for (int i = 0; i < n; i++)
        s[i] = val(r, 0, i);
    MPI_Gather(s, n, MPI_INT, d, n, MPI_INT, 0, comm);
    for (int k = 0; r == 0 && k < n * q; k++)
        expect(d[k] == val(k / n, 0, k % n), "gather", q, bytes, k);

    for (int k = 0; r == 0 && k < n * q; k++)
        s[k] = val(0, k / n, k % n);
    MPI_Scatter(s, n, MPI_INT, d, n, MPI_INT, 0, comm);
    for (int i = 0; i < n; i++)
        expect(d[i] == val(0, r, i), "scatter", q, bytes, i);

    for (int i = 0; i < n; i++)
        d[i] = r == 0 ? val(0, 1, i) : -1;
    MPI_Bcast(d, n, MPI_INT, 0, comm);
    for (int i = 0; i < n; i++)
        expect(d[i] == val(0, 1, i), "bcast", q, bytes, i);

    for (int i = 0; i < n; i++)
        s[i] = r + i;
    MPI_Allreduce(s, d, n, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < n; i++)
        expect(d[i] == q * (q - 1) / 2 + q * i, "allreduce", q, bytes, i);

    for (int i = 0; i < n; i++)
        d[i] = -1;
    MPI_Reduce(s, d, n, MPI_INT, MPI_SUM, 0, comm);
    for (int i = 0; r == 0 && i < n; i++)
        expect(d[i] == q * (q - 1) / 2 + q * i, "reduce", q, bytes, i);

    /* the vector of p blocks: element k of rank r is r + k; block r (elements r n ..) to rank r */
    for (int k = 0; k < n * q; k++)
        s[k] = r + k;
    MPI_Reduce_scatter_block(s, d, n, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < n; i++)
        expect(d[i] == q * (q - 1) / 2 + q * (r * n + i), "reduce_scatter_block", q, bytes, i);

    for (int p = 0; p < q; p++)
        cnt[p] = n;
    for (int i = 0; i < n; i++)
        d[i] = -1;
    MPI_Reduce_scatter(s, d, cnt, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < n; i++)
        expect(d[i] == q * (q - 1) / 2 + q * (r * n + i), "reduce_scatter", q, bytes, i);
    free(s), free(d), free(cnt), free(dsp);
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int a = 1; a < argc; a++) {
        char *end;
        long b = strtol(argv[a], &end, 10);
        if (*end || b < 0 || b % 4 || b > 1 << 24) {
            if (!world_rank)
                fprintf(stderr, "tune_calls: '%s' is not a size in bytes (a multiple of 4)\n", argv[a]);
            MPI_Finalize();
            return 2;
        }
    }
    for (int q = 1; q <= np; q++) {
        MPI_Comm sub;
        MPI_Comm_split(MPI_COMM_WORLD, world_rank < q ? 0 : MPI_UNDEFINED, world_rank, &sub);
        for (int a = 1; sub != MPI_COMM_NULL && a < argc; a++)
            calls(sub, atoi(argv[a]));
        if (sub != MPI_COMM_NULL)
            MPI_Comm_free(&sub);
    }
    long mine[2] = {checks, failed}, sum[2];
    /* the tally past the layers under test (the tracers, libcollsim_pmpi): not one of the calls */
    PMPI_Reduce(mine, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!world_rank)
        printf("tune_calls: %ld checks, %ld failed\n", sum[0], sum[1]);
    MPI_Finalize();
    return sum[1] && !world_rank ? 1 : 0;
}
