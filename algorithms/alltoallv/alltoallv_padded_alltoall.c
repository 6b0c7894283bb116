/* PaddedAlltoall alltoallv (Fan et al. 2022, Section 4.1 "PaddedAlltoall"):
 * padded as padded_bruck (alltoallv_padded_common.h), with the MPI library's
 * MPI_Alltoall as the uniform exchange: under SMPI, its alltoall selection
 * (smpi/alltoall, smpi/coll-selector).
 *
 * Cost: no model (analysis/cost_model.c has none): the library's algorithm
 * decides it.
 * Memory: the buffers, plus a scratch of 2 p N bytes (coll_scratch_alloc),
 * plus whatever the library's alltoall allocates.
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE (MPI_ERR_ARG). */
#include "alltoallv_padded_common.h"

static int native_alltoall(COLLSIM_ALLTOALL_ARGS)
{
    return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int collsim_alltoallv_padded_alltoall(COLLSIM_ALLTOALLV_ARGS)
{
    return padded_alltoallv(collsim_alltoallv_padded_alltoall, native_alltoall, collsim_alltoallv_padded_alltoall_msg_blocks, sendbuf,
                            sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                            comm);
}
