/* The smallest SMPI program: every rank starts, one MPI_Barrier, rank 0 says
 * so. sim/benchmarks/load.sh runs it on a platform at many ranks to show the
 * platform loads and places them (the cost is SimGrid's, not an algorithm's). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d ranks up, barrier done at simulated %.3f us\n", size, MPI_Wtime() * 1e6);
    MPI_Finalize();
    return 0;
}
