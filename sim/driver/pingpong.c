/* --coll pingpong (pingpong.h).
 * Ranks 0 and 1 bounce one message of each size back and forth (rank 1 echoes
 * what it received, so check mode verifies the round trip); the row reports
 * rank 0's one-way time = round trip / 2 as avg, min and max, in the same CSV
 * format as the collectives. Other ranks take no part. The host fits the
 * Hockney alpha and beta to these rows (sim/host/model/postal.c). */
#include "pingpong.h"

#include <string.h>

#include "datacheck.h"

int pingpong_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
                  unsigned char *recvbuf, FILE *csv)
{
    int rank, p, tsize, failures = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Type_size(o->mpi_dtype, &tsize);
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
            memcpy(sendbuf, pattern_block(0), (size_t)bytes);
        double elapsed = 0.0;
        for (int it = 0; it < o->warmup + o->iters; it++) {
            if (!o->fold)
                memcpy(recvbuf, antipattern_block(0), (size_t)bytes);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(sendbuf, count, o->mpi_dtype, peer, 79, comm);
                MPI_Recv(recvbuf, count, o->mpi_dtype, peer, 79, comm, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(recvbuf, count, o->mpi_dtype, peer, 79, comm, MPI_STATUS_IGNORE);
                MPI_Send(recvbuf, count, o->mpi_dtype, peer, 79, comm);
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
            driver_write_row(csv, o, p, bytes, 2LL * bytes, one_way_us, one_way_us, one_way_us,
                             !bad, NULL);
    }
    if (rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}
