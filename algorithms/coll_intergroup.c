/* The intergroup descriptor and the building blocks of the intergroup
 * algorithms (coll_intergroup.h). Plain MPI. */
#include "coll_intergroup.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll_util.h"

int ig_fits(size_t bytes) { return bytes <= (size_t)INT_MAX; }

/* ---- layouts ---- */

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int collsim_group_block(int r, int p, int q)
{
    (void)q;
    return r < p ? 0 : 1;
}

int collsim_group_interleaved(int r, int p, int q)
{
    int g = gcd(p, q), run = (p + q) / g;
    return r % run < p / g ? 0 : 1;
}

/* ---- the descriptor ---- */

/* A communicator of the given comm ranks (in that order), made by its members
 * only; MPI_COMM_NULL for a process that is not one of them. */
static int create_sub(MPI_Comm comm, const int *ranks, int n, int member, int tag, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    if (!member)
        return MPI_SUCCESS;
    MPI_Group all, sub;
    int e = MPI_Comm_group(comm, &all);
    if (e != MPI_SUCCESS)
        return e;
    e = MPI_Group_incl(all, n, ranks, &sub);
    if (e == MPI_SUCCESS) {
        e = MPI_Comm_create_group(comm, sub, tag, out);
        MPI_Group_free(&sub);
    }
    MPI_Group_free(&all);
    return e;
}

/* The EuroMPI 2018 two-step algorithm's communicators in the larger group L
 * (size p >= q): g = floor(p/q) stacks of consecutive members, the first
 * r mod g of them (r = p mod q) with one member more than the others
 * (q + floor(r/g)); column x (x < q) = the members at position x of every
 * stack, in stack order. */
static int create_two_step(collsim_intergroup *ig)
{
    ig->column = ig->stack = MPI_COMM_NULL;
    if (ig->group != ig_larger_group(ig))
        return MPI_SUCCESS;
    const int p = ig->local_size, q = ig->remote_size, g = p / q, r = p % q;
    const int base = q + r / g, h = r % g;
    int *ranks = malloc(sizeof(int) * (size_t)(p > g ? p : g));
    if (!ranks)
        return MPI_ERR_NO_MEM;
    int t = 0, first = 0;
    for (;; t++) { /* my stack t and my position */
        int size = base + (t < h ? 1 : 0);
        if (ig->local_rank < first + size)
            break;
        first += size;
    }
    const int size = base + (t < h ? 1 : 0), x = ig->local_rank - first;
    for (int k = 0; k < size; k++)
        ranks[k] = ig->local_ranks[first + k];
    int e = create_sub(ig->comm, ranks, size, 1, IG_TAG_LOCAL + 10, &ig->stack);
    if (e == MPI_SUCCESS) {
        for (int s = 0; s < g; s++)
            ranks[s] = ig->local_ranks[s * base + (s < h ? s : h) + (x < q ? x : 0)];
        e = create_sub(ig->comm, ranks, g, x < q, IG_TAG_LOCAL + 11, &ig->column);
    }
    free(ranks);
    return e;
}

/* The descriptor for group_of[r] (r = rank in comm) with the members of
 * each group in the order `order` lists comm ranks. */
static int build(MPI_Comm comm, const int *group_of, const int *order, collsim_intergroup **out)
{
    *out = NULL;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int n0 = 0;
    for (int r = 0; r < size; r++)
        n0 += group_of[r] == 0;
    if (n0 == 0 || n0 == size)
        return MPI_ERR_ARG;
    collsim_intergroup *ig = calloc(1, sizeof *ig);
    if (!ig)
        return MPI_ERR_NO_MEM;
    ig->comm = ig->local = ig->column = ig->stack = MPI_COMM_NULL;
    ig->group = group_of[rank] ? 1 : 0;
    ig->rank = rank;
    ig->local_size = ig->group == 0 ? n0 : size - n0;
    ig->remote_size = size - ig->local_size;
    ig->local_ranks = malloc(sizeof(int) * (size_t)ig->local_size);
    ig->remote_ranks = malloc(sizeof(int) * (size_t)ig->remote_size);
    if (!ig->local_ranks || !ig->remote_ranks) {
        collsim_intergroup_free(&ig);
        return MPI_ERR_NO_MEM;
    }
    int nl = 0, nr = 0;
    for (int k = 0; k < size; k++) {
        const int r = order ? order[k] : k;
        if ((group_of[r] ? 1 : 0) == ig->group) {
            if (r == rank)
                ig->local_rank = nl;
            ig->local_ranks[nl++] = r;
        } else {
            ig->remote_ranks[nr++] = r;
        }
    }
    int e = MPI_Comm_dup(comm, &ig->comm);
    if (e == MPI_SUCCESS)
        e = create_sub(ig->comm, ig->local_ranks, ig->local_size, 1, IG_TAG_LOCAL + ig->group,
                       &ig->local);
    if (e == MPI_SUCCESS)
        e = create_two_step(ig);
    if (e != MPI_SUCCESS) {
        collsim_intergroup_free(&ig);
        return e;
    }
    *out = ig;
    return MPI_SUCCESS;
}

int collsim_intergroup_create_from(MPI_Comm comm, const int *group_of, collsim_intergroup **out)
{
    return build(comm, group_of, NULL, out);
}

/* Members of a group ordered by (key, rank in comm), as MPI_Comm_split orders them. */
typedef struct {
    int key, rank;
} member;

static int member_cmp(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

int collsim_intergroup_create(MPI_Comm comm, int group, int key, collsim_intergroup **out)
{
    *out = NULL;
    int size;
    MPI_Comm_size(comm, &size);
    int mine[2] = {group ? 1 : 0, key}, *all = malloc(sizeof(int) * 2 * (size_t)size);
    member *m = malloc(sizeof(member) * (size_t)size);
    int *group_of = malloc(sizeof(int) * (size_t)size), *order = malloc(sizeof(int) * (size_t)size);
    int e = MPI_ERR_NO_MEM;
    if (all && m && group_of && order)
        e = MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
    if (e == MPI_SUCCESS) {
        for (int r = 0; r < size; r++) {
            m[r] = (member){all[2 * r + 1], r};
            group_of[r] = all[2 * r];
        }
        qsort(m, (size_t)size, sizeof *m, member_cmp);
        for (int k = 0; k < size; k++)
            order[k] = m[k].rank;
        e = build(comm, group_of, order, out);
    }
    free(all);
    free(m);
    free(group_of);
    free(order);
    return e;
}

int collsim_intergroup_free(collsim_intergroup **pig)
{
    collsim_intergroup *ig = *pig;
    if (!ig)
        return MPI_SUCCESS;
    if (ig->column != MPI_COMM_NULL)
        MPI_Comm_free(&ig->column);
    if (ig->stack != MPI_COMM_NULL)
        MPI_Comm_free(&ig->stack);
    if (ig->local != MPI_COMM_NULL)
        MPI_Comm_free(&ig->local);
    if (ig->comm != MPI_COMM_NULL)
        MPI_Comm_free(&ig->comm);
    free(ig->local_ranks);
    free(ig->remote_ranks);
    free(ig);
    *pig = NULL;
    return MPI_SUCCESS;
}

/* ---- entry checks ---- */

static int check_common(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const collsim_intergroup *ig, size_t *mine)
{
    if (sendbuf == MPI_IN_PLACE)
        return MPI_ERR_ARG; /* not defined for intercommunicators */
    if (!ig || ig->local_size < 1 || ig->remote_size < 1)
        return MPI_ERR_COMM;
    if (sendcount < 0)
        return MPI_ERR_COUNT;
    int e = coll_block_bytes(sendtype, sendcount, mine);
    if (e != MPI_SUCCESS)
        return e;
    return ig_fits(*mine) ? MPI_SUCCESS : MPI_ERR_COUNT;
}

int ig_allgather_begin(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype, const collsim_intergroup *ig, size_t *mine,
                       size_t *remote)
{
    int e = check_common(sendbuf, sendcount, sendtype, ig, mine);
    if (e != MPI_SUCCESS)
        return e;
    if (recvcount < 0)
        return MPI_ERR_COUNT;
    e = coll_block_bytes(recvtype, recvcount, remote);
    if (e != MPI_SUCCESS)
        return e;
    /* the largest message any algorithm sends: one group's whole data */
    size_t most = *mine * (size_t)ig->local_size;
    if (*remote * (size_t)ig->remote_size > most)
        most = *remote * (size_t)ig->remote_size;
    return ig_fits(most) ? MPI_SUCCESS : MPI_ERR_COUNT;
}

int ig_allgatherv_begin(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                        const collsim_intergroup *ig, size_t *mine, size_t *unit)
{
    int e = check_common(sendbuf, sendcount, sendtype, ig, mine);
    if (e != MPI_SUCCESS)
        return e;
    if (!recvcounts || !displs)
        return MPI_ERR_ARG;
    e = coll_block_bytes(recvtype, 1, unit);
    if (e != MPI_SUCCESS)
        return e;
    size_t total = 0;
    for (int j = 0; j < ig->remote_size; j++) {
        if (recvcounts[j] < 0)
            return MPI_ERR_COUNT;
        if (displs[j] < 0)
            return MPI_ERR_ARG;
        total += (size_t)recvcounts[j] * *unit;
    }
    return ig_fits(total) ? MPI_SUCCESS : MPI_ERR_COUNT;
}

/* ---- building blocks ---- */

ig_roles ig_roles_of(const collsim_intergroup *ig, size_t mine, size_t remote)
{
    ig_roles r;
    r.in_a = ig->group == ig_larger_group(ig);
    r.p = r.in_a ? ig->local_size : ig->remote_size;
    r.q = r.in_a ? ig->remote_size : ig->local_size;
    r.ka = r.in_a ? mine : remote;
    r.kb = r.in_a ? remote : mine;
    r.a_rank = r.in_a ? ig->local_ranks : ig->remote_ranks;
    r.b_rank = r.in_a ? ig->remote_ranks : ig->local_ranks;
    return r;
}

int ig_smaller_allgatherv(void *recvbuf, int p, int q, size_t ka, const collsim_intergroup *ig)
{
    size_t *cnt = malloc(sizeof(size_t) * 2 * (size_t)q);
    if (!cnt)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < q; j++) {
        cnt[j] = (size_t)ig_sub_size(p, q, j) * ka;
        cnt[q + j] = (size_t)ig_sub_first(p, q, j) * ka;
    }
    int e = ig_ring_allgatherv(recvbuf, cnt, cnt + q, ig->local);
    free(cnt);
    return e;
}

size_t ig_remote_stream(const int *recvcounts, const int *displs, size_t unit,
                        const collsim_intergroup *ig, int *packed)
{
    size_t K = 0;
    *packed = 1;
    for (int j = 0; j < ig->remote_size; j++) {
        *packed &= (size_t)displs[j] * unit == K;
        K += (size_t)recvcounts[j] * unit;
    }
    return K;
}

int ig_ring_allgatherv(void *buf, const size_t *counts, const size_t *displs, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    const int right = (rank + 1) % n, left = (rank - 1 + n) % n;
    char *b = buf;
    for (int s = 0; s < n - 1; s++) {
        const int out = coll_mod(rank - s, n), in = coll_mod(rank - s - 1, n);
        MPI_Request rq[2];
        int nr = 0;
        if (counts[in])
            MPI_Irecv(b + displs[in], (int)counts[in], MPI_BYTE, left, IG_TAG_LOCAL, comm, &rq[nr++]);
        if (counts[out])
            MPI_Isend(b + displs[out], (int)counts[out], MPI_BYTE, right, IG_TAG_LOCAL, comm,
                      &rq[nr++]);
        int e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
        if (e != MPI_SUCCESS)
            return e;
    }
    return MPI_SUCCESS;
}

int ig_gather_binomial(const void *mine, size_t bytes, void *out, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    if (bytes == 0)
        return MPI_SUCCESS;
    /* the blocks of my subtree [rank, rank + lowbit(rank)) in rank order */
    int span = 1;
    while (span < n && !(rank & span))
        span <<= 1;
    int have = span < n - rank ? span : n - rank; /* blocks my subtree holds */
    char *acc;
    if (rank == 0)
        acc = out;
    else if (have == 1)
        acc = (char *)mine;
    else if (!(acc = coll_scratch_alloc((size_t)have * bytes)))
        return MPI_ERR_NO_MEM;
    if (have > 1 || rank == 0)
        coll_copy(acc, mine, bytes);
    int e = MPI_SUCCESS;
    for (int mask = 1; mask < n && e == MPI_SUCCESS; mask <<= 1) {
        if (rank & mask) {
            e = MPI_Send(acc, (int)((size_t)have * bytes), MPI_BYTE, rank - mask, IG_TAG_LOCAL, comm);
            break;
        }
        if (rank + mask < n) {
            int nb = mask < n - rank - mask ? mask : n - rank - mask;
            e = MPI_Recv(acc + (size_t)mask * bytes, (int)((size_t)nb * bytes), MPI_BYTE, rank + mask,
                         IG_TAG_LOCAL, comm, MPI_STATUS_IGNORE);
        }
    }
    if (rank != 0 && have > 1)
        coll_scratch_free(acc);
    return e;
}

static int bcast_binomial(void *buf, size_t bytes, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    int mask = 1, e = MPI_SUCCESS;
    while (mask < n) {
        if (rank & mask) {
            e = MPI_Recv(buf, (int)bytes, MPI_BYTE, rank - mask, IG_TAG_LOCAL, comm, MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && e == MPI_SUCCESS; mask >>= 1)
        if (rank + mask < n)
            e = MPI_Send(buf, (int)bytes, MPI_BYTE, rank + mask, IG_TAG_LOCAL, comm);
    return e;
}

/* bytes of pieces [first, first + count) of a scatter of `bytes` in pieces of ss */
static size_t piece_range(size_t bytes, size_t ss, int first, int count, size_t *start)
{
    size_t lo = (size_t)first * ss, hi = (size_t)(first + count) * ss;
    if (hi > bytes)
        hi = bytes;
    *start = lo;
    return lo < hi ? hi - lo : 0;
}

int ig_bcast_mpich(void *buf, size_t bytes, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    if (n == 1 || bytes == 0)
        return MPI_SUCCESS;
    if (bytes < 12288 || n < 8)
        return bcast_binomial(buf, bytes, comm);
    /* binomial scatter of pieces of ss = ceil(bytes / n): rank i gets piece i */
    const size_t ss = (bytes + (size_t)n - 1) / (size_t)n;
    char *b = buf;
    int mask = 1, e = MPI_SUCCESS;
    while (mask < n) {
        if (rank & mask) {
            size_t at, len = piece_range(bytes, ss, rank, mask, &at);
            if (len)
                e = MPI_Recv(b + at, (int)len, MPI_BYTE, rank - mask, IG_TAG_LOCAL, comm,
                             MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && e == MPI_SUCCESS; mask >>= 1)
        if (rank + mask < n) {
            size_t at, len = piece_range(bytes, ss, rank + mask, mask, &at);
            if (len)
                e = MPI_Send(b + at, (int)len, MPI_BYTE, rank + mask, IG_TAG_LOCAL, comm);
        }
    if (e != MPI_SUCCESS)
        return e;
    size_t *cnt = malloc(sizeof(size_t) * 2 * (size_t)n);
    if (!cnt)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        cnt[i] = piece_range(bytes, ss, i, 1, &cnt[n + i]);
    e = ig_ring_allgatherv(buf, cnt, cnt + n, comm);
    free(cnt);
    return e;
}

int ig_bcast_pipeline(void *buf, size_t bytes, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    if (n == 1 || bytes == 0)
        return MPI_SUCCESS;
    if (bytes < 12288)
        return bcast_binomial(buf, bytes, comm);
    size_t seg = bytes / (4 * (size_t)n);
    if (seg < 8192)
        seg = 8192;
    if (seg > 1048576)
        seg = 1048576;
    const size_t nseg = (bytes + seg - 1) / seg;
    char *b = buf;
    MPI_Request rr = MPI_REQUEST_NULL, sr = MPI_REQUEST_NULL;
    int e = MPI_SUCCESS;
    if (rank > 0)
        e = MPI_Irecv(b, (int)(seg < bytes ? seg : bytes), MPI_BYTE, rank - 1, IG_TAG_LOCAL, comm, &rr);
    for (size_t s = 0; s < nseg && e == MPI_SUCCESS; s++) {
        const size_t at = s * seg, len = at + seg < bytes ? seg : bytes - at;
        if (rank > 0) {
            e = MPI_Wait(&rr, MPI_STATUS_IGNORE);
            if (e == MPI_SUCCESS && s + 1 < nseg) {
                const size_t nat = at + seg, nlen = nat + seg < bytes ? seg : bytes - nat;
                e = MPI_Irecv(b + nat, (int)nlen, MPI_BYTE, rank - 1, IG_TAG_LOCAL, comm, &rr);
            }
        }
        if (e == MPI_SUCCESS && rank < n - 1) {
            e = MPI_Wait(&sr, MPI_STATUS_IGNORE);
            if (e == MPI_SUCCESS)
                e = MPI_Isend(b + at, (int)len, MPI_BYTE, rank + 1, IG_TAG_LOCAL, comm, &sr);
        }
    }
    int e2 = MPI_Wait(&sr, MPI_STATUS_IGNORE);
    return e != MPI_SUCCESS ? e : e2;
}

int ig_scan_total(long long mine, MPI_Comm comm, long long *before, long long *total)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    long long incl = mine;
    int e = MPI_SUCCESS;
    for (int d = 1; d < n && e == MPI_SUCCESS; d <<= 1) {
        long long in = 0, out = incl;
        MPI_Request rq[2];
        int nr = 0;
        if (rank - d >= 0)
            MPI_Irecv(&in, 1, MPI_LONG_LONG, rank - d, IG_TAG_META, comm, &rq[nr++]);
        if (rank + d < n)
            MPI_Isend(&out, 1, MPI_LONG_LONG, rank + d, IG_TAG_META, comm, &rq[nr++]);
        e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
        incl += in;
    }
    *before = incl - mine;
    /* binomial broadcast of the last rank's inclusive sum (relative rank n-1-rank) */
    long long t = incl;
    const int rel = n - 1 - rank;
    int mask = 1;
    while (mask < n && e == MPI_SUCCESS) {
        if (rel & mask) {
            e = MPI_Recv(&t, 1, MPI_LONG_LONG, n - 1 - (rel - mask), IG_TAG_META, comm,
                         MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && e == MPI_SUCCESS; mask >>= 1)
        if (rel + mask < n)
            e = MPI_Send(&t, 1, MPI_LONG_LONG, n - 1 - (rel + mask), IG_TAG_META, comm);
    *total = t;
    return e;
}

int ig_root_gather(const void *sendbuf, size_t mine, void *recvbuf, size_t remote,
                   const collsim_intergroup *ig, int sequential, ig_bcast_fn bcast)
{
    const int root = ig->local_rank == 0, peer = ig->remote_ranks[0];
    const size_t out = mine * (size_t)ig->local_size, in = remote * (size_t)ig->remote_size;
    void *tmp = NULL;
    if (root && out && !(tmp = coll_scratch_alloc(out)))
        return MPI_ERR_NO_MEM;
    const int stag = ig->group == 0 ? IG_TAG_A2B : IG_TAG_B2A;
    const int rtag = ig->group == 0 ? IG_TAG_B2A : IG_TAG_A2B;
    int e = ig_gather_binomial(sendbuf, mine, tmp, ig->local);
    if (sequential) {
        for (int step = 0; step < 2 && e == MPI_SUCCESS; step++) {
            if (ig->group == step) { /* step 0: group 0 sends; step 1: group 1 */
                if (root && out)
                    e = MPI_Send(tmp, (int)out, MPI_BYTE, peer, stag, ig->comm);
            } else {
                if (root && in)
                    e = MPI_Recv(recvbuf, (int)in, MPI_BYTE, peer, rtag, ig->comm,
                                 MPI_STATUS_IGNORE);
                if (e == MPI_SUCCESS)
                    e = bcast(recvbuf, in, ig->local);
            }
        }
    } else {
        if (e == MPI_SUCCESS && root) {
            MPI_Request rq[2];
            int nr = 0;
            if (in)
                MPI_Irecv(recvbuf, (int)in, MPI_BYTE, peer, rtag, ig->comm, &rq[nr++]);
            if (out)
                MPI_Isend(tmp, (int)out, MPI_BYTE, peer, stag, ig->comm, &rq[nr++]);
            e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
        }
        if (e == MPI_SUCCESS)
            e = bcast(recvbuf, in, ig->local);
    }
    if (tmp)
        coll_scratch_free(tmp);
    return e;
}

int ig_bcast_remote_blocks(void *recvbuf, const int *recvcounts, const int *displs, size_t unit,
                           const collsim_intergroup *ig, ig_bcast_fn bcast)
{
    int packed;
    const size_t K = ig_remote_stream(recvcounts, displs, unit, ig, &packed);
    if (packed || K == 0)
        return bcast(recvbuf, K, ig->local);
    char *tmp = coll_scratch_alloc(K), *rb = recvbuf;
    if (!tmp)
        return MPI_ERR_NO_MEM;
    size_t at = 0;
    for (int j = 0; j < ig->remote_size && ig->local_rank == 0; j++) {
        coll_copy(tmp + at, rb + (size_t)displs[j] * unit, (size_t)recvcounts[j] * unit);
        at += (size_t)recvcounts[j] * unit;
    }
    int e = bcast(tmp, K, ig->local);
    at = 0;
    for (int j = 0; j < ig->remote_size && ig->local_rank != 0 && e == MPI_SUCCESS; j++) {
        coll_copy(rb + (size_t)displs[j] * unit, tmp + at, (size_t)recvcounts[j] * unit);
        at += (size_t)recvcounts[j] * unit;
    }
    coll_scratch_free(tmp);
    return e;
}
