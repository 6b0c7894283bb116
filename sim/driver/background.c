/* The background job (background.h). */
#include "background.h"

#include <limits.h>
#include <stdio.h>
#ifdef COLLSIM_REAL_MPI_DRIVER
/* collsim-mpibench: ordinary buffers (fold.c) */
#define SMPI_SHARED_MALLOC malloc
#define SMPI_SHARED_FREE free
#else
#include <smpi/smpi.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "coll_locality_file.h"

/* on MPI_COMM_WORLD, between measured rank 0 and background rank 0 */
#define BG_TAG_START 0x5b0
#define BG_TAG_STOP 0x5b1
/* on the background's communicator */
#define BG_TAG_DATA 0x5b2
#define BG_TAG_AGREE 0x5b3

void bg_split(const driver_opts *o, bg_state *bg)
{
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    memset(bg, 0, sizeof *bg);
    bg->active = o->bg.procs > 0;
    bg->nmeasured = wsize - o->bg.procs;
    bg->comm = MPI_COMM_WORLD;
    if (!bg->active)
        return;
    bg->is_background = wrank >= bg->nmeasured;
    MPI_Comm_split(MPI_COMM_WORLD, bg->is_background, wrank, &bg->comm);
}

void bg_free(bg_state *bg)
{
    if (bg->comm != MPI_COMM_WORLD)
        MPI_Comm_free(&bg->comm);
}

/* Dissemination OR over comm: every rank ends with the OR of every flag. */
static int agree_or(MPI_Comm comm, int rank, int k, int flag)
{
    for (int d = 1; d < k; d <<= 1) {
        int in = 0;
        MPI_Sendrecv(&flag, 1, MPI_INT, (rank + d) % k, BG_TAG_AGREE, &in, 1, MPI_INT,
                     (rank - d + k) % k, BG_TAG_AGREE, comm, MPI_STATUS_IGNORE);
        flag |= in;
    }
    return flag;
}

static int cmp_long(const void *a, const void *b)
{
    const long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The number of entries of sorted v[0..n-1] that are <= x. */
static long upper(const long *v, int n, long x)
{
    long lo = 0, hi = n;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (v[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Waits for the n requests of a step; rank 0 also watches the STOP receive
 * (*stop, MPI_REQUEST_NULL once it completed) and sets *seen. */
static void wait_step(MPI_Request *req, int n, MPI_Request *stop, int *seen)
{
    if (*stop == MPI_REQUEST_NULL) {
        MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
        return;
    }
    req[n] = *stop;
    for (int pending = n; pending > 0;) {
        int idx;
        MPI_Waitany(n + 1, req, &idx, MPI_STATUS_IGNORE);
        if (idx == MPI_UNDEFINED)
            break;
        if (idx == n)
            *seen = 1;
        else
            pending--;
    }
    *stop = req[n];
}

/* The background ranks that send, in rank order, into who[] (returns how
 * many), each with the number of ranks whose bytes it carries in weight[]:
 * every rank with weight 1 (alltoall), or the first background rank of each
 * node with its node's count (alltoall-port: a node's traffic as one flow,
 * as its network port presents it to the switch's arbiter). */
static int port_senders(const driver_opts *o, const bg_state *bg, int k, int *who, int *weight)
{
    if (!o->bg.port) {
        for (int i = 0; i < k; i++) {
            who[i] = i;
            weight[i] = 1;
        }
        return k;
    }
    int node = -1;
    for (int l = 0; l < coll_loc_file_nlevels(); l++)
        if (!strcmp(coll_loc_file_level_name(l), "node"))
            node = l;
    if (node < 0) { /* the host declares the level node on every platform */
        fprintf(stderr, "collsim-driver: --background alltoall-port: no level 'node' in the "
                        "locality file\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int m = 0;
    for (int i = 0; i < k; i++) {
        const long c = coll_loc_file_colour(node, bg->nmeasured + i);
        int j = 0;
        while (j < m && coll_loc_file_colour(node, bg->nmeasured + who[j]) != c)
            j++;
        if (j == m) {
            who[m] = i;
            weight[m++] = 0;
        }
        weight[j]++;
    }
    return m;
}

void bg_run(const driver_opts *o, bg_state *bg)
{
    int b, k;
    MPI_Comm_rank(bg->comm, &b);
    MPI_Comm_size(bg->comm, &k);
    int level = -1;
    for (int l = 0; l < coll_loc_file_nlevels(); l++)
        if (!strcmp(coll_loc_file_level_name(l), o->bg.level))
            level = l;
    if (level < 0) { /* the host checks it against the platform first */
        fprintf(stderr, "collsim-driver: --background: level '%s' is not in the locality file\n",
                o->bg.level);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    /* the ranks that exchange: every background rank (alltoall), or per node
     * its first background rank carrying the node's bytes (alltoall-port);
     * weight: the ranks whose bytes a sender carries */
    int *who = malloc(sizeof(int) * (size_t)k), *weight = malloc(sizeof(int) * (size_t)k);
    int m = port_senders(o, bg, k, who, weight);
    /* each sender's region, and its block: its bytes over its peers in other
     * regions (m minus its region's senders, counted in a sorted copy) */
    long *colour = malloc(sizeof(long) * (size_t)k), *sorted = malloc(sizeof(long) * (size_t)k);
    int *block = malloc(sizeof(int) * (size_t)k), max_block = 0, pos = -1;
    for (int i = 0; i < m; i++) {
        sorted[i] = colour[i] = coll_loc_file_colour(level, bg->nmeasured + who[i]);
        if (who[i] == b)
            pos = i;
    }
    qsort(sorted, (size_t)m, sizeof *sorted, cmp_long);
    for (int i = 0; i < m; i++) {
        const int peers = m - (int)(upper(sorted, m, colour[i]) - upper(sorted, m, colour[i] - 1));
        if (peers == 0) { /* the host deals the ranks over two regions at least */
            fprintf(stderr, "collsim-driver: --background: rank %d has no peer outside its %s "
                            "region\n", bg->nmeasured + who[i], o->bg.level);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        const long bytes = o->bg.bytes * weight[i] / peers;
        if (bytes > INT_MAX) {
            fprintf(stderr, "collsim-driver: --background: %ld B per peer at rank %d exceed an "
                            "MPI count (%d): use a smaller SIZE\n",
                    bytes, bg->nmeasured + who[i], INT_MAX);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        block[i] = (int)bytes;
        if (block[i] > max_block)
            max_block = block[i];
    }
    /* the payload is never read: one folded buffer (no copy of its bytes,
     * one memory map per rank), a block each way, reused by every step */
    const int mine = pos < 0 ? 0 : block[pos];
    char *sendbuf = SMPI_SHARED_MALLOC((size_t)mine + (size_t)max_block + 1),
         *recvbuf = sendbuf + mine;
    MPI_Request stop = MPI_REQUEST_NULL, req[3];
    int seen = 0, stopping = 0;
    long rounds = 0;
    double t_start = 0;
    if (b == 0)
        MPI_Irecv(NULL, 0, MPI_BYTE, 0, BG_TAG_STOP, MPI_COMM_WORLD, &stop);
    while (!stopping) {
        /* one alltoall of the pairs in different regions: step s, send to
         * b + s, receive from b - s (pairwise exchange; with the ranks dealt
         * round-robin over R regions, every rank is busy in every step whose
         * s is not a multiple of R) */
        for (int s = 1; pos >= 0 && s < m; s++) {
            const int dst = (pos + s) % m, src = (pos - s + m) % m;
            int n = 0;
            if (colour[src] != colour[pos])
                MPI_Irecv(recvbuf, block[src], MPI_BYTE, who[src], BG_TAG_DATA, bg->comm, &req[n++]);
            if (colour[dst] != colour[pos])
                MPI_Isend(sendbuf, block[pos], MPI_BYTE, who[dst], BG_TAG_DATA, bg->comm, &req[n++]);
            if (n)
                wait_step(req, n, &stop, &seen);
        }
        rounds++;
        stopping = agree_or(bg->comm, b, k, seen);
        if (rounds == 1 && b == 0) { /* every rank has completed a round */
            t_start = MPI_Wtime();
            MPI_Send(NULL, 0, MPI_BYTE, 0, BG_TAG_START, MPI_COMM_WORLD);
        }
    }
    if (b == 0)
        printf("# background alltoall%s:inter-%s: %d ranks (world %d..%d), %ld B per process a "
               "round (%d B per peer at rank 0, %d senders); under way from %.6f s, stopped "
               "after %ld rounds at %.6f s\n",
               o->bg.port ? "-port" : "", o->bg.level, k, bg->nmeasured, bg->nmeasured + k - 1,
               o->bg.bytes, block[0], m, t_start, rounds, MPI_Wtime());
    SMPI_SHARED_FREE(sendbuf);
    free(block);
    free(sorted);
    free(colour);
    free(weight);
    free(who);
}

void bg_wait_started(bg_state *bg)
{
    int rank;
    if (!bg->active || bg->is_background || bg->started)
        return;
    MPI_Comm_rank(bg->comm, &rank);
    if (rank == 0) {
        MPI_Recv(NULL, 0, MPI_BYTE, bg->nmeasured, BG_TAG_START, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("# measured job: its first call after %.6f s, under load\n", MPI_Wtime());
    }
    bg->started = 1;
}

void bg_stop(bg_state *bg)
{
    int rank;
    if (!bg->active || bg->is_background)
        return;
    bg_wait_started(bg); /* an early exit: it cannot stop before it started */
    driver_barrier(bg->comm);
    MPI_Comm_rank(bg->comm, &rank);
    if (rank == 0) {
        printf("# measured job: every rank done by %.6f s; the background stops\n", MPI_Wtime());
        MPI_Send(NULL, 0, MPI_BYTE, bg->nmeasured, BG_TAG_STOP, MPI_COMM_WORLD);
    }
}
