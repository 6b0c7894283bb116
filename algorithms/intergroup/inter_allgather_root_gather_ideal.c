/* Intergroup allgather by the "best version" of root gathering: Kang, Traff
 * et al. 2019, Section 3.1, Eq. (1), the yardstick the paper sets against
 * the libraries' version (Eq. (2)).
 *
 * 1. Each group gathers its blocks on its local rank 0 (binomial gather).
 * 2. The two roots exchange the gathered blocks at once (full duplex).
 * 3. Each root broadcasts the remote blocks in its group, both at once, with
 *    a broadcast near the single-port bound (the paper cites two-tree
 *    broadcasts): here a pipelined chain of segments (coll_intergroup.h,
 *    ig_bcast_pipeline; binomial below 12,288 bytes), about 1x the message
 *    in beta plus (n - 1) segments of pipeline fill.
 *
 * Cost (Eq. (1)): (1 + 2 log p) alpha + max((p-1)k_A, (q-1)k_B) beta + 2M;
 * transfer ~ 3M. Memory: the root's gather buffer (scratch). Any p, q >= 1,
 * blocks >= 0. */
#include "coll_intergroup.h"
#include "collsim_algorithms.h"

int collsim_inter_allgather_root_gather_ideal(COLLSIM_INTER_ALLGATHER_ARGS)
{
    size_t mine, remote;
    int e = ig_allgather_begin(sendbuf, sendcount, sendtype, recvcount, recvtype, ig, &mine, &remote);
    if (e != MPI_SUCCESS)
        return e;
    return ig_root_gather(sendbuf, mine, recvbuf, remote, ig, 0, ig_bcast_pipeline);
}
