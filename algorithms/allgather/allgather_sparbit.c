/* Sparbit allgather (Loch and Koslovski, Sparbit paper Section III-B,
 * Algorithm 1): every rank roots a binomial tree for its own block; distances
 * halve from 2^(ceil(log2 p)-1) down to 1 while the data doubles, so the large
 * late steps stay between near ranks.
 *
 * Two members of the family share one schedule:
 *  - sparbit: one Isend/Irecv per block per step, as the paper's Algorithm 1
 *    (the message count is part of what is simulated);
 *  - sparbit_indexed: the same blocks, one message per step described by an
 *    indexed datatype. Its last step has 1 message per rank instead of p/2,
 *    which is what makes 32K ranks simulable (SMPI 3.32's cost grows with the
 *    number of messages in flight: p^2/2 of them would not fit in memory);
 *  - sparbit_packed: the same messages as sparbit_indexed, packed by the
 *    algorithm into a scratch buffer and sent contiguous. SMPI packs a
 *    derived-datatype message into a temporary buffer of its own even from
 *    folded memory (32K ranks: sparbit_indexed was killed at 20.6 GB); a
 *    folded scratch buffer avoids that, and folded bytes need no packing.
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
#include <string.h>

static int count_trailing_zeros(unsigned v)
{
    int n = 0;

    while (v != 0 && (v & 1u) == 0) {
        v >>= 1;
        n++;
    }
    return n;
}

/* The blocks a step moves: the first `n` held blocks, walked from `rank` by
 * -2d, each sent to rank+d while block (held - d) arrives from rank-d. */
typedef struct {
    int d, n;
} sparbit_step;

/* Fills steps[] (at most 31) from the bits of p (paper Fig. 4); returns the
 * number of steps. */
static int sparbit_schedule(int p, sparbit_step *steps)
{
    const unsigned up = (unsigned)p;
    const int last_ignore = count_trailing_zeros(up);
    const unsigned ignore_steps = (~(up >> last_ignore) | 1u) << last_ignore;
    int data = 1, k = 0;

    for (int d = 1 << (coll_ceil_log2(p) - 1); d > 0; d >>= 1) {
        const int ignore = (ignore_steps & (unsigned)d) ? 1 : 0;
        steps[k].d = d;
        steps[k++].n = data - ignore;
        data = 2 * data - ignore;
    }
    return k;
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

    sparbit_step steps[32];
    const int nsteps = sparbit_schedule(p, steps);
    for (int s = 0; s < nsteps && err == MPI_SUCCESS; s++) {
        const int d = steps[s].d;
        const int to = coll_mod(rank + d, p), from = coll_mod(rank - d, p);
        int nreq = 0, sblk = rank;

        for (int j = 0; j < steps[s].n && err == MPI_SUCCESS; j++) {
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
    }
    free(req);
    return err;
}

int collsim_allgather_sparbit_indexed(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_allgather_begin(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0 || p == 1)
        return err;

    /* displacements in elements of recvtype: block index x recvcount, which
     * fits an int because coll_allgather_begin checked p * recvcount */
    int *sdisp = malloc(sizeof(int) * (size_t)(p + 1));
    if (sdisp == NULL)
        return MPI_ERR_NO_MEM;
    int *rdisp = sdisp + (p + 1) / 2;

    sparbit_step steps[32];
    const int nsteps = sparbit_schedule(p, steps);
    for (int s = 0; s < nsteps && err == MPI_SUCCESS; s++) {
        const int d = steps[s].d, n = steps[s].n;
        int sblk = rank;
        for (int j = 0; j < n; j++) {
            sdisp[j] = sblk * recvcount;
            rdisp[j] = coll_mod(sblk - d, p) * recvcount;
            sblk = coll_mod(sblk - 2 * d, p);
        }
        MPI_Datatype stype, rtype;
        MPI_Request req[2];
        err = MPI_Type_create_indexed_block(n, recvcount, sdisp, recvtype, &stype);
        if (err != MPI_SUCCESS)
            break;
        err = MPI_Type_create_indexed_block(n, recvcount, rdisp, recvtype, &rtype);
        if (err != MPI_SUCCESS) {
            MPI_Type_free(&stype);
            break;
        }
        MPI_Type_commit(&stype);
        MPI_Type_commit(&rtype);
        err = MPI_Irecv(recvbuf, 1, rtype, coll_mod(rank - d, p), COLL_TAG_ALLGATHER, comm, &req[0]);
        if (err == MPI_SUCCESS) {
            err = MPI_Isend(recvbuf, 1, stype, coll_mod(rank + d, p), COLL_TAG_ALLGATHER, comm,
                            &req[1]);
            const int werr = MPI_Waitall(err == MPI_SUCCESS ? 2 : 1, req, MPI_STATUSES_IGNORE);
            if (err == MPI_SUCCESS)
                err = werr;
        }
        MPI_Type_free(&stype);
        MPI_Type_free(&rtype);
    }
    free(sdisp);
    return err;
}

int collsim_allgather_sparbit_packed(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_allgather_begin(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0 || p == 1)
        return err;

    /* a step moves at most ceil(p/2) blocks each way */
    const size_t half = (size_t)(p + 1) / 2;
    unsigned char *out = coll_scratch_alloc(2 * half * bb);
    if (out == NULL)
        return MPI_ERR_NO_MEM;
    unsigned char *in = out + half * bb;
    const int pack = coll_local_moves();

    sparbit_step steps[32];
    const int nsteps = sparbit_schedule(p, steps);
    for (int s = 0; s < nsteps && err == MPI_SUCCESS; s++) {
        const int d = steps[s].d, n = steps[s].n;
        int sblk = rank;
        for (int j = 0; pack && j < n; j++) {
            memcpy(out + (size_t)j * bb, coll_block(recvbuf, sblk, bb), bb);
            sblk = coll_mod(sblk - 2 * d, p);
        }
        MPI_Request req[2];
        err = MPI_Irecv(in, n * recvcount, recvtype, coll_mod(rank - d, p), COLL_TAG_ALLGATHER, comm,
                        &req[0]);
        if (err == MPI_SUCCESS) {
            err = MPI_Isend(out, n * recvcount, recvtype, coll_mod(rank + d, p), COLL_TAG_ALLGATHER,
                            comm, &req[1]);
            const int werr = MPI_Waitall(err == MPI_SUCCESS ? 2 : 1, req, MPI_STATUSES_IGNORE);
            if (err == MPI_SUCCESS)
                err = werr;
        }
        sblk = rank;
        for (int j = 0; pack && err == MPI_SUCCESS && j < n; j++) {
            memcpy(coll_block(recvbuf, coll_mod(sblk - d, p), bb), in + (size_t)j * bb, bb);
            sblk = coll_mod(sblk - 2 * d, p);
        }
    }
    coll_scratch_free(out);
    return err;
}
