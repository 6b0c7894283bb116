/* Per-level message accounting (account.h): a profiling layer over MPI's
 * point-to-point sends. Each MPI_X defined here counts, then calls PMPI_X.
 *
 * SMPI declares MPI_X weak and runs the driver as a shared object loaded
 * after libsimgrid, so without help the driver's own calls would bind to
 * SimGrid's MPI_X; the driver is linked with -Bsymbolic (CMakeLists.txt),
 * which binds them to these definitions (checked: without it the counts stay
 * at zero). Without privatization every simulated rank shares this file's
 * statics: the state is kept per MPI_COMM_WORLD rank. */
#include "account.h"
#include "cost.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static acct_counts *per_rank;   /* [world size] */
static unsigned char *counting; /* [world size] */
static MPI_Group world_group;   /* MPI_COMM_WORLD's, shared like the communicator */

void acct_init(void)
{
    if (per_rank)
        return;
    int wsize;
    PMPI_Comm_size(MPI_COMM_WORLD, &wsize);
    per_rank = calloc((size_t)wsize, sizeof *per_rank);
    counting = calloc((size_t)wsize, 1);
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
}

static int world_rank(void) { return cost_world_rank(); }

void acct_begin(void)
{
    int r = world_rank();
    memset(&per_rank[r], 0, sizeof per_rank[r]);
    counting[r] = 1;
}

void acct_end(void) { counting[world_rank()] = 0; }

void acct_get(acct_counts *out) { *out = per_rank[world_rank()]; }

int acct_nslots(void) { return coll_loc_file_nlevels() + 2; }

const char *acct_slot_name(int s)
{
    int n = coll_loc_file_nlevels();
    return s < n ? coll_loc_file_level_name(s) : s == n ? "system" : "nonlocal";
}

/* Is this rank counting? (-1: no) */
static int counting_rank(void)
{
    if (!per_rank)
        return -1;
    int r = world_rank();
    return counting[r] ? r : -1;
}

/* One message of `count` elements of `type` to rank `dst` of `comm`. */
static void count_send(int dst, int count, MPI_Datatype type, MPI_Comm comm)
{
    int me = counting_rank();
    if (me < 0 || dst == MPI_PROC_NULL)
        return;
    int to = dst;
    if (comm != MPI_COMM_WORLD) {
        MPI_Group g;
        PMPI_Comm_group(comm, &g);
        PMPI_Group_translate_ranks(g, 1, &dst, world_group, &to);
        PMPI_Group_free(&g);
    }
    if (to == MPI_UNDEFINED || to < 0)
        return;
    int tsize = 0;
    PMPI_Type_size(type, &tsize);
    long long bytes = (long long)count * tsize;
    int n = coll_loc_file_nlevels(), slot = n;
    for (int l = 0; l < n && slot == n; l++)
        if (coll_loc_file_colour(l, me) == coll_loc_file_colour(l, to))
            slot = l;
    acct_counts *c = &per_rank[me];
    c->msgs[slot]++;
    c->bytes[slot] += bytes;
    int nl = coll_loc_file_node_level();
    if (coll_loc_file_colour(nl, me) != coll_loc_file_colour(nl, to)) {
        c->msgs[n + 1]++;
        c->bytes[n + 1] += bytes;
    }
}

static void mark_incomplete(void)
{
    int me = counting_rank();
    if (me >= 0)
        per_rank[me].incomplete = 1;
}

void acct_reduce(MPI_Comm comm, int counted, acct_summary *out)
{
    /* The counters of every rank are in this process's memory (no
     * privatization), so rank 0 reads them instead of receiving them: a
     * simulated reduction here would move later sizes' predicted times (their
     * barrier would start from another network state). Rank 0 comes here after
     * the driver's statistics reduction, which every rank of comm joins after
     * its last call of this size, so their counts are final. */
    int rank, p, n = acct_nslots();
    PMPI_Comm_rank(comm, &rank);
    memset(out, 0, sizeof *out);
    out->nslots = n;
    out->measured = counted;
    if (rank != 0 || !counted)
        return;
    PMPI_Comm_size(comm, &p);
    int *ranks = malloc(2 * sizeof(int) * (size_t)p), *world = ranks + p;
    for (int i = 0; i < p; i++)
        ranks[i] = i;
    MPI_Group g;
    PMPI_Comm_group(comm, &g);
    PMPI_Group_translate_ranks(g, p, ranks, world_group, world);
    PMPI_Group_free(&g);
    for (int i = 0; i < p; i++) {
        const acct_counts *c = &per_rank[world[i]];
        out->incomplete |= c->incomplete;
        for (int k = 0; k < n; k++) {
            if (c->msgs[k] > out->max_msgs[k])
                out->max_msgs[k] = c->msgs[k];
            if (c->bytes[k] > out->max_bytes[k])
                out->max_bytes[k] = c->bytes[k];
            out->total_msgs[k] += c->msgs[k];
            out->total_bytes[k] += c->bytes[k];
        }
    }
    free(ranks);
    if (out->incomplete)
        out->measured = 0;
}

void acct_format(const acct_summary *s, char *buf, size_t len)
{
    buf[0] = 0;
    if (!s->measured)
        return;
    for (int k = 0; k < s->nslots - 1; k++) { /* the levels and "system", not "nonlocal" */
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, "%s%s:%lld:%lld:%lld:%lld", k ? ";" : "", acct_slot_name(k),
                 s->max_msgs[k], s->max_bytes[k], s->total_msgs[k], s->total_bytes[k]);
    }
}

void acct_print(FILE *f, const acct_summary *s, const char *why_not)
{
    if (!s->measured) {
        fprintf(f, "# account not measured: %s\n",
                s->incomplete ? "the algorithm used a persistent send or a built-in collective, "
                                "whose messages the profiling layer cannot see"
                              : why_not);
        return;
    }
    for (int k = 0; k < s->nslots; k++)
        fprintf(f, "# account %s max_msgs %lld max_bytes %lld total_msgs %lld total_bytes %lld\n",
                acct_slot_name(k), s->max_msgs[k], s->max_bytes[k], s->total_msgs[k],
                s->total_bytes[k]);
}

/* ---- sends ---- */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Send(buf, count, type, dst, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Ssend(buf, count, type, dst, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Rsend(buf, count, type, dst, tag, comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Bsend(buf, count, type, dst, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Isend(buf, count, type, dst, tag, comm, req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Issend(buf, count, type, dst, tag, comm, req);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Irsend(buf, count, type, dst, tag, comm, req);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
               MPI_Request *req)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    return PMPI_Ibsend(buf, count, type, dst, tag, comm, req);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dst, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
    count_send(dst, scount, stype, comm);
    cost_before_send(dst, scount, stype, comm);
    const int e = PMPI_Sendrecv(sbuf, scount, stype, dst, stag, rbuf, rcount, rtype, src, rtag,
                                comm, st);
    cost_after_recv(src, rcount, rtype, comm);
    return e;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dst, int stag, int src,
                         int rtag, MPI_Comm comm, MPI_Status *st)
{
    count_send(dst, count, type, comm);
    cost_before_send(dst, count, type, comm);
    const int e = PMPI_Sendrecv_replace(buf, count, type, dst, stag, src, rtag, comm, st);
    cost_after_recv(src, count, type, comm);
    return e;
}

/* ---- what the layer cannot count: the call is marked incomplete ---- */
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                  MPI_Request *req)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Send_init(buf, count, type, dst, tag, comm, req);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                   MPI_Request *req)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Ssend_init(buf, count, type, dst, tag, comm, req);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                   MPI_Request *req)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Rsend_init(buf, count, type, dst, tag, comm, req);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                   MPI_Request *req)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Bsend_init(buf, count, type, dst, tag, comm, req);
}

int MPI_Barrier(MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Barrier(comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int *rcounts, const int *displs, MPI_Datatype rtype, MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype,
                  void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    mark_incomplete();
    cost_pay();
    return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}
