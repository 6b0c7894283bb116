/* What the cost model (cost.c) and its receive wrappers (cost_requests.c)
 * share; private to the two (cost.h is the interface). */
#ifndef COLLSIM_DRIVER_COST_INT_H
#define COLLSIM_DRIVER_COST_INT_H

#include <stddef.h>

#include "cost.h"

/* One rank's state; without privatization every simulated rank shares the
 * model's statics, so it is kept per MPI_COMM_WORLD rank. */
typedef struct costed_req costed_req;
typedef struct {
    int on;
    double cpu_free;   /* simulated time until which the rank's CPU is busy */
    double charged;    /* seconds of CPU work charged since cost_begin */
    costed_req *recvs; /* open addressing on the request's bits (cost_requests.c) */
    size_t cap, used;
} rank_state;

/* A receive's o_r and unpacking. */
typedef struct {
    double o_r, unpack;
} recv_cost;

/* The calling rank's state while the full model is on and the rank is
 * timed (cost_begin .. cost_end); NULL otherwise. */
rank_state *cost_me_if_on(void);

/* A receive that completed at `when` (now, or earlier within a batch): its
 * o_r ran on the CPU before its completion unless the CPU was busy then;
 * unpacking follows it. */
void cost_received(rank_state *s, double when, double o_r, double unpack);

/* The cost of receiving count elements of type from src of comm. */
recv_cost cost_recv_cost_of(int src, int count, MPI_Datatype type, MPI_Comm comm);

#endif
