/* Pipelined chain broadcast (Chan, Heimlich, Purkayastha, van de Geijn 2007,
 * Section 5, the long-vector "pipelined" broadcast along a linear array;
 * Open MPI's chain/pipeline broadcast with one chain). Relative rank vr =
 * (rank - root) mod p; the chain runs root -> vr 1 -> ... -> vr p-1. The
 * buffer is cut into segments of the segment size (coll_segment.h: the
 * case's --segment, rounded down to whole elements, at least one; the last
 * segment shorter); a process receives segment k from vr - 1 while it
 * forwards segment k - 1 to vr + 1 (the receive of the next segment is
 * posted before the current one is sent on).
 *
 * Cost: (p - 2 + n_s)(α + s β), n_s = ceil(m / s) segments of s bytes: m β
 * plus (p - 2) s β of filling the pipeline, against the binomial's
 * ceil(log2 p) m β; the optimal s is sqrt(m α / ((p - 2) β)). Memory: none
 * beyond the buffer. Restrictions: none; any root, any p, counts >= 0;
 * contiguous types. */
#include "../coll_reduce.h"
#include "../coll_segment.h"
#include "../collsim_algorithms.h"

int collsim_bcast_pipelined_chain(void *buffer, int count, MPI_Datatype datatype, int root,
                                  MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = coll_bcast_begin(count, datatype, root, comm, &rank, &p, &elem)) != MPI_SUCCESS || !elem)
        return err;
    const int vr = coll_mod(rank - root, p);
    const int parent = (rank - 1 + p) % p, child = (rank + 1) % p, has_child = vr + 1 < p;
    const long s = coll_segment_elems(elem), nseg = (count + s - 1) / s;
#define SEG_N(k) (int)((k) + 1 < nseg ? s : count - (k) * s)
    MPI_Request req = MPI_REQUEST_NULL;
    if (vr > 0)
        err = MPI_Irecv(buffer, SEG_N(0), datatype, parent, COLL_TAG_BCAST, comm, &req);
    for (long k = 0; k < nseg && err == MPI_SUCCESS; k++) {
        if (vr > 0) {
            err = MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (err == MPI_SUCCESS && k + 1 < nseg)
                err = MPI_Irecv(coll_elems(buffer, (k + 1) * s, elem), SEG_N(k + 1), datatype,
                                parent, COLL_TAG_BCAST, comm, &req);
        }
        if (err == MPI_SUCCESS && has_child)
            err = MPI_Send(coll_elems(buffer, k * s, elem), SEG_N(k), datatype, child,
                           COLL_TAG_BCAST, comm);
    }
#undef SEG_N
    if (err != MPI_SUCCESS && req != MPI_REQUEST_NULL) {
        MPI_Cancel(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    return err;
}
