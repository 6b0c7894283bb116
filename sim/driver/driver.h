/* The types the driver's parts share (driver.c: main, the algorithm table and
 * the options; bench.c: the timing loop; pingpong.c; datacheck.c: the data
 * definition and its check; vlayout.c: alltoallv's layouts; fold.c: folded
 * memory). */
#ifndef COLLSIM_DRIVER_DRIVER_H
#define COLLSIM_DRIVER_DRIVER_H

#include <mpi.h>
#include <stdio.h>

#include "collsim_algorithms.h"
#include "account.h"
#include "distributions.h"
#include "case_fields.h"

/* ---- what differs between collectives: one descriptor each ----
 * Both move blocks of `bytes` (count x dtype); the receive buffer holds p
 * blocks, slot j coming from rank j. They differ in the send buffer (one
 * block, or p blocks with block j for rank j) and in what a block contains:
 * block_id(src, dst, p) names the data rank src sends to rank dst (see the
 * data definition, datacheck.h). */
typedef struct {
    const char *name;
    collsim_block_coll_fn native;
    int send_blocks_per_rank; /* 0: one block; 1: p blocks */
    int in_place_ok;
    long (*block_id)(int src, int dst, int p);
    /* non-NULL for a v-collective (alltoallv): blocks of varying sizes, from
     * --dist and --seed, at displacements with gaps (see v_layout) */
    collsim_alltoallv_fn vnative;
    /* rooted collectives: 1 gather (slot j of the root from rank j), 2
     * scatter (slot 0 of rank t, block t of the root's send buffer) */
    int rooted;
    collsim_rooted_fn rnative;
} coll_desc;

static inline int send_blocks(const coll_desc *c, int p) { return c->send_blocks_per_rank ? p : 1; }

/* What parse_args (driver.c) makes of the command line. */
typedef struct {
    /* case_fields.def: iters, warmup, fold, dtype (its name), in_place,
     * account (print the per-level message counts after each size), region,
     * dist and seed as given (v-collectives; parsed into vdist), and the
     * host's own fields, unused here */
#define CS_CASE_FIELD CS_CASE_MEMBER
#include "case_fields.def"
#undef CS_CASE_FIELD
    const char *coll;
    const char *alg;
    const coll_desc *desc; /* NULL for pingpong */
    collsim_block_coll_fn fn;
    collsim_alltoallv_fn vfn; /* set instead of fn for a v-collective */
    collsim_rooted_fn rfn;    /* ... for a rooted one (gather, scatter), with root */
    int region_setup;         /* coll_loc_prepare before timing (algorithms.def) */
    /* intergroup collectives (intergroup.h): set instead of fn, with the
     * groups, block ratio, layout and count pattern parsed by ig_parse */
    collsim_inter_allgather_fn ifn;
    collsim_inter_allgatherv_fn ivfn;
    cs_groups ig_groups;
    int ig_interleaved, ig_arith;
    cs_dist vdist;            /* v-collectives: block sizes (--dist, --seed) */
    cs_background bg;         /* --background as parsed (procs 0: none; background.h) */
    long *sizes;
    int nsizes;
    long *nps;
    int nnps;
    int pingpong; /* --coll pingpong: point-to-point timing, see pingpong_comm */
    MPI_Datatype mpi_dtype;
    const char *csv_path;
    /* test hook: COLLSIM_FAULT=rank:block:offset flips that received byte after
     * each call, so the tests can prove that the data check catches errors */
    long fault_rank, fault_block, fault_offset;
} driver_opts;

/* One CSV row (analysis/results.h) for rank 0 of the collective or pingpong
 * benchmark; driver.c's write_row. ok: 1 ok, 0 fail (wrong data), -1 error
 * (the algorithm returned an MPI error). */
void driver_write_row(FILE *csv, const driver_opts *o, int p, long bytes, long long data_bytes,
                      double avg_us, double min_us, double max_us, int ok, const acct_summary *as);
/* The same with the per-call maximum and the root's time (results.h;
 * -1: not measured). */
void driver_write_row_metrics(FILE *csv, const driver_opts *o, int p, long bytes,
                             long long data_bytes, double avg_us, double min_us, double max_us,
                             double call_max_us, double root_us, int ok, const acct_summary *as);

#endif
