/* Scatter + recursive-doubling allgather broadcast (van de Geijn's
 * long-message broadcast with the allgather by recursive doubling: Thakur,
 * Rabenseifner, Gropp 2005, Section 4, "Broadcast", MPICH's choice for
 * medium messages on power-of-two p; Chan et al. 2007, Section 5). The
 * buffer is cut into p segments of ceil(count/p) elements (the last ones
 * shorter or empty), segment j belonging to relative rank j = (rank - root)
 * mod p, and scattered by a binomial tree as in scatter_ring_allgather. The
 * allgather then doubles what a process holds: before the step of distance
 * 2^i a process holds the segments of its aligned group of 2^i relative
 * ranks, and exchanges them with the process 2^i away, whose group is the
 * other half of the next aligned group of 2^(i+1).
 *
 * Any p: relative ranks of the virtual cube 2^ceil(log2 p) that do not exist
 * have no segment; a process whose partner does not exist is missing the
 * existing part of that partner's half. After each step, in every group of
 * 2^(i+1) whose upper half exists only partly, the lower-half processes
 * whose partner exists (they hold the whole group now) pass that part on to
 * the others of the lower half, doubling the holders each round (ceil(log2)
 * rounds of at most (2^i / p) m bytes each).
 *
 * Cost: scatter ceil(log2 p) α + ((p-1)/p) m β, allgather log2(p) α +
 * ((p-1)/p) m β on a power of two: about 2 m β and 2 log2(p) α; other p
 * add the rounds of the missing parts. Memory: none beyond the buffer.
 * Restrictions: none; any root, any p, counts >= 0 (not divisible by p);
 * contiguous types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

/* segments [lo, hi) of the buffer to / from relative rank `to` (nothing when empty) */
static int send_segs(void *buf, long chunk, int count, long lo, long hi, size_t elem,
                     MPI_Datatype type, int to, int root, int p, MPI_Comm comm)
{
    const long a = coll_bcast_seg(chunk, count, lo), n = coll_bcast_seg(chunk, count, hi) - a;
    return n > 0 ? MPI_Send(coll_elems(buf, a, elem), (int)n, type, (to + root) % p,
                            COLL_TAG_BCAST, comm)
                 : MPI_SUCCESS;
}

static int recv_segs(void *buf, long chunk, int count, long lo, long hi, size_t elem,
                     MPI_Datatype type, int from, int root, int p, MPI_Comm comm)
{
    const long a = coll_bcast_seg(chunk, count, lo), n = coll_bcast_seg(chunk, count, hi) - a;
    return n > 0 ? MPI_Recv(coll_elems(buf, a, elem), (int)n, type, (from + root) % p,
                            COLL_TAG_BCAST, comm, MPI_STATUS_IGNORE)
                 : MPI_SUCCESS;
}

int collsim_bcast_scatter_rd_allgather(void *buffer, int count, MPI_Datatype datatype, int root,
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
    /* recursive-doubling allgather over the virtual cube */
    for (long m = 1; m < p; m <<= 1) {
        const long mine = vr & ~(m - 1), lo = vr & ~(2 * m - 1), mid = lo + m;
        const long partner = vr ^ m, theirs = partner & ~(m - 1);
        if (partner < p) {
            const long sa = coll_bcast_seg(chunk, count, mine), sn = coll_bcast_seg(chunk, count, mine + m) - sa;
            const long ra = coll_bcast_seg(chunk, count, theirs), rn = coll_bcast_seg(chunk, count, theirs + m) - ra;
            err = MPI_Sendrecv(coll_elems(buffer, sa, elem), (int)sn, datatype,
                               (int)((partner + root) % p), COLL_TAG_BCAST,
                               coll_elems(buffer, ra, elem), (int)rn, datatype,
                               (int)((partner + root) % p), COLL_TAG_BCAST, comm,
                               MPI_STATUS_IGNORE);
            if (err != MPI_SUCCESS)
                return err;
        }
        /* the upper half [mid, p) exists only partly: the first `have` of the
         * lower half hold it (their partners exist), the rest get it */
        if (vr >= mid || mid >= p || lo + 2 * m <= p)
            continue;
        const long j = vr - lo;
        for (long have = p - m - lo; have < m; have <<= 1) {
            if (j < have && j + have < m)
                err = send_segs(buffer, chunk, count, mid, p, elem, datatype, (int)(vr + have),
                                root, p, comm);
            else if (j >= have && j < 2 * have)
                err = recv_segs(buffer, chunk, count, mid, p, elem, datatype, (int)(vr - have),
                                root, p, comm);
            if (err != MPI_SUCCESS)
                return err;
        }
    }
    return MPI_SUCCESS;
}
