/* Modified Bruck alltoall (Träff et al., as reviewed by Fan et al. 2022,
 * Section 2.1 "Modified Bruck").
 *
 * Rotate R[t] = S[(2r-t) mod p], relative index i = t - r; in step k
 * (d = 2^k < p) send every slot whose i has bit k set to r-d in one packed
 * message and receive the same slots from r+d (alltoall_bruck_common.h): a
 * block ends in the slot of its source, so there is no final rotation.
 *
 * Cost (analysis/cost_model.c, padded_bruck with every block N, Fan Eq. (1)):
 *   ceil(log2 p) (α + ((p+1)/2) N β).
 * Memory: the receive buffer, plus a scratch of 2 floor(p/2) blocks
 * (coll_scratch_alloc, folded with the buffers); no per-rank state.
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE (MPI_ERR_ARG). */
#include "alltoall_bruck_common.h"

#include "../coll_util.h"

#include <string.h>

static int modified(const bruck_alltoall_args *a)
{
    /* Phase 1: R[t] = S[(2r-t) mod p]. */
    for (int t = 0; t < a->p; t++)
        coll_copy(coll_block(a->recvbuf, t, a->bb),
               coll_cblock(a->sendbuf, coll_mod(2 * a->rank - t, a->p), a->bb), a->bb);
    /* Phase 2: send to r-d, receive from r+d; nothing after it. */
    return bruck_alltoall_exchange(a, a->rank, -1, 0);
}

int collsim_alltoall_bruck_modified(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(collsim_alltoall_bruck_modified, modified, collsim_alltoall_bruck_modified_msg_blocks, sendbuf, sendcount,
                          sendtype, recvbuf, recvcount, recvtype, comm);
}
