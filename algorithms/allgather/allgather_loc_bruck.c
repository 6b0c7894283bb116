/* Locality-aware Bruck allgather (Bienz, Gautam, Kharel 2022, Section 3,
 * Algorithm 2): a local allgather in every region, then non-local steps in
 * which each process exchanges everything its region holds with one process
 * of another region, each followed by a local allgather of what arrived.
 * Regions are the region level of coll_locality.h ("node" by default).
 *
 * Generalised (allgather_loc_common.c) to any number of regions and any
 * region sizes, uneven (13 ranks at 4 per node: 4, 4, 4, 1) or placed
 * non-contiguously (cyclic mapping): the radix is the largest region's size,
 * a smaller region's processes serve several ports of a step, the local step
 * after a non-local one is an allgatherv in which idle processes contribute
 * nothing (the paper's Section 3 remark), and the result, gathered in region
 * order, is put in rank order at the end (a rotation when regions are
 * contiguous ranges, a permutation otherwise).
 *
 * Cost (analysis/cost_model.c, loc_bruck; the paper's Eq. (4), as published):
 * L α + (b/p_ℓ) β + (L+1) α_ℓ + (b - m/p) β_ℓ with p_ℓ processes per region,
 * L = ceil(log_{p_ℓ}(p/p_ℓ)) non-local steps, b = m. Memory: the receive
 * buffer; the region tables of coll_locality.h (built before timing,
 * algorithms.def `setup`); per rank, arrays of a step's requests and of the
 * region's offsets (plain malloc). Restrictions: any p, any regions;
 * contiguous types; MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"
#include "allgather_loc_common.h"

int collsim_allgather_loc_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm)
{
    const coll_loc_info *info;
    int rank, p, err;
    size_t bb;

    err = loc_allgather_begin(collsim_allgather_loc_bruck, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              collsim_allgather_loc_bruck_msg_blocks, coll_loc_region_level(),
                              &info, &rank, &p, &bb);
    if (err != MPI_SUCCESS || !info)
        return err;
    return loc_bruck_allgather(info, recvbuf, bb, recvcount, recvtype, -1);
}
