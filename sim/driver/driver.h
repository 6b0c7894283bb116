/* The types the driver's parts share (driver.c: main, the algorithm table and
 * the options; bench.c: the timing loop; bench_sig.c: what each signature
 * kind does in it; pingpong.c; datacheck.c: the data definition and its
 * check; vlayout.c: alltoallv's layouts; fold.c: folded memory). */
#ifndef COLLSIM_DRIVER_DRIVER_H
#define COLLSIM_DRIVER_DRIVER_H

#include <mpi.h>
#include <stdio.h>

#include "collsim_algorithms.h"
#include "account.h"
#include "distributions.h"
#include "case_fields.h"

/* ---- what differs between collectives: one descriptor each ----
 * (core/collectives.def, generated in driver.c). Its signature kind's hooks
 * (sig, bench_sig.h) fill, poison, call and check the buffers. The blocks
 * are of `bytes` (count x dtype) but for the v- and intergroup kinds;
 * block_id(src, dst, p) names the data rank src sends to rank dst (see the
 * data definition, datacheck.h). */
typedef struct drv_sig drv_sig;
typedef struct {
    const cs_coll_props *props;
    const drv_sig *sig;
    collsim_fn native; /* SMPI's built-in (MPI_<mpi>), when has_native */
    int has_native;
    long (*block_id)(int src, int dst, int p);
} coll_desc;

static inline int send_blocks(const coll_desc *c, int p) { return cs_coll_send_blocks(c->props, p); }

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
    const coll_desc *desc;
    collsim_fn fn;            /* the algorithm, of desc's signature kind (not for p2p) */
    int region_setup;         /* coll_loc_prepare before timing (algorithms.def) */
    /* intergroup collectives (intergroup.h): the groups and block ratio
     * (cs_fields_resolve), the layout and count pattern (ig_parse) */
    cs_groups ig_groups;
    int ig_interleaved, ig_arith;
    cs_dist vdist;            /* v-collectives: block sizes (--dist, --seed) */
    cs_background bg;         /* --background as cs_fields_resolve parsed it (procs 0: none) */
    long *sizes;
    int nsizes;
    long *nps;
    int nnps;
    MPI_Datatype mpi_dtype;
    const char *csv_path;
    /* test hook: COLLSIM_FAULT=rank:block:offset flips that received byte after
     * each call, so the tests can prove that the data check catches errors */
    long fault_rank, fault_block, fault_offset;
} driver_opts;

/* One CSV row (core/results.h) for rank 0 of the collective or pingpong
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
