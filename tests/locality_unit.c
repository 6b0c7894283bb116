/* locality_unit: an SMPI program of its own for tests/test_locality.cc.
 *
 * 1. coll_loc_split with the default provider ("node" = simulated host) on
 *    MPI_COMM_WORLD and on sub-communicators (a prefix, a reversed order, a
 *    strided subset): the region is exactly the communicator's ranks on the
 *    same host (by MPI_Get_processor_name), in the communicator's rank order;
 *    a second call returns the cached communicator; freeing the
 *    sub-communicator frees the cache.
 * 2. Every locality-aware allgather under a two-level provider ("socket",
 *    "node") with synthetic colours: contiguous, cyclic and scrambled regions
 *    of uneven sizes, colours that collide when hashed to an int, region level
 *    node and socket; loc_bruck_multilevel thus runs with a real finer level.
 *    Every received byte is checked, on a prefix of the ranks and on all ranks
 *    in reversed order, for each p of a list.
 * 3. The same colours installed as a rank map (coll_loc_set_rank_map): every
 *    field of each rank's info and its region communicator's members equal
 *    what the provider's messages give, on MPI_COMM_WORLD and two
 *    sub-communicators at both levels; and the algorithms of 2 again.
 * 4. Sharing (coll_share.h): without hooks every rank holds its own region
 *    tables (provider) and its own region group (rank map, on a
 *    sub-communicator); with the simulator's hooks (sim/driver/share.c) all
 *    ranks hold one table of each content and the members of a region one
 *    group, and the algorithms of 2 still deliver every byte.
 *
 * Prints "FAIL ..." lines and, on rank 0, "locality_unit: N checks, F failed";
 * exits 1 on any failure. */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_locality.h"
#include "collsim_algorithms.h"
#include "share.h"
#include "smpi_unit.h"

/* ---- the synthetic provider: process-wide shape, the same on all ranks ---- */
static int shape, shape_a, shape_b;

static int synthetic_at(int level, int w, long *color)
{
    const int node_level = level == 1;
    switch (shape) {
    case 0: /* nodes of a ranks in rank order, sockets of b inside */
        *color = node_level ? w / shape_a : (w % shape_a) / shape_b;
        break;
    case 1: /* ranks dealt over a nodes; sockets interleaved (w / a) mod b */
        *color = node_level ? w % shape_a : (w / shape_a) % shape_b;
        break;
    case 2: /* scrambled: uneven, non-contiguous nodes and sockets */
        *color = node_level ? (long)(mix((unsigned)w) % (unsigned)shape_a)
                            : (long)(mix((unsigned)w + 977u) % (unsigned)shape_b);
        break;
    default: /* colours beyond int, all equal modulo 2^31 - 1 */
        *color = (node_level ? w / shape_a : (w % shape_a) / shape_b) * 2147483647L + 5;
        break;
    }
    return MPI_SUCCESS;
}

static int synthetic(int level, long *color)
{
    int w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    return synthetic_at(level, w, color);
}

/* The ranks in comm of region's members, in region's order (malloc'd). */
static int *members(MPI_Comm region, MPI_Comm comm)
{
    int s;
    MPI_Comm_size(region, &s);
    MPI_Group greg, gcomm;
    MPI_Comm_group(region, &greg);
    MPI_Comm_group(comm, &gcomm);
    int *in = malloc(sizeof(int) * (size_t)s), *out = malloc(sizeof(int) * (size_t)s);
    for (int i = 0; i < s; i++)
        in[i] = i;
    MPI_Group_translate_ranks(greg, s, in, gcomm, out);
    MPI_Group_free(&greg);
    MPI_Group_free(&gcomm);
    free(in);
    return out;
}

/* ---- 1. coll_loc_split on sub-communicators ---- */
static void check_split(MPI_Comm comm, const char *what)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    int len, rank, p, err;
    MPI_Comm region, again;

    memset(name, 0, sizeof name);
    MPI_Get_processor_name(name, &len);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    char *all = malloc((size_t)p * sizeof name);
    MPI_Allgather(name, (int)sizeof name, MPI_CHAR, all, (int)sizeof name, MPI_CHAR, comm);

    check();
    if ((err = coll_loc_split(comm, coll_loc_level_index("node"), &region))) {
        fail("%s: coll_loc_split error %d", what, err);
        free(all);
        return;
    }
    int s, lr;
    MPI_Comm_size(region, &s);
    MPI_Comm_rank(region, &lr);
    int *out = members(region, comm);
    int k = 0, bad = 0;
    for (int i = 0; i < p; i++)
        if (!strcmp(all + (size_t)i * sizeof name, name)) {
            if (k >= s || out[k] != i)
                bad = 1;
            k++;
        }
    if (bad || k != s)
        fail("%s: region of %d ranks, expected %d (same host, comm order)", what, s, k);
    /* regions numbered by their lowest rank */
    const coll_loc_info *info;
    coll_loc_info_get(comm, coll_loc_level_index("node"), &info);
    int nreg = 0, mine = -1;
    for (int i = 0; i < p; i++) {
        int first = 1;
        for (int j = 0; j < i; j++)
            if (!strcmp(all + (size_t)i * sizeof name, all + (size_t)j * sizeof name))
                first = 0;
        if (first) {
            if (!strcmp(all + (size_t)i * sizeof name, name))
                mine = nreg;
            nreg++;
        }
    }
    if (info->nregions != nreg || info->region != mine || info->local_rank != lr ||
        info->local_size != s)
        fail("%s: info says region %d of %d, expected %d of %d", what, info->region,
             info->nregions, mine, nreg);
    check();
    coll_loc_split(comm, coll_loc_level_index("node"), &again);
    if (again != region)
        fail("%s: second call did not return the cached communicator", what);
    free(out);
    free(all);
}

/* Process-wide settings are shared by all simulated ranks (no privatization):
 * change them only when every rank is between two barriers. */
static void set_provider(int two_levels)
{
    static const char *const names[] = {"socket", "node"};
    MPI_Barrier(MPI_COMM_WORLD);
    if (two_levels ? coll_loc_set_provider(2, names, synthetic) : coll_loc_set_provider(0, NULL, NULL))
        fail("coll_loc_set_provider failed");
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The same colours as a rank map (coll_loc_set_rank_map). */
static void set_map(void)
{
    static const char *const names[] = {"socket", "node"};
    MPI_Barrier(MPI_COMM_WORLD);
    if (coll_loc_set_rank_map(2, names, synthetic_at))
        fail("coll_loc_set_rank_map failed");
    MPI_Barrier(MPI_COMM_WORLD);
}

static void set_region(const char *level)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (coll_loc_set_region_level(level))
        fail("coll_loc_set_region_level(%s) failed", level);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- 2. the algorithms under the synthetic provider ---- */
typedef int (*allgather_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
static const struct {
    const char *name;
    allgather_fn fn;
} algs[] = {
    {"loc_bruck", collsim_allgather_loc_bruck},
    {"loc_bruck_multilevel", collsim_allgather_loc_bruck_multilevel},
    {"hierarchical", collsim_allgather_hierarchical},
    {"multilane", collsim_allgather_multilane},
};

static unsigned char byte_of(int rank, long i) { return (unsigned char)(rank * 131 + i * 7 + 1); }

static void check_algorithms(MPI_Comm comm, const char *what)
{
    static const int sizes[] = {1, 1000};
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    unsigned char *send = malloc(1000), *recv = malloc((size_t)p * 1000);
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            const int n = sizes[z];
            for (int call = 0; call < 2; call++) { /* the second call uses the cache */
                for (int i = 0; i < n; i++)
                    send[i] = byte_of(rank, i);
                memset(recv, 0xee, (size_t)p * (size_t)n);
                check();
                int err = algs[a].fn(send, n, MPI_BYTE, recv, n, MPI_BYTE, comm);
                if (err) {
                    fail("%s: %s returned %d (p %d, size %d)", what, algs[a].name, err, p, n);
                    continue;
                }
                for (int j = 0; j < p; j++)
                    for (int i = 0; i < n; i++)
                        if (recv[(size_t)j * (size_t)n + (size_t)i] != byte_of(j, i)) {
                            fail("%s: %s p %d size %d call %d: rank %d, block %d offset %d wrong",
                                 what, algs[a].name, p, n, call, rank, j, i);
                            j = p;
                            break;
                        }
            }
        }
    free(send);
    free(recv);
}

static void sweep(const char *label)
{
    /* and all 64 below, reversed */
    static const int ps[] = {1, 3, 5, 13, 24, 47};
    int w, wsize;
    char what[128];
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        const int p = ps[k];
        if (p > wsize)
            continue;
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, w < p ? 0 : MPI_UNDEFINED, w, &c);
        if (c != MPI_COMM_NULL) {
            snprintf(what, sizeof what, "%s, first %d ranks", label, p);
            check_algorithms(c, what);
            MPI_Comm_free(&c);
        }
    }
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - w, &rev);
    snprintf(what, sizeof what, "%s, all ranks reversed", label);
    check_algorithms(rev, what);
    MPI_Comm_free(&rev);
}

/* ---- 3. a rank map gives what the provider's messages give ---- */
/* Everything this rank's info says, and its region's members as ranks of
 * comm, in one array (*n entries). */
static long *describe(MPI_Comm comm, int level, int *n)
{
    const coll_loc_info *info;
    MPI_Comm region;
    int p, err = coll_loc_info_get(comm, level, &info);
    if (!err)
        err = coll_loc_split(comm, level, &region);
    if (err) {
        fail("coll_loc_info_get error %d", err);
        *n = 0;
        return NULL;
    }
    MPI_Comm_size(comm, &p);
    const int r = info->nregions, s = info->local_size;
    long *d = malloc(sizeof(long) * (size_t)(16 + 2 * r + 2 * p + s));
    int k = 0;
    d[k++] = info->rank;
    d[k++] = info->size;
    d[k++] = info->level;
    d[k++] = info->region;
    d[k++] = r;
    d[k++] = info->local_rank;
    d[k++] = s;
    d[k++] = info->max_size;
    d[k++] = info->min_size;
    d[k++] = info->layout;
    for (int j = 0; j < r; j++)
        d[k++] = info->region_size[j];
    for (int j = 0; j <= r; j++)
        d[k++] = info->first[j];
    for (int v = 0; v < p; v++) /* every member of every region, in virtual order */
        d[k++] = coll_loc_rank_of_virtual(info, v);
    int rs, rr;
    MPI_Comm_size(region, &rs);
    MPI_Comm_rank(region, &rr);
    d[k++] = rs;
    d[k++] = rr;
    int *out = members(region, comm);
    for (int i = 0; i < rs && i < s; i++)
        d[k++] = out[i];
    free(out);
    *n = k;
    return d;
}

static void compare_map(const char *label)
{
    int w, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm comms[3] = {MPI_COMM_WORLD, MPI_COMM_NULL, MPI_COMM_NULL};
    const char *names[3] = {"world", "first 13", "all reversed"};
    MPI_Comm_split(MPI_COMM_WORLD, w < 13 ? 0 : MPI_UNDEFINED, w, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - w, &comms[2]);
    for (int level = 0; level < 2; level++)
        for (int c = 0; c < 3; c++) {
            int member = comms[c] != MPI_COMM_NULL, n1 = 0, n2 = 0;
            long *d1 = NULL, *d2 = NULL;
            set_provider(1);
            if (member)
                d1 = describe(comms[c], level, &n1);
            set_map();
            if (member)
                d2 = describe(comms[c], level, &n2);
            if (member) {
                check();
                if (n1 != n2 || (n1 && memcmp(d1, d2, sizeof(long) * (size_t)n1)))
                    fail("%s, %s, level %d: the rank map's info differs from the provider's "
                         "(%d and %d entries)", label, names[c], level, n1, n2);
            }
            free(d1);
            free(d2);
        }
    for (int c = 1; c < 3; c++)
        if (comms[c] != MPI_COMM_NULL)
            MPI_Comm_free(&comms[c]);
}

/* ---- 4. sharing between the simulated ranks ---- */
/* How many distinct values v takes over comm's ranks, and over the ranks of
 * each region of info (the same region: members must agree). */
static int distinct(unsigned long long v, MPI_Comm comm)
{
    int p;
    MPI_Comm_size(comm, &p);
    unsigned long long *all = malloc(sizeof *all * (size_t)p);
    MPI_Allgather(&v, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, comm);
    int n = 0;
    for (int i = 0; i < p; i++) {
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = all[k] == all[i];
        n += !seen;
    }
    free(all);
    return n;
}

/* label: "hooks" or "no hooks"; shared: what the hooks promise */
static void check_sharing(const char *label, int shared)
{
    const int w = world_rank();
    const coll_loc_info *info;
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    /* the provider's tables on MPI_COMM_WORLD, built by each rank from messages */
    set_provider(1);
    check();
    if (coll_loc_info_get(MPI_COMM_WORLD, 1, &info))
        fail("%s: coll_loc_info_get failed", label);
    else {
        const int d = distinct((unsigned long long)(uintptr_t)info->region_size, MPI_COMM_WORLD);
        if (shared ? d != 1 : d != wsize)
            fail("%s: %d distinct region-size tables over %d ranks", label, d, wsize);
    }
    /* the rank map's region groups on a sub-communicator (every rank but the last) */
    set_map();
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, w + 1 < wsize ? 0 : MPI_UNDEFINED, w, &sub);
    if (sub != MPI_COMM_NULL) {
        check();
        if (coll_loc_info_get(sub, 1, &info))
            fail("%s: coll_loc_info_get on a sub-communicator failed", label);
        else {
            MPI_Group g;
            MPI_Comm_group(info->comm_region, &g);
            const int d = distinct((unsigned long long)(uintptr_t)g, info->comm_region);
            if (shared ? d != 1 : d != info->local_size)
                fail("%s: %d distinct groups over the %d members of region %d", label, d,
                     info->local_size, info->region);
            MPI_Group_free(&g);
            check_algorithms(sub, label);
        }
        MPI_Comm_free(&sub);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int w, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (coll_loc_init()) {
        printf("FAIL coll_loc_init\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* 1. default provider */
    if (coll_loc_level_count() != 1 || strcmp(coll_loc_level_name(0), "node") ||
        coll_loc_level_index("socket") != -1 || strcmp(coll_loc_region_level_name(), "node"))
        fail("default levels wrong");
    check_split(MPI_COMM_WORLD, "world");
    check_split(MPI_COMM_WORLD, "world (again)");
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, w < 40 ? 0 : MPI_UNDEFINED, w, &sub);
    if (sub != MPI_COMM_NULL) {
        check_split(sub, "first 40");
        MPI_Comm_free(&sub);
    }
    MPI_Comm_split(MPI_COMM_WORLD, w % 2, wsize - w, &sub);
    check_split(sub, "parity, reversed");
    MPI_Comm_free(&sub);
    MPI_Comm_split(MPI_COMM_WORLD, w % 3 == 1 ? 0 : MPI_UNDEFINED, w, &sub);
    if (sub != MPI_COMM_NULL) {
        check_split(sub, "every third");
        check_algorithms(sub, "default provider, every third");
        MPI_Comm_free(&sub);
    }

    /* 2. two levels */
    set_provider(1);
    if (coll_loc_level_index("socket") != 0 || coll_loc_region_level() != 1 ||
        coll_loc_set_region_level("rack") != -1)
        fail("set_provider / level lookup wrong");
    static const int shapes[][3] = {
        {0, 8, 4}, {0, 5, 2}, {0, 16, 3}, {1, 7, 3}, {1, 20, 2}, {2, 11, 3}, {3, 6, 4},
    };
    char label[96];
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        shape = shapes[k][0];
        shape_a = shapes[k][1];
        shape_b = shapes[k][2];
        set_provider(1); /* a new shape: the caches are rebuilt */
        snprintf(label, sizeof label, "shape %d(%d,%d), region node", shape, shape_a, shape_b);
        sweep(label);
        /* 3. the same shape as a rank map */
        compare_map(label);
        snprintf(label, sizeof label, "shape %d(%d,%d), rank map, region node", shape, shape_a,
                 shape_b);
        sweep(label);
        set_provider(1);
        if (k % 3 == 0) {
            set_region("socket");
            snprintf(label, sizeof label, "shape %d(%d,%d), region socket", shape, shape_a,
                     shape_b);
            sweep(label);
            set_region("node");
        }
    }
    /* 4. sharing: first without hooks, then with the simulator's */
    shape = 0;
    shape_a = 8;
    shape_b = 4;
    check_sharing("no hooks", 0);
    MPI_Barrier(MPI_COMM_WORLD);
    sim_share_install();
    MPI_Barrier(MPI_COMM_WORLD);
    check_sharing("hooks", 1);
    set_provider(0);

    long in[2] = {checks[w], failures[w]}, sum[2];
    MPI_Allreduce(in, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (w == 0) {
        printf("locality_unit: %ld checks, %ld failed\n", sum[0], sum[1]);
        fflush(stdout);
    }
    MPI_Finalize();
    return sum[1] ? 1 : 0;
}
