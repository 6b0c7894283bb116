/* Intergroup allgather by root gathering as Open MPI's coll/inter component
 * structures it (read, not copied; docs/papers.md, "Kang: root gathering in
 * the libraries"): Kang, Traff et al. 2019,
 * Section 3.1, the three stages of Eq. (1) with the library's broadcast.
 *
 * 1. Each group gathers its blocks on its local rank 0 (binomial gather).
 * 2. The two roots exchange the gathered blocks at once (one Sendrecv,
 *    full duplex).
 * 3. Each root broadcasts the remote blocks in its group, both at once.
 * The gather and broadcast building blocks are the same as root_gather_mpich's
 * (binomial gather; binomial or scatter + ring allgather broadcast), so that
 * the only difference from it is the concurrency of stages 2 and 3. (Open
 * MPI's tuned broadcast for large messages is a segmented tree, closer to 1x
 * the message; that is root_gather_ideal's pipelined broadcast.)
 *
 * Cost: max(G_A, G_B) + alpha + max(p k_A, q k_B) beta + max(Bcast_A(q k_B),
 * Bcast_B(p k_A)); transfer ~ max((p-1)k_A, (q-1)k_B) + 3M with a 2x broadcast.
 * Memory: as root_gather_mpich. Any p, q >= 1, blocks >= 0. */
#include "coll_intergroup.h"
#include "collsim_algorithms.h"

int collsim_inter_allgather_root_gather_ompi(COLLSIM_INTER_ALLGATHER_ARGS)
{
    size_t mine, remote;
    int e = ig_allgather_begin(sendbuf, sendcount, sendtype, recvcount, recvtype, ig, &mine, &remote);
    if (e != MPI_SUCCESS)
        return e;
    return ig_root_gather(sendbuf, mine, recvbuf, remote, ig, 0, ig_bcast_mpich);
}
