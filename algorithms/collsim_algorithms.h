/* Every collective algorithm of collsim, with the standard MPI signature of its
 * collective. The list with names and metadata lives in algorithms.def. */
#ifndef COLLSIM_ALGORITHMS_H
#define COLLSIM_ALGORITHMS_H

#include <mpi.h>

#define COLLSIM_ALLGATHER_ARGS                                                   \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,   \
        int recvcount, MPI_Datatype recvtype, MPI_Comm comm

typedef int (*collsim_allgather_fn)(COLLSIM_ALLGATHER_ARGS);

int collsim_allgather_ring(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_neighbor_exchange(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_recursive_doubling(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_bruck(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_sparbit(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_sparbit_indexed(COLLSIM_ALLGATHER_ARGS);

#endif
