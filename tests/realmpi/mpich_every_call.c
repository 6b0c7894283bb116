/* mpich_every_call: one call of each collective MPICH 4.0 selects through its
 * JSON file (blocking, nonblocking and neighbourhood ones, MPI_IN_PLACE
 * alltoalls, a user operation), on MPI_COMM_WORLD, on a Cartesian
 * communicator and on an intercommunicator of its two halves, each result
 * checked. Run under MPICH with the selection file of `collsim tune`: MPICH
 * stops on an assertion at a call the file has no algorithm for
 * (tests/realmpi/tune_mpich.sh). Prints "mpich_every_call: N checks, F
 * failed" on rank 0; needs an even number of processes. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

static long checks, failed;

static void expect(int ok, const char *what, int at)
{
    checks++;
    if (!ok && ++failed < 20)
        printf("FAIL %s (at %d)\n", what, at);
}

static void mine(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* every collective on an intracommunicator of p ranks */
static void intra(MPI_Comm comm)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *a = malloc(sizeof(int) * p), *b = malloc(sizeof(int) * p), *c = malloc(sizeof(int) * p),
        *d = malloc(sizeof(int) * p);
    MPI_Datatype *ts = malloc(sizeof(MPI_Datatype) * p);
    MPI_Op op;
    MPI_Op_create(mine, 1, &op);
    for (int i = 0; i < p; i++)
        c[i] = 1, d[i] = i, ts[i] = MPI_INT;
    int x = r + 1, y = -1;
    MPI_Barrier(comm);
    MPI_Allgatherv(&x, 1, MPI_INT, b, c, d, MPI_INT, comm);
    for (int i = 0; i < p; i++)
        expect(b[i] == i + 1, "allgatherv", i);
    for (int i = 0; i < p; i++)
        a[i] = 100 * r + i;
    int *bd = malloc(sizeof(int) * p);
    for (int i = 0; i < p; i++)
        bd[i] = i * (int)sizeof(int);
    MPI_Alltoallw(a, c, bd, ts, b, c, bd, ts, comm);
    for (int i = 0; i < p; i++)
        expect(b[i] == 100 * i + r, "alltoallw", i);
    for (int i = 0; i < p; i++)
        b[i] = 100 * r + i;
    MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, comm);
    for (int i = 0; i < p; i++)
        expect(b[i] == 100 * i + r, "alltoall in place", i);
    for (int i = 0; i < p; i++)
        b[i] = 100 * r + i;
    MPI_Alltoallv(MPI_IN_PLACE, c, d, MPI_INT, b, c, d, MPI_INT, comm);
    for (int i = 0; i < p; i++)
        expect(b[i] == 100 * i + r, "alltoallv in place", i);
    for (int i = 0; i < p; i++)
        a[i] = i;
    MPI_Reduce_scatter(a, &y, c, MPI_INT, MPI_SUM, comm);
    expect(y == r * p, "reduce_scatter", r);
    MPI_Reduce_scatter_block(a, &y, 1, MPI_INT, op, comm);
    expect(y == r * p, "reduce_scatter_block (user op)", r);
    MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, comm);
    expect(y == (r + 1) * (r + 2) / 2, "scan", r);
    MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, comm);
    expect(r == 0 || y == r * (r + 1) / 2, "exscan", r);
    MPI_Gatherv(&x, 1, MPI_INT, b, c, d, MPI_INT, 0, comm);
    for (int i = 0; r == 0 && i < p; i++)
        expect(b[i] == i + 1, "gatherv", i);
    MPI_Scatterv(d, c, d, MPI_INT, &y, 1, MPI_INT, 0, comm);
    expect(y == r, "scatterv", r);
    MPI_Reduce(&x, &y, 1, MPI_INT, op, 0, comm);
    expect(r != 0 || y == p * (p + 1) / 2, "reduce (user op)", r);
    MPI_Allreduce(&x, &y, 1, MPI_INT, op, comm);
    expect(y == p * (p + 1) / 2, "allreduce (user op)", r);
    /* the nonblocking ones */
    MPI_Request q[12];
    int v[12];
    for (int i = 0; i < 12; i++)
        v[i] = -1;
    MPI_Ibarrier(comm, &q[0]);
    MPI_Iallreduce(&x, &v[1], 1, MPI_INT, MPI_SUM, comm, &q[1]);
    MPI_Ireduce(&x, &v[2], 1, MPI_INT, MPI_SUM, 0, comm, &q[2]);
    v[3] = r == 0 ? 7 : -1;
    MPI_Ibcast(&v[3], 1, MPI_INT, 0, comm, &q[3]);
    MPI_Iscan(&x, &v[4], 1, MPI_INT, MPI_SUM, comm, &q[4]);
    MPI_Iexscan(&x, &v[5], 1, MPI_INT, MPI_SUM, comm, &q[5]);
    MPI_Status st[12];
    MPI_Waitall(6, q, st);
    expect(v[1] == p * (p + 1) / 2, "iallreduce", r);
    expect(r != 0 || v[2] == p * (p + 1) / 2, "ireduce", r);
    expect(v[3] == 7, "ibcast", r);
    expect(v[4] == (r + 1) * (r + 2) / 2, "iscan", r);
    expect(r == 0 || v[5] == r * (r + 1) / 2, "iexscan", r);
    int *e = malloc(sizeof(int) * p * 8);
    MPI_Iallgather(&x, 1, MPI_INT, e, 1, MPI_INT, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < p; i++)
        expect(e[i] == i + 1, "iallgather", i);
    MPI_Iallgatherv(&x, 1, MPI_INT, e, c, d, MPI_INT, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < p; i++)
        expect(e[i] == i + 1, "iallgatherv", i);
    for (int i = 0; i < p; i++)
        a[i] = 100 * r + i;
    MPI_Ialltoall(a, 1, MPI_INT, e, 1, MPI_INT, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < p; i++)
        expect(e[i] == 100 * i + r, "ialltoall", i);
    MPI_Ialltoallv(a, c, d, MPI_INT, e, c, d, MPI_INT, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < p; i++)
        expect(e[i] == 100 * i + r, "ialltoallv", i);
    MPI_Ialltoallw(a, c, bd, ts, e, c, bd, ts, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < p; i++)
        expect(e[i] == 100 * i + r, "ialltoallw", i);
    MPI_Igather(&x, 1, MPI_INT, e, 1, MPI_INT, 0, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; r == 0 && i < p; i++)
        expect(e[i] == i + 1, "igather", i);
    MPI_Igatherv(&x, 1, MPI_INT, e, c, d, MPI_INT, 0, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; r == 0 && i < p; i++)
        expect(e[i] == i + 1, "igatherv", i);
    MPI_Iscatter(d, 1, MPI_INT, &y, 1, MPI_INT, 0, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(y == r, "iscatter", r);
    MPI_Iscatterv(d, c, d, MPI_INT, &y, 1, MPI_INT, 0, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(y == r, "iscatterv", r);
    MPI_Ireduce_scatter(a, &y, c, MPI_INT, MPI_SUM, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    MPI_Ireduce_scatter_block(a, &y, 1, MPI_INT, MPI_SUM, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    for (int i = 0; i < p; i++)
        a[i] = i;
    MPI_Ireduce_scatter_block(a, &y, 1, MPI_INT, MPI_SUM, comm, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(y == r * p, "ireduce_scatter_block", r);
    /* the neighbourhood ones on a ring */
    MPI_Comm ring;
    int dims = p, periods = 1, nb[2] = {-1, -1};
    MPI_Cart_create(comm, 1, &dims, &periods, 0, &ring);
    int two[2] = {1, 1}, at[2] = {0, 1}, atb[2] = {0, (int)sizeof(int)};
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT};
    const int left = (r + p - 1) % p + 1, right = (r + 1) % p + 1;
    MPI_Neighbor_allgather(&x, 1, MPI_INT, nb, 1, MPI_INT, ring);
    expect(nb[0] == left && nb[1] == right, "neighbor_allgather", r);
    MPI_Neighbor_allgatherv(&x, 1, MPI_INT, nb, two, at, MPI_INT, ring);
    expect(nb[0] == left && nb[1] == right, "neighbor_allgatherv", r);
    int out2[2] = {x, x};
    MPI_Neighbor_alltoall(out2, 1, MPI_INT, nb, 1, MPI_INT, ring);
    expect(nb[0] == left && nb[1] == right, "neighbor_alltoall", r);
    MPI_Neighbor_alltoallv(out2, two, at, MPI_INT, nb, two, at, MPI_INT, ring);
    expect(nb[0] == left && nb[1] == right, "neighbor_alltoallv", r);
    MPI_Neighbor_alltoallw(out2, two, (MPI_Aint[]){atb[0], atb[1]}, t2, nb, two,
                           (MPI_Aint[]){atb[0], atb[1]}, t2, ring);
    expect(nb[0] == left && nb[1] == right, "neighbor_alltoallw", r);
    MPI_Ineighbor_allgather(&x, 1, MPI_INT, nb, 1, MPI_INT, ring, &q[0]);
    MPI_Ineighbor_allgatherv(&x, 1, MPI_INT, nb, two, at, MPI_INT, ring, &q[1]);
    MPI_Waitall(2, q, st);
    MPI_Ineighbor_alltoall(out2, 1, MPI_INT, nb, 1, MPI_INT, ring, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    MPI_Ineighbor_alltoallv(out2, two, at, MPI_INT, nb, two, at, MPI_INT, ring, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    MPI_Ineighbor_alltoallw(out2, two, (MPI_Aint[]){atb[0], atb[1]}, t2, nb, two,
                            (MPI_Aint[]){atb[0], atb[1]}, t2, ring, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    expect(nb[0] == left && nb[1] == right, "ineighbor_alltoallw", r);
    MPI_Comm_free(&ring);
    MPI_Op_free(&op);
    free(a), free(b), free(c), free(d), free(e), free(bd), free(ts);
}

/* the collectives defined on an intercommunicator, between two groups of h ranks */
static void inter(MPI_Comm ic, int low)
{
    int h, r;
    MPI_Comm_remote_size(ic, &h);
    MPI_Comm_rank(ic, &r);
    int *b = malloc(sizeof(int) * h), *c = malloc(sizeof(int) * h), *d = malloc(sizeof(int) * h),
        *a = malloc(sizeof(int) * h);
    for (int i = 0; i < h; i++)
        c[i] = 1, d[i] = i, a[i] = 1000 * low + 10 * r + i;
    const int x = 1000 * low + r, other = 1000 * !low;
    int y = -1;
    MPI_Request q;
    MPI_Barrier(ic);
    MPI_Allgather(&x, 1, MPI_INT, b, 1, MPI_INT, ic);
    for (int i = 0; i < h; i++)
        expect(b[i] == other + i, "inter allgather", i);
    MPI_Allgatherv(&x, 1, MPI_INT, b, c, d, MPI_INT, ic);
    for (int i = 0; i < h; i++)
        expect(b[i] == other + i, "inter allgatherv", i);
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, ic);
    for (int i = 0; i < h; i++)
        expect(b[i] == other + 10 * i + r, "inter alltoall", i);
    MPI_Alltoallv(a, c, d, MPI_INT, b, c, d, MPI_INT, ic);
    for (int i = 0; i < h; i++)
        expect(b[i] == other + 10 * i + r, "inter alltoallv", i);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, ic);
    expect(y == h * other + h * (h - 1) / 2, "inter allreduce", r);
    /* rooted: the low group's rank 0 is the root, the high group sends or receives */
    const int root = low ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    y = low ? 5 : -1;
    MPI_Bcast(&y, 1, MPI_INT, root, ic);
    expect(low || y == 5, "inter bcast", r);
    MPI_Gather(&x, 1, MPI_INT, b, 1, MPI_INT, root, ic);
    for (int i = 0; low && r == 0 && i < h; i++)
        expect(b[i] == other + i, "inter gather", i);
    MPI_Scatter(d, 1, MPI_INT, &y, 1, MPI_INT, root, ic);
    expect(low || y == r, "inter scatter", r);
    MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, root, ic);
    expect(!low || r != 0 || y == h * (h - 1) / 2, "inter reduce", r);
    MPI_Ibarrier(ic, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, ic, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    expect(y == h * other + h * (h - 1) / 2, "inter iallreduce", r);
    MPI_Ibcast(&y, 1, MPI_INT, root, ic, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    free(a), free(b), free(c), free(d);
}

int main(int argc, char **argv)
{
    int r, p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    intra(MPI_COMM_WORLD);
    MPI_Comm half, ic;
    const int low = r < p / 2;
    MPI_Comm_split(MPI_COMM_WORLD, low, r, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? p / 2 : 0, 1, &ic);
    inter(ic, low);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
    long mine[2] = {checks, failed}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!r)
        printf("mpich_every_call: %ld checks, %ld failed\n", sum[0], sum[1]);
    MPI_Finalize();
    return sum[1] && !r ? 1 : 0;
}
