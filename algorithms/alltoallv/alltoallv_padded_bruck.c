/* Padded Bruck alltoallv (Fan et al. 2022, Section 3.1 "Padded Bruck"; the
 * idea is Träff et al. 2014, Section 3.5): pad every block to the largest
 * block N (one MPI_Allreduce), exchange the p x N buffer with collsim's Zero
 * Rotation Bruck alltoall (alltoall/alltoall_bruck_zero_rotation.c, Section
 * 2.1, which the paper builds its non-uniform algorithms on), drop the
 * padding (alltoallv_padded_common.h).
 *
 * Cost (analysis/cost_model.c, padded_bruck, Fan Eq. (1)):
 *   α log p + β log p ((p+1)/2) N, log rounded up; the Allreduce of N and the
 *   local copies are not counted.
 * Memory: the buffers, plus a scratch of 2 p N bytes (coll_scratch_alloc) and
 * the zero-rotation exchange's 2 floor(p/2) N; no per-rank state.
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE (MPI_ERR_ARG). */
#include "alltoallv_padded_common.h"

int collsim_alltoallv_padded_bruck(COLLSIM_ALLTOALLV_ARGS)
{
    return padded_alltoallv(collsim_alltoallv_padded_bruck, collsim_alltoall_bruck_zero_rotation,
                            collsim_alltoallv_padded_bruck_msg_blocks, sendbuf, sendcounts, sdispls,
                            sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}
