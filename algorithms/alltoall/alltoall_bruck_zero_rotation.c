/* Zero Rotation Bruck alltoall (Fan et al. 2022, Section 2.1 "Zero Rotation
 * Bruck").
 *
 * The modified schedule (alltoall_bruck_modified.c) without the initial
 * rotation either: only the own block (i = 0) is copied first; a slot not yet
 * received (no bit of i below k set) is read straight from S[(2r-t) mod p],
 * the paper's rotation index I[t], computed on the fly rather than stored (a
 * p-int array per rank is 4 GiB at 32K ranks). Received blocks go to their
 * final slot in R. Also the uniform exchange of padded_bruck
 * (alltoallv/alltoallv_padded_bruck.c).
 *
 * Cost (analysis/cost_model.c, padded_bruck with every block N, Fan Eq. (1)):
 *   ceil(log2 p) (α + ((p+1)/2) N β).
 * Memory: the receive buffer, plus a scratch of 2 floor(p/2) blocks
 * (coll_scratch_alloc, folded with the buffers); no per-rank state.
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE (MPI_ERR_ARG). */
#include "alltoall_bruck_common.h"

#include "../coll_util.h"

#include <string.h>

static int zero_rotation(const bruck_alltoall_args *a)
{
    /* only the own block (i = 0) never moves */
    coll_copy(coll_block(a->recvbuf, a->rank, a->bb), coll_cblock(a->sendbuf, a->rank, a->bb), a->bb);
    return bruck_alltoall_exchange(a, a->rank, -1, 1);
}

int collsim_alltoall_bruck_zero_rotation(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(collsim_alltoall_bruck_zero_rotation, zero_rotation, collsim_alltoall_bruck_zero_rotation_msg_blocks, sendbuf,
                          sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
