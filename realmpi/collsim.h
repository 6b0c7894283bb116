/* collsim's algorithms as a library for real MPI programs: the public header
 * of libcollsim_algorithms (realmpi/CMakeLists.txt, docs/real-mpi.md).
 *
 * Every algorithm of algorithms/algorithms.def is a function with the standard
 * signature of its collective (collsim_algorithms.h), e.g.
 *
 *   collsim_allgather_loc_bruck(sendbuf, n, MPI_INT, recvbuf, n, MPI_INT, comm);
 *
 * and can be called directly; or looked up by name here. They serve
 * intracommunicators and contiguous datatypes (size = extent, lower bound 0);
 * an intercommunicator gets MPI_ERR_COMM, a datatype with holes MPI_ERR_TYPE,
 * MPI_IN_PLACE where the algorithm has no in-place form (every alltoall and
 * alltoallv) MPI_ERR_ARG. libcollsim_pmpi (collsim_pmpi.c) serves the calls
 * they refuse through the library's own collectives.
 *
 * The locality-aware algorithms (regions = 1 below) read their regions from
 * coll_locality.h: call coll_loc_init() once after MPI_Init for node regions
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), or collsim_set_block_regions()
 * to declare regions of consecutive ranks. */
#ifndef COLLSIM_H
#define COLLSIM_H

#include <mpi.h>

#include "coll_locality.h"
#include "collsim_algorithms.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One algorithm of the registry (algorithms.def), the intergroup ones
 * excepted (intergroup_intercomm.h serves them). Its function is stored
 * under its collective's member (a->allgather, a->gather, ...: the types of
 * core/collectives.def's signatures); block (allgather, alltoall), v
 * (alltoallv) and rooted (gather, scatter) read the same pointer by
 * signature kind, so only the member of the algorithm's own kind may be
 * called. */
typedef struct collsim_alg {
    const char *collective;         /* a collective of core/collectives.def, e.g. "allgather" */
    const char *name;               /* e.g. "loc_bruck" */
    union {
#define CS_COLLECTIVE(coll, ...) collsim_##coll##_sig *coll;
#include "collectives.def"
#undef CS_COLLECTIVE
#define COLLSIM_SIG_MEMBER(kind) collsim_sig_##kind##_fn kind;
        CS_SIGNATURES(COLLSIM_SIG_MEMBER)
#undef COLLSIM_SIG_MEMBER
    };
    int in_place;                   /* 1: accepts MPI_IN_PLACE as sendbuf */
    int regions;                    /* 1: locality-aware (coll_locality.h) */
    long long (*msg_blocks)(int p); /* the most blocks one of its MPI calls carries */
} collsim_alg;

/* The registry in the order of algorithms.def: collsim_alg_count() entries. */
int collsim_alg_count(void);
const collsim_alg *collsim_alg_at(int i);

/* The algorithm `name` of `collective`, or NULL. `name` may also be written
 * "collective/name". */
const collsim_alg *collsim_alg_find(const char *collective, const char *name);

/* Writes the names of `collective`'s algorithms into buf, separated by ", "
 * (truncated to size); returns buf. */
char *collsim_alg_names(const char *collective, char *buf, int size);

/* Regions of `block` consecutive MPI_COMM_WORLD ranks (ranks 0..block-1 one
 * region, and so on), one level named "node", installed as a rank map
 * (coll_loc_set_rank_map): no message is sent. Lets a machine of few cores
 * emulate several nodes. Local: every process must call it with the same
 * block, before the first locality-aware call. MPI_ERR_ARG for block < 1. */
int collsim_set_block_regions(int block);

#ifdef __cplusplus
}
#endif

#endif
