/* The local-work and software-overhead model (cost.h). Without privatization
 * every simulated rank shares this file's statics: state is kept per
 * MPI_COMM_WORLD rank. */
#include "cost_int.h"

#ifndef COLLSIM_REAL_MPI_DRIVER
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/zone.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_locality_file.h"
#include "coll_util.h"

#ifndef COLLSIM_REAL_MPI_DRIVER /* collsim-mpibench: cost_none.c */
/* ---- parameters ---- */
typedef cost_piecewise piecewise;

static int installed;            /* the full model is on */
static double copy_call;         /* s per copy call */
static piecewise copy_bw;        /* bytes/s by bytes per call (a[]) */
static int have_copy;
static piecewise op_bw;          /* reduction: bytes combined/s by bytes per call */
static int have_op;              /* else the arithmetic is charged at copy_bw */
static piecewise o_send[COLL_LOC_FILE_MAX_LEVELS + 1], o_recv[COLL_LOC_FILE_MAX_LEVELS + 1];
static int per_level;            /* some level has its own overheads */
static int have_overhead;

/* ---- per-rank state (rank_state: cost_int.h) ---- */
static rank_state *ranks;
static int world_size;
static MPI_Group world_group;

/* SMPI answers MPI_Comm_rank by looking the calling actor up in the
 * communicator's group (reference counting and a search by process id), which
 * the per-copy and per-message hooks would pay at every call: the rank is
 * looked up once per simulated process id and kept. Actors run one at a time
 * (SMPI's contexts), so the table needs no lock. */
static int *rank_of_pid;
static size_t pids;

int cost_world_rank(void)
{
    const aid_t pid = sg_actor_self_get_pid();
    if (pid >= 0 && (size_t)pid < pids && rank_of_pid[pid] >= 0)
        return rank_of_pid[pid];
    int r;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (pid < 0)
        return r;
    if ((size_t)pid >= pids) {
        size_t n = pids ? pids : 64;
        while (n <= (size_t)pid)
            n *= 2;
        int *t = realloc(rank_of_pid, n * sizeof *t);
        if (!t)
            return r;
        for (size_t k = pids; k < n; k++)
            t[k] = -1;
        rank_of_pid = t;
        pids = n;
    }
    rank_of_pid[pid] = r;
    return r;
}

static int world_rank(void) { return cost_world_rank(); }

static int piece_of(const piecewise *p, double bytes)
{
    int k = 0;
    while (k + 1 < p->n && bytes >= p->from[k + 1])
        k++;
    return k;
}

static const char *prop(const char *key)
{
    return sg_zone_get_property_value(sg_zone_get_root(), key);
}

static int read_overheads(const char *dir, piecewise *table, char *err, size_t errsize)
{
    char key[128];
    snprintf(key, sizeof key, "collsim.overhead.%s", dir);
    const char *plain = prop(key);
    int found = plain != NULL;
    piecewise base = {0};
    if (plain && cost_parse_piecewise(key, plain, NULL, &base, err, errsize))
        return -1;
    const int n = coll_loc_file_nlevels();
    for (int l = 0; l <= n; l++) {
        snprintf(key, sizeof key, "collsim.overhead.%s.%s", dir,
                 l < n ? coll_loc_file_level_name(l) : "system");
        const char *v = prop(key);
        if (v) {
            if (cost_parse_piecewise(key, v, NULL, &table[l], err, errsize))
                return -1;
            per_level = found = 1;
        } else
            table[l] = base;
    }
    return found;
}

static void local_cost(size_t bytes, size_t calls);
static void op_cost(size_t bytes);

int cost_init(int model, char *err, size_t errsize)
{
    if (model == COST_MODEL_NETWORK || ranks) /* ranks share this file: the first reads it */
        return 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    ranks = calloc((size_t)world_size, sizeof *ranks);
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    const char *call = prop("collsim.local.copy-call"), *bw = prop("collsim.local.copy-bw");
    if (prop("collsim.local.reduce-bw") && !bw) {
        snprintf(err, errsize, "platform property collsim.local.reduce-bw without "
                               "collsim.local.copy-bw (a combination costs copy-call plus its "
                               "bytes at reduce-bw)");
        return -1;
    }
    if (call || bw) {
        char *end = NULL;
        copy_call = call ? strtod(call, &end) : 0;
        if (call && (end == call || *end || !isfinite(copy_call) || copy_call < 0)) {
            snprintf(err, errsize, "platform property collsim.local.copy-call='%s': expected "
                                   "seconds, a non-negative number", call);
            return -1;
        }
        if (!bw) {
            snprintf(err, errsize, "platform property collsim.local.copy-call without "
                                   "collsim.local.copy-bw");
            return -1;
        }
        if (cost_parse_piecewise("collsim.local.copy-bw", bw, "SIZE:BYTES_PER_SECOND", &copy_bw,
                                 err, errsize))
            return -1;
        have_copy = 1;
        const char *op = prop("collsim.local.reduce-bw");
        if (op && model == COST_MODEL_FULL) {
            if (cost_parse_piecewise("collsim.local.reduce-bw", op, "SIZE:BYTES_PER_SECOND",
                                     &op_bw, err, errsize))
                return -1;
            have_op = 1;
        }
    }
    const int s = read_overheads("send", o_send, err, errsize);
    const int r = s < 0 ? -1 : read_overheads("recv", o_recv, err, errsize);
    if (s < 0 || r < 0)
        return -1;
    have_overhead = s || r;
    if (!have_copy || !have_overhead)
        fprintf(stderr, "collsim: model full: the platform gives no %s%s%s; %s free\n",
                have_copy ? "" : "collsim.local.copy-*",
                !have_copy && !have_overhead ? " and no " : "",
                have_overhead ? "" : "collsim.overhead.*",
                !have_copy && !have_overhead ? "they stay" : "it stays");
    coll_set_local_cost(local_cost);
    coll_set_op_cost(op_cost);
    installed = 1;
    return 0;
}

/* ---- charging ---- */
rank_state *cost_me_if_on(void)
{
    if (!installed)
        return NULL;
    rank_state *s = &ranks[world_rank()];
    return s->on ? s : NULL;
}

double cost_copy_seconds(size_t bytes, size_t calls)
{
    if (!have_copy || (bytes == 0 && calls == 0))
        return 0.0;
    const double per_call = calls ? (double)bytes / (double)calls : (double)bytes;
    const int k = piece_of(&copy_bw, per_call);
    return (double)calls * copy_call + (double)bytes / copy_bw.a[k];
}

double cost_op_seconds(size_t bytes)
{
    if (!have_op)
        return cost_copy_seconds(bytes, 1);
    const int k = piece_of(&op_bw, (double)bytes);
    return copy_call + (double)bytes / op_bw.a[k];
}

/* Work that starts now, on the rank's CPU, after what it is busy with. */
static void occupy(rank_state *s, double seconds)
{
    const double now = simgrid_get_clock();
    s->cpu_free = (s->cpu_free > now ? s->cpu_free : now) + seconds;
    s->charged += seconds;
}

static void local_cost(size_t bytes, size_t calls)
{
    rank_state *s = cost_me_if_on();
    if (s)
        occupy(s, cost_copy_seconds(bytes, calls));
}

static void op_cost(size_t bytes)
{
    rank_state *s = cost_me_if_on();
    if (s)
        occupy(s, cost_op_seconds(bytes));
}

void cost_add(double seconds)
{
    rank_state *s = cost_me_if_on();
    if (s && seconds > 0)
        occupy(s, seconds);
}

void cost_pay(void)
{
    rank_state *s = cost_me_if_on();
    if (!s)
        return;
    const double now = simgrid_get_clock();
    if (s->cpu_free > now)
        sg_actor_sleep_for(s->cpu_free - now);
}

/* A receive that completed at `when` (now, or earlier within a Waitsome
 * batch): its overhead o_r ran on the CPU in the o_r before its completion
 * (the link latency holds it) unless the CPU was busy then; what does not
 * fit delays the rank. Unpacking follows it. */
void cost_received(rank_state *s, double when, double o_r, double unpack)
{
    const double start = s->cpu_free > when - o_r ? s->cpu_free : when - o_r;
    s->cpu_free = start + o_r + unpack;
    s->charged += o_r + unpack;
}

void cost_begin(void)
{
    if (!installed)
        return;
    rank_state *s = &ranks[world_rank()];
    s->on = 1;
    s->cpu_free = simgrid_get_clock();
    s->charged = 0;
}

void cost_end(void)
{
    cost_pay();
    if (installed)
        ranks[world_rank()].on = 0;
}

double cost_charged(void) { return installed ? ranks[world_rank()].charged : 0.0; }

/* The finest level whose region holds this rank and dst's world rank `to`;
 * nlevels: "system". */
static int level_of(int to)
{
    if (!per_level)
        return 0;
    const int me = world_rank(), n = coll_loc_file_nlevels();
    for (int l = 0; l < n; l++)
        if (coll_loc_file_colour(l, me) == coll_loc_file_colour(l, to))
            return l;
    return n;
}

static int to_world(int r, MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD || r < 0)
        return r;
    MPI_Group g;
    int w = MPI_UNDEFINED;
    PMPI_Comm_group(comm, &g);
    PMPI_Group_translate_ranks(g, 1, &r, world_group, &w);
    PMPI_Group_free(&g);
    return w;
}

static double overhead(const piecewise *table, int peer, MPI_Comm comm, double bytes)
{
    if (!have_overhead)
        return 0.0;
    int l = 0;
    if (per_level) {
        const int w = to_world(peer, comm);
        l = w < 0 || w == MPI_UNDEFINED ? coll_loc_file_nlevels() : level_of(w);
    }
    const piecewise *p = &table[l];
    if (p->n == 0)
        return 0.0;
    const int k = piece_of(p, bytes);
    return p->a[k] + p->b[k] * bytes;
}

/* Contiguous pieces of one element of `type` (1: contiguous). */
static long type_pieces(MPI_Datatype type)
{
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    PMPI_Type_size(type, &size);
    PMPI_Type_get_extent(type, &lb, &extent);
    if (lb == 0 && (MPI_Aint)size == extent)
        return 1;
    int ni = 0, na = 0, nd = 0, combiner = 0;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return size > 0 ? size : 1;
    switch (combiner) {
    case MPI_COMBINER_HINDEXED_BLOCK:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED:
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_STRUCT: {
        int *ints = malloc(sizeof(int) * (size_t)(ni ? ni : 1));
        MPI_Aint *aints = malloc(sizeof(MPI_Aint) * (size_t)(na ? na : 1));
        MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(nd ? nd : 1));
        long pieces = size > 0 ? size : 1;
        if (PMPI_Type_get_contents(type, ni, na, nd, ints, aints, types) == MPI_SUCCESS)
            pieces = ints[0] > 0 ? ints[0] : 1; /* the count of blocks */
        free(ints);
        free(aints);
        free(types);
        return pieces;
    }
    default:
        return size > 0 ? size : 1;
    }
}

/* Packing (or unpacking) count elements of type into a contiguous buffer. */
static double pack_seconds(int count, MPI_Datatype type)
{
    if (!have_copy || count <= 0)
        return 0.0;
    const long pieces = type_pieces(type);
    if (pieces <= 1)
        return 0.0;
    int size = 0;
    PMPI_Type_size(type, &size);
    return cost_copy_seconds((size_t)count * (size_t)size, (size_t)count * (size_t)pieces);
}

/* The sender packs a derived datatype before the message leaves (the rank
 * waits for it), then spends o_s on the CPU while the message is on its way
 * (the link latency holds o_s: a message leaves when posted, and the next
 * thing the rank does waits for the CPU). */
void cost_before_send(int dst, int count, MPI_Datatype type, MPI_Comm comm)
{
    rank_state *s = cost_me_if_on();
    if (!s)
        return;
    if (dst != MPI_PROC_NULL)
        occupy(s, pack_seconds(count, type));
    cost_pay();
    if (dst != MPI_PROC_NULL) {
        int size = 0;
        PMPI_Type_size(type, &size);
        occupy(s, overhead(o_send, dst, comm, (double)count * size));
    }
}

/* A receive's o_r and unpacking (cost.h). */
recv_cost cost_recv_cost_of(int src, int count, MPI_Datatype type, MPI_Comm comm)
{
    recv_cost c = {0.0, 0.0};
    if (src == MPI_PROC_NULL)
        return c;
    int size = 0;
    PMPI_Type_size(type, &size);
    c.o_r = overhead(o_recv, src == MPI_ANY_SOURCE ? -1 : src, comm, (double)count * size);
    c.unpack = pack_seconds(count, type);
    return c;
}

void cost_after_recv(int src, int count, MPI_Datatype type, MPI_Comm comm)
{
    rank_state *s = cost_me_if_on();
    if (!s)
        return;
    const recv_cost c = cost_recv_cost_of(src, count, type, comm);
    cost_received(s, simgrid_get_clock(), c.o_r, c.unpack);
}

/* MPI_Pack and MPI_Unpack copy even a contiguous type: one piece at least. */
static double pack_call_seconds(int count, MPI_Datatype type)
{
    if (!have_copy || count <= 0)
        return 0.0;
    const long pieces = type_pieces(type);
    int size = 0;
    PMPI_Type_size(type, &size);
    return cost_copy_seconds((size_t)count * (size_t)size,
                             pieces > 1 ? (size_t)count * (size_t)pieces : 1);
}

int MPI_Pack(const void *in, int count, MPI_Datatype type, void *out, int outsize, int *pos,
             MPI_Comm comm)
{
    cost_add(pack_call_seconds(count, type));
    return PMPI_Pack(in, count, type, out, outsize, pos, comm);
}

int MPI_Unpack(const void *in, int insize, int *pos, void *out, int count, MPI_Datatype type,
               MPI_Comm comm)
{
    cost_add(pack_call_seconds(count, type));
    return PMPI_Unpack(in, insize, pos, out, count, type, comm);
}
#endif
