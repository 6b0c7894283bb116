/* The algorithm registry seen from the host: collsim's own algorithms (from
 * algorithms/algorithms.def) and SMPI's built-in ones, selectable as baselines
 * under `native:<smpi name>`. */
#ifndef COLLSIM_REGISTRY_H
#define COLLSIM_REGISTRY_H

#include <stddef.h>

#include "cs_error.h"

/* Which process counts run an algorithm's own schedule (algorithms.def, p). */
typedef enum {
    CS_P_ANY,           /* every p */
    CS_P_POF2_ONLY,     /* powers of two; other p fail */
    CS_P_POF2_FALLBACK, /* powers of two; other p run the fallback of `restriction` */
    CS_P_EVEN_FALLBACK  /* even p; odd p run the fallback of `restriction` */
} cs_p_rule;

/* One entry of algorithms.def, its columns decoded. */
typedef struct {
    const char *collective, *name, *paper, *section, *restriction;
    const char *source;   /* the algorithm's file under algorithms/ */
    int in_place;         /* accepts MPI_IN_PLACE */
    int derived;          /* sends derived datatypes (cs_alg_sends_derived) */
    cs_p_rule p_rule;
    int needs_regions;    /* locality-aware: region tables of coll_locality.h */
    int needs_groups;     /* intergroup: needs group communicators */
    int setup_regions;    /* the benchmark builds the region tables before timing */
    int commutative_only; /* serves commutative operations only (algorithms.def, ops) */
    const char *cost;     /* its model in analysis/cost_model.c, or "none" */
    double (*rank_state_bytes)(int p, long long n); /* cs_alg_rank_state_bytes */
    long long (*msg_blocks)(int p); /* blocks in its largest count (cs_alg_largest_count) */
    int msg_in_bytes;               /* those counts count bytes (MPI_BYTE), not elements */
} cs_alg_info;

const cs_alg_info *cs_registry(size_t *n);

/* The entry of an algorithm; name is NAME, COLLECTIVE/NAME or either with an
 * @LEVEL suffix (a report's label of an algorithm run at a region level).
 * NULL for native:... and unknown names. */
const cs_alg_info *cs_alg_find(const char *coll, const char *name);

/* 1 for a locality-aware algorithm (algorithms.def, regions), 0 otherwise. */
int cs_alg_locality_aware(const char *coll, const char *name);

/* 0 when the algorithm serves the operation `op` (a --op word), else -1 and err names the
 * rule (algorithms.def's ops column: commutative operations only). */
int cs_alg_op_check(const char *coll, const char *name, const char *op, cs_err *err);

/* The name of an algorithm's cost model (a function of analysis/cost_model.c,
 * several algorithms may share one), or NULL when it has none. */
const char *cs_alg_cost_model(const char *coll, const char *name);

/* The first algorithm of a collective, in algorithms.def's order, whose cost
 * model is `model` (e.g. the alltoallv modelled by Fan et al.'s Eq. (2),
 * two_phase_bruck), or NULL. */
const char *cs_alg_with_cost_model(const char *coll, const char *model);

/* Collectives the driver can run, those of core/collectives.def (NULL-terminated). */
const char *const *cs_collectives(void);

/* The one algorithm of the collective pingpong (core/collectives.def): the
 * driver's ping-pong between ranks 0 and 1 (sim/driver/pingpong.c). */
#define CS_PINGPONG_ALG "send_recv"
int cs_collective_valid(const char *coll, cs_err *err);

/* Blocks in a rank's send and receive buffers together for np ranks, as the driver allocates
 * them (cs_coll_send_blocks + cs_coll_recv_blocks): 1 + np for an allgather, 2 np for an
 * alltoall, 2 for an allreduce. */
int cs_collective_buffer_blocks(const char *coll, int np, int in_place);

/* 1 when the driver can run the collective with MPI_IN_PLACE (allgather). */
int cs_collective_in_place(const char *coll);

/* 1 when the algorithm sends derived (non-contiguous) datatypes: SMPI 3.32
 * packs each such message into a temporary buffer of its size even from a
 * folded buffer, so folding does not bound its memory (measured, fold,
 * np 253, 1 MiB: sparbit_indexed and recursive_doubling peak at 15 GB RSS,
 * ring and bruck at 0.3 GB). */
int cs_alg_sends_derived(const char *coll, const char *name);

/* Bytes of per-rank state proportional to p that an algorithm keeps in plain
 * (never folded) memory during a call, e.g. two-phase Bruck's metadata, for
 * p ranks and a largest block of n bytes; 0 for most. Used by the memory
 * estimate (bench_case.h). */
double cs_alg_rank_state_bytes(const char *coll, const char *name, int p, long long n);

/* The largest count one MPI call of an algorithm passes (a count argument,
 * a datatype it builds, an int displacement it computes) for p ranks and
 * blocks of `bytes` (the per-rank block of an allgather, the block of an
 * alltoall, the largest block of an alltoallv) of a datatype of tsize bytes:
 * blocks x block, in `unit`. Own algorithms: algorithms.def's msg_blocks
 * and msg_unit. SMPI's built-ins (native:...) are not collsim's code and
 * are not analysed one by one: p blocks in elements is assumed for all of
 * them, the whole p x count buffer in one call, as a gather-then-broadcast
 * variant sends it (SMPI's allgatherv GB broadcasts every block in one
 * count). Measured: native:ring at np 4 runs with 512 MiB - 1 per rank
 * (p x count = 2^31 - 4) and ends in a segmentation fault with 1 GiB. */
typedef struct {
    long long blocks; /* blocks in the largest count */
    long long block;  /* one block, in unit */
    const char *unit; /* "elements" of the datatype, or "bytes" */
    int assumed;      /* 1 for a native: algorithm (the rule above) */
} cs_msg_count;
void cs_alg_largest_count(const char *coll, const char *name, int p, long bytes, int tsize,
                          cs_msg_count *out);

/* Refuses (-1, err naming the algorithm, p, the size, the largest count and
 * INT_MAX) a case whose largest count (cs_alg_largest_count) exceeds what an
 * MPI count, an int, can express, or whose largest message has 2^31 bytes
 * or more (SMPI 3.32 does not make the sender of such a message wait for
 * it: the prediction would be wrong); for alltoallv also the driver's
 * layout, whose p blocks with gaps sit at int displacements. name as in
 * cs_alg_sel (sparbit, native:ompi). */
int cs_alg_count_check(const char *coll, const char *name, int p, long bytes, const char *dtype,
                       cs_err *err);

/* 1 for a v-collective (alltoallv): block sizes from a distribution and a
 * seed (core/distributions.h), sizes giving the largest block. */
int cs_collective_variable(const char *coll);

/* SMPI 3.32 built-in algorithm names for a collective, and the library
 * decision logics of smpi/coll-selector. NULL-terminated. */
const char *const *cs_native_algorithms(const char *coll);
/* The SMPI option that selects one of them, smpi/<it>: the collective's MPI
 * entry point in lower case, less a "_block" suffix (SMPI 3.32 runs
 * MPI_Reduce_scatter_block as MPI_Reduce_scatter with equal counts, under
 * smpi/reduce_scatter), written into out. */
const char *cs_native_option(const char *coll, char *out, size_t len);
const char *const *cs_native_selectors(void);

typedef struct {
    char collective[32];
    char name[96];     /* as written after the collective: sparbit, native:ompi */
    char driver_alg[64]; /* what the driver runs: sparbit, or native */
    char cfg[128];     /* for native: the --cfg=... that selects it, else "" */
} cs_alg_sel;

/* spec is NAME, native:NAME or COLL/NAME. */
int cs_resolve_alg(const char *coll, const char *spec, cs_alg_sel *out, cs_err *err);

#endif
