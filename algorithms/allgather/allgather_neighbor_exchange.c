/* Neighbor exchange allgather (Chen et al. 2005; Sparbit paper Section II-A):
 * only pairwise exchanges, p/2 steps. Step 0 swaps own blocks with rank^1, so
 * each rank then holds its pair P = rank/2 (blocks 2P, 2P+1, contiguous in
 * recvbuf). Each later step i alternates the neighbour (rank-1 or rank+1),
 * forwards the pair received on step i-1 and receives a new pair; pairs thus
 * spread by one per step in each direction around the ring of p/2 pairs.
 * Needs even p; odd p falls back to ring (algorithms.def).
 *
 * Cost (analysis/cost_model.c, neighbor_exchange; Sparbit paper II-A): even p,
 * (p/2) α + (p-1)(m/p) β (one step of one block, p/2-1 of two); odd p, the
 * ring's. Memory: the receive buffer only. Restrictions: even p (odd p: the
 * ring); contiguous types; MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

int collsim_allgather_neighbor_exchange(const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf,
                                        int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    if ((err = MPI_Comm_size(comm, &p)) != MPI_SUCCESS)
        return err;
    if (p % 2 != 0)
        return collsim_allgather_ring(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                      recvtype, comm);

    err = coll_allgather_begin(collsim_allgather_neighbor_exchange, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, collsim_allgather_neighbor_exchange_msg_blocks,
                               &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;

    const int q = p / 2, pair = rank / 2, even = rank % 2 == 0;
    err = coll_sendrecv_blocks(recvbuf, bb, recvcount, recvtype, rank, 1, rank ^ 1,
                               rank ^ 1, 1, rank ^ 1, comm);
    if (err != MPI_SUCCESS)
        return err;

    int sent_pair = pair; /* the pair to forward on the next step */
    for (int i = 1; i < q; i++) {
        /* Even ranks go left on odd steps and right on even ones; odd ranks do
         * the opposite, so both ends of an exchange agree. The pair received is
         * (i+1)/2 pairs away from the own pair, on the partner's side. */
        const int dir = (even == (i % 2 == 1)) ? -1 : 1;
        const int partner = coll_mod(rank + dir, p);
        const int recv_pair = coll_mod(pair + dir * ((i + 1) / 2), q);
        err = coll_sendrecv_blocks(recvbuf, bb, recvcount, recvtype,
                                   2 * sent_pair, 2, partner,
                                   2 * recv_pair, 2, partner, comm);
        if (err != MPI_SUCCESS)
            return err;
        sent_pair = recv_pair;
    }
    return MPI_SUCCESS;
}
