/* Intergroup allgather by root gathering as MPICH (and MVAPICH, which
 * inherits it) implements it: Kang, Traff et al. 2019, Section 3.1, Eq. (2);
 * the structure of MPICH's local-gather-remote-broadcast intercommunicator
 * allgather (read, not copied; docs/papers.md, "Kang: root gathering in the
 * libraries").
 *
 * 1. Each group gathers its blocks on its local rank 0 (MPICH's binomial
 *    gather; skipped for a zero block), both groups at once.
 * 2. Group 0's root sends the p blocks to group 1's root, which broadcasts
 *    them in group 1 (MPICH's broadcast: binomial below 12,288 bytes or 8
 *    processes, else scatter + ring allgather: coll_intergroup.h).
 * 3. Only then group 1's root sends its q blocks to group 0's root, which
 *    broadcasts them in group 0.
 * Steps 2 and 3 are sequential, as in the library: group 1's root sends only
 * after its part of the first broadcast.
 *
 * Cost (Eq. (2)): about (max((p-1)k_A, (q-1)k_B) + 3 p k_A + 3 q k_B) beta
 * + (2 + 2 log p + log q) alpha; transfer ~ M + 3(p k_A + q k_B).
 * Memory: the root's gather buffer, n x its block (scratch); inner nodes of
 * the gather tree hold their subtree's blocks. Any p, q >= 1, blocks >= 0. */
#include "coll_intergroup.h"
#include "collsim_algorithms.h"

int collsim_inter_allgather_root_gather_mpich(COLLSIM_INTER_ALLGATHER_ARGS)
{
    size_t mine, remote;
    int e = ig_allgather_begin(sendbuf, sendcount, sendtype, recvcount, recvtype, ig, &mine, &remote);
    if (e != MPI_SUCCESS)
        return e;
    return ig_root_gather(sendbuf, mine, recvbuf, remote, ig, 1, ig_bcast_mpich);
}
