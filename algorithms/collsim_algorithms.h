/* Every collective algorithm of collsim, with the standard MPI signature of its
 * collective. The list with names and metadata lives in algorithms.def. */
#ifndef COLLSIM_ALGORITHMS_H
#define COLLSIM_ALGORITHMS_H

#include <mpi.h>

/* MPI_Allgather and MPI_Alltoall share one C signature (a send buffer, count
 * and type, a receive buffer, count and type, a communicator), so the driver
 * holds every algorithm in one function-pointer type. */
#define COLLSIM_BLOCK_COLL_ARGS                                                  \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,   \
        int recvcount, MPI_Datatype recvtype, MPI_Comm comm
typedef int (*collsim_block_coll_fn)(COLLSIM_BLOCK_COLL_ARGS);

#define COLLSIM_ALLGATHER_ARGS COLLSIM_BLOCK_COLL_ARGS
#define COLLSIM_ALLTOALL_ARGS COLLSIM_BLOCK_COLL_ARGS
typedef collsim_block_coll_fn collsim_allgather_fn;
typedef collsim_block_coll_fn collsim_alltoall_fn;

int collsim_allgather_ring(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_neighbor_exchange(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_recursive_doubling(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_bruck(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_sparbit(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_sparbit_indexed(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_sparbit_packed(COLLSIM_ALLGATHER_ARGS);
/* Locality-aware (regions from coll_locality.h) */
int collsim_allgather_loc_bruck(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_loc_bruck_multilevel(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_hierarchical(COLLSIM_ALLGATHER_ARGS);
int collsim_allgather_multilane(COLLSIM_ALLGATHER_ARGS);

/* MPI_IN_PLACE is not supported by the alltoall algorithms: MPI_ERR_ARG. */
int collsim_alltoall_spread_out(COLLSIM_ALLTOALL_ARGS);
int collsim_alltoall_pairwise(COLLSIM_ALLTOALL_ARGS);
int collsim_alltoall_bruck_basic(COLLSIM_ALLTOALL_ARGS);
int collsim_alltoall_bruck_modified(COLLSIM_ALLTOALL_ARGS);
int collsim_alltoall_bruck_zero_rotation(COLLSIM_ALLTOALL_ARGS);
int collsim_alltoall_bruck_zero_copy(COLLSIM_ALLTOALL_ARGS);

/* MPI_Alltoallv's signature: per-block counts and displacements (in units of
 * the types' extents). The algorithms only read the caller's arrays. */
#define COLLSIM_ALLTOALLV_ARGS                                                              \
    const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,  \
        void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,     \
        MPI_Comm comm
typedef int (*collsim_alltoallv_fn)(COLLSIM_ALLTOALLV_ARGS);

/* Fan et al. 2022; MPI_IN_PLACE is not supported: MPI_ERR_ARG. */
int collsim_alltoallv_spread_out(COLLSIM_ALLTOALLV_ARGS);
int collsim_alltoallv_padded_bruck(COLLSIM_ALLTOALLV_ARGS);
int collsim_alltoallv_padded_alltoall(COLLSIM_ALLTOALLV_ARGS);
int collsim_alltoallv_two_phase_bruck(COLLSIM_ALLTOALLV_ARGS);

#endif
