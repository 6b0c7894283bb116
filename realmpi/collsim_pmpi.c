/* libcollsim_pmpi: a PMPI layer that runs collsim's algorithms inside an
 * unmodified MPI program (linked, or preloaded with LD_PRELOAD). The
 * environment picks one algorithm per collective (docs/real-mpi.md):
 *
 *   COLLSIM_<COLLECTIVE>   for each collective of core/collectives.def with
 *       an MPI entry point (COLLSIM_ALLGATHER, COLLSIM_ALLTOALL, ...): a name
 *       of algorithms.def (`loc_bruck` or `allgather/loc_bruck`), or
 *       auto:FILE, a decision table by communicator size and bytes
 *       (collsim_decide.h); unset or
 *       empty: the library's collective (PMPI_). An unknown name stops the
 *       program in MPI_Init with a message naming the valid ones (exit status
 *       2). The wrappers of MPI_<entry> are generated from collectives.def,
 *       one per signature kind.
 *   COLLSIM_REGION_BLOCK=B   regions of B consecutive MPI_COMM_WORLD ranks
 *       for the locality-aware algorithms; unset: levels socket and node, the
 *       processes sharing memory and, inside them, those bound to one package
 *       (collsim_hwloc.h).
 *   COLLSIM_LOCALITY=FILE    every rank's region at each level, in the
 *       format of coll_locality_file.h (the file collsim writes for a
 *       simulated case), instead of COLLSIM_REGION_BLOCK.
 *   COLLSIM_REGION_LEVEL=L   the level the locality-aware algorithms use as
 *       their region (default node), one the file declares.
 *   COLLSIM_INTER_ALLGATHER, COLLSIM_INTER_ALLGATHERV   the same for the
 *       intergroup collectives: an algorithm (inter_allgather(v) of
 *       algorithms.def) for MPI_Allgather and MPI_Allgatherv on an
 *       intercommunicator (intergroup_intercomm.h); unset: the library's.
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
 * may receive into a vector where the others use MPI_INT): the algorithms
 * serve it themselves, packing around their schedule (coll_adapt.h), as they
 * serve MPI_IN_PLACE in an alltoall(v); the report counts those calls as
 * packed. Per collective:
 *   allgather, alltoall: block bytes (agreed by the signatures), MPI_IN_PLACE
 *     (all or none), the intercommunicator; holes packed by the algorithm.
 *   alltoallv: the intercommunicator, MPI_IN_PLACE (all or none), the padded
 *     algorithms' MPI_ERR_COUNT after their MPI_Allreduce. Not agreed: one
 *     process's packed side beyond 2^31 bytes (coll_adapt_v), a limit.
 *   gather, scatter: the block bytes of the root's many-block side and of the
 *     others' one block (equal); MPI_IN_PLACE at the root is served by every
 *     algorithm, so it decides nothing; holes packed by the algorithm.
 *   bcast: counts and datatypes may differ, only the bytes agree: every
 *     process hands the algorithm count x size bytes of MPI_BYTE (packed
 *     around it when its datatype is not raw bytes in order: bcast_bytes).
 *   allreduce, reduce, reduce_scatter(_block): MPI requires the same count,
 *     datatype and operation on every process, so a datatype with holes
 *     (MPI_ERR_TYPE) and a non-commutative operation (MPI_ERR_OP) are refused
 *     alike; MPI_IN_PLACE is all or none but for reduce, whose algorithms
 *     all take it at the root.
 *   inter_allgather(v): the intercommunicator and the setting; holes packed
 *     by the wrappers (coll_adapt_inter), no fallback. */
#include "collsim.h"

#include "collectives.h"
#include "coll_locality_file.h"
#include "coll_segment.h"
#include "collsim_decide.h"
#include "collsim_hwloc.h"
#include "coll_util.h"
#include "intergroup_intercomm.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WHY_INTER, WHY_IN_PLACE, WHY_COUNT, WHY_OP, WHY_TYPE, NWHY };

/* The collectives (core/collectives.def) as this layer needs them. */
static const struct {
    const char *name, *mpi;
    cs_sig sig;
    int root, pmpi;
} colls[CS_NCOLL] = {
#define CS_COLLECTIVE(name, sig, send, root, in_place, note, min_np, mpi, pmpi, ...)               \
    {#name, #mpi, CS_SIG_##sig, CS_ROOT_##root, CS_PMPI_##pmpi},
#include "collectives.def"
#undef CS_COLLECTIVE
};

static int intergroup(int c) { return colls[c].sig == CS_SIG_inter || colls[c].sig == CS_SIG_interv; }

/* COLLSIM_ALLGATHER for allgather */
static const char *env_name(int c)
{
    static char names[CS_NCOLL][64];
    if (!names[c][0]) {
        int n = snprintf(names[c], sizeof names[c], "COLLSIM_%s", colls[c].name);
        for (int i = 8; i < n && names[c][i]; i++)
            names[c][i] = (char)toupper((unsigned char)names[c][i]);
    }
    return names[c];
}

static const collsim_alg *chosen[CS_NCOLL];
/* the intergroup collectives' choice: 1 + an index in collsim_ic_algs, 0:
 * none (every rank of an SMPI run sets the same values, and never resets
 * them: another rank may be in a call already) */
static int inter_chosen[CS_NCOLL];
/* 1 + the intergroup collective an entry point's wrapper hands its
 * intercommunicator calls to (pmpi intercomm), 0: none */
static int inter_of[CS_NCOLL];
static int report;
/* The counters and the re-entry guard of one process. Under SMPI every
 * simulated rank lives in this one OS process (no privatization), so they are
 * kept per MPI_COMM_WORLD rank; a real MPI process only uses its own entry. */
typedef struct {
    long served[CS_NCOLL], packed[CS_NCOLL], library[CS_NCOLL][NWHY];
    /* > 0 while an algorithm runs: the collectives it calls itself
     * (padded_alltoall's MPI_Alltoall, the padded alltoallvs' MPI_Allreduce)
     * are the library's */
    int inside;
} proc_state;
static proc_state *states; /* [world size], from MPI_Init */

static proc_state *me(void)
{
    int r;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    return &states[r];
}

/* The intergroup algorithms (Kang, Traff et al. 2019) on intercommunicators
 * (intergroup_intercomm.h): an inter kind's wrapper is ag, an interv's agv. */
static int ic_has(size_t i, cs_sig sig)
{
    return sig == CS_SIG_interv ? collsim_ic_algs[i].agv != NULL : collsim_ic_algs[i].ag != NULL;
}

/* COLLSIM_INTER_ALLGATHER(V)=NAME (or inter_allgather(v)/NAME): 0, or 1 with msg */
static int inter_setting(int c, const char *val, char *msg, size_t size)
{
    const char *coll = colls[c].name;
    const size_t cl = strlen(coll);
    const char *name = !strncmp(val, coll, cl) && val[cl] == '/' ? val + cl + 1 : val;
    char names[512] = "";
    for (size_t i = 0; collsim_ic_algs[i].name; i++) {
        if (!ic_has(i, colls[c].sig))
            continue;
        if (!strcmp(collsim_ic_algs[i].name, name)) {
            inter_chosen[c] = (int)i + 1;
            return 0;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? ", " : "",
                 collsim_ic_algs[i].name);
    }
    snprintf(msg, size, "%s=%s: no %s algorithm of that name (valid: %s)", env_name(c), val, coll,
             names);
    return 1;
}

/* ---- set-up: the environment, at MPI_Init ---- */
static int bad_setting(char *msg, size_t size)
{
    for (int c = 0; c < CS_NCOLL; c++) {
        const char *v = getenv(env_name(c));
        int of = 0;
        for (int i = 0; i < CS_NCOLL; i++)
            if (colls[i].pmpi == CS_PMPI_intercomm && colls[c].pmpi == CS_PMPI_own &&
                !strcmp(colls[i].mpi, colls[c].mpi))
                of = i + 1;
        inter_of[c] = of;
        if (colls[c].pmpi == CS_PMPI_none || !v || !*v)
            continue;
        if (intergroup(c)) {
            if (inter_setting(c, v, msg, size))
                return 1;
        } else if (!strncmp(v, "auto:", 5)) {
            if (collsim_decide_load(c, colls[c].name, v + 5, msg, size))
                return 1;
        } else if (!(chosen[c] = collsim_alg_find(colls[c].name, v))) {
            char names[1024];
            snprintf(msg, size, "%s=%s: no %s algorithm of that name (valid: %s)", env_name(c), v,
                     colls[c].name, collsim_alg_names(colls[c].name, names, sizeof names));
            return 1;
        }
    }
    const char *v = getenv("COLLSIM_REGION_BLOCK"), *file = getenv("COLLSIM_LOCALITY"),
               *level = getenv("COLLSIM_REGION_LEVEL");
    if (v && *v && file && *file) {
        snprintf(msg, size, "COLLSIM_REGION_BLOCK and COLLSIM_LOCALITY are both set: give the "
                            "regions one way");
        return 1;
    }
    if (file && *file) { /* a locality file, e.g. the one collsim wrote for a simulated case */
        char why[600];
        if (coll_loc_file_init(file, why, sizeof why)) {
            snprintf(msg, size, "COLLSIM_LOCALITY=%s: %s", file, why);
            return 1;
        }
    } else if (v && *v) {
        char *end;
        const long b = strtol(v, &end, 10);
        if (*end || b < 1 || b > INT_MAX) {
            snprintf(msg, size, "COLLSIM_REGION_BLOCK=%s: not a number of ranks >= 1", v);
            return 1;
        }
        collsim_set_block_regions((int)b);
    } else {
        int regions = 0;
        for (int c = 0; c < CS_NCOLL; c++)
            regions |= (chosen[c] && chosen[c]->regions) || collsim_decide_regions();
        /* node regions (the processes sharing memory) and sockets (hwloc) */
        if (regions && collsim_hwloc_regions(NULL) != MPI_SUCCESS) {
            snprintf(msg, size, "the node and socket regions could not be set up");
            return 1;
        }
    }
    if (level && *level && coll_loc_set_region_level(level) != MPI_SUCCESS) {
        char names[256] = "";
        for (int l = 0; l < coll_loc_level_count(); l++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", l ? ", " : "",
                     coll_loc_level_name(l));
        snprintf(msg, size, "COLLSIM_REGION_LEVEL=%s: not a locality level (the levels: %s)",
                 level, names);
        return 1;
    }
    if ((v = getenv("COLLSIM_SEGMENT")) && *v) { /* the segmented algorithms' segment size */
        char *end;
        const long b = strtol(v, &end, 10);
        if (*end || b < 1) {
            snprintf(msg, size, "COLLSIM_SEGMENT=%s: not a number of bytes >= 1", v);
            return 1;
        }
        coll_set_segment_bytes(b);
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
    int wsize;
    PMPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if ((!states && !(states = calloc((size_t)wsize, sizeof *states))) ||
        collsim_decide_init(wsize) != MPI_SUCCESS)
        PMPI_Abort(MPI_COMM_WORLD, 2);
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
    long mine[CS_NCOLL * (2 + NWHY)], sum[CS_NCOLL * (2 + NWHY)];
    int rank, p, n = 0;

    if (!report)
        return PMPI_Finalize();
    for (int c = 0; c < CS_NCOLL; c++) {
        mine[n++] = me()->served[c];
        mine[n++] = me()->packed[c];
        for (int w = 0; w < NWHY; w++)
            mine[n++] = me()->library[c][w];
    }
    PMPI_Reduce(mine, sum, n, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int c = 0; rank == 0 && c < CS_NCOLL; c++) {
        const long *s = sum + c * (2 + NWHY);
        long lib = 0;
        for (int w = 0; w < NWHY; w++)
            lib += s[2 + w];
        if (colls[c].pmpi == CS_PMPI_none)
            continue;
        if (intergroup(c)) { /* said only when chosen */
            if (inter_chosen[c])
                fprintf(stderr, "collsim_pmpi: %s/%s: %ld calls on intercommunicators served; "
                                "calls summed over %d processes\n", colls[c].name,
                        collsim_ic_algs[inter_chosen[c] - 1].name, s[0], p);
            continue;
        }
        if (!chosen[c] && !collsim_decide_active(c)) {
            fprintf(stderr, "collsim_pmpi: %s: the library's (%s unset)\n", colls[c].name,
                    env_name(c));
            continue;
        }
        fprintf(stderr, "collsim_pmpi: %s/%s: %ld calls served (%ld packed), %ld to the library "
                "(intercommunicator %ld, MPI_IN_PLACE %ld, count beyond an int %ld, "
                "non-commutative operation %ld, datatype with holes %ld); "
                "calls summed over %d processes\n", colls[c].name,
                chosen[c] ? chosen[c]->name : "auto", s[0], s[1],
                lib, s[2 + WHY_INTER], s[2 + WHY_IN_PLACE], s[2 + WHY_COUNT], s[2 + WHY_OP],
                s[2 + WHY_TYPE], p);
    }
    for (int c = 0; c < CS_NCOLL; c++)
        if (collsim_decide_active(c))
            collsim_decide_report(c, colls[c].name);
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

/* The algorithm of a call: COLLSIM_<COLL>=NAME's, or with auto:FILE the
 * table's for the communicator's size and `count` elements of t per block
 * (the same on every process of the call); NULL: the library's. */
static const collsim_alg *pick(int c, MPI_Comm comm, int count, MPI_Datatype t)
{
    int size = 0;
    if (chosen[c] || !collsim_decide_active(c))
        return chosen[c];
    if (count < 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS)
        size = 0;
    return collsim_decide(c, comm, (long long)count * size);
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

/* An allgather or alltoall the algorithm serves (datatypes with holes are
 * packed by the algorithm itself: coll_adapt.h). */
static int run_block(int c, const collsim_alg *a, const void *sb, int sc, MPI_Datatype st,
                     void *rb, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    proc_state *S = me();
    S->served[c]++;
    S->packed[c] += (sb != MPI_IN_PLACE && !contiguous(st)) || !contiguous(rt);
    S->inside++;
    const int err = a->block(sb, sc, st, rb, rc, rt, comm);
    S->inside--;
    return err;
}

/* ---- one function per signature kind serves the calls of its wrappers ---- */

/* inter, interv: only on an intercommunicator, with the collective's
 * COLLSIM_INTER_... set (no intracommunicator algorithm of its entry point) */
static int serve_inter(int c, collsim_block_coll_fn lib, const void *sb, int sc, MPI_Datatype st,
                       void *rb, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    proc_state *S = me();
    if (S->inside || !inter_chosen[c] || !is_inter(comm))
        return lib(sb, sc, st, rb, rc, rt, comm);
    S->served[c]++;
    S->inside++;
    const int err = collsim_ic_algs[inter_chosen[c] - 1].ag(sb, sc, st, rb, rc, rt, comm);
    S->inside--;
    return err;
}

/* block: MPI_Allgather, MPI_Alltoall; an intercommunicator call to the
 * intergroup collective of the same entry point, when one is chosen */
static int serve_block(int c, collsim_block_coll_fn lib, const void *sb, int sc, MPI_Datatype st,
                       void *rb, int rc, MPI_Datatype rt, MPI_Comm comm)
{
    proc_state *S = me();
    const int ic = inter_of[c] - 1;
    int why;

    if (!S->inside && ic >= 0 && inter_chosen[ic] && is_inter(comm))
        return serve_inter(ic, lib, sb, sc, st, rb, rc, rt, comm);
    const collsim_alg *a = S->inside ? NULL : pick(c, comm, rc, rt);
    if (!a || S->inside)
        return lib(sb, sc, st, rb, rc, rt, comm);
    if ((why = block_why(a, sb, rc, rt, comm)) >= 0) {
        S->library[c][why]++;
        return lib(sb, sc, st, rb, rc, rt, comm);
    }
    return run_block(c, a, sb, sc, st, rb, rc, rt, comm);
}

typedef int (*allgatherv_fn)(const void *, int, MPI_Datatype, void *, const int *, const int *,
                             MPI_Datatype, MPI_Comm);
static int serve_interv(int c, allgatherv_fn lib, const void *sb, int sc, MPI_Datatype st,
                        void *rb, const int *rcounts, const int *displs, MPI_Datatype rt,
                        MPI_Comm comm)
{
    proc_state *S = me();
    if (S->inside || !inter_chosen[c] || !is_inter(comm))
        return lib(sb, sc, st, rb, rcounts, displs, rt, comm);
    S->served[c]++;
    S->inside++;
    const int err = collsim_ic_algs[inter_chosen[c] - 1].agv(sb, sc, st, rb, rcounts, displs, rt, comm);
    S->inside--;
    return err;
}

/* rooted: the reason a gather (to the root) or scatter goes to the library,
 * or -1: only what is the same on every process (the block's bytes are). */
static int rooted_why(const collsim_alg *a, int to_root, int sc, MPI_Datatype st, int rc,
                      MPI_Datatype rt, int root, MPI_Comm comm)
{
    int p, rank, size;
    if (comm == MPI_COMM_NULL || is_inter(comm))
        return WHY_INTER;
    if (PMPI_Comm_size(comm, &p) || PMPI_Comm_rank(comm, &rank) || root < 0 || root >= p)
        return -1; /* the algorithm's own error */
    /* the root's many-block side, the others' one block */
    const int use_recv = to_root == (rank == root);
    const int count = use_recv ? rc : sc;
    if (count < 0 || PMPI_Type_size(use_recv ? rt : st, &size) != MPI_SUCCESS)
        return -1;
    const long long bytes = (long long)count * size;
    return bytes > INT_MAX || a->msg_blocks(p) * bytes > INT_MAX ? WHY_COUNT : -1;
}

static int serve_rooted(int c, collsim_rooted_fn lib, const void *sb, int sc, MPI_Datatype st,
                        void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
    const int to_root = colls[c].root == CS_ROOT_to;
    proc_state *S = me();
    int why = -1, rank;
    /* the block: the root's many-block side, the others' one block */
    const int use_recv = comm != MPI_COMM_NULL && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS &&
                         to_root == (rank == root);
    const collsim_alg *a = S->inside ? NULL : pick(c, comm, use_recv ? rc : sc, use_recv ? rt : st);
    if (!a || S->inside || (why = rooted_why(a, to_root, sc, st, rc, rt, root, comm)) >= 0) {
        if (a && !S->inside)
            S->library[c][why]++;
        return lib(sb, sc, st, rb, rc, rt, root, comm);
    }
    PMPI_Comm_rank(comm, &rank);
    /* the sides this process uses: a non-root its own block's, the root both */
    const int own_send = to_root ? sb != MPI_IN_PLACE : rank == root;
    const int own_recv = to_root ? rank == root : rb != MPI_IN_PLACE;
    S->served[c]++;
    S->packed[c] += (own_send && !contiguous(st)) || (own_recv && !contiguous(rt));
    S->inside++;
    const int err = a->rooted(sb, sc, st, rb, rc, rt, root, comm);
    S->inside--;
    return err;
}

/* v: MPI_Alltoallv */
static int serve_v(int c, collsim_alltoallv_fn lib, const void *sb, const int *scounts,
                   const int *sdispls, MPI_Datatype st, void *rb, const int *rcounts,
                   const int *rdispls, MPI_Datatype rt, MPI_Comm comm)
{
    proc_state *S = me();
    const collsim_alg *a = S->inside ? NULL : pick(c, comm, 0, MPI_BYTE);
    int why = -1, err;

    if (!a || S->inside)
        return lib(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    if (comm == MPI_COMM_NULL || is_inter(comm))
        why = WHY_INTER;
    else if (sb == MPI_IN_PLACE && !a->in_place)
        why = WHY_IN_PLACE;
    if (why >= 0) {
        S->library[c][why]++;
        return lib(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    }
    const int holes = (sb != MPI_IN_PLACE && !contiguous(st)) || !contiguous(rt);
    S->served[c]++;
    S->packed[c] += holes;
    S->inside++;
    err = a->v(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    S->inside--;
    if (err == MPI_ERR_COUNT) {
        /* the padded algorithms' largest block, the same on every process */
        S->served[c]--;
        S->packed[c] -= holes;
        S->library[c][WHY_COUNT]++;
        err = lib(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    }
    return err;
}

/* onebuf (MPI_Bcast) and the reductions: the algorithms refuse, before any
 * message, what they do not serve: a datatype with holes (MPI_ERR_TYPE), a
 * non-commutative operation for the algorithms that need one (MPI_ERR_OP,
 * algorithms.def); the call then goes to the library. For a reduction both
 * are the same on every process (MPI requires one datatype and one operation
 * on all of them). A broadcast's datatypes may differ (only the signatures
 * must match), so serve_onebuf hands the algorithm bytes and never a
 * process's own datatype. */
static int refused(int err)
{
    return err == MPI_ERR_OP ? WHY_OP : err == MPI_ERR_TYPE ? WHY_TYPE : -1;
}

static int count_why(const collsim_alg *a, int count, MPI_Datatype t, MPI_Comm comm)
{
    int p, size;
    if (comm == MPI_COMM_NULL || is_inter(comm))
        return WHY_INTER;
    if (count < 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS || PMPI_Comm_size(comm, &p))
        return -1; /* the algorithm's own error */
    const long long bytes = (long long)count * size;
    return bytes > INT_MAX || a->msg_blocks(p) * bytes > INT_MAX ? WHY_COUNT : -1;
}

/* The algorithm that takes the call (counted as served, the layer inside
 * it: the one of COLLSIM_<COLL>, or the decision table's for this
 * communicator and size), or NULL: the library's (the reason counted, when
 * an algorithm is chosen). in_place_refused: MPI_IN_PLACE was passed, alike
 * on every process. */
static const collsim_alg *enter(int c, int in_place_refused, int count, MPI_Datatype t,
                                MPI_Comm comm)
{
    proc_state *S = me();
    const collsim_alg *a = S->inside ? NULL : pick(c, comm, count, t);
    if (!a)
        return NULL;
    const int why = in_place_refused && !a->in_place ? WHY_IN_PLACE : count_why(a, count, t, comm);
    if (why >= 0) {
        S->library[c][why]++;
        return NULL;
    }
    S->served[c]++;
    S->inside++;
    return a;
}

/* After the algorithm: 1 when it refused the call (counted for the library,
 * which must serve it then). */
static int leave(int c, int err)
{
    proc_state *S = me();
    S->inside--;
    const int why = refused(err);
    if (why < 0)
        return 0;
    S->served[c]--;
    S->library[c][why]++;
    return 1;
}

/* 1 if count x t lies in memory as its packed bytes, in order: a gap-free
 * predefined type, or a contiguous type or duplicate of one (a gap-free
 * indexed type may list its blocks out of order) */
static int raw_bytes(MPI_Datatype t)
{
    int ni, na, nt, comb, ints[1], r = 0, dummy;
    MPI_Aint addrs[1];
    MPI_Datatype old;
    if (!contiguous(t) || PMPI_Type_get_envelope(t, &ni, &na, &nt, &comb) != MPI_SUCCESS)
        return 0;
    if (comb == MPI_COMBINER_NAMED)
        return 1;
    if ((comb != MPI_COMBINER_CONTIGUOUS && comb != MPI_COMBINER_DUP) || ni > 1 || na || nt != 1 ||
        PMPI_Type_get_contents(t, 1, 1, 1, ints, addrs, &old) != MPI_SUCCESS)
        return 0;
    r = raw_bytes(old);
    if (PMPI_Type_get_envelope(old, &ni, &na, &dummy, &comb) == MPI_SUCCESS &&
        comb != MPI_COMBINER_NAMED)
        PMPI_Type_free(&old);
    return r;
}

/* A broadcast as count x size bytes of MPI_BYTE on every process: the bytes
 * agree where the counts and datatypes need not (4 x MPI_INT at the root, one
 * vector of 4 ints elsewhere), so every process runs the same schedule on the
 * same segments. A datatype that is not raw bytes in order is packed (the
 * root) and unpacked (the others) around the algorithm. */
static int bcast_bytes(int c, const collsim_alg *a, void *buf, int count, MPI_Datatype t, int root,
                       MPI_Comm comm)
{
    int size, rank, pos = 0, err, packed_err = MPI_SUCCESS;
    if (count < 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS ||
        PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return a->onebuf(buf, count, t, root, comm); /* the algorithm's own error */
    const int bytes = count * size; /* <= INT_MAX: count_why */
    if (raw_bytes(t))
        return a->onebuf(buf, bytes, MPI_BYTE, root, comm);
    me()->packed[c]++;
    char *tmp = malloc((size_t)bytes + 1);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    /* a failed pack still takes part, or the others would wait for it */
    if (rank == root && bytes &&
        ((packed_err = PMPI_Pack(buf, count, t, tmp, bytes, &pos, comm)) != MPI_SUCCESS ||
         pos != bytes))
        packed_err = packed_err ? packed_err : MPI_ERR_INTERN;
    err = a->onebuf(tmp, bytes, MPI_BYTE, root, comm);
    if (err == MPI_SUCCESS && rank != root && bytes)
        err = PMPI_Unpack(tmp, bytes, &pos, buf, count, t, comm);
    free(tmp);
    return err ? err : packed_err;
}

typedef int (*bcast_fn)(void *, int, MPI_Datatype, int, MPI_Comm);
static int serve_onebuf(int c, bcast_fn lib, void *buf, int count, MPI_Datatype t, int root,
                        MPI_Comm comm)
{
    const collsim_alg *a;
    int err;
    if ((a = enter(c, 0, count, t, comm)) && !leave(c, err = bcast_bytes(c, a, buf, count, t, root, comm)))
        return err;
    return lib(buf, count, t, root, comm);
}

typedef int (*allreduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
static int serve_reduction(int c, allreduce_fn lib, const void *sb, void *rb, int count,
                           MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    const collsim_alg *a;
    int err;
    if ((a = enter(c, sb == MPI_IN_PLACE, count, t, comm)) &&
        !leave(c, err = a->reduction(sb, rb, count, t, op, comm)))
        return err;
    return lib(sb, rb, count, t, op, comm);
}

/* rooted_reduction (MPI_Reduce): as a reduction, but MPI_IN_PLACE is the
 * root's alone, so it cannot decide alike on every process: a reduce
 * algorithm must take it (algorithms.def) */
typedef int (*reduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
static int serve_rooted_reduction(int c, reduce_fn lib, const void *sb, void *rb, int count,
                                  MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    const collsim_alg *a;
    int err;
    if ((a = enter(c, 0, count, t, comm)) &&
        !leave(c, err = a->rooted_reduction(sb, rb, count, t, op, root, comm)))
        return err;
    return lib(sb, rb, count, t, op, root, comm);
}

/* vreduction (MPI_Reduce_scatter): as a reduction, the largest count as the
 * size (the same on every process: recvcounts is) */
typedef int (*reduce_scatter_fn)(const void *, void *, const int *, MPI_Datatype, MPI_Op,
                                 MPI_Comm);
static int serve_vreduction(int c, reduce_scatter_fn lib, const void *sb, void *rb,
                            const int *counts, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    const collsim_alg *a;
    int err, p = 0, largest = 0;
    if (comm != MPI_COMM_NULL && counts && !is_inter(comm) &&
        PMPI_Comm_size(comm, &p) == MPI_SUCCESS)
        for (int j = 0; j < p; j++)
            largest = counts[j] > largest ? counts[j] : largest;
    if ((a = enter(c, sb == MPI_IN_PLACE, largest, t, comm)) &&
        !leave(c, err = a->vreduction(sb, rb, counts, t, op, comm)))
        return err;
    return lib(sb, rb, counts, t, op, comm);
}

/* ---- the wrappers: MPI_<entry> of each collective whose pmpi is own, with
 * its kind's entry-point arguments (core/signatures.h), handed to the kind's
 * serve function with the library's PMPI_<entry> ---- */
#define PMPI_WRAP(name, sig, mpi)                                                                  \
    int MPI_##mpi(COLLSIM_SIG_##sig##_MPI_ARGS)                                                    \
    {                                                                                              \
        return serve_##sig(CS_C_##name, PMPI_##mpi, COLLSIM_SIG_##sig##_MPI_CALL);                 \
    }
#define PMPI_WRAP_own(name, sig, mpi) PMPI_WRAP(name, sig, mpi)
#define PMPI_WRAP_intercomm(name, sig, mpi) /* the wrapper of its entry point's own row */
#define PMPI_WRAP_none(name, sig, mpi)
#define CS_COLLECTIVE(name, sig, send, root, in_place, note, min_np, mpi, pmpi, ...)               \
    PMPI_WRAP_##pmpi(name, sig, mpi)
#include "collectives.def"
#undef CS_COLLECTIVE
