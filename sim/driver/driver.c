/* collsim-driver: the OSU-like benchmark that runs inside SMPI.
 *
 * For one collective (allgather or alltoall) and algorithm, over a list of
 * message sizes (bytes per block: per rank for allgather, per pair of ranks for
 * alltoall), it times the collective the way osu_allgather does (barrier, warm-up,
 * timed iterations, min/avg/max over ranks of each rank's mean) and, in `check`
 * mode, compares every received byte with its definition. With --np-list it
 * runs the whole benchmark on the sub-communicator made of the first p ranks,
 * for each p in the list, so that one smpirun covers many process counts.
 *
 * This program is launched by the host CLI (sim/host), not by users; its
 * options are an internal interface documented in usage(). */
#include <mpi.h>
#include <smpi/smpi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"
#include "results.h"
#include "collsim_algorithms.h"
#include "coll_locality.h"
#include "account.h"
#include "locality.h"
#include "distributions.h"

/* ---- the registry, built from the single list in algorithms.def ----
 * A function has either the block signature (allgather, alltoall) or
 * MPI_Alltoallv's; _Generic files it under the right member (NULL in the
 * other) and rejects any other signature at compile time. */
typedef struct {
    const char *collective;
    const char *name;
    collsim_block_coll_fn fn;
    collsim_alltoallv_fn vfn;
    int region_setup; /* algorithms.def's setup is `regions`: coll_loc_prepare first */
} driver_alg;

#define DRIVER_BLOCK_FN(f)                                                                         \
    _Generic((f), collsim_block_coll_fn: (f), collsim_alltoallv_fn: (collsim_block_coll_fn)0)
#define DRIVER_V_FN(f)                                                                             \
    _Generic((f), collsim_alltoallv_fn: (f), collsim_block_coll_fn: (collsim_alltoallv_fn)0)

#define DRIVER_SETUP_none 0
#define DRIVER_SETUP_regions 1 /* any other word in algorithms.def fails to compile */

static const driver_alg driver_algs[] = {
#define COLLSIM_ALG(coll, name, fn, paper, section, restriction, setup)                            \
    {#coll, #name, DRIVER_BLOCK_FN(fn), DRIVER_V_FN(fn), DRIVER_SETUP_##setup},
#include "algorithms.def"
#undef COLLSIM_ALG
};

/* The built-in SMPI implementations, selected by the host with --cfg options. */
static int native_allgather(COLLSIM_ALLGATHER_ARGS)
{
    return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

static int native_alltoall(COLLSIM_ALLTOALL_ARGS)
{
    return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

static int native_alltoallv(COLLSIM_ALLTOALLV_ARGS)
{
    return MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm);
}

/* ---- what differs between collectives: one descriptor each ----
 * Both move blocks of `bytes` (count x dtype); the receive buffer holds p
 * blocks, slot j coming from rank j. They differ in the send buffer (one
 * block, or p blocks with block j for rank j) and in what a block contains:
 * block_id(src, dst, p) names the data rank src sends to rank dst (see the
 * data definition below). */
typedef struct {
    const char *name;
    collsim_block_coll_fn native;
    int send_blocks_per_rank; /* 0: one block; 1: p blocks */
    int in_place_ok;
    long (*block_id)(int src, int dst, int p);
    /* non-NULL for a v-collective (alltoallv): blocks of varying sizes, from
     * --dist and --seed, at displacements with gaps (see v_layout) */
    collsim_alltoallv_fn vnative;
} coll_desc;

static long allgather_block_id(int src, int dst, int p)
{
    (void)dst;
    (void)p;
    return src; /* the same block to everyone */
}

static long alltoall_block_id(int src, int dst, int p)
{
    return (long)src * p + dst; /* a different block per pair */
}

static const coll_desc coll_descs[] = {
    {"allgather", native_allgather, 0, 1, allgather_block_id, NULL},
    {"alltoall", native_alltoall, 1, 0, alltoall_block_id, NULL},
    {"alltoallv", NULL, 1, 0, alltoall_block_id, native_alltoallv},
};

static int send_blocks(const coll_desc *c, int p) { return c->send_blocks_per_rank ? p : 1; }

typedef struct {
    const char *coll;
    const char *alg;
    const coll_desc *desc; /* NULL for pingpong */
    collsim_block_coll_fn fn;
    collsim_alltoallv_fn vfn; /* set instead of fn for a v-collective */
    int region_setup;         /* coll_loc_prepare before timing (algorithms.def) */
    cs_dist dist;             /* v-collectives: block sizes (--dist, --seed) */
    unsigned long seed;
    long *sizes;
    int nsizes;
    long *nps;
    int nnps;
    int fold;
    int iters;
    int warmup;
    int in_place;
    int pingpong; /* --coll pingpong: point-to-point timing, see pingpong_comm */
    int account;  /* --account: print the per-level message counts after each size */
    MPI_Datatype dtype;
    const char *dtype_name;
    const char *csv_path;
    /* test hook: COLLSIM_FAULT=rank:block:offset flips that received byte after
     * each call, so the tests can prove that the data check catches errors */
    long fault_rank, fault_block, fault_offset;
} driver_opts;

static void usage(void)
{
    fprintf(stderr,
            "usage: collsim-driver --coll allgather|alltoall|alltoallv|pingpong --alg NAME|native --sizes B1,B2,...\n"
            "         [--mode check|fold] [--iters K] [--warmup W] [--dtype byte|int|double]\n"
            "         [--np-list P1,P2,...] [--in-place] [--csv FILE]\n"
            "         [--account]  (print per-level message counts after each size)\n"
            "         [--region LEVEL]  (locality-aware algorithms' region level, default node)\n"
            "         --locality FILE  (each rank's regions: written by collsim with the hostfile)\n"
            "         [--dist uniform|window:R|gaussian|powerlaw:B[:K]] [--seed S]  (alltoallv;\n"
            "         sizes are then N, the largest block; default uniform, seed 1)\n"
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
    o->iters = 3;
    o->warmup = 1;
    o->dtype = MPI_BYTE;
    o->dtype_name = "byte";
    const char *sizes = NULL, *nps = NULL, *dist = NULL, *seed = NULL;
    o->fault_rank = -1;
    const char *fault = getenv("COLLSIM_FAULT");
    if (fault && sscanf(fault, "%ld:%ld:%ld", &o->fault_rank, &o->fault_block, &o->fault_offset) != 3) {
        fprintf(stderr, "collsim-driver: COLLSIM_FAULT='%s' is not rank:block:offset\n", fault);
        return -1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--in-place")) {
            o->in_place = 1;
            continue;
        }
        if (!strcmp(a, "--account")) {
            o->account = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "collsim-driver: option %s needs a value\n", a);
            return -1;
        }
        i++;
        if (!strcmp(a, "--coll")) o->coll = v;
        else if (!strcmp(a, "--alg")) o->alg = v;
        else if (!strcmp(a, "--sizes")) sizes = v;
        else if (!strcmp(a, "--np-list")) nps = v;
        else if (!strcmp(a, "--csv")) o->csv_path = v;
        else if (!strcmp(a, "--locality")) {} /* read in main, before --region needs the levels */
        else if (!strcmp(a, "--region")) {
            if (coll_loc_set_region_level(v)) {
                fprintf(stderr, "collsim-driver: unknown --region '%s' (valid:", v);
                for (int k = 0; k < coll_loc_level_count(); k++)
                    fprintf(stderr, "%s %s", k ? "," : "", coll_loc_level_name(k));
                fprintf(stderr, ")\n");
                return -1;
            }
        }
        else if (!strcmp(a, "--dist")) dist = v;
        else if (!strcmp(a, "--seed")) seed = v;
        else if (!strcmp(a, "--iters")) o->iters = atoi(v);
        else if (!strcmp(a, "--warmup")) o->warmup = atoi(v);
        else if (!strcmp(a, "--mode")) {
            if (!strcmp(v, "fold")) o->fold = 1;
            else if (strcmp(v, "check")) {
                fprintf(stderr, "collsim-driver: unknown mode '%s' (valid: check, fold)\n", v);
                return -1;
            }
        } else if (!strcmp(a, "--dtype")) {
            o->dtype_name = v;
            if (!strcmp(v, "byte")) o->dtype = MPI_BYTE;
            else if (!strcmp(v, "int")) o->dtype = MPI_INT;
            else if (!strcmp(v, "double")) o->dtype = MPI_DOUBLE;
            else {
                fprintf(stderr, "collsim-driver: unknown dtype '%s' (valid: byte, int, double)\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "collsim-driver: unknown option '%s'\n", a);
            return -1;
        }
    }
    if (!o->coll || !o->alg || !sizes) {
        usage();
        return -1;
    }
    o->pingpong = !strcmp(o->coll, "pingpong");
    for (size_t k = 0; k < sizeof coll_descs / sizeof coll_descs[0]; k++)
        if (!strcmp(coll_descs[k].name, o->coll))
            o->desc = &coll_descs[k];
    if (!o->desc && !o->pingpong) {
        fprintf(stderr, "collsim-driver: unknown collective '%s' (valid: allgather, alltoall, alltoallv, pingpong)\n",
                o->coll);
        return -1;
    }
    if (o->desc && o->desc->vnative) {
        char derr[512], *end;
        if (cs_dist_parse(dist ? dist : "uniform", &o->dist, derr, sizeof derr)) {
            fprintf(stderr, "collsim-driver: --dist: %s\n", derr);
            return -1;
        }
        errno = 0;
        o->seed = seed ? strtoul(seed, &end, 10) : 1;
        if (seed && (end == seed || *end || errno || seed[0] == '-')) {
            fprintf(stderr, "collsim-driver: bad --seed '%s' (an integer >= 0)\n", seed);
            return -1;
        }
    } else if (dist || seed) {
        fprintf(stderr, "collsim-driver: --dist and --seed apply to alltoallv only\n");
        return -1;
    }
    if (o->desc && o->in_place && !o->desc->in_place_ok) {
        fprintf(stderr, "collsim-driver: --in-place is not supported for %s\n", o->coll);
        return -1;
    }
    if (o->pingpong) {
        /* no algorithm: pingpong_comm is the whole benchmark */
    } else if (!strcmp(o->alg, "native")) {
        o->fn = o->desc->native;
        o->vfn = o->desc->vnative;
    } else {
        for (size_t k = 0; k < sizeof driver_algs / sizeof driver_algs[0]; k++)
            if (!strcmp(driver_algs[k].collective, o->coll) && !strcmp(driver_algs[k].name, o->alg)) {
                o->fn = driver_algs[k].fn;
                o->vfn = driver_algs[k].vfn;
                o->region_setup = driver_algs[k].region_setup;
            }
        if (!o->fn && !o->vfn) {
            fprintf(stderr, "collsim-driver: unknown algorithm '%s/%s'\n", o->coll, o->alg);
            return -1;
        }
    }
    if ((o->nsizes = parse_long_list(sizes, &o->sizes)) <= 0) {
        fprintf(stderr, "collsim-driver: bad --sizes '%s' (comma-separated byte counts)\n", sizes);
        return -1;
    }
    if (nps && (o->nnps = parse_long_list(nps, &o->nps)) <= 0) {
        fprintf(stderr, "collsim-driver: bad --np-list '%s'\n", nps);
        return -1;
    }
    if (o->iters < 1 || o->warmup < 0) {
        fprintf(stderr, "collsim-driver: --iters must be >= 1 and --warmup >= 0\n");
        return -1;
    }
    int tsize;
    MPI_Type_size(o->dtype, &tsize);
    for (int k = 0; k < o->nsizes; k++)
        if (o->sizes[k] % tsize) {
            fprintf(stderr, "collsim-driver: size %ld is not a multiple of the %s size (%d)\n",
                    o->sizes[k], o->dtype_name, tsize);
            return -1;
        }
    return 0;
}

/* ---- data definition for check mode ----
 * The block with id b (block_id(src, dst, p): src for allgather, src*p + dst
 * for alltoall) is the window of a fixed pseudo-random byte sequence that
 * starts at offset (b * STRIDE) mod PRIME. Different blocks are therefore
 * different shifts of one sequence, so a block landing in the wrong slot,
 * shifted or truncated is caught while ids stay below PRIME (p < PRIME for
 * allgather, p*p < PRIME, i.e. p <= 1000, for alltoall); and filling, poisoning and checking are memcpy/memcmp, fast
 * enough to check every p in 1..64 at 64 KiB in seconds. The poison written
 * before each call is the complement, so a slot never written cannot pass. */
#define PATTERN_PRIME 1000003L
#define PATTERN_STRIDE 7919L

/* Shared by all ranks (privatization is off): built once, read-only after. */
static unsigned char *pattern, *antipattern;
static long pattern_len;

static void pattern_init(long maxbytes)
{
    if (pattern)
        return;
    pattern_len = PATTERN_PRIME + maxbytes;
    pattern = malloc((size_t)pattern_len + 1);
    antipattern = malloc((size_t)pattern_len + 1);
    uint32_t x = 2463534242u; /* xorshift32: deterministic, no libc state */
    for (long i = 0; i < pattern_len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        pattern[i] = (unsigned char)(x >> 24);
        antipattern[i] = (unsigned char)~pattern[i];
    }
}

static inline long pattern_offset(long id) { return (id * PATTERN_STRIDE) % PATTERN_PRIME; }

/* Send block t of `rank` is what it sends to rank t (to everyone if only one). */
static void fill_send(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes)
{
    for (int t = 0; t < send_blocks(c, p); t++)
        memcpy(buf + (size_t)t * (size_t)bytes, pattern + pattern_offset(c->block_id(rank, t, p)),
               (size_t)bytes);
}

static void poison_recv(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes)
{
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)j * (size_t)bytes,
               antipattern + pattern_offset(c->block_id(j, rank, p)), (size_t)bytes);
}

typedef struct {
    long block, offset;
    int expected, got;
    int bad;
    int in_send; /* the send buffer was modified (block: its send block) */
} check_result;

static check_result first_difference(const unsigned char *got, const unsigned char *want,
                                     long block, long bytes, int in_send)
{
    for (long i = 0; i < bytes; i++)
        if (got[i] != want[i])
            return (check_result){block, i, want[i], got[i], 1, in_send};
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* Receive slot j must hold what rank j sends to `rank`; the send buffer must
 * be as filled. The first difference is reported by block and offset. */
static check_result verify(const coll_desc *c, const unsigned char *recv,
                           const unsigned char *send, int rank, int p, long bytes)
{
    for (int t = 0; t < send_blocks(c, p); t++) {
        const unsigned char *got = send + (size_t)t * (size_t)bytes;
        const unsigned char *want = pattern + pattern_offset(c->block_id(rank, t, p));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, t, bytes, 1);
    }
    for (int j = 0; j < p; j++) {
        const unsigned char *got = recv + (size_t)j * (size_t)bytes;
        const unsigned char *want = pattern + pattern_offset(c->block_id(j, rank, p));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, j, bytes, 0);
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* ---- v-collectives (alltoallv): blocks of varying sizes ----
 * Block (src, dst) has cs_dist_block(dist, seed, src, dst, N / dtype size)
 * elements, N being the size benchmarked (the largest block): a pure function
 * (sim/driver/distributions.h), so each rank computes its send counts and its
 * receive counts alone, the same whatever p. Its content is the alltoall
 * block's (id src*p + dst) cut to its length. The buffers exercise the
 * displacements: blocks lie in a non-identity order (send buffer: descending
 * from block rank-1, receive buffer: ascending from block rank+1, mod p), each
 * after a gap of 1..V_GAP_MAX elements, with one more gap after the last; the
 * gaps hold a guard byte that the check verifies, so a write outside the
 * blocks is caught as well. Fold mode uses the same layout (message sizes,
 * hence predicted times, do not depend on it). */
#define V_GAP_MAX 3
#define V_GUARD_SEND 0xa5
#define V_GUARD_RECV 0x3c

typedef struct {
    int *scounts, *sdispls, *rcounts, *rdispls; /* p each, in elements */
    int *pristine;                               /* a copy of the four, 4p ints */
    long send_end, recv_end;                     /* bytes used, gaps included */
} v_layout;

static int v_gap(int src, int dst) { return 1 + (src + 2 * dst) % V_GAP_MAX; }

/* Bytes a rank's send or receive buffer needs at most: p blocks of up to
 * `bytes`, each with its gap, and the final gap. */
static size_t v_buffer_bytes(int p, long bytes, int tsize)
{
    return (size_t)p * ((size_t)bytes + V_GAP_MAX * (size_t)tsize) + V_GAP_MAX * (size_t)tsize;
}

/* Block j's place in buffer order: send q -> block rank-1-q, receive q -> rank+1+q. */
static int v_send_order(int rank, int q, int p) { return coll_mod(rank - 1 - q, p); }
static int v_recv_order(int rank, int q, int p) { return coll_mod(rank + 1 + q, p); }

/* Fold mode: the counts stay per rank (they set the message sizes, hence the
 * predicted times), but the displacements are one array shared by every rank:
 * slot j of a buffer at j (N + V_GAP_MAX) + 1 elements, N the largest block of
 * the run, so every size fits the folded buffer (v_buffer_bytes). Per-rank
 * displacements and their pristine copy would take 24 p^2 bytes: 26 GB at 32K
 * ranks. The addresses do not matter to the times (folded memory is not copied). */
static int *v_fold_displs(int p, long max_count)
{
    int *d = malloc(sizeof *d * (size_t)(p ? p : 1));
    if (!d)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (int j = 0; j < p; j++)
        d[j] = (int)((long)j * (max_count + V_GAP_MAX) + 1);
    return d;
}

static void v_layout_build(const driver_opts *o, v_layout *L, int rank, int p, long max_count,
                           int tsize)
{
    if (o->fold) { /* counts only; displacements: v_fold_displs */
        for (int j = 0; j < p; j++) {
            L->scounts[j] = (int)cs_dist_block(&o->dist, o->seed, rank, j, max_count);
            L->rcounts[j] = (int)cs_dist_block(&o->dist, o->seed, j, rank, max_count);
        }
        return;
    }
    long pos = 0;
    for (int q = 0; q < p; q++) {
        const int j = v_send_order(rank, q, p);
        L->scounts[j] = (int)cs_dist_block(&o->dist, o->seed, rank, j, max_count);
        pos += v_gap(rank, j);
        L->sdispls[j] = (int)pos;
        pos += L->scounts[j];
    }
    L->send_end = (pos + V_GAP_MAX) * tsize;
    pos = 0;
    for (int q = 0; q < p; q++) {
        const int j = v_recv_order(rank, q, p);
        L->rcounts[j] = (int)cs_dist_block(&o->dist, o->seed, j, rank, max_count);
        pos += v_gap(j, rank);
        L->rdispls[j] = (int)pos;
        pos += L->rcounts[j];
    }
    L->recv_end = (pos + V_GAP_MAX) * tsize;
    memcpy(L->pristine, L->scounts, 4 * sizeof(int) * (size_t)p);
}

static void fill_send_v(const coll_desc *c, const v_layout *L, unsigned char *buf, int rank,
                        int p, int tsize)
{
    memset(buf, V_GUARD_SEND, (size_t)L->send_end);
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)L->sdispls[j] * tsize, pattern + pattern_offset(c->block_id(rank, j, p)),
               (size_t)L->scounts[j] * tsize);
}

static void poison_recv_v(const coll_desc *c, const v_layout *L, unsigned char *buf, int rank,
                          int p, int tsize)
{
    memset(buf, V_GUARD_RECV, (size_t)L->recv_end);
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)L->rdispls[j] * tsize,
               antipattern + pattern_offset(c->block_id(j, rank, p)), (size_t)L->rcounts[j] * tsize);
}

/* One buffer in buffer order: block j must hold its pattern, every byte
 * between blocks (and up to `end`) the guard. A byte outside the blocks is
 * reported with a negative offset (bytes before block j), or block -1 when
 * it lies after the last block. */
static check_result verify_v_buffer(const coll_desc *c, const unsigned char *buf,
                                    const int *counts, const int *displs, long end, int tsize,
                                    int rank, int p, int in_send)
{
    long pos = 0;
    for (int q = 0; q <= p; q++) {
        const int j = q == p ? -1 : in_send ? v_send_order(rank, q, p) : v_recv_order(rank, q, p);
        const long start = j < 0 ? end : (long)displs[j] * tsize;
        const int guard = in_send ? V_GUARD_SEND : V_GUARD_RECV;
        for (; pos < start; pos++)
            if (buf[pos] != guard)
                return (check_result){j, pos - start, guard, buf[pos], 1, in_send};
        if (j < 0)
            break;
        const long len = (long)counts[j] * tsize;
        const unsigned char *want =
            pattern + pattern_offset(in_send ? c->block_id(rank, j, p) : c->block_id(j, rank, p));
        if (memcmp(buf + start, want, (size_t)len))
            return first_difference(buf + start, want, j, len, in_send);
        pos = start + len;
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* The caller's counts and displacements must come back untouched: block -2,
 * offset = the first entry that changed (sendcounts, sdispls, recvcounts,
 * rdispls, p entries each). */
static check_result verify_v(const coll_desc *c, const v_layout *L, const unsigned char *recv,
                             const unsigned char *send, int rank, int p, int tsize)
{
    for (long k = 0; k < 4L * p; k++)
        if (L->scounts[k] != L->pristine[k])
            return (check_result){-2, k, 0, 0, 1, 1};
    check_result r = verify_v_buffer(c, send, L->scounts, L->sdispls, L->send_end, tsize, rank, p, 1);
    return r.bad ? r
                 : verify_v_buffer(c, recv, L->rcounts, L->rdispls, L->recv_end, tsize, rank, p, 0);
}

/* ---- folded memory, in fold mode ---- */
static int folded_users; /* ranks still using the folded buffer */

/* Algorithms' scratch in fold mode holds meaningless bytes like the folded
 * user buffers, so every rank gets the same region: one SMPI shared allocation
 * per rank and call maps its pages again for each rank (2 P maps per call for
 * the alltoallv Bruck variants, against the kernel's 65,530 at 32K ranks).
 * A larger request replaces the region; replaced ones stay mapped (a rank may
 * still use them) until the last rank is done. Ranks run one at a time. */
static unsigned char *fold_scratch;
static int *fold_vdispls; /* v-collectives' shared displacements (v_fold_displs) */
static size_t fold_scratch_bytes;
static unsigned char **fold_retired;
static int fold_nretired;

static void *fold_alloc(size_t bytes)
{
    if (!fold_scratch || bytes > fold_scratch_bytes) {
        if (fold_scratch) {
            fold_retired = realloc(fold_retired, sizeof *fold_retired * (size_t)(fold_nretired + 1));
            if (!fold_retired)
                MPI_Abort(MPI_COMM_WORLD, 3);
            fold_retired[fold_nretired++] = fold_scratch;
        }
        fold_scratch = SMPI_SHARED_MALLOC(bytes ? bytes : 1);
        fold_scratch_bytes = bytes;
    }
    return fold_scratch;
}

static void fold_free(void *ptr) { (void)ptr; /* shared; released in fold_release */ }

static void fold_release(void)
{
    for (int i = 0; i < fold_nretired; i++)
        SMPI_SHARED_FREE(fold_retired[i]);
    free(fold_retired);
    fold_retired = NULL;
    fold_nretired = 0;
    if (fold_scratch)
        SMPI_SHARED_FREE(fold_scratch);
    free(fold_vdispls);
    fold_vdispls = NULL;
    fold_scratch = NULL;
    fold_scratch_bytes = 0;
}

/* ---- the driver's own synchronisation ----
 * SMPI's default barrier and reduce are linear (the root waits on p-1
 * requests at once, O(p^2) work for the simulator): fine at 64 ranks, hours at
 * 32K. The driver therefore uses its own logarithmic ones, the same for every
 * algorithm benchmarked (and independent of a native:<selector> baseline). */

/* Dissemination barrier (Hensgen, Finkel, Manber 1988): ceil(log2 p) rounds. */
static void driver_barrier(MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int d = 1; d < p; d <<= 1) {
        char out = 0, in;
        MPI_Sendrecv(&out, 0, MPI_BYTE, (rank + d) % p, 77, &in, 0, MPI_BYTE, (rank - d + p) % p, 77,
                     comm, MPI_STATUS_IGNORE);
    }
}

/* What rank 0 needs of one size: timing statistics and the first failure. */
typedef struct {
    double sum_us, min_us, max_us;
    int bad_rank; /* lowest failing rank, p if none */
    int err;
    check_result cr;
} size_stats;

static void merge_stats(size_stats *acc, const size_stats *in)
{
    acc->sum_us += in->sum_us;
    if (in->min_us < acc->min_us)
        acc->min_us = in->min_us;
    if (in->max_us > acc->max_us)
        acc->max_us = in->max_us;
    if (in->bad_rank < acc->bad_rank) {
        acc->bad_rank = in->bad_rank;
        acc->err = in->err;
        acc->cr = in->cr;
    }
}

/* Binomial-tree reduction of size_stats to rank 0. */
static void reduce_stats(size_stats *st, MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rank & mask) {
            MPI_Send(st, (int)sizeof *st, MPI_BYTE, rank - mask, 78, comm);
            return;
        }
        if (rank + mask < p) {
            size_stats in;
            MPI_Recv(&in, (int)sizeof in, MPI_BYTE, rank + mask, 78, comm, MPI_STATUS_IGNORE);
            merge_stats(st, &in);
        }
    }
}

/* One CSV row (analysis/results.h, the format every collsim tool reads) with
 * what the driver knows: the host fills platform, mapping and ppn. */
static void write_row(FILE *csv, const driver_opts *o, int p, long bytes, long long data_bytes,
                      double avg_us, double min_us, double max_us, int ok, const acct_summary *as)
{
    cs_result r;
    cs_result_init(&r);
    r.np = p;
    snprintf(r.collective, sizeof r.collective, "%s", o->coll);
    snprintf(r.algorithm, sizeof r.algorithm, "%s", o->alg);
    snprintf(r.dtype, sizeof r.dtype, "%s", o->dtype_name);
    snprintf(r.mode, sizeof r.mode, "%s", o->fold ? "fold" : "check");
    r.bytes = bytes;
    r.data_bytes = data_bytes;
    if (o->vfn) {
        snprintf(r.dist, sizeof r.dist, "%s", o->dist.name);
        r.seed = o->seed;
    }
    r.avg_us = avg_us;
    r.min_us = min_us;
    r.max_us = max_us;
    r.iterations = o->iters;
    snprintf(r.status, sizeof r.status, "%s", ok ? "ok" : "fail");
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

/* Run every size on `comm`; append CSV rows (rank 0); return the number of
 * sizes whose validation failed. */
static int bench_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
                      unsigned char *recvbuf, FILE *csv)
{
    int rank, p, tsize, failures = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Type_size(o->dtype, &tsize);
    /* SMPI's built-ins run inside SimGrid: their messages cannot be counted */
    const int counted = strcmp(o->alg, "native") != 0;
    v_layout L = {NULL, NULL, NULL, NULL, NULL, 0, 0};
    if (o->vfn && o->fold) { /* per-rank counts, shared displacements (v_fold_displs) */
        L.scounts = malloc(2 * sizeof(int) * (size_t)p);
        L.rcounts = L.scounts + p;
        L.sdispls = L.rdispls = fold_vdispls;
    } else if (o->vfn) { /* per-rank counts and displacements: private memory */
        L.scounts = malloc(8 * sizeof(int) * (size_t)p);
        L.sdispls = L.scounts + p;
        L.rcounts = L.sdispls + p;
        L.rdispls = L.rcounts + p;
        L.pristine = L.rdispls + p;
    }
    /* The regions are part of the communicator, not of the timed call (see
     * algorithms.def, `setup`); not counted by the accounting either. The
     * barrier first: every rank installs the locality provider after MPI_Init
     * (drv_loc_init), which invalidates the caches, so no rank may build
     * before all have installed it. */
    if (o->region_setup) {
        driver_barrier(comm);
        int e = coll_loc_prepare(comm);
        if (e != MPI_SUCCESS) {
            fprintf(stderr, "collsim-driver: rank %d: building the %s regions failed (MPI error %d)\n",
                    rank, coll_loc_region_level_name(), e);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    if (o->vfn && !L.scounts) {
        fprintf(stderr, "collsim-driver: rank %d cannot allocate its alltoallv counts (%d ranks)\n",
                rank, p);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (rank == 0) {
        char vinfo[96] = "";
        if (o->vfn)
            snprintf(vinfo, sizeof vinfo, " dist=%s seed=%lu", o->dist.name, o->seed);
        printf("# collsim %s/%s np=%d mode=%s dtype=%s%s%s\n", o->coll, o->alg, p,
               o->fold ? "fold" : "check", o->dtype_name, o->in_place ? " in-place" : "", vinfo);
        printf("%-10s %18s %18s %18s %12s %12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
               "Max Latency(us)", "Iterations", "Validation");
    }
    for (int s = 0; s < o->nsizes; s++) {
        long bytes = o->sizes[s];
        int count = (int)(bytes / tsize);
        check_result cr = {0, 0, 0, 0, 0, 0};
        int err = MPI_SUCCESS;
        if (o->vfn)
            v_layout_build(o, &L, rank, p, count, tsize);
        if (!o->fold && o->vfn)
            fill_send_v(o->desc, &L, sendbuf, rank, p, tsize);
        else if (!o->fold)
            fill_send(o->desc, sendbuf, rank, p, bytes);
        double elapsed = 0.0;
        for (int it = 0; it < o->warmup + o->iters; it++) {
            if (!o->fold && o->vfn)
                poison_recv_v(o->desc, &L, recvbuf, rank, p, tsize);
            else if (!o->fold)
                poison_recv(o->desc, recvbuf, rank, p, bytes);
            if (o->in_place) /* MPI_IN_PLACE: own block already in its slot */
                memcpy(recvbuf + (size_t)rank * (size_t)bytes, sendbuf, (size_t)bytes);
            driver_barrier(comm);
            /* one timed call is counted (account.h): the algorithms are deterministic */
            const int count_it = counted && it == o->warmup;
            if (count_it)
                acct_begin();
            double t0 = MPI_Wtime();
            int e = o->vfn ? o->vfn(sendbuf, L.scounts, L.sdispls, o->dtype, recvbuf, L.rcounts,
                                    L.rdispls, o->dtype, comm)
                           : o->fn(o->in_place ? MPI_IN_PLACE : sendbuf, count, o->dtype, recvbuf,
                                   count, o->dtype, comm);
            double t1 = MPI_Wtime();
            if (count_it)
                acct_end();
            if (rank == o->fault_rank && o->fault_block < p) {
                const long fb = o->fault_block;
                const long fb_bytes = o->vfn ? (long)L.rcounts[fb] * tsize : bytes;
                const long fb_start = o->vfn ? (long)L.rdispls[fb] * tsize : fb * bytes;
                /* v-collectives: a negative offset hits the gap before the block */
                if (o->fault_offset < fb_bytes && (o->vfn ? fb_start + o->fault_offset >= 0
                                                          : o->fault_offset >= 0))
                    recvbuf[fb_start + o->fault_offset] ^= 0x5a;
            }
            if (e != MPI_SUCCESS)
                err = e;
            if (it >= o->warmup)
                elapsed += t1 - t0;
            /* check the first call and the last one: a wrong first result, or
             * state leaking from one call into the next, are both caught. */
            if (!o->fold && !cr.bad && (it == 0 || it == o->warmup + o->iters - 1))
                cr = o->vfn ? verify_v(o->desc, &L, recvbuf, sendbuf, rank, p, tsize)
                            : verify(o->desc, recvbuf, sendbuf, rank, p, bytes);
        }
        double mean_us = elapsed / o->iters * 1e6;
        int failed = cr.bad || err != MPI_SUCCESS;
        size_stats st = {mean_us, mean_us, mean_us, failed ? rank : p, err, cr};
        reduce_stats(&st, comm);
        acct_summary as;
        acct_reduce(comm, counted, &as);
        int first_bad = st.bad_rank;
        if (rank == 0 && first_bad < p) {
            if (st.err != MPI_SUCCESS)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: algorithm returned MPI error %d\n",
                        o->coll, o->alg, p, bytes, first_bad, st.err);
            else if (st.cr.block == -2)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d: the algorithm modified the "
                                "caller's %s[%ld]\n",
                        o->coll, o->alg, p, bytes, first_bad,
                        (const char *[]){"sendcounts", "sdispls", "recvcounts", "rdispls"}[st.cr.offset / p],
                        st.cr.offset % p);
            else if (st.cr.block < 0)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d wrote outside the blocks of "
                                "its %s buffer, after its last block (%ld bytes before the end)\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.in_send ? "send" : "receive",
                        -st.cr.offset);
            else if (st.cr.offset < 0)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d wrote outside the blocks of "
                                "its %s buffer, %ld bytes before block %ld\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.in_send ? "send" : "receive",
                        -st.cr.offset, st.cr.block);
            else if (st.cr.in_send && !o->desc->send_blocks_per_rank)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer at offset %ld\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.offset);
            else if (st.cr.in_send)
                fprintf(stderr, "collsim: %s/%s np=%d size=%ld: rank %d modified its send buffer, "
                                "block %ld, offset %ld\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.block, st.cr.offset);
            else
                fprintf(stderr,
                        "collsim: %s/%s np=%d size=%ld: check failed on rank %d, block %ld, offset %ld: "
                        "expected 0x%02x, got 0x%02x\n",
                        o->coll, o->alg, p, bytes, first_bad, st.cr.block, st.cr.offset,
                        st.cr.expected, st.cr.got);
        }
        double sum_us = st.sum_us, min_us = st.min_us, max_us = st.max_us;
        const char *status = first_bad < p ? "FAIL" : (o->fold ? "unchecked" : "Pass");
        failures += first_bad < p;
        if (rank == 0) {
            printf("%-10ld %18.2f %18.2f %18.2f %12d %12s\n", bytes, sum_us / p, min_us, max_us,
                   o->iters, status);
            if (o->account)
                acct_print(stdout, &as, "SMPI's built-in collectives run inside SimGrid, out of "
                                        "the profiling layer's sight");
            /* allgather and alltoall: every rank has p-1 blocks of `bytes` for
             * others; alltoallv: the sum of its blocks for others */
            long long data_bytes = o->vfn ? cs_dist_total(&o->dist, o->seed, p, count) * tsize
                                          : (long long)p * (p - 1) * bytes;
            if (csv)
                write_row(csv, o, p, bytes, data_bytes, sum_us / p, min_us, max_us, first_bad >= p,
                          &as);
        }
    }
    free(L.scounts);
    if (rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}

/* ---- --coll pingpong: the point-to-point times behind the cost models ----
 * Ranks 0 and 1 bounce one message of each size back and forth (rank 1 echoes
 * what it received, so check mode verifies the round trip); the row reports
 * rank 0's one-way time = round trip / 2 as avg, min and max, in the same CSV
 * format as the collectives. Other ranks take no part. The host fits the
 * Hockney alpha and beta to these rows (sim/host/postal.c). */
static int pingpong_comm(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
                         unsigned char *recvbuf, FILE *csv)
{
    int rank, p, tsize, failures = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Type_size(o->dtype, &tsize);
    if (p < 2) {
        if (rank == 0)
            fprintf(stderr, "collsim-driver: pingpong needs at least 2 ranks (got %d)\n", p);
        return o->nsizes;
    }
    if (rank == 0) {
        printf("# collsim pingpong rank 0 <-> rank 1, one-way time = round trip / 2, mode=%s\n",
               o->fold ? "fold" : "check");
        printf("%-10s %18s %12s %12s\n", "# Size", "One-way(us)", "Iterations", "Validation");
    }
    if (rank > 1)
        return 0;
    const int peer = 1 - rank;
    for (int s = 0; s < o->nsizes; s++) {
        long bytes = o->sizes[s];
        int count = (int)(bytes / tsize), bad = 0;
        if (!o->fold && rank == 0)
            memcpy(sendbuf, pattern, (size_t)bytes);
        double elapsed = 0.0;
        for (int it = 0; it < o->warmup + o->iters; it++) {
            if (!o->fold)
                memcpy(recvbuf, antipattern, (size_t)bytes);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(sendbuf, count, o->dtype, peer, 79, comm);
                MPI_Recv(recvbuf, count, o->dtype, peer, 79, comm, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(recvbuf, count, o->dtype, peer, 79, comm, MPI_STATUS_IGNORE);
                MPI_Send(recvbuf, count, o->dtype, peer, 79, comm);
            }
            double t1 = MPI_Wtime();
            if (it >= o->warmup)
                elapsed += t1 - t0;
            if (!o->fold && rank == 0 && memcmp(recvbuf, sendbuf, (size_t)bytes))
                bad = 1;
        }
        if (rank != 0)
            continue;
        double one_way_us = elapsed / o->iters / 2 * 1e6;
        failures += bad;
        if (bad)
            fprintf(stderr, "collsim: pingpong size=%ld: the echoed message differs from the one sent\n",
                    bytes);
        printf("%-10ld %18.4f %12d %12s\n", bytes, one_way_us, o->iters,
               bad ? "FAIL" : (o->fold ? "unchecked" : "Pass"));
        if (csv)
            write_row(csv, o, p, bytes, 2LL * bytes, one_way_us, one_way_us, one_way_us, !bad,
                      NULL);
    }
    if (rank == 0) {
        fflush(stdout);
        if (csv)
            fflush(csv);
    }
    return failures;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* Every level the platform declares (node included), from the host's
     * locality file (--locality, taken ahead of the other options: --region
     * needs the levels), installed as the locality provider of
     * coll_locality.h (sim/driver/locality.h). It replaces the default
     * provider, so coll_loc_init() (its MPI_Comm_split_type over
     * MPI_COMM_WORLD) is not called: at 32,768 ranks that split alone raises
     * the simulation's memory from 2.2 to 4.6 GB (measured on lassen). */
    const char *locality = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--locality"))
            locality = argv[i + 1];
    if (drv_loc_init(locality))
        MPI_Abort(MPI_COMM_WORLD, 3);
    acct_init();
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    driver_opts o;
    if (parse_args(argc, argv, &o)) {
        MPI_Finalize();
        return 2;
    }
    long maxbytes = 0;
    for (int s = 0; s < o.nsizes; s++)
        if (o.sizes[s] > maxbytes)
            maxbytes = o.sizes[s];
    if (o.nnps == 0) {
        o.nps = malloc(sizeof(long));
        o.nps[0] = wsize;
        o.nnps = 1;
    }
    for (int k = 0; k < o.nnps; k++)
        if (o.nps[k] < 1 || o.nps[k] > wsize) {
            if (wrank == 0)
                fprintf(stderr, "collsim-driver: np %ld outside 1..%d (the number of simulated ranks)\n",
                        o.nps[k], wsize);
            MPI_Finalize();
            return 2;
        }

    unsigned char *sendbuf, *recvbuf;
    /* sized for the largest p: one or p send blocks, p receive blocks */
    size_t sendbytes = (size_t)maxbytes * (size_t)(o.desc ? send_blocks(o.desc, wsize) : 1),
           recvbytes = (size_t)maxbytes * (size_t)wsize;
    if (o.vfn) { /* blocks of up to maxbytes at displacements with gaps (int elements) */
        int tsize;
        MPI_Type_size(o.dtype, &tsize);
        sendbytes = recvbytes = v_buffer_bytes(wsize, maxbytes, tsize);
        if (sendbytes / (size_t)tsize > INT_MAX) {
            if (wrank == 0)
                fprintf(stderr, "collsim-driver: %d blocks of up to %ld bytes do not fit int "
                                "displacements\n", wsize, maxbytes);
            MPI_Finalize();
            return 2;
        }
    }
    if (o.fold) {
        /* Folded: one SMPI shared allocation serves every rank (privatization is
         * off, so this static is common to all ranks, and ranks run one at a
         * time). All ranks see the same bytes and SMPI skips payload copies.
         * One allocation rather than one per rank: each SMPI_SHARED_MALLOC
         * costs memory maps, and 2 per rank exceed the kernel's 65,530 at 32K
         * ranks. */
        static unsigned char *folded;
        if (!folded)
            folded = SMPI_SHARED_MALLOC(sendbytes + recvbytes + 1);
        if (o.vfn && !fold_vdispls) {
            int tsize;
            MPI_Type_size(o.dtype, &tsize);
            fold_vdispls = v_fold_displs(wsize, maxbytes / tsize);
        }
        folded_users++;
        sendbuf = folded;
        recvbuf = folded + sendbytes;
        coll_set_scratch_allocator(fold_alloc, fold_free);
        coll_set_local_moves(0); /* meaningless bytes; free in simulated time */
    } else {
        pattern_init(maxbytes);
        sendbuf = malloc(sendbytes ? sendbytes : 1);
        recvbuf = malloc(recvbytes ? recvbytes : 1);
        if (!sendbuf || !recvbuf) {
            fprintf(stderr, "collsim-driver: rank %d cannot allocate %zu bytes of real buffers; "
                            "use --fold at this scale\n", wrank, sendbytes + recvbytes);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }

    FILE *csv = NULL;
    if (wrank == 0 && o.csv_path) {
        csv = fopen(o.csv_path, "a");
        if (!csv) {
            fprintf(stderr, "collsim-driver: cannot open %s: %s\n", o.csv_path, strerror(errno));
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        if (ftell(csv) == 0)
            cs_results_write_header(csv);
    }

    int failures = 0;
    for (int k = 0; k < o.nnps; k++) {
        int p = (int)o.nps[k];
        MPI_Comm comm;
        if (p == wsize) {
            comm = MPI_COMM_WORLD;
        } else {
            MPI_Comm_split(MPI_COMM_WORLD, wrank < p ? 0 : MPI_UNDEFINED, wrank, &comm);
        }
        if (comm != MPI_COMM_NULL) {
            failures += o.pingpong ? pingpong_comm(&o, comm, sendbuf, recvbuf, csv)
                                   : bench_comm(&o, comm, sendbuf, recvbuf, csv);
            if (comm != MPI_COMM_WORLD)
                MPI_Comm_free(&comm);
        }
        /* ranks outside the sub-communicator wait here, sending nothing */
        driver_barrier(MPI_COMM_WORLD);
    }

    if (csv)
        fclose(csv);
    if (o.fold) {
        if (--folded_users == 0) {
            SMPI_SHARED_FREE(sendbuf);
            fold_release();
        }
    } else {
        free(sendbuf);
        free(recvbuf);
    }
    free(o.sizes);
    free(o.nps);
    MPI_Finalize();
    return failures ? 1 : 0;
}
