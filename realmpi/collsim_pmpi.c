/* libcollsim_pmpi: a PMPI layer that runs collsim's algorithms inside an
 * unmodified MPI program (linked, or preloaded with LD_PRELOAD). The
 * environment picks one algorithm per collective (docs/real-mpi.md):
 *
 *   COLLSIM_ALLGATHER, COLLSIM_ALLTOALL, COLLSIM_ALLTOALLV   a name of
 *       algorithms.def (`loc_bruck` or `allgather/loc_bruck`); unset or empty:
 *       the library's collective (PMPI_). An unknown name stops the program
 *       in MPI_Init with a message naming the valid ones (exit status 2).
 *   COLLSIM_REGION_BLOCK=B   regions of B consecutive MPI_COMM_WORLD ranks
 *       for the locality-aware algorithms; unset: the processes sharing
 *       memory (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), coll_loc_init).
 *   COLLSIM_REPORT=1         at MPI_Finalize, world rank 0 prints per
 *       collective the calls served and those sent to the library, and why.
 *
 * Every decision to send a call to the library must be taken alike by all the
 * processes of the call, or some would run the algorithm and others the
 * library and the job would hang. So the reasons are only ones that MPI makes
 * the same on all processes: an intercommunicator; MPI_IN_PLACE (given by
 * all or none) for an algorithm without an in-place form; a block of more
 * bytes than the algorithm's messages can count (the bytes of a block agree
 * between processes, which their datatypes need not); and, for alltoallv, an
 * MPI_ERR_COUNT the padded algorithms return on every process alike after
 * their MPI_Allreduce. A datatype with holes is a local property (one process
 * may receive into a vector where the others use MPI_INT): it is served, not
 * sent back, by packing the process's blocks with MPI_Pack into a scratch
 * buffer of MPI_PACKED bytes, which matches any type signature, around the
 * algorithm, and unpacking what arrived. */
#include "collsim.h"

#include "coll_util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AG, A2A, A2AV, NCOLL };
enum { WHY_INTER, WHY_IN_PLACE, WHY_COUNT, NWHY };
static const char *const coll_name[NCOLL] = {"allgather", "alltoall", "alltoallv"};
static const char *const env_name[NCOLL] = {"COLLSIM_ALLGATHER", "COLLSIM_ALLTOALL",
                                            "COLLSIM_ALLTOALLV"};

static const collsim_alg *chosen[NCOLL];
static long served[NCOLL], packed[NCOLL], library[NCOLL][NWHY];
static int report;
/* > 0 while an algorithm runs: the collectives it calls itself (padded_alltoall's
 * MPI_Alltoall, the padded alltoallvs' MPI_Allreduce) are the library's */
static int inside;

/* ---- set-up: the environment, at MPI_Init ---- */
static int bad_setting(char *msg, size_t size)
{
    for (int c = 0; c < NCOLL; c++) {
        const char *v = getenv(env_name[c]);
        if (!v || !*v)
            continue;
        if (!(chosen[c] = collsim_alg_find(coll_name[c], v))) {
            char names[1024];
            snprintf(msg, size, "%s=%s: no %s algorithm of that name (valid: %s)", env_name[c], v,
                     coll_name[c], collsim_alg_names(coll_name[c], names, sizeof names));
            return 1;
        }
    }
    const char *v = getenv("COLLSIM_REGION_BLOCK");
    if (v && *v) {
        char *end;
        const long b = strtol(v, &end, 10);
        if (*end || b < 1 || b > INT_MAX) {
            snprintf(msg, size, "COLLSIM_REGION_BLOCK=%s: not a number of ranks >= 1", v);
            return 1;
        }
        collsim_set_block_regions((int)b);
    } else {
        int regions = 0;
        for (int c = 0; c < NCOLL; c++)
            regions |= chosen[c] && chosen[c]->regions;
        /* node regions: the processes sharing memory */
        if (regions && coll_loc_init() != MPI_SUCCESS) {
            snprintf(msg, size, "coll_loc_init (node regions) failed");
            return 1;
        }
    }
    v = getenv("COLLSIM_REPORT");
    report = v && !strcmp(v, "1");
    return 0;
}

/* All processes agree (one allreduce at start-up): a setting wrong on any one
 * stops them all, cleanly, instead of leaving some in a collective. */
static int set_up(int err)
{
    char msg[1400] = "";
    int bad, any_bad = 0, rank;

    if (err != MPI_SUCCESS)
        return err;
    bad = bad_setting(msg, sizeof msg);
    PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any_bad)
        return MPI_SUCCESS;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* the lowest rank that saw the error says it */
    int first = bad ? rank : INT_MAX, lowest;
    PMPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == lowest)
        fprintf(stderr, "collsim_pmpi: %s\n", msg);
    PMPI_Finalize();
    exit(2);
}

int MPI_Init(int *argc, char ***argv) { return set_up(PMPI_Init(argc, argv)); }

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return set_up(PMPI_Init_thread(argc, argv, required, provided));
}

int MPI_Finalize(void)
{
    long mine[NCOLL * (2 + NWHY)], sum[NCOLL * (2 + NWHY)];
    int rank, p, n = 0;

    if (!report)
        return PMPI_Finalize();
    for (int c = 0; c < NCOLL; c++) {
        mine[n++] = served[c];
        mine[n++] = packed[c];
        for (int w = 0; w < NWHY; w++)
            mine[n++] = library[c][w];
    }
    PMPI_Reduce(mine, sum, n, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int c = 0; rank == 0 && c < NCOLL; c++) {
        const long *s = sum + c * (2 + NWHY);
        long lib = 0;
        for (int w = 0; w < NWHY; w++)
            lib += s[2 + w];
        if (!chosen[c]) {
            fprintf(stderr, "collsim_pmpi: %s: the library's (%s unset)\n", coll_name[c],
                    env_name[c]);
            continue;
        }
        fprintf(stderr, "collsim_pmpi: %s/%s: %ld calls served (%ld packed), %ld to the library "
                "(intercommunicator %ld, MPI_IN_PLACE %ld, count beyond an int %ld); "
                "calls summed over %d processes\n", coll_name[c], chosen[c]->name, s[0], s[1],
                lib, s[2 + WHY_INTER], s[2 + WHY_IN_PLACE], s[2 + WHY_COUNT], p);
    }
    return PMPI_Finalize();
}

/* ---- what a call needs ---- */
static int contiguous(MPI_Datatype t)
{
    size_t b;
    return coll_block_bytes(t, 1, &b) == MPI_SUCCESS;
}

static int is_inter(MPI_Comm comm)
{
    int inter = 0;
    return comm != MPI_COMM_NULL && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter;
}

/* The reason an allgather or alltoall goes to the library, or -1. */
static int block_why(const collsim_alg *a, const void *sb, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    int p, size;

    if (comm == MPI_COMM_NULL || is_inter(comm))
        return WHY_INTER;
    if (sb == MPI_IN_PLACE && !a->in_place)
        return WHY_IN_PLACE;
    if (rc < 0 || PMPI_Type_size(rt, &size) != MPI_SUCCESS || PMPI_Comm_size(comm, &p))
        return -1; /* the algorithm's own error */
    const long long bytes = (long long)rc * size;
    return bytes > INT_MAX || a->msg_blocks(p) * bytes > INT_MAX ? WHY_COUNT : -1;
}

static MPI_Aint extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    PMPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* Packs n blocks of count x type (block j at buf + j count extent) into out,
 * `bytes` each. */
static int pack_blocks(const void *buf, int n, int count, MPI_Datatype type, char *out,
                       size_t bytes, MPI_Comm comm)
{
    const MPI_Aint stride = (MPI_Aint)count * extent_of(type);
    int err = MPI_SUCCESS;
    for (int j = 0; j < n && !err; j++) {
        int pos = 0;
        err = PMPI_Pack((const char *)buf + j * stride, count, type, out + j * bytes, (int)bytes,
                        &pos, comm);
    }
    return err;
}

static int unpack_blocks(const char *in, size_t bytes, int n, void *buf, int count,
                         MPI_Datatype type, MPI_Comm comm)
{
    const MPI_Aint stride = (MPI_Aint)count * extent_of(type);
    int err = MPI_SUCCESS;
    for (int j = 0; j < n && !err; j++) {
        int pos = 0;
        err = PMPI_Unpack(in + j * bytes, (int)bytes, &pos, (char *)buf + j * stride, count, type,
                          comm);
    }
    return err;
}

/* An allgather (nsend = 1) or alltoall (nsend = p) the algorithm serves,
 * through MPI_PACKED scratch buffers for a side whose datatype has holes. */
static int run_block(int c, const collsim_alg *a, int nsend, const void *sb, int sc,
                     MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    const int pack_send = sb != MPI_IN_PLACE && !contiguous(st), pack_recv = !contiguous(rt);
    char *stmp = NULL, *rtmp = NULL;
    int err = MPI_SUCCESS, p, rank, ssize, rsize;

    served[c]++;
    if (!pack_send && !pack_recv) {
        inside++;
        err = a->block(sb, sc, st, rb, rc, rt, comm);
        inside--;
        return err;
    }
    packed[c]++;
    PMPI_Comm_size(comm, &p);
    PMPI_Comm_rank(comm, &rank);
    PMPI_Type_size(rt, &rsize);
    const size_t rbytes = (size_t)rc * (size_t)rsize; /* <= INT_MAX: block_why */
    const void *sarg = sb;
    int scount = sc;
    MPI_Datatype stype = st;
    if (pack_send) {
        PMPI_Type_size(st, &ssize);
        const size_t sbytes = (size_t)sc * (size_t)ssize;
        if (sc < 0 || sbytes > INT_MAX)
            return MPI_ERR_COUNT;
        if (!(stmp = malloc(sbytes * (size_t)nsend + 1)))
            return MPI_ERR_NO_MEM;
        err = pack_blocks(sb, nsend, sc, st, stmp, sbytes, comm);
        sarg = stmp;
        scount = (int)sbytes;
        stype = MPI_PACKED;
    }
    void *rarg = rb;
    int rcount = rc;
    MPI_Datatype rtype = rt;
    if (!err && pack_recv) {
        if (!(rtmp = malloc(rbytes * (size_t)p + 1)))
            err = MPI_ERR_NO_MEM;
        else if (sb == MPI_IN_PLACE) /* the own block is read from the receive buffer */
            err = pack_blocks((char *)rb + (MPI_Aint)rank * rc * extent_of(rt), 1, rc, rt,
                              rtmp + rank * rbytes, rbytes, comm);
        rarg = rtmp;
        rcount = (int)rbytes;
        rtype = MPI_PACKED;
    }
    if (!err) {
        inside++;
        err = a->block(sarg, scount, stype, rarg, rcount, rtype, comm);
        inside--;
    }
    if (!err && pack_recv)
        err = unpack_blocks(rtmp, rbytes, p, rb, rc, rt, comm);
    free(stmp);
    free(rtmp);
    return err;
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm comm)
{
    const collsim_alg *a = chosen[AG];
    int why;

    if (!a || inside)
        return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
    if ((why = block_why(a, sb, rc, rt, comm)) >= 0) {
        library[AG][why]++;
        return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
    }
    return run_block(AG, a, 1, sb, sc, st, rb, rc, rt, comm);
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm comm)
{
    const collsim_alg *a = chosen[A2A];
    int why, p;

    if (!a || inside)
        return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
    if ((why = block_why(a, sb, rc, rt, comm)) >= 0) {
        library[A2A][why]++;
        return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
    }
    PMPI_Comm_size(comm, &p);
    return run_block(A2A, a, p, sb, sc, st, rb, rc, rt, comm);
}

/* ---- alltoallv ---- */
/* One side of an alltoallv as MPI_PACKED bytes: counts and displacements of
 * the packed blocks, laid end to end in *tmp. MPI_ERR_COUNT when this
 * process's packed side exceeds an int's bytes (docs/real-mpi.md: then only
 * this process's call fails). */
typedef struct {
    char *tmp;
    int *counts, *displs;
} packed_side;

static int packed_layout(int p, const int *counts, MPI_Datatype type, packed_side *s)
{
    int size;
    long long at = 0;

    PMPI_Type_size(type, &size);
    s->counts = malloc(sizeof(int) * (size_t)p);
    s->displs = malloc(sizeof(int) * (size_t)p);
    if (!s->counts || !s->displs)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < p; j++) {
        if (counts[j] < 0)
            return MPI_ERR_COUNT;
        s->displs[j] = (int)at;
        s->counts[j] = (int)((long long)counts[j] * size);
        at += (long long)counts[j] * size;
        if (at > INT_MAX)
            return MPI_ERR_COUNT;
    }
    return (s->tmp = malloc((size_t)at + 1)) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static int pack_v(int p, const void *buf, const int *counts, const int *displs, MPI_Datatype type,
                  packed_side *s, int unpack, MPI_Comm comm)
{
    const MPI_Aint ext = extent_of(type);
    int err = MPI_SUCCESS;
    for (int j = 0; j < p && !err; j++) {
        int pos = 0;
        char *block = (char *)buf + (MPI_Aint)displs[j] * ext;
        if (s->counts[j] == 0)
            continue;
        err = unpack ? PMPI_Unpack(s->tmp + s->displs[j], s->counts[j], &pos, block, counts[j],
                                   type, comm)
                     : PMPI_Pack(block, counts[j], type, s->tmp + s->displs[j], s->counts[j], &pos,
                                 comm);
    }
    return err;
}

static void free_side(packed_side *s)
{
    free(s->tmp);
    free(s->counts);
    free(s->displs);
}

int MPI_Alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st,
                  void *rb, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                  MPI_Comm comm)
{
    const collsim_alg *a = chosen[A2AV];
    int why = -1, err = MPI_SUCCESS, p;

    if (!a || inside)
        return PMPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    if (comm == MPI_COMM_NULL || is_inter(comm))
        why = WHY_INTER;
    else if (sb == MPI_IN_PLACE && !a->in_place)
        why = WHY_IN_PLACE;
    if (why >= 0) {
        library[A2AV][why]++;
        return PMPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    }
    PMPI_Comm_size(comm, &p);
    const int pack_send = !contiguous(st), pack_recv = !contiguous(rt);
    packed_side s = {0}, r = {0};
    const void *sarg = sb;
    const int *sc = scounts, *sd = sdispls, *rc = rcounts, *rd = rdispls;
    void *rarg = rb;
    MPI_Datatype stype = st, rtype = rt;
    if (pack_send && !(err = packed_layout(p, scounts, st, &s)) &&
        !(err = pack_v(p, sb, scounts, sdispls, st, &s, 0, comm))) {
        sarg = s.tmp;
        sc = s.counts;
        sd = s.displs;
        stype = MPI_PACKED;
    }
    if (!err && pack_recv && !(err = packed_layout(p, rcounts, rt, &r))) {
        rarg = r.tmp;
        rc = r.counts;
        rd = r.displs;
        rtype = MPI_PACKED;
    }
    if (!err) {
        served[A2AV]++;
        packed[A2AV] += pack_send || pack_recv;
        inside++;
        err = a->v(sarg, sc, sd, stype, rarg, rc, rd, rtype, comm);
        inside--;
        if (err == MPI_ERR_COUNT) {
            /* the padded algorithms' largest block, the same on every process */
            served[A2AV]--;
            packed[A2AV] -= pack_send || pack_recv;
            library[A2AV][WHY_COUNT]++;
            err = PMPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
        } else if (!err && pack_recv) {
            err = pack_v(p, rb, rcounts, rdispls, rt, &r, 1, comm);
        }
    }
    free_side(&s);
    free_side(&r);
    return err;
}
