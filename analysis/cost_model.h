/* Closed-form cost models of collective algorithms under the Hockney model
 * (a message of s bytes costs alpha + s * beta), keyed by collective and
 * algorithm. The allgather models follow the Sparbit paper, Section II-A,
 * where m is the data a rank holds at the end (p blocks of `bytes` each, so
 * m / p = bytes); where collsim's code does something else (fallbacks), the
 * model follows the code. The loc-Bruck paper's Eqs. (3)-(4) add a local
 * level and eager/rendezvous regimes; Fan et al.'s Eqs. (1)-(2) cover the
 * alltoall(v) Bruck variants. Which algorithm has which model, with its
 * formula and source, is algorithms.def's cost columns; SMPI's own
 * algorithms (native:*) have no model. */
#ifndef COLLSIM_COST_MODEL_H
#define COLLSIM_COST_MODEL_H

#include <stddef.h>

typedef struct {
    double alpha; /* start-up time of one message, seconds */
    double beta;  /* transfer time per byte, seconds (1 / bandwidth) */
} cs_hockney;

/* One locality level's costs: `eager` for messages below rdv_bytes,
 * `rdv` (rendezvous) at and above it; rdv_bytes 0: one regime (eager). */
typedef struct {
    cs_hockney eager, rdv;
    long rdv_bytes;
} cs_level_cost;

/* What a model may use. The single-level models read `net` only. */
typedef struct {
    cs_level_cost net;   /* non-local: between regions (α, β of the papers) */
    cs_level_cost local; /* inside a region (α_ℓ, β_ℓ of the loc-Bruck paper) */
    int ppn;             /* p_ℓ, processes per region; 0: unknown (region models give NaN) */
    double mean_block;   /* v-collectives: mean block size in bytes; 0: N/2, the uniform
                            distribution Fan et al. assume in Eq. (2) */
    /* Intergroup collectives (inter_allgather, inter_allgatherv), as the
     * case's row records them: group sizes P (group 0, whose block is the
     * model's `bytes`) and Q, the block ratio k_A:k_B (group 1's block is
     * bytes x rb / ra), the element size and whether the counts are
     * arithmetic (local rank i of n: ceil(x (i+1) / n) elements). gp == 0:
     * not given (the intergroup models give NaN). Filled from a row by
     * cs_cost_params_groups. */
    int gp, gq, ra, rb;
    int elem_bytes;
    int arithmetic;
    /* Gather and scatter: each rank's region at the level that plays the
     * paper's switch (region_of[0..p-1], numbered by first appearance in
     * rank order, as a row's placement column records them:
     * cs_placement_regions), and the root's rank. region_of NULL: regions
     * of ppn consecutive ranks (the models' assumption without a recorded
     * placement); root is then taken as 0. */
    const int *region_of;
    int root;
    /* Local work under the full model (the platform's collsim.local.copy-*,
     * sim/driver/cost.h): one copy call of b bytes costs work_call + b /
     * work_bw[k], k the last piece with work_from[k] <= b. nwork 0: nothing
     * charged (the network-only model, or not known). A combination of b
     * bytes (the reduction models' gamma) costs work_call + b / op_bw[k] over
     * op_from (the platform's collsim.local.reduce-bw); nop 0: as a copy. */
    int nwork, nop;
    long work_from[8], op_from[8];
    double work_bw[8], op_bw[8], work_call;
    /* bcast/pipelined_chain: bytes per segment (the row's segment column);
     * 0: the default, 64 KiB */
    long segment;
} cs_cost_params;

/* Sets c's local work from the platform's strings: copy_call seconds ("":
 * 0), copy_bw "0:BW;SIZE:BW;..." (bytes/s from SIZE bytes per call on) and
 * reduce_bw in the same form ("" or NULL: combinations cost copies). 0, or
 * -1 (c unchanged) when copy_bw or reduce_bw does not read. */
int cs_cost_params_local_work(cs_cost_params *c, const char *copy_call, const char *copy_bw,
                              const char *reduce_bw);

/* What c charges for one local copy call of `bytes` bytes (0 without local
 * work), and for one combination of a `bytes` vector (γ). */
double cs_local_work(const cs_cost_params *c, double bytes);
double cs_local_op(const cs_cost_params *c, double bytes);

/* One level, one regime, unknown regions: what a simulated ping-pong gives. */
cs_cost_params cs_cost_params_hockney(const cs_hockney *h);

/* Sets c's intergroup fields from a row's columns groups ("P:Q"),
 * block_ratio ("A:B"; "": 1:1), counts ("arithmetic" or else equal) and dtype
 * (byte, int, double): 0, or -1 (fields left unset) when groups does not
 * read, as in a row of another collective. */
int cs_cost_params_groups(cs_cost_params *c, const char *groups, const char *block_ratio,
                          const char *counts, const char *dtype);

/* The cost of one message of `bytes` at a level, in its regime. */
double cs_level_msg(const cs_level_cost *l, double bytes);

/* Predicted seconds for p ranks exchanging `bytes` per rank (per block; for
 * v-collectives N, the largest block). */
typedef double (*cs_cost_fn)(int p, long bytes, const cs_cost_params *c);

typedef struct {
    const char *collective, *algorithm;
    const char *model;   /* the function's name (algorithms.def's cost column) */
    cs_cost_fn fn;
    const char *formula; /* as a report prints it */
    const char *note;    /* where it comes from, and what differs from the paper */
} cs_cost_model;

/* Every algorithm of algorithms.def, in its order; fn is NULL for those
 * without a model. */
const cs_cost_model *cs_cost_models(size_t *n);

/* The first algorithm of `collective`, in algorithms.def's order, whose
 * cost model is `model` (e.g. two_phase_bruck, Fan et al.'s Eq. (2)); NULL
 * when none has it. Lets a report name a paper's algorithm by its model. */
const char *cs_cost_model_alg(const char *collective, const char *model);

/* algorithm is NAME or COLLECTIVE/NAME; NULL when there is no model. */
const cs_cost_model *cs_cost_model_find(const char *collective, const char *algorithm);

/* Predicted seconds, or NaN when the algorithm has no model (native:...) or
 * the model needs what `c` does not give (e.g. p_ℓ). */
double cs_cost_predict_params(const char *collective, const char *algorithm, int p, long bytes,
                              const cs_cost_params *c);
/* The same with one level and one regime. */
double cs_cost_predict(const char *collective, const char *algorithm, int p, long bytes,
                       const cs_hockney *h);

/* Kang et al. 2019, for the intergroup case in c (its groups set), group
 * 0's block `bytes` (the largest, with arithmetic counts):
 * Eq. (5), the improvement the paper expects of its algorithms over MPICH's
 * root gathering, (M + 3 (K_A + K_B)) / M, M = max(K_A, K_B) (K: a group's
 * whole data; the paper's p k_A, q k_B for allgather); NaN without groups. */
double cs_kang_eq5(const cs_cost_params *c, long bytes);
/* The finite-p model (docs/papers.md, "Kang: the finite-p model"):
 * transfer terms only, in units of beta. allgather: Eq. (2)'s root gathering
 * over Algorithm 1, whose group allgathervs cost between the fluid bound
 * (total - own piece) and the lock-step ring ((n - 1) x largest piece);
 * allgatherv (v = 1): MPICH's allgatherv code (linear gathervs in sequence,
 * then broadcasts of 2 m) over Algorithm 2, between M + largest block (Eq. 4)
 * and M. Sets *lo <= *hi (the ratio's range); -1 without groups. */
int cs_kang_finite_p(const cs_cost_params *c, long bytes, int v, double *lo, double *hi);
/* Kandalla et al. 2010's bounds (Sections 4.1, 4.2; typos fixed as
 * docs/papers.md, "Kandalla: the cost model K1-K5", says) for a gather
 * of N bytes per process over p processes in the regions of c->region_of
 * (else of p_ℓ = c->ppn consecutive ranks; the paper's switches, R of
 * them), root c->root, with the non-local level's α, β as t_s,inter-switch
 * and t_w,inter-switch and the contention factor α = 1. C3 counts the
 * root's binomial steps that cross regions (K2's C1 + C2 the others) and
 * C3 δ the share of the p N bytes they bring. K4's (1 - 1/R) M, the bytes
 * that leave the other regions, is (p - n_root) N: the same for equal
 * regions, and what the leaders' step moves for unequal ones. */
typedef struct {
    long R;
    int c_local, c3;
    double c3_delta;
    double k2; /* T_binomial, the schedule replay (the gather/binomial model) */
    double k3; /* T_binomial > t_s C3 + N p t_w C3 δ (N p: the total M) */
    double k4; /* T_topo > t_s log2 R + (1 - 1/R) M t_w, (1 - 1/R) M = (p - n_root) N */
    double k5; /* K3 / K4: the speed-up the paper reads as R (bandwidth) or
                  R / log R (start-ups) */
} cs_kandalla;
cs_kandalla cs_kandalla_models(int p, long N, const cs_cost_params *c);

/* Fan et al., inequality (3): padded Bruck beats two-phase Bruck while
 * (N - 8)(P + 1) β < 4 α, i.e. for N below 8 + 4α / ((P + 1) β). Returns that
 * crossover N in bytes for P processes. */
double cs_fan_padded_crossover(int P, const cs_hockney *h);

#endif
