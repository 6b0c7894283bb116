/* Bruck allgather (Bruck et al. 1997; Sparbit paper Section II-A), in place in
 * recvbuf: working slot i holds block (rank + i) mod p. Step k (distance
 * d = 2^k < p) sends the first min(d, p-d) slots to rank-d and receives as many
 * from rank+d right after the d slots already held; a final block rotation puts
 * block j at recvbuf[j]. No scratch buffer: at 32K folded ranks a p-block
 * allocation per rank would not fit.
 *
 * Cost (analysis/cost_model.c, bruck; Sparbit paper II-A, loc-Bruck paper
 * Eq. (3)): ceil(log2 p) α + (p-1)(m/p) β, step d sending min(d, p-d) blocks.
 * Memory: the receive buffer only. Restrictions: any p; contiguous types;
 * MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <string.h>

int collsim_allgather_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_allgather_begin(collsim_allgather_bruck, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, collsim_allgather_bruck_msg_blocks, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;

    /* Own block to working slot 0 (a local copy, never a message). */
    if (rank != 0)
        coll_copy(recvbuf, coll_block(recvbuf, rank, bb), bb);

    for (int d = 1; d < p; d *= 2) {
        const int n = d < p - d ? d : p - d;
        err = coll_sendrecv_blocks(recvbuf, bb, recvcount, recvtype,
                                   0, n, coll_mod(rank - d, p),
                                   d, n, coll_mod(rank + d, p), comm);
        if (err != MPI_SUCCESS)
            return err;
    }

    /* Slot i holds block rank+i: shifting by rank puts every block home. */
    coll_rotate_blocks(recvbuf, p, bb, rank);
    return MPI_SUCCESS;
}
