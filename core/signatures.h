/* The signature kinds of collectives.def (its sig column), once: what every
 * collective of a kind shares. A new kind is one entry of CS_SIGNATURES and
 * one block of definitions below; the enum (collectives.h), the algorithms'
 * function types and the union of collsim_fn (collsim_algorithms.h), the
 * real-MPI registry's union (realmpi/collsim.h), the driver's built-in calls
 * (sim/driver/driver.c) and the PMPI wrappers (realmpi/collsim_pmpi.c) are
 * generated from them. What a kind does besides, its code, sits in two
 * places: the driver's hooks (drv_sig_<kind>: fill, poison, call, verify,
 * fault, data bytes; sim/driver/bench_sig.c, bench_reduce.c) and the PMPI
 * layer's serve_<kind> (which calls the algorithm or the library).
 *
 * Per kind:
 *   COLLSIM_SIG_<kind>_ARGS      its algorithms' parameters
 *   COLLSIM_SIG_<kind>_MPI_ARGS  the MPI entry point's parameters (the PMPI
 *                                wrapper's), and _MPI_CALL their names in
 *                                order; for an intracommunicator kind the
 *                                algorithms' own
 *   CS_SIG_<kind>_VARIABLE       1: a v-collective (block sizes from --dist, --seed)
 *   CS_SIG_<kind>_GROUPS         intergroup: 1 (--groups), 2 (also --counts)
 *   CS_SIG_<kind>_OP             1: a reduction (an MPI_Op, --op)
 *   CS_SIG_<kind>_NATIVE         1: SMPI's MPI_<mpi> serves as the built-in
 *                                baselines (native:NAME); 0: it has none
 *
 * Plain text: the argument lists name MPI types, so only a file that
 * includes mpi.h expands them; core/ itself reads the numbers alone. */
#ifndef COLLSIM_CORE_SIGNATURES_H
#define COLLSIM_CORE_SIGNATURES_H

#define CS_SIGNATURES(X) X(block) X(v) X(inter) X(interv) X(rooted) X(onebuf) X(reduction)     \
    X(rooted_reduction) X(vreduction) X(p2p)

/* block: MPI_Allgather's and MPI_Alltoall's (a send buffer, count and type,
 * a receive buffer, count and type, a communicator) */
#define COLLSIM_SIG_block_ARGS                                                                     \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,       \
        MPI_Datatype recvtype, MPI_Comm comm
#define COLLSIM_SIG_block_MPI_ARGS COLLSIM_SIG_block_ARGS
#define COLLSIM_SIG_block_MPI_CALL sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
#define CS_SIG_block_VARIABLE 0
#define CS_SIG_block_GROUPS 0
#define CS_SIG_block_OP 0
#define CS_SIG_block_NATIVE 1

/* v: MPI_Alltoallv's (per-block counts and displacements in units of the
 * types' extents; the algorithms only read the caller's arrays) */
#define COLLSIM_SIG_v_ARGS                                                                         \
    const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,        \
        void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,           \
        MPI_Comm comm
#define COLLSIM_SIG_v_MPI_ARGS COLLSIM_SIG_v_ARGS
#define COLLSIM_SIG_v_MPI_CALL                                                                     \
    sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm
#define CS_SIG_v_VARIABLE 1
#define CS_SIG_v_GROUPS 0
#define CS_SIG_v_OP 0
#define CS_SIG_v_NATIVE 1

/* inter: an intergroup MPI_Allgather (Kang, Traff et al. 2019), realised on
 * an intracommunicator holding both groups plus a descriptor
 * (algorithms/coll_intergroup.h); sendcount is this process's block,
 * recvcount the remote group's. Its entry point is MPI_Allgather on an
 * intercommunicator; SMPI 3.32 has no intercommunicator, so no built-in. */
#define COLLSIM_SIG_inter_ARGS                                                                     \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,       \
        MPI_Datatype recvtype, const collsim_intergroup *ig
#define COLLSIM_SIG_inter_MPI_ARGS COLLSIM_SIG_block_ARGS
#define COLLSIM_SIG_inter_MPI_CALL COLLSIM_SIG_block_MPI_CALL
#define CS_SIG_inter_VARIABLE 0
#define CS_SIG_inter_GROUPS 1
#define CS_SIG_inter_OP 0
#define CS_SIG_inter_NATIVE 0

/* interv: the same with MPI_Allgatherv's per-process blocks of the remote group */
#define COLLSIM_SIG_interv_ARGS                                                                    \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,                     \
        const int *recvcounts, const int *displs, MPI_Datatype recvtype,                           \
        const collsim_intergroup *ig
#define COLLSIM_SIG_interv_MPI_ARGS                                                                \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,                     \
        const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm comm
#define COLLSIM_SIG_interv_MPI_CALL                                                                \
    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm
#define CS_SIG_interv_VARIABLE 0
#define CS_SIG_interv_GROUPS 2
#define CS_SIG_interv_OP 0
#define CS_SIG_interv_NATIVE 0

/* rooted: MPI_Gather's and MPI_Scatter's (the block arguments and the root;
 * algorithms/coll_rooted.h) */
#define COLLSIM_SIG_rooted_ARGS                                                                    \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,       \
        MPI_Datatype recvtype, int root, MPI_Comm comm
#define COLLSIM_SIG_rooted_MPI_ARGS COLLSIM_SIG_rooted_ARGS
#define COLLSIM_SIG_rooted_MPI_CALL                                                                \
    sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm
#define CS_SIG_rooted_VARIABLE 0
#define CS_SIG_rooted_GROUPS 0
#define CS_SIG_rooted_OP 0
#define CS_SIG_rooted_NATIVE 1

/* onebuf: MPI_Bcast's (one buffer, its count and type, the root) */
#define COLLSIM_SIG_onebuf_ARGS void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm
#define COLLSIM_SIG_onebuf_MPI_ARGS COLLSIM_SIG_onebuf_ARGS
#define COLLSIM_SIG_onebuf_MPI_CALL buffer, count, datatype, root, comm
#define CS_SIG_onebuf_VARIABLE 0
#define CS_SIG_onebuf_GROUPS 0
#define CS_SIG_onebuf_OP 0
#define CS_SIG_onebuf_NATIVE 1

/* reduction: MPI_Allreduce's (send and receive buffer, count, type, the
 * operation; algorithms/coll_reduce.h) */
#define COLLSIM_SIG_reduction_ARGS                                                                 \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
#define COLLSIM_SIG_reduction_MPI_ARGS COLLSIM_SIG_reduction_ARGS
#define COLLSIM_SIG_reduction_MPI_CALL sendbuf, recvbuf, count, datatype, op, comm
#define CS_SIG_reduction_VARIABLE 0
#define CS_SIG_reduction_GROUPS 0
#define CS_SIG_reduction_OP 1
#define CS_SIG_reduction_NATIVE 1

/* rooted_reduction: MPI_Reduce's (the reduction arguments and the root) */
#define COLLSIM_SIG_rooted_reduction_ARGS                                                          \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,     \
        MPI_Comm comm
#define COLLSIM_SIG_rooted_reduction_MPI_ARGS COLLSIM_SIG_rooted_reduction_ARGS
#define COLLSIM_SIG_rooted_reduction_MPI_CALL sendbuf, recvbuf, count, datatype, op, root, comm
#define CS_SIG_rooted_reduction_VARIABLE 0
#define CS_SIG_rooted_reduction_GROUPS 0
#define CS_SIG_rooted_reduction_OP 1
#define CS_SIG_rooted_reduction_NATIVE 1

/* vreduction: MPI_Reduce_scatter's (the reduction arguments with a count
 * per process: recvcounts[j] elements of the reduced vector go to rank j,
 * the same array on every process; the counts from --dist, --seed) */
#define COLLSIM_SIG_vreduction_ARGS                                                                \
    const void *sendbuf, void *recvbuf, const int *recvcounts, MPI_Datatype datatype, MPI_Op op,  \
        MPI_Comm comm
#define COLLSIM_SIG_vreduction_MPI_ARGS COLLSIM_SIG_vreduction_ARGS
#define COLLSIM_SIG_vreduction_MPI_CALL sendbuf, recvbuf, recvcounts, datatype, op, comm
#define CS_SIG_vreduction_VARIABLE 1
#define CS_SIG_vreduction_GROUPS 0
#define CS_SIG_vreduction_OP 1
#define CS_SIG_vreduction_NATIVE 1

/* p2p: no collective, the driver's ping-pong between ranks 0 and 1
 * (sim/driver/pingpong.c); no algorithm of its own, no entry point */
#define COLLSIM_SIG_p2p_ARGS MPI_Comm comm
#define COLLSIM_SIG_p2p_MPI_ARGS MPI_Comm comm
#define COLLSIM_SIG_p2p_MPI_CALL comm
#define CS_SIG_p2p_VARIABLE 0
#define CS_SIG_p2p_GROUPS 0
#define CS_SIG_p2p_OP 0
#define CS_SIG_p2p_NATIVE 0

#endif
