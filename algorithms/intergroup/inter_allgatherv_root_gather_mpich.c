/* Intergroup allgatherv by root gathering as MPICH (and so MVAPICH) structures
 * it: the baseline of Kang, Traff et al. 2019, Section 5 (settings 5-8); the
 * remote-gather-local-broadcast structure of MPICH's intercommunicator
 * allgatherv (read, not copied; docs/papers.md, "Kang: root gathering in the
 * libraries"). A group does not know its own
 * members' counts (recvcounts describe the remote group), so no local gather:
 *
 * 1. Gatherv of group 1's blocks on group 0's root: that root posts a receive
 *    per member of group 1 (linear gatherv) and waits; every member of group 1
 *    sends its block to it.
 * 2. Then gatherv of group 0's blocks on group 1's root, the same way.
 *    Senders use a synchronous send when their group has 32 members or more
 *    (MPICH's default threshold for intercommunicator gatherv), a standard
 *    send otherwise; zero-byte blocks are not sent.
 * 3. Each root broadcasts the remote blocks in its group (MPICH's broadcast of
 *    coll_intergroup.h on the K bytes, packed; the library broadcasts an
 *    indexed datatype of the same bytes), both groups at once.
 *
 * Cost: (q-1 or q) alpha + K_B beta, then p alpha + K_A beta in sequence,
 * then max(Bcast_A(K_B), Bcast_B(K_A)) concurrently: about K_A + K_B + 2M, i.e.
 * ~4M for K_A = K_B (not Eq. (2)'s 7M: the paper applies Eq. (5) to it).
 * Memory: a packed copy of the remote stream (scratch) when displs are not its
 * prefix sums. Any p, q >= 1, any counts >= 0. */
#include <stdlib.h>
#include <string.h>

#include "coll_intergroup.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

/* Step 1 (step 0 here: group 1's blocks to group 0's root) and step 2. */
static int gatherv_step(int step, const void *sendbuf, size_t mine, char *recvbuf,
                        const int *recvcounts, const int *displs, size_t unit,
                        const collsim_intergroup *ig)
{
    const int tag = step == 0 ? IG_TAG_B2A : IG_TAG_A2B;
    if (ig->group != step) { /* a sender of this step */
        if (!mine)
            return MPI_SUCCESS;
        return ig->local_size >= 32
                   ? MPI_Ssend(sendbuf, (int)mine, MPI_BYTE, ig->remote_ranks[0], tag, ig->comm)
                   : MPI_Send(sendbuf, (int)mine, MPI_BYTE, ig->remote_ranks[0], tag, ig->comm);
    }
    if (ig->local_rank != 0)
        return MPI_SUCCESS;
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)ig->remote_size);
    if (!rq)
        return MPI_ERR_NO_MEM;
    int nr = 0;
    for (int j = 0; j < ig->remote_size; j++)
        if (recvcounts[j])
            MPI_Irecv(recvbuf + (size_t)displs[j] * unit, (int)((size_t)recvcounts[j] * unit),
                      MPI_BYTE, ig->remote_ranks[j], tag, ig->comm, &rq[nr++]);
    int e = MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
    free(rq);
    return e;
}

int collsim_inter_allgatherv_root_gather_mpich(COLLSIM_INTER_ALLGATHERV_ARGS)
{
    size_t mine, unit;
    int e = ig_allgatherv_begin(sendbuf, sendcount, sendtype, recvcounts, displs, recvtype, ig,
                                &mine, &unit);
    for (int step = 0; step < 2 && e == MPI_SUCCESS; step++)
        e = gatherv_step(step, sendbuf, mine, recvbuf, recvcounts, displs, unit, ig);
    if (e != MPI_SUCCESS)
        return e;
    return ig_bcast_remote_blocks(recvbuf, recvcounts, displs, unit, ig, ig_bcast_mpich);
}
