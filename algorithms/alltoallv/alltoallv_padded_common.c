/* The padding, the uniform exchange and the scan of the padded alltoallvs
 * (alltoallv_padded_common.h). */
#include "alltoallv_padded_common.h"

#include "../coll_util.h"

#include <string.h>

/* (a) to (c) for more than one rank, the own block already copied */
static int padded_exchange(padded_uniform_fn exchange, coll_msg_blocks_fn msg_blocks,
                           const coll_v_args *ap, MPI_Comm comm)
{
    const coll_v_args a = *ap;
    size_t n;
    int err;

    /* (a) every rank learns N; all blocks empty: nothing to exchange */
    if ((err = coll_alltoallv_max_block(&a, comm, msg_blocks, &n)) != MPI_SUCCESS || n == 0)
        return err;

    const int p = a.size, r = a.rank;
    int truncated = 0;
    unsigned char *padded_send = coll_scratch_alloc(2 * (size_t)p * n);
    if (padded_send == NULL)
        return MPI_ERR_NO_MEM;
    unsigned char *padded_recv = padded_send + (size_t)p * n;
    for (int j = 0; j < p; j++)
        if (j != r)
            coll_copy(coll_block(padded_send, j, n), coll_v_send_block(&a, j),
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
        coll_copy(coll_v_recv_block(&a, i), coll_block(padded_recv, i, n), bytes);
    }
    coll_scratch_free(padded_send);
    return err == MPI_SUCCESS && truncated ? MPI_ERR_COUNT : err;
}

int padded_alltoallv(collsim_alltoallv_fn self, padded_uniform_fn exchange, coll_msg_blocks_fn msg_blocks,
                     COLLSIM_ALLTOALLV_ARGS)
{
    coll_v_args a;
    int err = coll_alltoallv_begin(self, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, &a);
    return err != MPI_SUCCESS || a.done ? err
                                             : padded_exchange(exchange, msg_blocks, &a, comm);
}
