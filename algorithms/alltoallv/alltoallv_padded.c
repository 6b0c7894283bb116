/* Padded alltoallv (Fan et al. 2022): a non-uniform exchange made uniform.
 *
 *  - padded_bruck (Section 3.1, "Padded Bruck"): (a) the largest block N
 *    over all ranks is agreed with one MPI_Allreduce of the local maxima;
 *    every block is copied into an N-byte slot of a p x N buffer (the bytes
 *    after the block are padding); (b) the uniform exchange is collsim's Zero
 *    Rotation Bruck alltoall (alltoall/alltoall_bruck.c, Section 2.1, which
 *    the paper builds its non-uniform algorithms on); (c) the scan: each
 *    received slot's first recvcounts[i] elements go to rdispls[i].
 *  - padded_alltoall (Section 4.1, "PaddedAlltoall"): the same padding, with
 *    the MPI library's MPI_Alltoall as the uniform exchange (under SMPI, its
 *    alltoall selection: smpi/alltoall, smpi/coll-selector).
 *
 * The own block is a local copy and its slot is neither filled nor read; N
 * is the largest block sent to another rank (own blocks excluded, they never
 * travel). Scratch: 2 p N bytes through coll_scratch_alloc. MPI_IN_PLACE:
 * MPI_ERR_ARG. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <string.h>

typedef int (*uniform_alltoall_fn)(COLLSIM_ALLTOALL_ARGS);

static int native_alltoall(COLLSIM_ALLTOALL_ARGS)
{
    return MPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

static int padded_alltoallv(uniform_alltoall_fn exchange, COLLSIM_ALLTOALLV_ARGS)
{
    coll_v_args a;
    size_t n;
    int err = coll_alltoallv_begin(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, &a);
    if (err != MPI_SUCCESS || a.size == 1)
        return err;
    /* (a) every rank learns N; all blocks empty: nothing to exchange */
    if ((err = coll_alltoallv_max_block(&a, comm, &n)) != MPI_SUCCESS || n == 0)
        return err;

    const int p = a.size, r = a.rank;
    int truncated = 0;
    unsigned char *padded_send = coll_scratch_alloc(2 * (size_t)p * n);
    if (padded_send == NULL)
        return MPI_ERR_NO_MEM;
    unsigned char *padded_recv = padded_send + (size_t)p * n;
    for (int j = 0; j < p; j++)
        if (j != r)
            memcpy(coll_block(padded_send, j, n), coll_v_send_block(&a, j),
                   coll_v_send_bytes(&a, j));

    /* (b) uniform exchange of N-byte blocks */
    err = exchange(padded_send, (int)n, MPI_BYTE, padded_recv, (int)n, MPI_BYTE, comm);

    /* (c) keep the data, drop the padding; a block announced larger than
     * any rank's largest cannot match its sender's: only N bytes are copied */
    for (int i = 0; i < p && err == MPI_SUCCESS; i++) {
        if (i == r)
            continue;
        size_t bytes = coll_v_recv_bytes(&a, i);
        if (bytes > n) {
            bytes = n;
            truncated = 1;
        }
        memcpy(coll_v_recv_block(&a, i), coll_block(padded_recv, i, n), bytes);
    }
    coll_scratch_free(padded_send);
    return err == MPI_SUCCESS && truncated ? MPI_ERR_COUNT : err;
}

int collsim_alltoallv_padded_bruck(COLLSIM_ALLTOALLV_ARGS)
{
    return padded_alltoallv(collsim_alltoall_bruck_zero_rotation, sendbuf, sendcounts, sdispls,
                            sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int collsim_alltoallv_padded_alltoall(COLLSIM_ALLTOALLV_ARGS)
{
    return padded_alltoallv(native_alltoall, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                            recvcounts, rdispls, recvtype, comm);
}
