/* Sparbit allgather (Loch and Koslovski, Sparbit paper Section III-B,
 * Algorithm 1): every rank roots a binomial tree for its own block; distances
 * halve from 2^(ceil(log2 p)-1) down to 1 while the data doubles, so the large
 * late steps stay between near ranks. One Isend/Irecv per block per step, as in
 * the paper (the message count is part of what is simulated).
 *
 * Invariant: at the step with distance d a rank holds the blocks
 * (rank - 2jd) mod p for j < data, each in its final slot. It forwards the first
 * data - ignore of them to rank+d and receives blocks (rank - (2j+1)d) mod p
 * from rank-d straight into their slots, so no rotation is needed. On steps
 * flagged in ignore_steps (built from the bits of p, paper Fig. 4) the last
 * block held came from a tree in which this rank is a leaf and is not sent. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <stdlib.h>

static int count_trailing_zeros(unsigned v)
{
    int n = 0;

    while (v != 0 && (v & 1u) == 0) {
        v >>= 1;
        n++;
    }
    return n;
}

int collsim_allgather_sparbit(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_allgather_begin(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0 || p == 1)
        return err;

    /* A step sends at most p/2 blocks (the last: data - ignore = (p - ignore)/2).
     * Requests are per-rank state, so plain malloc, never the (possibly
     * folding) scratch allocator. */
    const int max_req = 2 * ((p + 1) / 2);
    MPI_Request *req = malloc(sizeof *req * (size_t)max_req);
    if (req == NULL)
        return MPI_ERR_NO_MEM;

    const unsigned up = (unsigned)p;
    const int last_ignore = count_trailing_zeros(up);
    const unsigned ignore_steps = (~(up >> last_ignore) | 1u) << last_ignore;
    int data = 1;

    for (int d = 1 << (coll_ceil_log2(p) - 1); d > 0; d >>= 1) {
        const int ignore = (ignore_steps & (unsigned)d) ? 1 : 0;
        const int to = coll_mod(rank + d, p), from = coll_mod(rank - d, p);
        int nreq = 0, sblk = rank;

        for (int j = 0; j < data - ignore && err == MPI_SUCCESS; j++) {
            /* Walk the held blocks rank - 2jd incrementally: no p*p overflow. */
            const int rblk = coll_mod(sblk - d, p);
            err = MPI_Irecv(coll_block(recvbuf, rblk, bb), recvcount, recvtype, from,
                            COLL_TAG_ALLGATHER, comm, &req[nreq]);
            if (err == MPI_SUCCESS)
                nreq++;
            if (err == MPI_SUCCESS)
                err = MPI_Isend(coll_block(recvbuf, sblk, bb), recvcount, recvtype, to,
                                COLL_TAG_ALLGATHER, comm, &req[nreq]);
            if (err == MPI_SUCCESS)
                nreq++;
            sblk = coll_mod(sblk - 2 * d, p);
        }
        /* Complete what was posted even after an error: the buffers stay ours. */
        const int werr = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (err == MPI_SUCCESS)
            err = werr;
        if (err != MPI_SUCCESS)
            break;
        data = 2 * data - ignore;
    }
    free(req);
    return err;
}
