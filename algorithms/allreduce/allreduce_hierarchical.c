/* Two-level (locality-aware) allreduce: a reduce inside each region to its
 * leader, an allreduce among the leaders, a broadcast inside each region
 * (the structure of MPICH's SMP allreduce, MPIR_Allreduce_intra_smp, over
 * collsim's regions; Thakur, Rabenseifner, Gropp 2005, Section 4, for the
 * leaders' step). Regions are those of coll_locality.h at the region level
 * (default node), of any sizes and placements; a region's leader is its
 * lowest rank (local rank 0).
 *
 * In the region: a binomial reduce to local rank 0 and a binomial broadcast
 * from it, over the region communicator. Among the R leaders (messages over
 * comm): the first 2(R - 2^k) fold in pairs as in the flat algorithms, then
 * recursive doubling below 2048 bytes (MPICH's short-message threshold) or
 * when the vector has fewer elements than 2^k, else Rabenseifner's
 * recursive halving and doubling over 2^k segments as even as they go.
 *
 * Cost, s ranks per region (α_ℓ, β_ℓ inside it), R regions:
 * 2 ceil(log2 s)(α_ℓ + m β_ℓ) + ceil(log2 s) m γ, plus among the leaders
 * log2(R)(α + m β + m γ) (short) or 2 log2(R) α + 2 ((R-1)/R) m β +
 * ((R-1)/R) m γ (long), and for R not a power of two two steps of α + m β
 * and one m γ. Memory: one vector of scratch. Restrictions: commutative
 * operations only (a region's reduce does not keep rank order, nor do
 * regions that are not contiguous): MPI_ERR_OP otherwise; any p, any
 * regions, counts >= 0; MPI_IN_PLACE; contiguous types. */
#include "../coll_locality.h"
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

/* The leaders: region j's is its local rank 0. */
typedef struct {
    const coll_loc_info *info;
    coll_fold f; /* over the leaders, by region number */
} leaders;

static int leader_rank(const leaders *l, int newrank)
{
    return coll_loc_rank_of(l->info, coll_fold_real(&l->f, newrank), 0);
}

/* the same as coll_halving_reduce_scatter's rank map (ctx: the region table) */
static int leader_of(const void *info, const coll_fold *f, int newrank)
{
    return coll_loc_rank_of(info, coll_fold_real(f, newrank), 0);
}

/* binomial reduce of recvbuf to local rank 0 of the region communicator */
static int region_reduce(void *buf, void *tmp, int count, MPI_Datatype type, MPI_Op op,
                         const coll_loc_info *info)
{
    const int lr = info->local_rank, s = info->local_size;
    int err = MPI_SUCCESS;
    for (int mask = 1; mask < s && err == MPI_SUCCESS; mask <<= 1) {
        if (lr & mask)
            return MPI_Send(buf, count, type, lr - mask, COLL_TAG_ALLREDUCE, info->comm_region);
        if (lr + mask < s) {
            err = MPI_Recv(tmp, count, type, lr + mask, COLL_TAG_ALLREDUCE, info->comm_region,
                           MPI_STATUS_IGNORE);
            if (err == MPI_SUCCESS)
                err = coll_reduce_local(tmp, buf, count, type, op);
        }
    }
    return err;
}

/* the fold's first and last steps among the leaders (region g) */
static int leaders_fold(const leaders *l, int in, void *buf, void *tmp, int count,
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    const int g = l->info->region;
    if (g >= 2 * l->f.rem)
        return MPI_SUCCESS;
    const int other = coll_loc_rank_of(l->info, g % 2 ? g - 1 : g + 1, 0);
    if (!in)
        return g % 2 ? MPI_Send(buf, count, type, other, COLL_TAG_ALLREDUCE, comm)
                     : MPI_Recv(buf, count, type, other, COLL_TAG_ALLREDUCE, comm,
                                MPI_STATUS_IGNORE);
    if (g % 2 == 0)
        return MPI_Send(buf, count, type, other, COLL_TAG_ALLREDUCE, comm);
    int err = MPI_Recv(tmp, count, type, other, COLL_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
    return err != MPI_SUCCESS ? err : coll_reduce_local(tmp, buf, count, type, op);
}

/* recursive doubling among the 2^k leaders of the schedule */
static int leaders_doubling(const leaders *l, void *buf, void *tmp, int count, MPI_Datatype type,
                            MPI_Op op, MPI_Comm comm)
{
    int err = MPI_SUCCESS;
    for (int mask = 1; err == MPI_SUCCESS && mask < l->f.pof2; mask <<= 1) {
        const int dst = leader_rank(l, l->f.newrank ^ mask);
        err = MPI_Sendrecv(buf, count, type, dst, COLL_TAG_ALLREDUCE, tmp, count, type, dst,
                           COLL_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(tmp, buf, count, type, op);
    }
    return err;
}

/* recursive halving (reduce-scatter), then recursive doubling (allgather) */
static int leaders_halving(const leaders *l, void *buf, void *tmp, int count, size_t elem,
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    const int pof2 = l->f.pof2, nr = l->f.newrank;
    const coll_rank_map map = {leader_of, l->info};
    int lo = 0, hi = pof2, mask = 1;
    int err = coll_halving_reduce_scatter(&l->f, &map, buf, tmp, count, type, elem, op,
                                          COLL_TAG_ALLREDUCE, comm, &lo, &hi, &mask);
#define SEG(i) coll_seg_start(count, pof2, (i))
    for (mask >>= 1; err == MPI_SUCCESS && mask > 0; mask >>= 1) {
        const int dst = leader_rank(l, nr ^ mask), width = hi - lo, low = nr < (nr ^ mask);
        const int olo = low ? hi : lo - width;
        err = MPI_Sendrecv(coll_elems(buf, SEG(lo), elem), (int)(SEG(hi) - SEG(lo)), type, dst,
                           COLL_TAG_ALLREDUCE, coll_elems(buf, SEG(olo), elem),
                           (int)(SEG(olo + width) - SEG(olo)), type, dst, COLL_TAG_ALLREDUCE, comm,
                           MPI_STATUS_IGNORE);
        if (low)
            hi += width;
        else
            lo -= width;
    }
#undef SEG
    return err;
}

int collsim_allreduce_hierarchical(const void *sendbuf, void *recvbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = coll_allreduce_begin(sendbuf, recvbuf, count, datatype, op, 1, comm, &rank, &p,
                                    &elem)) != MPI_SUCCESS || !elem)
        return err;
    const coll_loc_info *info;
    if ((err = coll_loc_info_get(comm, coll_loc_region_level(), &info)) != MPI_SUCCESS)
        return err;
    void *tmp = coll_scratch_alloc((size_t)count * elem);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    err = region_reduce(recvbuf, tmp, count, datatype, op, info);
    if (err == MPI_SUCCESS && info->local_rank == 0 && info->nregions > 1) {
        leaders l = {info, coll_fold_of(info->region, info->nregions)};
        err = leaders_fold(&l, 1, recvbuf, tmp, count, datatype, op, comm);
        if (err == MPI_SUCCESS && l.f.newrank >= 0)
            err = (size_t)count * elem < 2048 || count < l.f.pof2
                      ? leaders_doubling(&l, recvbuf, tmp, count, datatype, op, comm)
                      : leaders_halving(&l, recvbuf, tmp, count, elem, datatype, op, comm);
        if (err == MPI_SUCCESS)
            err = leaders_fold(&l, 0, recvbuf, tmp, count, datatype, op, comm);
    }
    coll_scratch_free(tmp);
    if (err == MPI_SUCCESS && info->local_size > 1)
        err = collsim_bcast_binomial(recvbuf, count, datatype, 0, info->comm_region);
    return err;
}
