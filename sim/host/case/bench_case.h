/* One case: one smpirun of the driver for (platform, mapping, np, collective,
 * algorithm) over a list of sizes. `bench` runs one; `run` runs many. */
#ifndef COLLSIM_BENCH_CASE_H
#define COLLSIM_BENCH_CASE_H

#include <sys/types.h>

#include "case_fields.h"
#include "cs_error.h"
#include "mapping.h"
#include "numlist.h"
#include "platform.h"
#include "registry.h"
#include "results.h"
#include "smpirun.h"

typedef struct {
    /* the parameters of case_fields.def: np, ppn, region, dtype, fold (0:
     * check, real buffers and a data check; 1: fold), dist (alltoallv's
     * block sizes as spelled for --dist, NULL: uniform; sizes are then N,
     * the largest block), seed, iters, warmup, in_place, account, timeout_s
     * (0: none), oversubscribe */
#define CS_CASE_FIELD CS_CASE_MEMBER
#include "case_fields.def"
#undef CS_CASE_FIELD
    /* the table's SPECIAL fields, of their own types */
    const cs_platform *platform;
    cs_mapping mapping;
    cs_alg_sel alg;          /* collective and algorithm */
    const cs_numlist *sizes; /* bytes per rank */
    const char *extra_cfg[CS_MAX_CFG];
    int nextra;
    /* optional: run on the first p ranks of the np-rank mapping for each p
     * here (one smpirun covers many process counts; used by the tests) */
    const cs_numlist *np_list;
    /* host memory the case may use, in bytes; 0: 90% of what /proc/meminfo
     * says is available now (the runner sets it from its budget, so that a
     * case's fate does not depend on what the other workers happen to hold;
     * bench from --memory) */
    double mem_budget;
    /* the background and groups, parsed once where the case is built
     * (cs_case_resolve): what placement, memory estimate and rows read */
    cs_case_parts parts;
    int resolved;
} cs_case;

/* case_fields.def over cs_case */
extern const cs_field cs_case_fields[CS_NFIELDS];

/* A case with every field at its default (case_fields.def). */
void cs_case_init(cs_case *c);

/* Parses the case's background and groups into c->parts (cs_fields_resolve),
 * once, where the case is built: after its fields are set and before any
 * other function of this header reads it. 0, or -1 with err. */
int cs_case_resolve(cs_case *c, cs_err *err);

/* The one placement of a case: cs_case_check computes it, cs_case_start
 * writes the case's files from it, cs_case_collect records it in the rows. */
typedef struct {
    int *node_of_rank; /* np + the background's ranks (cs_case_map) */
    int n;
    char spread[512];  /* the background's placement in words; "" without one */
} cs_case_place;
void cs_case_place_free(cs_case_place *pl);

/* case_memory.c: */
/* Host memory the case needs, estimated from buffers and per-rank overheads;
 * _at: the same with `maxsize` as its largest size. */
double cs_case_memory_bytes(const cs_case *c);
double cs_case_memory_at(const cs_case *c, long maxsize);

/* The estimate's terms, in bytes (their sum is the estimate): */
typedef struct {
    double ranks;   /* the simulator and every rank's actor, bookkeeping, stack pages */
    double buffers; /* the user buffers: once folded, once per rank otherwise */
    double counts;  /* alltoallv: each rank's own counts (and, checked, displacements) */
    double state;   /* the algorithm's per-rank state and SMPI's copies of its eager sends */
    double packs;   /* SMPI's pack buffers for derived datatypes */
} cs_mem_parts;
double cs_case_memory_parts(const cs_case *c, long maxsize, cs_mem_parts *parts);
/* "ranks 1.1 GB, counts 8.6 GB, ...": the terms of at least 1% of the total */
void cs_mem_parts_fmt(const cs_mem_parts *parts, char *out, size_t len);
/* Why the case does not fit at maxsize: "N ranks at B bytes need about X
 * (terms), more than the limit of L (limit_why): what to do". */
void cs_mem_refusal(const cs_case *c, long maxsize, double limit, const char *limit_why, char *out,
                    size_t len);

/* The largest block of a size: `bytes` itself, or for an intergroup
 * collective the larger of group A's (`bytes`) and group B's (--block-ratio). */
long cs_case_max_block(const cs_case *c, long bytes);
/* The largest block over the case's sizes (cs_case_max_block). */
long cs_case_largest_block(const cs_case *c);

/* An intergroup case (collectives.def, groups) of groups g (parsed:
 * cs_fields_resolve): P + Q = np, group B's blocks whole elements for each
 * size (--block-ratio), and each group's whole data within an int count
 * (the root-gathering algorithms send it in one message). 0, or -1 with
 * err. */
int cs_groups_case_check(const char *coll, const char *alg, const cs_groups *g,
                         const char *counts, const char *dtype, int np, const long *sizes,
                         size_t nsizes, cs_err *err);

/* MemAvailable from /proc/meminfo, in bytes (0 when unknown). */
double cs_mem_available(void);

/* Validates the case (resolved: cs_case_resolve): datatype, sizes against
 * it, iterations, region level against the platform's declared levels,
 * memory, and that the mapping fits the platform. pl (may be NULL)
 * receives the placement checked (free with cs_case_place_free; left empty
 * on an error). */
int cs_case_check(const cs_case *c, cs_case_place *pl, cs_err *err);

/* 0 when `level` is one of the platform's declared locality levels, else -1
 * with an error listing them (`where`: a prefix such as "file:line: ", or ""). */
int cs_region_check(const cs_platform *pf, const char *level, const char *where, cs_err *err);

/* Places a resolved case (cs_case_check keeps the result): its nodes
 * (--hosts, hostspec.h), its ranks on them (--map, --ppn: mapping.h), then
 * the background's ranks (cs_map_background) after the measured ones in
 * map, which holds np + theirs. spread (may be NULL) receives the
 * background's placement in words. 0, or -1 with err. */
int cs_case_map(const cs_case *c, int *map, char *spread, size_t spread_len, cs_err *err);

/* Writes the hostfile and the driver's locality file (mapping.h) of the
 * placement pl (cs_case_check's) into workdir, then starts smpirun; the
 * driver's table goes to our stdout when show_table, else to
 * workdir/stdout.txt; its stderr always to workdir/stderr.txt. */
pid_t cs_case_start(const cs_case *c, const cs_case_place *pl, const char *workdir,
                    int show_table, cs_err *err);

/* A row holding everything that defines the case at (np, bytes): the
 * identity results.csv, --resume and baselines key on; measurements at their
 * defaults. Every field a case gains belongs here, nowhere else. */
void cs_case_row(const cs_case *c, int np, long bytes, cs_result *r);

/* How a run ended against its timeout (cs_case.timeout_s, CPU seconds). */
enum { CS_IN_TIME = 0, CS_OVER_CPU = 1, CS_OVER_WALL = 2 };
int cs_case_timed_out(const cs_case *c, int exit_code, int signaled, double wall_s);

/* After the run ended with `exit_code` (timed_out: CS_OVER_CPU or
 * CS_OVER_WALL if the timeout ended it): one row per size, status ok/fail
 * from the driver, error/timeout with the tail of the error output for sizes
 * that produced nothing; each row's placement from pl (cs_case_start's). */
void cs_case_collect(const cs_case *c, const cs_case_place *pl, const char *workdir,
                     int exit_code, int timed_out, cs_result **rows, size_t *nrows);

/* Waits for the case started as `pid` (the CPU limit, and a wall-clock
 * backstop), then cs_case_collect. */
void cs_case_wait(const cs_case *c, const cs_case_place *pl, const char *workdir, pid_t pid,
                  cs_result **rows, size_t *nrows);

/* The command that re-runs the case by hand (uses workdir's hostfile and locality file). */
char *cs_case_cmdline(const cs_case *c, const char *workdir);

#endif
