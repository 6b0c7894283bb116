/* The intergroup algorithms behind the MPI standard's signature, on a real
 * intercommunicator (real-MPI builds only: SMPI 3.32 has none). Each
 * collsim_inter_allgather_NAME / collsim_inter_allgatherv_NAME of
 * algorithms.def has a wrapper NAME_ic taking MPI_Comm intercomm in place of
 * the descriptor, with MPI_Allgather(v)'s intercommunicator semantics. The
 * descriptor is built on first use (collective over the intercommunicator:
 * MPI_Intercomm_merge, one MPI_Allreduce on the intercommunicator to learn
 * which side is group 0, then collsim_intergroup_create on the merged
 * communicator keyed by local rank) and cached on the intercommunicator as an
 * attribute, freed with it. */
#ifndef COLLSIM_INTERGROUP_INTERCOMM_H
#define COLLSIM_INTERGROUP_INTERCOMM_H

#include <mpi.h>

#include "collsim_algorithms.h"

/* The cached descriptor of an intercommunicator (collective on first use).
 * MPI_ERR_COMM for an intracommunicator. */
int collsim_intergroup_from_intercomm(MPI_Comm intercomm, const collsim_intergroup **ig);

#define COLLSIM_IC_inter_allgather(fn)                                                             \
    int fn##_ic(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,          \
                int recvcount, MPI_Datatype recvtype, MPI_Comm intercomm);
#define COLLSIM_IC_inter_allgatherv(fn)                                                            \
    int fn##_ic(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,          \
                const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm intercomm);
/* the intergroup algorithms only (algorithms.def, groups) */
#define COLLSIM_IC_groups(coll, fn) COLLSIM_IC_##coll(fn)
#define COLLSIM_IC_no_groups(coll, fn)
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    COLLSIM_IC_##groups(coll, fn)
#include "algorithms.def"
#undef COLLSIM_ALG

/* Every wrapper by its algorithm's name (ag: an inter_allgather, agv: an
 * inter_allgatherv), ended by a NULL name (real-MPI builds only). */
typedef struct {
    const char *name;
    int (*ag)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
    int (*agv)(const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype,
               MPI_Comm);
} collsim_ic_alg;
extern const collsim_ic_alg collsim_ic_algs[];

#endif
