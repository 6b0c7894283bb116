/* Helpers of the broadcast and reduction algorithms (coll_reduce.h). */
#include "coll_reduce.h"

#include "coll_util.h"

int coll_reduce_local(const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op)
{
    int size, err = MPI_SUCCESS;
    if (count <= 0)
        return MPI_SUCCESS;
    if ((err = MPI_Type_size(type, &size)) != MPI_SUCCESS)
        return err;
    if (coll_local_moves())
        err = MPI_Reduce_local(in, inout, count, type, op);
    coll_op_charge((size_t)count * (size_t)size);
    return err;
}

static int begin(int count, MPI_Datatype type, MPI_Comm comm, int *rank, int *size, size_t *elem)
{
    int err;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    if (count < 0)
        return MPI_ERR_COUNT;
    if ((err = coll_block_bytes(type, 1, elem)) != MPI_SUCCESS)
        return err;
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, size);
    return MPI_SUCCESS;
}

/* nothing to move: *elem = 0 */
static void nothing_left(int count, int size, size_t *elem)
{
    if (count == 0 || size == 1)
        *elem = 0;
}

int coll_bcast_begin(int count, MPI_Datatype type, int root, MPI_Comm comm, int *rank, int *size,
                     size_t *elem)
{
    int err = begin(count, type, comm, rank, size, elem);
    if (err == MPI_SUCCESS && (root < 0 || root >= *size))
        return MPI_ERR_ROOT;
    if (err == MPI_SUCCESS)
        nothing_left(count, *size, elem);
    return err;
}

int coll_allreduce_begin(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                         MPI_Op op, int commutative_only, MPI_Comm comm, int *rank, int *size,
                         size_t *elem)
{
    int err = begin(count, type, comm, rank, size, elem), commutative = 1;
    if (err != MPI_SUCCESS)
        return err;
    if (commutative_only && ((err = MPI_Op_commutative(op, &commutative)) != MPI_SUCCESS))
        return err;
    if (!commutative)
        return MPI_ERR_OP;
    if (sendbuf != MPI_IN_PLACE)
        coll_copy_data(recvbuf, sendbuf, (size_t)count * *elem);
    nothing_left(count, *size, elem);
    return MPI_SUCCESS;
}

coll_fold coll_fold_of(int rank, int p)
{
    coll_fold f;
    f.pof2 = coll_floor_pow2(p);
    f.rem = p - f.pof2;
    f.newrank = rank < 2 * f.rem ? (rank % 2 ? rank / 2 : -1) : rank - f.rem;
    return f;
}

int coll_fold_in(const coll_fold *f, int rank, void *recvbuf, void *tmp, int count,
                 MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (rank >= 2 * f->rem)
        return MPI_SUCCESS;
    if (rank % 2 == 0)
        return MPI_Send(recvbuf, count, type, rank + 1, COLL_TAG_ALLREDUCE, comm);
    int err = MPI_Recv(tmp, count, type, rank - 1, COLL_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
    return err != MPI_SUCCESS ? err : coll_reduce_local(tmp, recvbuf, count, type, op);
}

int coll_fold_out(const coll_fold *f, int rank, void *recvbuf, int count, MPI_Datatype type,
                  MPI_Comm comm)
{
    if (rank >= 2 * f->rem)
        return MPI_SUCCESS;
    if (rank % 2)
        return MPI_Send(recvbuf, count, type, rank - 1, COLL_TAG_ALLREDUCE, comm);
    return MPI_Recv(recvbuf, count, type, rank + 1, COLL_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
}

int coll_halving_reduce_scatter(const coll_fold *f, const coll_rank_map *map, void *buf,
                                void *tmp, int count, MPI_Datatype type, size_t elem, MPI_Op op,
                                int tag, MPI_Comm comm, int *lo, int *hi, int *mask)
{
    const int pof2 = f->pof2, nr = f->newrank;
    int err = MPI_SUCCESS;
    *lo = 0, *hi = pof2, *mask = 1;
#define SEG(i) coll_seg_start(count, pof2, (i))
    for (; err == MPI_SUCCESS && nr >= 0 && *mask < pof2; *mask <<= 1) {
        const int dst = map ? map->rank_of(map->ctx, f, nr ^ *mask) : coll_fold_real(f, nr ^ *mask);
        const int mid = *lo + (*hi - *lo) / 2;
        const int lower = nr < (nr ^ *mask);
        const int keep_lo = lower ? *lo : mid, keep_hi = lower ? mid : *hi;
        const int send_lo = lower ? mid : *lo, send_hi = lower ? *hi : mid;
        err = MPI_Sendrecv(coll_elems(buf, SEG(send_lo), elem), (int)(SEG(send_hi) - SEG(send_lo)),
                           type, dst, tag, coll_elems(tmp, SEG(keep_lo), elem),
                           (int)(SEG(keep_hi) - SEG(keep_lo)), type, dst, tag, comm,
                           MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(coll_elems(tmp, SEG(keep_lo), elem),
                                    coll_elems(buf, SEG(keep_lo), elem),
                                    (int)(SEG(keep_hi) - SEG(keep_lo)), type, op);
        *lo = keep_lo;
        *hi = keep_hi;
    }
#undef SEG
    return err;
}

int coll_bcast_scatter(void *buffer, int count, MPI_Datatype type, size_t elem, long chunk,
                       int root, int vr, int p, MPI_Comm comm)
{
    int err, mask = 1;
    while (mask < p && !(vr & mask))
        mask <<= 1;
    if (mask < p) {
        const int hi = vr + mask < p ? vr + mask : p;
        const long lo_e = coll_bcast_seg(chunk, count, vr),
                   n = coll_bcast_seg(chunk, count, hi) - lo_e;
        if (n > 0 && (err = MPI_Recv(coll_elems(buffer, lo_e, elem), (int)n, type,
                                     (vr - mask + root) % p, COLL_TAG_BCAST, comm,
                                     MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return err;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask >= p)
            continue;
        const int child = vr + mask, hi = child + mask < p ? child + mask : p;
        const long lo_e = coll_bcast_seg(chunk, count, child),
                   n = coll_bcast_seg(chunk, count, hi) - lo_e;
        if (n > 0 && (err = MPI_Send(coll_elems(buffer, lo_e, elem), (int)n, type,
                                     (child + root) % p, COLL_TAG_BCAST, comm)) != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}
