/* Datatypes with holes and MPI_IN_PLACE around an algorithm (coll_adapt.h). */
#include "coll_adapt.h"

#include <limits.h>
#include <stdlib.h>

#include "coll_util.h"

int coll_gap_free(MPI_Datatype type)
{
    int size;
    MPI_Aint lb, extent;
    if (MPI_Type_size(type, &size) != MPI_SUCCESS ||
        MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS)
        return 1; /* not a type: the algorithm's own check says so */
    return lb == 0 && (MPI_Aint)size == extent;
}

/* The packed bytes of count x type, or -1 (a negative count, not a type, more
 * than an int's bytes). */
static long long packed_bytes(int count, MPI_Datatype type)
{
    int size;
    if (count < 0 || MPI_Type_size(type, &size) != MPI_SUCCESS)
        return -1;
    const long long b = (long long)count * size;
    return b > INT_MAX ? -1 : b;
}

static MPI_Aint extent_of(MPI_Datatype type)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

/* count x type at buf + displ extents <-> `bytes` packed bytes at packed */
static int pack_at(const void *buf, MPI_Aint displ, int count, MPI_Datatype type, char *packed,
                   int bytes, MPI_Comm comm)
{
    int pos = 0;
    return bytes == 0 ? MPI_SUCCESS
                      : MPI_Pack((const char *)buf + displ * extent_of(type), count, type, packed,
                                 bytes, &pos, comm);
}

static int unpack_at(const char *packed, int bytes, void *buf, MPI_Aint displ, int count,
                     MPI_Datatype type, MPI_Comm comm)
{
    int pos = 0;
    return bytes == 0 ? MPI_SUCCESS
                      : MPI_Unpack(packed, bytes, &pos, (char *)buf + displ * extent_of(type), count,
                                   type, comm);
}

int coll_adapt_block(collsim_block_coll_fn self, int alltoall, const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     MPI_Comm comm, int *err)
{
    const int in_place = sendbuf == MPI_IN_PLACE;
    const int pack_send = alltoall ? in_place || !coll_gap_free(sendtype)
                                   : !in_place && !coll_gap_free(sendtype);
    const int pack_recv = !coll_gap_free(recvtype);
    int p, rank;

    if (!pack_send && !pack_recv)
        return 0;
    const long long rbytes = packed_bytes(recvcount, recvtype);
    const long long sbytes = in_place ? rbytes : packed_bytes(sendcount, sendtype);
    if (rbytes < 0 || sbytes < 0) {
        *err = MPI_ERR_COUNT;
        return 1;
    }
    /* type signatures must match; only the byte count can be checked here */
    if (sbytes != rbytes) {
        *err = sbytes > rbytes ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
        return 1;
    }
    if ((*err = MPI_Comm_size(comm, &p)) != MPI_SUCCESS ||
        (*err = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return 1;
    const int nsend = alltoall ? p : 1, bytes = (int)rbytes;
    char *stmp = NULL, *rtmp = NULL;
    const void *sarg = sendbuf;
    void *rarg = recvbuf;
    int scount = sendcount, rcount = recvcount, e = MPI_SUCCESS;
    MPI_Datatype stype = sendtype, rtype = recvtype;

    if (pack_send) { /* alltoall in place: the blocks to send are the receive buffer's */
        if (!(stmp = coll_scratch_alloc((size_t)bytes * (size_t)nsend + 1)))
            e = MPI_ERR_NO_MEM;
        for (int j = 0; j < nsend && !e; j++)
            e = in_place ? pack_at(recvbuf, (MPI_Aint)j * recvcount, recvcount, recvtype,
                                   stmp + (size_t)j * bytes, bytes, comm)
                         : pack_at(sendbuf, (MPI_Aint)j * sendcount, sendcount, sendtype,
                                   stmp + (size_t)j * bytes, bytes, comm);
        sarg = stmp;
        scount = bytes;
        stype = MPI_PACKED;
    }
    if (!e && pack_recv) {
        if (!(rtmp = coll_scratch_alloc((size_t)bytes * (size_t)p + 1)))
            e = MPI_ERR_NO_MEM;
        else if (!alltoall && in_place) /* allgather in place: the own block is in its slot */
            e = pack_at(recvbuf, (MPI_Aint)rank * recvcount, recvcount, recvtype,
                        rtmp + (size_t)rank * bytes, bytes, comm);
        rarg = rtmp;
        rcount = bytes;
        rtype = MPI_PACKED;
    }
    if (!e)
        e = self(sarg, scount, stype, rarg, rcount, rtype, comm);
    for (int j = 0; j < p && !e && pack_recv; j++)
        e = unpack_at(rtmp + (size_t)j * bytes, bytes, recvbuf, (MPI_Aint)j * recvcount, recvcount,
                      recvtype, comm);
    coll_scratch_free(stmp);
    coll_scratch_free(rtmp);
    *err = e;
    return 1;
}

int coll_adapt_rooted(collsim_rooted_fn self, int gather, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, int *err)
{
    int p, rank;
    if (coll_check_intracomm(comm) != MPI_SUCCESS || MPI_Comm_size(comm, &p) != MPI_SUCCESS ||
        MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || root < 0 || root >= p)
        return 0; /* the algorithm's own checks say why */
    const int at_root = rank == root;
    /* the root's p blocks (gather: received, scatter: sent), and the block of
     * this process (gather: sent, scatter: received); MPI_IN_PLACE: the root
     * has no own-block buffer */
    const void *own_in = gather ? sendbuf : NULL;
    void *own_out = gather ? NULL : recvbuf;
    const int own_count = gather ? sendcount : recvcount;
    const MPI_Datatype own_type = gather ? sendtype : recvtype;
    const int in_place = at_root && (gather ? sendbuf : recvbuf) == MPI_IN_PLACE;
    const int all_count = gather ? recvcount : sendcount;
    const MPI_Datatype all_type = gather ? recvtype : sendtype;
    const int pack_own = !in_place && !coll_gap_free(own_type);
    const int pack_all = at_root && !coll_gap_free(all_type);
    if (!pack_own && !pack_all)
        return 0;
    const long long own_bytes = packed_bytes(own_count, own_type);
    const long long all_bytes = at_root ? packed_bytes(all_count, all_type) : 0;
    if ((pack_own && own_bytes < 0) || all_bytes < 0)
        return 0;
    char *own_tmp = NULL, *all_tmp = NULL;
    int e = MPI_SUCCESS;
    if (pack_own && !(own_tmp = coll_scratch_alloc((size_t)own_bytes + 1)))
        e = MPI_ERR_NO_MEM;
    if (!e && pack_own && gather)
        e = pack_at(own_in, 0, own_count, own_type, own_tmp, (int)own_bytes, comm);
    if (!e && pack_all && !(all_tmp = coll_scratch_alloc((size_t)all_bytes * (size_t)p + 1)))
        e = MPI_ERR_NO_MEM;
    for (int j = 0; j < p && !e && pack_all && !gather; j++) /* scatter: the blocks to send */
        e = pack_at(sendbuf, (MPI_Aint)j * all_count, all_count, all_type,
                    all_tmp + (size_t)j * (size_t)all_bytes, (int)all_bytes, comm);
    if (!e && pack_all && gather && in_place) /* gather in place: the root's block in its slot */
        e = pack_at(recvbuf, (MPI_Aint)root * all_count, all_count, all_type,
                    all_tmp + (size_t)root * (size_t)all_bytes, (int)all_bytes, comm);
    if (!e) {
        const void *sa = sendbuf;
        void *ra = recvbuf;
        int sc = sendcount, rc = recvcount;
        MPI_Datatype st = sendtype, rt = recvtype;
        if (pack_own && gather) {
            sa = own_tmp, sc = (int)own_bytes, st = MPI_PACKED;
        } else if (pack_own) {
            ra = own_tmp, rc = (int)own_bytes, rt = MPI_PACKED;
        }
        if (pack_all && gather) {
            ra = all_tmp, rc = (int)all_bytes, rt = MPI_PACKED;
        } else if (pack_all) {
            sa = all_tmp, sc = (int)all_bytes, st = MPI_PACKED;
        }
        e = self(sa, sc, st, ra, rc, rt, root, comm);
    }
    if (!e && pack_own && !gather)
        e = unpack_at(own_tmp, (int)own_bytes, own_out, 0, own_count, own_type, comm);
    for (int j = 0; j < p && !e && pack_all && gather; j++)
        e = unpack_at(all_tmp + (size_t)j * (size_t)all_bytes, (int)all_bytes, recvbuf,
                      (MPI_Aint)j * all_count, all_count, all_type, comm);
    coll_scratch_free(own_tmp);
    coll_scratch_free(all_tmp);
    *err = e;
    return 1;
}

/* One side of an alltoallv as packed bytes: the blocks end to end in tmp. */
typedef struct {
    char *tmp;
    int *counts, *displs; /* in bytes */
} packed_side;

static int side_layout(int p, const int *counts, MPI_Datatype type, packed_side *s)
{
    long long at = 0;
    if (!(s->counts = malloc(sizeof(int) * (size_t)p + 1)) ||
        !(s->displs = malloc(sizeof(int) * (size_t)p + 1)))
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < p; j++) {
        const long long b = packed_bytes(counts[j], type);
        if (b < 0 || at + b > INT_MAX) /* this process's side beyond an int's bytes */
            return MPI_ERR_COUNT;
        s->displs[j] = (int)at;
        s->counts[j] = (int)b;
        at += b;
    }
    return (s->tmp = coll_scratch_alloc((size_t)at + 1)) ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void side_free(packed_side *s)
{
    coll_scratch_free(s->tmp);
    free(s->counts);
    free(s->displs);
}

int coll_adapt_v(collsim_alltoallv_fn self, const void *sendbuf, const int *sendcounts,
                 const int *sdispls, MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                 const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm, int *err)
{
    const int in_place = sendbuf == MPI_IN_PLACE;
    const int pack_send = in_place || !coll_gap_free(sendtype), pack_recv = !coll_gap_free(recvtype);
    int p, e;

    if (!pack_send && !pack_recv)
        return 0;
    if ((*err = MPI_Comm_size(comm, &p)) != MPI_SUCCESS)
        return 1;
    /* in place: what is sent is taken from the receive buffer, as it is received */
    const void *sbuf = in_place ? recvbuf : sendbuf;
    const int *sc = in_place ? recvcounts : sendcounts, *sd = in_place ? rdispls : sdispls;
    const MPI_Datatype st = in_place ? recvtype : sendtype;
    packed_side s = {NULL, NULL, NULL}, r = {NULL, NULL, NULL};
    const void *sarg = sendbuf;
    void *rarg = recvbuf;
    const int *sca = sendcounts, *sda = sdispls, *rca = recvcounts, *rda = rdispls;
    MPI_Datatype stype = sendtype, rtype = recvtype;

    e = MPI_SUCCESS;
    if (pack_send && !(e = side_layout(p, sc, st, &s))) {
        for (int j = 0; j < p && !e; j++)
            e = pack_at(sbuf, sd[j], sc[j], st, s.tmp + s.displs[j], s.counts[j], comm);
        sarg = s.tmp;
        sca = s.counts;
        sda = s.displs;
        stype = MPI_PACKED;
    }
    if (!e && pack_recv && !(e = side_layout(p, recvcounts, recvtype, &r))) {
        rarg = r.tmp;
        rca = r.counts;
        rda = r.displs;
        rtype = MPI_PACKED;
    }
    if (!e)
        e = self(sarg, sca, sda, stype, rarg, rca, rda, rtype, comm);
    for (int j = 0; j < p && !e && pack_recv; j++)
        e = unpack_at(r.tmp + r.displs[j], r.counts[j], recvbuf, rdispls[j], recvcounts[j],
                      recvtype, comm);
    side_free(&s);
    side_free(&r);
    *err = e;
    return 1;
}

int coll_adapt_inter(collsim_inter_allgather_fn self, collsim_inter_allgatherv_fn self_v,
                     const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, const int *recvcounts, const int *displs,
                     MPI_Datatype recvtype, const collsim_intergroup *ig, int *err)
{
    const int pack_send = sendbuf != MPI_IN_PLACE && !coll_gap_free(sendtype);
    const int pack_recv = !coll_gap_free(recvtype);
    if (!ig || (!pack_send && !pack_recv))
        return 0;
    const int q = ig->remote_size;
    const long long sbytes = packed_bytes(sendcount, sendtype);
    const long long rbytes = self_v ? 0 : packed_bytes(recvcount, recvtype);
    if (sbytes < 0 || rbytes < 0 || (self_v && (!recvcounts || !displs)))
        return 0; /* the algorithm's own checks say why */
    char *stmp = NULL;
    packed_side r = {NULL, NULL, NULL};
    int e = MPI_SUCCESS;
    const void *sa = sendbuf;
    int sc = sendcount, rc = recvcount;
    MPI_Datatype st = sendtype, rt = recvtype;
    void *ra = recvbuf;
    const int *rca = recvcounts, *rda = displs;
    if (pack_send) {
        if (!(stmp = coll_scratch_alloc((size_t)sbytes + 1)))
            e = MPI_ERR_NO_MEM;
        else
            e = pack_at(sendbuf, 0, sendcount, sendtype, stmp, (int)sbytes, ig->comm);
        sa = stmp, sc = (int)sbytes, st = MPI_PACKED;
    }
    if (!e && pack_recv && self_v && !(e = side_layout(q, recvcounts, recvtype, &r))) {
        ra = r.tmp, rca = r.counts, rda = r.displs, rt = MPI_PACKED;
    } else if (!e && pack_recv && !self_v) {
        if (!(r.tmp = coll_scratch_alloc((size_t)rbytes * (size_t)q + 1)))
            e = MPI_ERR_NO_MEM;
        ra = r.tmp, rc = (int)rbytes, rt = MPI_PACKED;
    }
    if (!e)
        e = self_v ? self_v(sa, sc, st, ra, rca, rda, rt, ig) : self(sa, sc, st, ra, rc, rt, ig);
    for (int j = 0; j < q && !e && pack_recv; j++)
        e = self_v ? unpack_at(r.tmp + r.displs[j], r.counts[j], recvbuf, displs[j], recvcounts[j],
                               recvtype, ig->comm)
                   : unpack_at(r.tmp + (size_t)j * (size_t)rbytes, (int)rbytes, recvbuf,
                               (MPI_Aint)j * recvcount, recvcount, recvtype, ig->comm);
    coll_scratch_free(stmp);
    side_free(&r);
    *err = e;
    return 1;
}
