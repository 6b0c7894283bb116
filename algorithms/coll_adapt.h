/* Calls an algorithm's schedule cannot take as given, served around it by the
 * common entries of coll_util.h (every allgather, alltoall and alltoallv goes
 * through one of them):
 *
 * - a datatype with holes (lb != 0 or extent != size: a vector, a struct with
 *   padding, a resized type) on either side: the process's blocks are packed
 *   with MPI_Pack into a scratch buffer, the algorithm runs on MPI_PACKED
 *   bytes, and what arrived is unpacked with MPI_Unpack. MPI_PACKED matches
 *   any type signature, so a process that packs talks to one that does not
 *   (contiguity is a per-process property: one process may receive into a
 *   vector where the others use MPI_INT). The schedule's messages carry the
 *   same bytes either way: the network sees the same traffic.
 * - MPI_IN_PLACE in an alltoall or alltoallv: the receive buffer's blocks are
 *   packed aside and sent from there (MPI-3.1 Section 5.8: the data sent is
 *   taken from the receive buffer, with the receive counts, displacements and
 *   type). The Bruck schedules of Fan et al. and of Bruck et al. overwrite
 *   blocks they still have to send, so none of them can work in the caller's
 *   buffer alone: the copy costs one receive buffer of memory.
 *
 * Nothing is adapted for an invalid call (a negative count, say): the
 * algorithm's own checks report it. */
#ifndef COLLSIM_COLL_ADAPT_H
#define COLLSIM_COLL_ADAPT_H

#include <mpi.h>

#include "collsim_algorithms.h"

/* 1 if type has no hole (lb 0, extent == size): its blocks move as raw bytes. */
int coll_gap_free(MPI_Datatype type);

/* An allgather (alltoall = 0: one send block, MPI_IN_PLACE served by the
 * algorithms themselves) or an alltoall (alltoall = 1: p send blocks). Returns
 * 1 and sets *err if the call was served here through self (the algorithm,
 * called again on MPI_PACKED buffers), 0 if the algorithm takes it as given. */
int coll_adapt_block(collsim_block_coll_fn self, int alltoall, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm, int *err);

/* A gather (gather = 1) or a scatter (0): a datatype with holes on a side the
 * process uses (a non-root its own block's; the root the p blocks' and,
 * unless in place, its own block's) is packed around self, as above. The root
 * and the others decide alone: MPI_PACKED matches their types. */
int coll_adapt_rooted(collsim_rooted_fn self, int gather, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, int *err);

/* An intergroup allgather (v = 0) or allgatherv (v = 1) on the group
 * descriptor of coll_intergroup.h: a datatype with holes on either side is
 * packed around self as above (recvcount, or recvcounts and displs, describe
 * the remote group's blocks). */
int coll_adapt_inter(collsim_inter_allgather_fn self, collsim_inter_allgatherv_fn self_v,
                     const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, const int *recvcounts, const int *displs,
                     MPI_Datatype recvtype, const collsim_intergroup *ig, int *err);

/* The same for an alltoallv. */
int coll_adapt_v(collsim_alltoallv_fn self, const void *sendbuf, const int *sendcounts,
                 const int *sdispls, MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                 const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm, int *err);

#endif
