/* Ring allreduce (Patarasuk and Yuan 2009, the bandwidth-optimal logical
 * ring; a ring reduce-scatter followed by a ring allgather). The vector is
 * cut into p segments as even as they go (coll_seg_start). Reduce-scatter:
 * in step s = 0..p-2 a process sends its partial segment rank - s to its
 * right neighbour and combines the segment rank - s - 1 it receives from its
 * left one; after p-1 steps it holds segment rank + 1 fully reduced.
 * Allgather: p-1 more steps pass the reduced segments around the ring.
 * Empty segments (count < p) are not sent.
 *
 * Cost: 2 (p-1) α + 2 ((p-1)/p) m β + ((p-1)/p) m γ, the bandwidth term
 * optimal (Patarasuk and Yuan). Memory: one segment of scratch.
 * Restrictions: commutative operations only (the ring combines each
 * segment starting from a different rank): MPI_ERR_OP for a non-commutative
 * one; any p, counts >= 0 (not divisible by p); MPI_IN_PLACE; contiguous
 * types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

/* send segment sj to `to` and receive segment rj from `from` into dst */
static int step(void *buf, void *dst, int sj, int rj, int count, int p, size_t elem,
                MPI_Datatype type, int to, int from, MPI_Comm comm)
{
    MPI_Request req[2];
    int nreq = 0, err;
    const int rn = coll_seg_count(count, p, rj), sn = coll_seg_count(count, p, sj);
    if (rn > 0 && (err = MPI_Irecv(dst, rn, type, from, COLL_TAG_ALLREDUCE, comm,
                                   &req[nreq++])) != MPI_SUCCESS)
        return err;
    if (sn > 0 && (err = MPI_Isend(coll_elems(buf, coll_seg_start(count, p, sj), elem), sn, type,
                                   to, COLL_TAG_ALLREDUCE, comm, &req[nreq++])) != MPI_SUCCESS)
        return err;
    return MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
}

int collsim_allreduce_ring(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = coll_allreduce_begin(sendbuf, recvbuf, count, datatype, op, 1, comm, &rank, &p,
                                    &elem)) != MPI_SUCCESS || !elem)
        return err;
    const int right = (rank + 1) % p, left = (rank - 1 + p) % p;
    void *tmp = coll_scratch_alloc((size_t)coll_seg_count(count, p, 0) * elem);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    for (int s = 0; s < p - 1 && err == MPI_SUCCESS; s++) {
        const int sj = coll_mod(rank - s, p), rj = coll_mod(rank - s - 1, p);
        err = step(recvbuf, tmp, sj, rj, count, p, elem, datatype, right, left, comm);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(tmp, coll_elems(recvbuf, coll_seg_start(count, p, rj), elem),
                                    coll_seg_count(count, p, rj), datatype, op);
    }
    for (int s = 0; s < p - 1 && err == MPI_SUCCESS; s++) {
        const int sj = coll_mod(rank + 1 - s, p), rj = coll_mod(rank - s, p);
        err = step(recvbuf, coll_elems(recvbuf, coll_seg_start(count, p, rj), elem), sj, rj, count,
                   p, elem, datatype, right, left, comm);
    }
    coll_scratch_free(tmp);
    return err;
}
