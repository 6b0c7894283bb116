/* Every collective algorithm of collsim, with the standard MPI signature of its
 * collective. The list with names and metadata lives in algorithms.def. */
#ifndef COLLSIM_ALGORITHMS_H
#define COLLSIM_ALGORITHMS_H

#include <mpi.h>

/* The intergroup kinds' descriptor (the inter and interv signatures). */
#include "coll_intergroup.h"
#include "signatures.h"

/* collsim_sig_block_fn, ...: a pointer to an algorithm of a signature kind
 * (core/signatures.h), what the code common to a kind calls */
#define COLLSIM_SIG_FN(kind) typedef int (*collsim_sig_##kind##_fn)(COLLSIM_SIG_##kind##_ARGS);
CS_SIGNATURES(COLLSIM_SIG_FN)
#undef COLLSIM_SIG_FN

/* The names the algorithms write their definitions with:
 * int collsim_allgather_my_ring(COLLSIM_ALLGATHER_ARGS) */
#define COLLSIM_BLOCK_COLL_ARGS COLLSIM_SIG_block_ARGS
#define COLLSIM_ALLGATHER_ARGS COLLSIM_SIG_block_ARGS
#define COLLSIM_ALLTOALL_ARGS COLLSIM_SIG_block_ARGS
#define COLLSIM_ALLTOALLV_ARGS COLLSIM_SIG_v_ARGS
#define COLLSIM_INTER_ALLGATHER_ARGS COLLSIM_SIG_inter_ARGS
#define COLLSIM_INTER_ALLGATHERV_ARGS COLLSIM_SIG_interv_ARGS
#define COLLSIM_ROOTED_ARGS COLLSIM_SIG_rooted_ARGS
#define COLLSIM_GATHER_ARGS COLLSIM_SIG_rooted_ARGS
#define COLLSIM_SCATTER_ARGS COLLSIM_SIG_rooted_ARGS
#define COLLSIM_ONEBUF_ARGS COLLSIM_SIG_onebuf_ARGS
#define COLLSIM_REDUCTION_ARGS COLLSIM_SIG_reduction_ARGS
typedef collsim_sig_block_fn collsim_block_coll_fn;
typedef collsim_sig_block_fn collsim_allgather_fn;
typedef collsim_sig_block_fn collsim_alltoall_fn;
typedef collsim_sig_v_fn collsim_alltoallv_fn;
typedef collsim_sig_inter_fn collsim_inter_allgather_fn;
typedef collsim_sig_interv_fn collsim_inter_allgatherv_fn;
typedef collsim_sig_rooted_fn collsim_rooted_fn;
typedef collsim_sig_onebuf_fn collsim_onebuf_fn;
typedef collsim_sig_reduction_fn collsim_reduction_fn;
typedef collsim_sig_p2p_fn collsim_p2p_fn;

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
#define COLLSIM_SIG_MEMBER(kind) collsim_sig_##kind##_fn kind;
    CS_SIGNATURES(COLLSIM_SIG_MEMBER)
#undef COLLSIM_SIG_MEMBER
} collsim_fn;

/* The algorithms, one prototype each from algorithms.def (the function type
 * of their collective), so that a definition with another signature fails
 * to compile. */
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
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
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    static inline long long fn##_msg_blocks(int p)                                                 \
    {                                                                                              \
        (void)p;                                                                                   \
        return (long long)(msg_blocks);                                                            \
    }
#include "algorithms.def"
#undef COLLSIM_ALG

#endif
