/* Scatter + ring allgather broadcast (van de Geijn's long-message broadcast,
 * as MPICH runs it; Thakur, Rabenseifner, Gropp 2005, Section 4, "Broadcast").
 * The buffer is cut into p segments of ceil(count/p) elements (the last ones
 * shorter or empty), segment j belonging to relative rank j = (rank - root)
 * mod p. A binomial scatter gives each process its segment (a process
 * receives its subtree's segments, in place in the buffer, and passes the
 * upper halves on), then a ring allgather of p-1 steps completes every
 * buffer: in step s a process sends segment vr - s to its right neighbour
 * and receives segment vr - s - 1 from its left one. Empty segments are not
 * sent (every process knows every segment's size).
 *
 * Cost: ceil(log2 p) α + ((p-1)/p) m β for the scatter, (p-1) α + ((p-1)/p)
 * m β for the allgather: about 2 m β against the binomial's log2(p) m β.
 * Memory: none beyond the buffer. Restrictions: none; any root, any p,
 * counts >= 0 (not divisible by p); contiguous types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

int collsim_bcast_scatter_ring_allgather(void *buffer, int count, MPI_Datatype datatype, int root,
                                         MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = coll_bcast_begin(count, datatype, root, comm, &rank, &p, &elem)) != MPI_SUCCESS || !elem)
        return err;
    const int vr = coll_mod(rank - root, p);
    const long chunk = (count + p - 1) / p;
    if ((err = coll_bcast_scatter(buffer, count, datatype, elem, chunk, root, vr, p, comm)) !=
        MPI_SUCCESS)
        return err;
    /* ring allgather of the segments */
    const int right = (rank + 1) % p, left = (rank - 1 + p) % p;
    for (int s = 0; s < p - 1; s++) {
        const int sj = coll_mod(vr - s, p), rj = coll_mod(vr - s - 1, p);
        const long s_lo = coll_bcast_seg(chunk, count, sj), s_n = coll_bcast_seg(chunk, count, sj + 1) - s_lo;
        const long r_lo = coll_bcast_seg(chunk, count, rj), r_n = coll_bcast_seg(chunk, count, rj + 1) - r_lo;
        MPI_Request req[2];
        int nreq = 0;
        if (r_n > 0 && (err = MPI_Irecv(coll_elems(buffer, r_lo, elem), (int)r_n, datatype, left,
                                        COLL_TAG_BCAST, comm, &req[nreq++])) != MPI_SUCCESS)
            return err;
        if (s_n > 0 && (err = MPI_Isend(coll_elems(buffer, s_lo, elem), (int)s_n, datatype, right,
                                        COLL_TAG_BCAST, comm, &req[nreq++])) != MPI_SUCCESS)
            return err;
        if ((err = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE)) != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}
