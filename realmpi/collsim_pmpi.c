/* libcollsim_pmpi: a PMPI layer that runs collsim's algorithms inside an
 * unmodified MPI program (linked, or preloaded with LD_PRELOAD). The
 * environment picks one algorithm per collective (docs/real-mpi.md):
 *
 *   COLLSIM_ALLGATHER, COLLSIM_ALLTOALL, COLLSIM_ALLTOALLV, COLLSIM_GATHER,
 *   COLLSIM_SCATTER   a name of
 *       algorithms.def (`loc_bruck` or `allgather/loc_bruck`); unset or empty:
 *       the library's collective (PMPI_). An unknown name stops the program
 *       in MPI_Init with a message naming the valid ones (exit status 2).
 *   COLLSIM_REGION_BLOCK=B   regions of B consecutive MPI_COMM_WORLD ranks
 *       for the locality-aware algorithms; unset: levels socket and node, the
 *       processes sharing memory and, inside them, those bound to one package
 *       (collsim_hwloc.h).
 *   COLLSIM_LOCALITY=FILE    every rank's region at each level, in the
 *       format of coll_locality_file.h (the file collsim writes for a
 *       simulated case), instead of COLLSIM_REGION_BLOCK.
 *   COLLSIM_REGION_LEVEL=L   the level the locality-aware algorithms use as
 *       their region (default node), one the file declares.
 *   COLLSIM_INTER_ALLGATHER, COLLSIM_INTER_ALLGATHERV   an intergroup
 *       algorithm (inter_allgather(v) of algorithms.def) for MPI_Allgather and
 *       MPI_Allgatherv on an intercommunicator (intergroup_intercomm.h); unset:
 *       the library's.
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
 * packed. */
#include "collsim.h"

#include "coll_locality_file.h"
#include "collsim_hwloc.h"
#include "coll_util.h"
#include "intergroup_intercomm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AG, A2A, A2AV, GATH, SCAT, NCOLL };
enum { WHY_INTER, WHY_IN_PLACE, WHY_COUNT, NWHY };
static const char *const coll_name[NCOLL] = {"allgather", "alltoall", "alltoallv", "gather",
                                             "scatter"};
static const char *const env_name[NCOLL] = {"COLLSIM_ALLGATHER", "COLLSIM_ALLTOALL",
                                            "COLLSIM_ALLTOALLV", "COLLSIM_GATHER",
                                            "COLLSIM_SCATTER"};

static const collsim_alg *chosen[NCOLL];
static int report;
/* The counters and the re-entry guard of one process. Under SMPI every
 * simulated rank lives in this one OS process (no privatization), so they are
 * kept per MPI_COMM_WORLD rank; a real MPI process only uses its own entry. */
typedef struct {
    long served[NCOLL], packed[NCOLL], library[NCOLL][NWHY], inter_served[2];
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
 * (intergroup_intercomm.h): COLLSIM_INTER_ALLGATHER, COLLSIM_INTER_ALLGATHERV. */
static int inter_chosen[2] = {-1, -1}; /* [0] allgather, [1] allgatherv: index in collsim_ic_algs */

/* COLLSIM_INTER_ALLGATHER(V)=NAME (or inter_allgather(v)/NAME): 0, or 1 with msg */
static int inter_setting(int v, char *msg, size_t size)
{
    const char *env = v ? "COLLSIM_INTER_ALLGATHERV" : "COLLSIM_INTER_ALLGATHER",
               *coll = v ? "inter_allgatherv" : "inter_allgather", *val = getenv(env);
    if (!val || !*val)
        return 0;
    const size_t cl = strlen(coll);
    const char *name = !strncmp(val, coll, cl) && val[cl] == '/' ? val + cl + 1 : val;
    char names[512] = "";
    for (size_t i = 0; collsim_ic_algs[i].name; i++) {
        if (!(v ? (void *)collsim_ic_algs[i].agv : (void *)collsim_ic_algs[i].ag))
            continue;
        if (!strcmp(collsim_ic_algs[i].name, name)) {
            inter_chosen[v] = (int)i;
            return 0;
        }
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? ", " : "",
                 collsim_ic_algs[i].name);
    }
    snprintf(msg, size, "%s=%s: no %s algorithm of that name (valid: %s)", env, val, coll, names);
    return 1;
}

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
    if (inter_setting(0, msg, size) || inter_setting(1, msg, size))
        return 1;
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
        for (int c = 0; c < NCOLL; c++)
            regions |= chosen[c] && chosen[c]->regions;
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
    if (!states && !(states = calloc((size_t)wsize, sizeof *states)))
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
    long mine[NCOLL * (2 + NWHY)], sum[NCOLL * (2 + NWHY)];
    int rank, p, n = 0;

    if (!report)
        return PMPI_Finalize();
    for (int c = 0; c < NCOLL; c++) {
        mine[n++] = me()->served[c];
        mine[n++] = me()->packed[c];
        for (int w = 0; w < NWHY; w++)
            mine[n++] = me()->library[c][w];
    }
    PMPI_Reduce(mine, sum, n, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    long isum[2];
    PMPI_Reduce(me()->inter_served, isum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int v = 0; rank == 0 && v < 2; v++)
        if (inter_chosen[v] >= 0)
            fprintf(stderr, "collsim_pmpi: %s/%s: %ld calls on intercommunicators served; calls "
                            "summed over %d processes\n", v ? "inter_allgatherv" : "inter_allgather",
                    collsim_ic_algs[inter_chosen[v]].name, isum[v], p);
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

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                  MPI_Comm comm)
{
    const collsim_alg *a = chosen[AG];
    proc_state *S = me();
    int why;

    if (!S->inside && inter_chosen[0] >= 0 && is_inter(comm)) {
        S->inter_served[0]++;
        S->inside++;
        const int err = collsim_ic_algs[inter_chosen[0]].ag(sb, sc, st, rb, rc, rt, comm);
        S->inside--;
        return err;
    }
    if (!a || S->inside)
        return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
    if ((why = block_why(a, sb, rc, rt, comm)) >= 0) {
        S->library[AG][why]++;
        return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
    }
    return run_block(AG, a, sb, sc, st, rb, rc, rt, comm);
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                 MPI_Comm comm)
{
    const collsim_alg *a = chosen[A2A];
    proc_state *S = me();
    int why;

    if (!a || S->inside)
        return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
    if ((why = block_why(a, sb, rc, rt, comm)) >= 0) {
        S->library[A2A][why]++;
        return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
    }
    return run_block(A2A, a, sb, sc, st, rb, rc, rt, comm);
}

/* Only on an intercommunicator, with COLLSIM_INTER_ALLGATHERV set (no
 * intracommunicator allgatherv algorithm in the registry). */
int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int *rcounts,
                   const int *displs, MPI_Datatype rt, MPI_Comm comm)
{
    proc_state *S = me();
    if (S->inside || inter_chosen[1] < 0 || !is_inter(comm))
        return PMPI_Allgatherv(sb, sc, st, rb, rcounts, displs, rt, comm);
    S->inter_served[1]++;
    S->inside++;
    const int err = collsim_ic_algs[inter_chosen[1]].agv(sb, sc, st, rb, rcounts, displs, rt, comm);
    S->inside--;
    return err;
}

/* ---- gather, scatter ---- */
/* The reason a gather (gather = 1) or scatter goes to the library, or -1:
 * only what is the same on every process (the block's bytes are). */
static int rooted_why(const collsim_alg *a, int gather, int sc, MPI_Datatype st, int rc,
                      MPI_Datatype rt, int root, MPI_Comm comm)
{
    int p, rank, size;
    if (comm == MPI_COMM_NULL || is_inter(comm))
        return WHY_INTER;
    if (PMPI_Comm_size(comm, &p) || PMPI_Comm_rank(comm, &rank) || root < 0 || root >= p)
        return -1; /* the algorithm's own error */
    /* the root's many-block side, the others' one block */
    const int use_recv = gather == (rank == root);
    const int count = use_recv ? rc : sc;
    if (count < 0 || PMPI_Type_size(use_recv ? rt : st, &size) != MPI_SUCCESS)
        return -1;
    const long long bytes = (long long)count * size;
    return bytes > INT_MAX || a->msg_blocks(p) * bytes > INT_MAX ? WHY_COUNT : -1;
}

static int run_rooted(int c, const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                      MPI_Datatype rt, int root, MPI_Comm comm)
{
    const collsim_alg *a = chosen[c];
    proc_state *S = me();
    int why = -1, rank;
    if (!a || S->inside ||
        (why = rooted_why(a, c == GATH, sc, st, rc, rt, root, comm)) >= 0) {
        if (a && !S->inside)
            S->library[c][why]++;
        return c == GATH ? PMPI_Gather(sb, sc, st, rb, rc, rt, root, comm)
                         : PMPI_Scatter(sb, sc, st, rb, rc, rt, root, comm);
    }
    PMPI_Comm_rank(comm, &rank);
    /* the sides this process uses: a non-root its own block's, the root both */
    const int own_send = c == GATH ? sb != MPI_IN_PLACE : rank == root;
    const int own_recv = c == GATH ? rank == root : rb != MPI_IN_PLACE;
    S->served[c]++;
    S->packed[c] += (own_send && !contiguous(st)) || (own_recv && !contiguous(rt));
    S->inside++;
    const int err = a->rooted(sb, sc, st, rb, rc, rt, root, comm);
    S->inside--;
    return err;
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
               int root, MPI_Comm comm)
{
    return run_rooted(GATH, sb, sc, st, rb, rc, rt, root, comm);
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt,
                int root, MPI_Comm comm)
{
    return run_rooted(SCAT, sb, sc, st, rb, rc, rt, root, comm);
}

/* ---- alltoallv ---- */
int MPI_Alltoallv(const void *sb, const int *scounts, const int *sdispls, MPI_Datatype st,
                  void *rb, const int *rcounts, const int *rdispls, MPI_Datatype rt,
                  MPI_Comm comm)
{
    proc_state *S = me();
    const collsim_alg *a = chosen[A2AV];
    int why = -1, err;

    if (!a || S->inside)
        return PMPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    if (comm == MPI_COMM_NULL || is_inter(comm))
        why = WHY_INTER;
    else if (sb == MPI_IN_PLACE && !a->in_place)
        why = WHY_IN_PLACE;
    if (why >= 0) {
        S->library[A2AV][why]++;
        return PMPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    }
    const int holes = (sb != MPI_IN_PLACE && !contiguous(st)) || !contiguous(rt);
    S->served[A2AV]++;
    S->packed[A2AV] += holes;
    S->inside++;
    err = a->v(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    S->inside--;
    if (err == MPI_ERR_COUNT) {
        /* the padded algorithms' largest block, the same on every process */
        S->served[A2AV]--;
        S->packed[A2AV] -= holes;
        S->library[A2AV][WHY_COUNT]++;
        err = PMPI_Alltoallv(sb, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm);
    }
    return err;
}
