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

/* MPI_Alltoallv's signature: per-block counts and displacements (in units of
 * the types' extents). The algorithms only read the caller's arrays. */
#define COLLSIM_ALLTOALLV_ARGS                                                              \
    const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,  \
        void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,     \
        MPI_Comm comm
typedef int (*collsim_alltoallv_fn)(COLLSIM_ALLTOALLV_ARGS);

/* The intergroup collectives (Kang, Traff et al. 2019): MPI_Allgather and
 * MPI_Allgatherv on an intercommunicator, realised on an intracommunicator
 * holding both groups plus a descriptor (coll_intergroup.h). sendcount is
 * this process's block, recvcount(s)/displs the remote group's. */
#include "coll_intergroup.h"
#define COLLSIM_INTER_ALLGATHER_ARGS                                                         \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,               \
        int recvcount, MPI_Datatype recvtype, const collsim_intergroup *ig
typedef int (*collsim_inter_allgather_fn)(COLLSIM_INTER_ALLGATHER_ARGS);
#define COLLSIM_INTER_ALLGATHERV_ARGS                                                        \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,               \
        const int *recvcounts, const int *displs, MPI_Datatype recvtype,                    \
        const collsim_intergroup *ig
typedef int (*collsim_inter_allgatherv_fn)(COLLSIM_INTER_ALLGATHERV_ARGS);

/* MPI_Gather and MPI_Scatter share one C signature: the block signature
 * plus the root (coll_rooted.h). */
#define COLLSIM_ROOTED_ARGS                                                                      \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,     \
        MPI_Datatype recvtype, int root, MPI_Comm comm
typedef int (*collsim_rooted_fn)(COLLSIM_ROOTED_ARGS);
#define COLLSIM_GATHER_ARGS COLLSIM_ROOTED_ARGS
#define COLLSIM_SCATTER_ARGS COLLSIM_ROOTED_ARGS

/* MPI_Bcast's signature: one buffer, its count and type, the root. */
#define COLLSIM_ONEBUF_ARGS void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm
typedef int (*collsim_onebuf_fn)(COLLSIM_ONEBUF_ARGS);

/* MPI_Allreduce's signature: send and receive buffer, count, type and the
 * operation (coll_reduce.h). */
#define COLLSIM_REDUCTION_ARGS                                                                   \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
typedef int (*collsim_reduction_fn)(COLLSIM_REDUCTION_ARGS);

/* The argument list of each signature kind (core/collectives.def, sig);
 * p2p has no algorithm (the driver's ping-pong). */
#define COLLSIM_SIG_block_ARGS COLLSIM_BLOCK_COLL_ARGS
#define COLLSIM_SIG_v_ARGS COLLSIM_ALLTOALLV_ARGS
#define COLLSIM_SIG_inter_ARGS COLLSIM_INTER_ALLGATHER_ARGS
#define COLLSIM_SIG_interv_ARGS COLLSIM_INTER_ALLGATHERV_ARGS
#define COLLSIM_SIG_rooted_ARGS COLLSIM_ROOTED_ARGS
#define COLLSIM_SIG_onebuf_ARGS COLLSIM_ONEBUF_ARGS
#define COLLSIM_SIG_reduction_ARGS COLLSIM_REDUCTION_ARGS
#define COLLSIM_SIG_p2p_ARGS MPI_Comm comm
typedef int (*collsim_p2p_fn)(COLLSIM_SIG_p2p_ARGS);

/* collsim_allgather_sig, ...: the function type of a collective's algorithms */
#define CS_COLLECTIVE(name, sig, ...) typedef int collsim_##name##_sig(COLLSIM_SIG_##sig##_ARGS);
#include "collectives.def"
#undef CS_COLLECTIVE

/* Any algorithm: one member per collective (an initializer names the
 * collective, and the compiler checks the function against its signature)
 * and one per signature kind (what the code common to a kind calls; the
 * members of one kind have the same type). */
typedef union {
#define CS_COLLECTIVE(name, ...) collsim_##name##_sig *name;
#include "collectives.def"
#undef CS_COLLECTIVE
    collsim_block_coll_fn block;
    collsim_alltoallv_fn v;
    collsim_inter_allgather_fn inter;
    collsim_inter_allgatherv_fn interv;
    collsim_rooted_fn rooted;
    collsim_onebuf_fn onebuf;
    collsim_reduction_fn reduction;
    collsim_p2p_fn p2p;
} collsim_fn;

/* The algorithms, one prototype each from algorithms.def (the function type
 * of their collective), so that a definition with another signature fails
 * to compile. */
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, cost, cost_formula, cost_note, state_bytes,     \
                    msg_blocks, msg_unit)                                                          \
    collsim_##coll##_sig fn;
#include "algorithms.def"
#undef COLLSIM_ALG

/* The largest number of blocks one of its MPI calls carries (algorithms.def,
 * msg_blocks), e.g. collsim_allgather_bruck_msg_blocks(p): what an algorithm
 * hands to coll_allgather_begin (coll_util.h) to refuse a count whose
 * messages an int cannot express, with MPI_ERR_COUNT. */
#include "coll_blocks.h"
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, cost, cost_formula, cost_note, state_bytes,     \
                    msg_blocks, msg_unit)                                                          \
    static inline long long fn##_msg_blocks(int p)                                                 \
    {                                                                                              \
        (void)p;                                                                                   \
        return (long long)(msg_blocks);                                                            \
    }
#include "algorithms.def"
#undef COLLSIM_ALG

#endif
