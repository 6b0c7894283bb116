/* Basic Bruck alltoall (Bruck et al. 1997, as reviewed by Fan et al. 2022,
 * Section 2.1 "Basic Bruck").
 *
 * Rotate R[i] = S[(r+i) mod p]; in step k (d = 2^k < p) send every slot whose
 * i has bit k set to r+d in one packed message and receive the same slots
 * from r-d (alltoall_bruck_common.h); then the inverse rotation
 * R[j] = R[(r-j) mod p] (coll_reflect_blocks).
 *
 * Cost (analysis/cost_model.c, padded_bruck with every block N, Fan Eq. (1)):
 *   ceil(log2 p) (α + ((p+1)/2) N β).
 * Memory: the receive buffer, plus a scratch of 2 floor(p/2) blocks
 * (coll_scratch_alloc, folded with the buffers); no per-rank state.
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE (MPI_ERR_ARG). */
#include "alltoall_bruck_common.h"

#include "../coll_util.h"

#include <string.h>

static int basic(const bruck_alltoall_args *a)
{
    const int rank = a->rank, p = a->p;
    const size_t bb = a->bb;

    /* Phase 1: R[i] = S[(r+i) mod p], two contiguous runs. */
    coll_copy(a->recvbuf, coll_cblock(a->sendbuf, rank, bb), (size_t)(p - rank) * bb);
    coll_copy(coll_block(a->recvbuf, p - rank, bb), a->sendbuf, (size_t)rank * bb);

    /* Phase 2: send to r+d, receive from r-d. */
    const int err = bruck_alltoall_exchange(a, 0, 1, 0);
    if (err != MPI_SUCCESS)
        return err;

    /* Phase 3: R[i] came from rank r-i; R[j] = R[(r-j) mod p]. */
    coll_reflect_blocks(a->recvbuf, p, bb, rank);
    return MPI_SUCCESS;
}

int collsim_alltoall_bruck_basic(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(collsim_alltoall_bruck_basic, basic, collsim_alltoall_bruck_basic_msg_blocks, sendbuf, sendcount,
                          sendtype, recvbuf, recvcount, recvtype, comm);
}
