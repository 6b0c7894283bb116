/* collsim-driver: the OSU-like benchmark that runs inside SMPI.
 *
 * For one collective (any of core/collectives.def) and algorithm, over a
 * list of message sizes (bytes per block: per rank for allgather, per pair of
 * ranks for alltoall, the largest block for alltoallv, ...), it times the
 * collective the way osu_allgather does (barrier, warm-up, timed iterations,
 * min/avg/max over ranks of each rank's mean) and, in `check` mode, compares
 * every received byte with its definition. With --np-list it runs the whole
 * benchmark on the sub-communicator made of the first p ranks, for each p in
 * the list, so that one smpirun covers many process counts. What differs
 * between collectives is their descriptor's (coll_descs below): the hooks of
 * its signature kind (bench_sig.h) and its properties.
 *
 * This program is launched by the host CLI (sim/host), not by users; its
 * options are an internal interface documented in usage(). */
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "bench.h"
#include "bench_sig.h"
#include "background.h"
#include "datacheck.h"
#include "fold.h"
#include "intergroup.h"
#include "coll_util.h"
#include "results.h"
#include "collsim_algorithms.h"
#include "coll_locality.h"
#include "coll_segment.h"
#include "account.h"
#include "cost.h"
#include "coll_locality_file.h"
#ifdef COLLSIM_REAL_MPI_DRIVER
#include "collsim_hwloc.h"
#else
#include "share.h"
#endif
#include "distributions.h"
#include "case_fields.h"

/* ---- the registry, built from the single list in algorithms.def ----
 * Each function is stored under its collective's member of collsim_fn, so
 * the compiler checks it against the collective's signature; the hooks of
 * the signature kind call it through the kind's member. */
typedef struct {
    const char *collective;
    const char *name;
    collsim_fn fn;
    int region_setup; /* algorithms.def's setup is `regions`: coll_loc_prepare first */
} driver_alg;

#define DRIVER_SETUP_none 0
#define DRIVER_SETUP_regions 1 /* any other word in algorithms.def fails to compile */
#define DRIVER_SETUP_intergroup 0 /* the group descriptor: the kind's prepare hook */

static const driver_alg driver_algs[] = {
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    {#coll, #name, {.coll = fn}, DRIVER_SETUP_##setup},
#include "algorithms.def"
#undef COLLSIM_ALG
};

/* ---- the built-in implementations (MPI_<mpi> of collectives.def), selected
 * by the host with --cfg options, for the signature kinds SMPI serves
 * (core/signatures.h, NATIVE): native_<collective> calls MPI_<mpi>. */
#define DRIVER_CAT_(a, b) a##b
#define DRIVER_CAT(a, b) DRIVER_CAT_(a, b)
#define DRIVER_NATIVE_1(name, sig, mpi)                                                            \
    static int native_##name(COLLSIM_SIG_##sig##_ARGS) { return MPI_##mpi(COLLSIM_SIG_##sig##_MPI_CALL); }
#define DRIVER_NATIVE_0(name, sig, mpi)
#define CS_COLLECTIVE(name, sig, send, root, in_place, note, min_np, mpi, ...)                     \
    DRIVER_CAT(DRIVER_NATIVE_, CS_SIG_##sig##_NATIVE)(name, sig, mpi)
#include "collectives.def"
#undef CS_COLLECTIVE
/* {the function, 1} or {none, 0} */
#define DRIVER_HAS_NATIVE_1(name) {.name = native_##name}, 1
#define DRIVER_HAS_NATIVE_0(name) {.name = NULL}, 0

/* ---- what a block holds (datacheck.h), from the send column ----
 * block_id(src, dst, p) names the data rank src sends to rank dst. */
static long block_id_one(int src, int dst, int p)
{
    (void)dst;
    (void)p;
    return src; /* the same block to everyone */
}

static long block_id_per_rank(int src, int dst, int p)
{
    return (long)src * p + dst; /* a different block per pair */
}

/* one descriptor per collective (driver.h): for a gather, the root's slot j
 * from rank j; for a scatter, rank t's block from the root's block t */
static const coll_desc coll_descs[] = {
#define CS_COLLECTIVE(name, sig, send, ...)                                                        \
    {&cs_coll_table[CS_C_##name], &drv_sig_##sig, DRIVER_CAT(DRIVER_HAS_NATIVE_, CS_SIG_##sig##_NATIVE)(name), block_id_##send},
#include "collectives.def"
#undef CS_COLLECTIVE
};

static const cs_field drv_fields[CS_NFIELDS] = {
#define CS_CASE_FIELD(...) CS_FIELD_ENTRY(driver_opts, __VA_ARGS__)
#include "case_fields.def"
#undef CS_CASE_FIELD
};

#ifdef COLLSIM_REAL_MPI_DRIVER
#define DRIVER_NAME "collsim-mpibench"
#else
#define DRIVER_NAME "collsim-driver"
#endif

static void usage(void)
{
    fprintf(stderr, "usage: " DRIVER_NAME " --coll COLL --alg NAME|native --sizes B1,B2,... [options]\n"
                    "    (COLL: %s)\n", cs_coll_names("|"));
    cs_fields_usage(drv_fields, stderr, 1);
    fprintf(stderr,
            "    --np-list P1,P2,...                  each p: the first p ranks\n"
            "    --csv FILE                           rows appended (core/results.h)\n"
            "    --locality FILE                      each rank's regions (written with the hostfile)\n"
            "Environment: COLLSIM_FAULT=rank:block:offset corrupts that received byte (tests;\n"
            "alltoallv: a negative offset corrupts the gap before the block).\n");
}

static int parse_long_list(const char *text, long **out)
{
    int n = 1;
    for (const char *c = text; *c; c++)
        n += (*c == ',');
    long *v = malloc(sizeof(long) * (size_t)n);
    int k = 0;
    const char *c = text;
    while (*c) {
        char *end;
        errno = 0;
        long x = strtol(c, &end, 10);
        if (end == c || errno || x < 0 || (*end && *end != ',')) {
            free(v);
            return -1;
        }
        v[k++] = x;
        c = *end ? end + 1 : end;
    }
    *out = v;
    return k;
}

static int parse_args(int argc, char **argv, driver_opts *o)
{
    memset(o, 0, sizeof *o);
    cs_fields_defaults(drv_fields, o);
    const char *raw[CS_NFIELDS] = {0}, *nps = NULL;
    unsigned long given = 0;
    cs_err e;
    o->fault_rank = -1;
    const char *fault = getenv("COLLSIM_FAULT");
    if (fault && sscanf(fault, "%ld:%ld:%ld", &o->fault_rank, &o->fault_block, &o->fault_offset) != 3) {
        fprintf(stderr, "collsim-driver: COLLSIM_FAULT='%s' is not rank:block:offset\n", fault);
        return -1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int got = cs_fields_parse(drv_fields, o, 1, argc, argv, &i, raw, &given, &e);
        if (got < 0) {
            fprintf(stderr, "collsim-driver: %s\n", e.msg);
            return -1;
        }
        if (got)
            continue;
        if (!strcmp(a, "--help")) {
            usage();
            return -1;
        }
        if (!strcmp(a, "--np-list") && v) nps = argv[++i];
        else if (!strcmp(a, "--csv") && v) o->csv_path = argv[++i];
        else if (!strcmp(a, "--locality") && v) ++i; /* read in main: --region needs the levels */
        else {
            fprintf(stderr, "collsim-driver: unknown option '%s'%s\n", a, v ? "" : " (or no value)");
            return -1;
        }
    }
    o->coll = raw[CS_F_collective];
    o->alg = raw[CS_F_algorithm];
    const char *sizes = raw[CS_F_sizes];
    if (!o->coll || !o->alg || !sizes) {
        usage();
        return -1;
    }
    cs_case_parts parts; /* the background and groups, parsed here once */
    if (cs_fields_check(drv_fields, o, o->coll, given, &e) ||
        cs_fields_resolve(drv_fields, o, o->coll, &parts, &e)) {
        fprintf(stderr, "collsim-driver: %s\n", e.msg);
        return -1;
    }
    o->bg = parts.bg;
    o->ig_groups = parts.groups;
    o->mpi_dtype = !strcmp(o->dtype, "int") ? MPI_INT : !strcmp(o->dtype, "double") ? MPI_DOUBLE : MPI_BYTE;
    coll_set_segment_bytes(o->segment); /* the segmented algorithms' (coll_segment.h) */
    if (o->region && coll_loc_set_region_level(o->region)) {
        fprintf(stderr, "collsim-driver: unknown --region '%s' (valid:", o->region);
        for (int k = 0; k < coll_loc_level_count(); k++)
            fprintf(stderr, "%s %s", k ? "," : "", coll_loc_level_name(k));
        fprintf(stderr, ")\n");
        return -1;
    }
    for (size_t k = 0; k < sizeof coll_descs / sizeof coll_descs[0]; k++)
        if (!strcmp(coll_descs[k].props->name, o->coll))
            o->desc = &coll_descs[k];
    if (!o->desc) {
        fprintf(stderr, "collsim-driver: unknown collective '%s' (valid: %s)\n", o->coll,
                cs_coll_names(", "));
        return -1;
    }
    if (o->desc->props->variable) {
        char derr[512]; /* checked by cs_fields_check */
        cs_dist_parse(o->dist ? o->dist : "uniform", &o->vdist, derr, sizeof derr);
    }
    if (o->desc->props->sig == CS_SIG_p2p) {
        /* no algorithm: pingpong_comm is the whole benchmark */
    } else if (!strcmp(o->alg, "native")) {
        o->fn = o->desc->native;
        if (!o->desc->has_native) {
            fprintf(stderr, "collsim-driver: %s has no native implementation\n", o->coll);
            return -1;
        }
    } else {
        int found = 0;
        for (size_t k = 0; k < sizeof driver_algs / sizeof driver_algs[0]; k++)
            if (!strcmp(driver_algs[k].collective, o->coll) && !strcmp(driver_algs[k].name, o->alg)) {
                o->fn = driver_algs[k].fn;
                o->region_setup = driver_algs[k].region_setup;
                found = 1;
            }
        if (!found) {
            fprintf(stderr, "collsim-driver: unknown algorithm '%s/%s'\n", o->coll, o->alg);
            return -1;
        }
    }
    if ((o->nsizes = parse_long_list(sizes, &o->sizes)) <= 0) {
        fprintf(stderr, "collsim-driver: bad --sizes '%s' (comma-separated byte counts, e.g. "
                        "1,1024,1048576; no ranges or K/M suffixes here)\n", sizes);
        return -1;
    }
    if (nps && (o->nnps = parse_long_list(nps, &o->nps)) <= 0) {
        fprintf(stderr, "collsim-driver: bad --np-list '%s'\n", nps);
        return -1;
    }
    if (cs_fields_check_sizes(o->dtype, o->sizes, (size_t)o->nsizes, &e)) {
        fprintf(stderr, "collsim-driver: %s\n", e.msg);
        return -1;
    }
    if (o->desc->props->groups && ig_parse(o))
        return -1;
    return 0;
}

/* One CSV row (core/results.h, the format every collsim tool reads) with
 * what the driver knows: the host fills platform, mapping and ppn. */
static void write_row(FILE *csv, const driver_opts *o, int p, long bytes, long long data_bytes,
                      double avg_us, double min_us, double max_us, double call_max_us,
                      double root_us, int ok, const acct_summary *as)
{
    cs_result r;
    cs_result_init(&r);
    const cs_case_parts parts = {o->bg, o->ig_groups};
    cs_fields_row(drv_fields, o, o->coll, &parts, &r);
    r.np = p;
    snprintf(r.collective, sizeof r.collective, "%s", o->coll);
    snprintf(r.algorithm, sizeof r.algorithm, "%s", o->alg);
    r.bytes = bytes;
    r.data_bytes = data_bytes;
    r.avg_us = avg_us;
    r.min_us = min_us;
    r.max_us = max_us;
    r.call_max_us = call_max_us;
    r.root_us = root_us;
    r.iterations = o->iters;
    /* ok > 0: ok; 0: a wrong byte (fail); < 0: the algorithm returned an MPI error */
    snprintf(r.status, sizeof r.status, "%s", ok > 0 ? "ok" : ok < 0 ? "error" : "fail");
    if (as && as->measured) { /* per-level counts (account.h); -1 / "" otherwise */
        int nl = as->nslots - 1; /* the "nonlocal" slot */
        r.nonlocal_max_msgs = as->max_msgs[nl];
        r.nonlocal_max_bytes = as->max_bytes[nl];
        r.nonlocal_total_msgs = as->total_msgs[nl];
        r.nonlocal_total_bytes = as->total_bytes[nl];
        acct_format(as, r.account, sizeof r.account);
    }
    cs_results_write_row(csv, &r);
}

/* bench.c and pingpong.c write their rows through this (driver.h). */
void driver_write_row_metrics(FILE *csv, const driver_opts *o, int p, long bytes,
                             long long data_bytes, double avg_us, double min_us, double max_us,
                             double call_max_us, double root_us, int ok, const acct_summary *as)
{
    write_row(csv, o, p, bytes, data_bytes, avg_us, min_us, max_us, call_max_us, root_us, ok, as);
    fflush(csv); /* kept if a later size is killed */
}

void driver_write_row(FILE *csv, const driver_opts *o, int p, long bytes, long long data_bytes,
                      double avg_us, double min_us, double max_us, int ok, const acct_summary *as)
{
    driver_write_row_metrics(csv, o, p, bytes, data_bytes, avg_us, min_us, max_us, -1, -1, ok, as);
}

/* The send and receive buffers, sized for the largest p: one or p send
 * blocks, one or p receive blocks (cs_coll_recv_blocks; folded or real, see fold.h). Returns -1, after
 * rank 0 said why, when they cannot be addressed. */
static int alloc_buffers(const driver_opts *o, int wrank, int wsize, long maxbytes,
                         unsigned char **sendbuf, unsigned char **recvbuf)
{
    size_t sendbytes = (size_t)maxbytes * (size_t)send_blocks(o->desc, wsize),
           recvbytes = (size_t)maxbytes * (size_t)cs_coll_recv_blocks(o->desc->props, wsize, o->in_place);
    if (o->desc->sig->buffers &&
        o->desc->sig->buffers(o, wrank, wsize, &maxbytes, &sendbytes, &recvbytes))
        return -1;
    if (o->fold) {
        *sendbuf = fold_buffers(o, wsize, maxbytes, sendbytes, recvbytes);
        *recvbuf = *sendbuf + sendbytes;
    } else {
        pattern_init(maxbytes);
        *sendbuf = malloc(sendbytes ? sendbytes : 1);
        *recvbuf = malloc(recvbytes ? recvbytes : 1);
        if (!*sendbuf || !*recvbuf) {
            fprintf(stderr, "collsim-driver: rank %d cannot allocate %zu bytes of real buffers; "
                            "use --fold at this scale\n", wrank, sendbytes + recvbytes);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    return 0;
}

static void free_buffers(const driver_opts *o, unsigned char *sendbuf, unsigned char *recvbuf)
{
    if (o->fold) {
        fold_buffers_release();
    } else {
        free(sendbuf);
        free(recvbuf);
    }
}

/* Rank 0's CSV file (--csv), appended to; NULL elsewhere or without --csv. */
static FILE *open_csv(const driver_opts *o, int wrank)
{
    FILE *csv = NULL;
    if (wrank == 0 && o->csv_path) {
        csv = fopen(o->csv_path, "a");
        if (!csv) {
            fprintf(stderr, "collsim-driver: cannot open %s: %s\n", o->csv_path, strerror(errno));
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        if (ftell(csv) == 0)
            cs_results_write_header(csv);
    }
    return csv;
}

/* The benchmark for each p of --np-list, on the first p ranks of `all` (the
 * measured job: MPI_COMM_WORLD, or its ranks left of a background job);
 * returns the number of sizes that failed. */
static int run_np_list(const driver_opts *o, MPI_Comm all, unsigned char *sendbuf,
                       unsigned char *recvbuf, FILE *csv)
{
    int failures = 0, wrank, wsize;
    MPI_Comm_rank(all, &wrank);
    MPI_Comm_size(all, &wsize);
    for (int k = 0; k < o->nnps; k++) {
        int p = (int)o->nps[k];
        MPI_Comm comm;
        if (p == wsize) {
            comm = all;
        } else {
            MPI_Comm_split(all, wrank < p ? 0 : MPI_UNDEFINED, wrank, &comm);
        }
        if (comm != MPI_COMM_NULL) {
            failures += o->desc->sig->run(o, comm, sendbuf, recvbuf, csv);
            if (comm != all)
                MPI_Comm_free(&comm);
        }
        /* ranks outside the sub-communicator wait here, sending nothing */
        driver_barrier(all);
    }
    return failures;
}

int main(int argc, char **argv)
{
    /* a row reaches a pipe (tee, a batch system's log) as its size ends, and
     * survives a run the CPU limit kills later */
    setvbuf(stdout, NULL, _IOLBF, 0);
    MPI_Init(&argc, &argv);
    /* Every level the platform declares (node included), from the host's
     * locality file (--locality, taken ahead of the other options: --region
     * needs the levels), installed as the locality provider of
     * coll_locality.h (coll_locality_file.h). It replaces the default
     * provider, so coll_loc_init() (its MPI_Comm_split_type over
     * MPI_COMM_WORLD) is not called: at 32,768 ranks that split alone raises
     * the simulation's memory from 2.2 to 4.6 GB (measured on lassen). */
    const char *locality = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--locality"))
            locality = argv[i + 1];
    char loc_err[600];
#ifndef COLLSIM_REAL_MPI_DRIVER
    /* the simulated ranks keep one copy of identical region tables and groups */
    sim_share_install();
#endif
#ifdef COLLSIM_REAL_MPI_DRIVER
    /* collsim-mpibench: without a locality file, the machine's own nodes and
     * sockets (realmpi/collsim_hwloc.h) */
    if (!locality) {
        if (collsim_hwloc_regions(NULL) != MPI_SUCCESS) {
            fprintf(stderr, "collsim-mpibench: the node and socket regions could not be set up\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    } else
#endif
    if (coll_loc_file_init(locality, loc_err, sizeof loc_err)) {
        fprintf(stderr, "collsim-driver: %s\n", loc_err);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    acct_init();
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    driver_opts o;
    if (parse_args(argc, argv, &o)) {
        MPI_Finalize();
        return 2;
    }
    /* the network factors per level (cost.h) before any rank's first message */
    const int model = cost_model_of(o.model);
    if (model < 0) { /* a word of case_fields.def that cost_model_of does not know */
        if (wrank == 0) {
            char valid[256];
            cs_case_word(CS_F_model, o.model, valid, sizeof valid);
            fprintf(stderr, "collsim-driver: --model '%s': no cost model of that name (the "
                            "case fields list: %s)\n", o.model, valid);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (cost_init(model, loc_err, sizeof loc_err) ||
        cost_factors_init(model != COST_MODEL_NETWORK, wrank, loc_err, sizeof loc_err)) {
        if (wrank == 0)
            fprintf(stderr, "collsim-driver: %s\n", loc_err);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    long maxbytes = 0;
    for (int s = 0; s < o.nsizes; s++)
        if (o.sizes[s] > maxbytes)
            maxbytes = o.sizes[s];
    /* a background job (background.h) takes the last ranks: the measured
     * job is the others */
    const int nmeasured = wsize - o.bg.procs;
    if (nmeasured < 1) {
        if (wrank == 0)
            fprintf(stderr, "collsim-driver: --background takes %d ranks of the %d simulated: "
                            "none left to measure\n", o.bg.procs, wsize);
        MPI_Finalize();
        return 2;
    }
    if (o.nnps == 0) {
        o.nps = malloc(sizeof(long));
        o.nps[0] = nmeasured;
        o.nnps = 1;
    }
    for (int k = 0; k < o.nnps; k++)
        if (o.nps[k] < 1 || o.nps[k] > nmeasured) {
            if (wrank == 0)
                fprintf(stderr, "collsim-driver: np %ld outside 1..%d (the number of simulated "
                                "ranks%s)\n", o.nps[k], nmeasured,
                        o.bg.procs ? " left of the background job" : "");
            MPI_Finalize();
            return 2;
        }
    bg_state bg;
    bg_split(&o, &bg);
    if (bg.is_background) {
        bg_run(&o, &bg);
        bg_free(&bg);
        free(o.sizes);
        free(o.nps);
        MPI_Finalize();
        return 0;
    }

    unsigned char *sendbuf, *recvbuf;
    int failures = 0, rc = 2;
    if (!alloc_buffers(&o, wrank, nmeasured, maxbytes, &sendbuf, &recvbuf)) {
        FILE *csv = open_csv(&o, wrank);
        bg_wait_started(&bg); /* the first call runs under load already */
        failures = run_np_list(&o, bg.comm, sendbuf, recvbuf, csv);
        if (csv)
            fclose(csv);
        free_buffers(&o, sendbuf, recvbuf);
        rc = failures ? 1 : 0;
    }
    bg_stop(&bg); /* after every measured rank's last call, or its early exit */
    bg_free(&bg);
    free(o.sizes);
    free(o.nps);
    MPI_Finalize();
    return rc;
}
