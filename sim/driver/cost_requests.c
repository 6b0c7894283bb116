/* The cost model's receive wrappers (cost.h): a receive's overhead and
 * unpacking are charged when it completes, so the wrappers of the receives,
 * waits and tests keep each rank's open costed receives in a table (the
 * model itself: cost.c; the state both share: cost_int.h). */
#include "cost_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef COLLSIM_REAL_MPI_DRIVER /* collsim-mpibench: cost_none.c */
#include <simgrid/engine.h>

/* ---- receive requests: charged when they complete ---- */
struct costed_req {
    MPI_Request req;
    recv_cost c;
};

static size_t slot_of(MPI_Request r, size_t cap)
{
    unsigned long long h = (unsigned long long)(uintptr_t)r;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static void recv_put(rank_state *s, MPI_Request r, recv_cost c)
{
    if (2 * (s->used + 1) > s->cap) {
        const size_t old = s->cap, cap = old ? 2 * old : 64;
        costed_req *was = s->recvs, *now = calloc(cap, sizeof *now);
        for (size_t i = 0; i < old; i++)
            if (was[i].req) {
                size_t k = slot_of(was[i].req, cap);
                while (now[k].req)
                    k = (k + 1) & (cap - 1);
                now[k] = was[i];
            }
        free(was);
        s->recvs = now;
        s->cap = cap;
    }
    size_t k = slot_of(r, s->cap);
    while (s->recvs[k].req)
        k = (k + 1) & (s->cap - 1);
    s->recvs[k].req = r;
    s->recvs[k].c = c;
    s->used++;
}

/* Remove r if it is a costed receive; *c its cost. */
static int recv_take(rank_state *s, MPI_Request r, recv_cost *c)
{
    if (!s->used || !r || r == MPI_REQUEST_NULL)
        return 0;
    const size_t mask = s->cap - 1;
    size_t k = slot_of(r, s->cap);
    while (s->recvs[k].req && s->recvs[k].req != r)
        k = (k + 1) & mask;
    if (!s->recvs[k].req)
        return 0;
    *c = s->recvs[k].c;
    /* backward-shift deletion keeps every probe chain whole */
    size_t hole = k;
    for (size_t j = (k + 1) & mask; s->recvs[j].req; j = (j + 1) & mask) {
        const size_t home = slot_of(s->recvs[j].req, s->cap);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            s->recvs[hole] = s->recvs[j];
            hole = j;
        }
    }
    s->recvs[hole].req = 0;
    s->used--;
    return 1;
}

/* The request `was` completed now: charge it if it is a costed receive. */
static void settle_one(rank_state *s, MPI_Request was)
{
    recv_cost c;
    if (recv_take(s, was, &c))
        cost_received(s, simgrid_get_clock(), c.o_r, c.unpack);
}

/* ---- the wrappers this model needs beyond account.c's sends ---- */
int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
             MPI_Status *st)
{
    cost_pay();
    const int e = PMPI_Recv(buf, count, type, src, tag, comm, st);
    cost_after_recv(src, count, type, comm);
    return e;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    cost_pay();
    const int e = PMPI_Irecv(buf, count, type, src, tag, comm, req);
    rank_state *s = cost_me_if_on();
    if (s && e == MPI_SUCCESS && *req != MPI_REQUEST_NULL) {
        const recv_cost c = cost_recv_cost_of(src, count, type, comm);
        if (c.o_r > 0 || c.unpack > 0)
            recv_put(s, *req, c);
    }
    return e;
}

/* The waits do not sleep before waiting: the CPU's pending work overlaps the
 * wait (the requests were posted already, and SMPI moves their data without
 * the rank), and the rank returns when both are done. Same times as paying
 * first, one simulated event fewer per call. */
int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    const MPI_Request was = *req;
    const int e = PMPI_Wait(req, st);
    rank_state *s = cost_me_if_on();
    if (s && s->used)
        settle_one(s, was);
    cost_pay();
    return e;
}

/* Whether r is a costed receive (left in the table). */
static int recv_known(const rank_state *s, MPI_Request r)
{
    if (!s->used || !r || r == MPI_REQUEST_NULL)
        return 0;
    size_t k = slot_of(r, s->cap);
    while (s->recvs[k].req && s->recvs[k].req != r)
        k = (k + 1) & (s->cap - 1);
    return s->recvs[k].req != 0;
}

/* Waitall. With two or more costed receives among the requests it waits for
 * them one by one (MPI_Waitany: SMPI 3.32's own Waitall is the same loop, so
 * this costs SimGrid nothing more; its Waitsome tests the others, and each
 * test is a simulated sleep of smpi/test), so that each is charged at the
 * time it completed: receives that complete while the rank waits have their
 * o_r absorbed by the wait, a burst of them queues on the CPU. With one, the
 * time the call returns stands for its completion: it is absorbed alike
 * unless the CPU is still busy at its end. */
int MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    rank_state *s = cost_me_if_on();
    int costed = 0;
    for (int i = 0; s && i < n && costed < 2; i++)
        costed += recv_known(s, reqs[i]);
    if (costed < 2) {
        MPI_Request *was = NULL;
        if (costed) {
            was = malloc(sizeof *was * (size_t)n);
            memcpy(was, reqs, sizeof *was * (size_t)n);
        }
        const int e = PMPI_Waitall(n, reqs, sts);
        for (int i = 0; costed && i < n; i++)
            settle_one(s, was[i]);
        free(was);
        cost_pay();
        return e;
    }
    MPI_Request *was = malloc(sizeof *was * (size_t)n);
    memcpy(was, reqs, sizeof *was * (size_t)n);
    int e = MPI_SUCCESS;
    for (;;) {
        int index = MPI_UNDEFINED;
        MPI_Status st;
        const int r = PMPI_Waitany(n, reqs, &index, &st);
        if (r != MPI_SUCCESS)
            e = r;
        if (r != MPI_SUCCESS || index == MPI_UNDEFINED)
            break;
        if (sts != MPI_STATUSES_IGNORE)
            sts[index] = st;
        settle_one(s, was[index]);
    }
    free(was);
    cost_pay();
    return e;
}

int MPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *st)
{
    rank_state *s = cost_me_if_on();
    if (!s || !s->used) {
        const int e = PMPI_Waitany(n, reqs, index, st);
        cost_pay();
        return e;
    }
    MPI_Request *was = malloc(sizeof *was * (size_t)(n > 0 ? n : 1));
    memcpy(was, reqs, sizeof *was * (size_t)(n > 0 ? n : 0));
    const int e = PMPI_Waitany(n, reqs, index, st);
    if (*index != MPI_UNDEFINED)
        settle_one(s, was[*index]);
    free(was);
    cost_pay();
    return e;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    cost_pay();
    const MPI_Request was = *req;
    const int e = PMPI_Test(req, flag, st);
    rank_state *s = cost_me_if_on();
    if (s && s->used && *flag)
        settle_one(s, was);
    return e;
}

int MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *sts)
{
    cost_pay();
    rank_state *s = cost_me_if_on();
    if (!s || !s->used)
        return PMPI_Testall(n, reqs, flag, sts);
    MPI_Request *was = malloc(sizeof *was * (size_t)(n > 0 ? n : 1));
    memcpy(was, reqs, sizeof *was * (size_t)(n > 0 ? n : 0));
    const int e = PMPI_Testall(n, reqs, flag, sts);
    if (*flag)
        for (int i = 0; i < n; i++)
            settle_one(s, was[i]);
    free(was);
    return e;
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    cost_pay();
    return PMPI_Probe(src, tag, comm, st);
}
#endif
