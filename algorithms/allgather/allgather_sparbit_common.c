/* The entry and the schedule of the Sparbit allgathers
 * (allgather_sparbit_common.h). */
#include "allgather_sparbit_common.h"

#include "../coll_util.h"

static int count_trailing_zeros(unsigned v)
{
    int n = 0;

    while (v != 0 && (v & 1u) == 0) {
        v >>= 1;
        n++;
    }
    return n;
}

/* Fills steps[] (at most 31) from the bits of p (paper Fig. 4); returns the
 * number of steps. */
static int sparbit_schedule(int p, sparbit_step *steps)
{
    const unsigned up = (unsigned)p;
    const int last_ignore = count_trailing_zeros(up);
    const unsigned ignore_steps = (~(up >> last_ignore) | 1u) << last_ignore;
    int data = 1, k = 0;

    for (int d = 1 << (coll_ceil_log2(p) - 1); d > 0; d >>= 1) {
        const int ignore = (ignore_steps & (unsigned)d) ? 1 : 0;
        steps[k].d = d;
        steps[k++].n = data - ignore;
        data = 2 * data - ignore;
    }
    return k;
}

int sparbit_allgather(collsim_block_coll_fn self, sparbit_body body, coll_msg_blocks_fn msg_blocks, COLLSIM_ALLGATHER_ARGS)
{
    sparbit_plan plan;
    int err = coll_allgather_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                   msg_blocks, &plan.rank, &plan.p, &plan.bb);
    if (err != MPI_SUCCESS || plan.bb == 0 || plan.p == 1)
        return err;
    plan.nsteps = sparbit_schedule(plan.p, plan.steps);
    return body(&plan, recvbuf, recvcount, recvtype, comm);
}
