/* Hierarchical allgather (Träff 2006; the baseline of Bienz, Gautam, Kharel
 * 2022, Sections 2.2 and 5): a gather to one leader per region (local rank
 * 0), an allgather among the leaders, a broadcast in each region.
 *
 * Regions of any sizes and placements: the gather is a binomial tree over the
 * region's local ranks, the leaders' allgather a Bruck allgatherv whose counts
 * are the region sizes, the broadcast a binomial tree of all p blocks. The
 * data is kept in region order in the receive buffer and put in rank order at
 * the end (nothing to do when regions are contiguous ranges in order).
 *
 * Cost: no model (analysis/cost_model.c). Memory: the receive buffer; the
 * region tables of coll_locality.h (built before timing); per rank, one array
 * of max(region size, regions) + 1 displacements (plain malloc).
 * Restrictions: any p, any regions; contiguous types; MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"
#include "allgather_loc_common.h"

#include <stdlib.h>
#include <string.h>

int collsim_allgather_hierarchical(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm)
{
    const coll_loc_info *info;
    int rank, p, err;
    size_t bb;

    err = loc_allgather_begin(collsim_allgather_hierarchical, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              collsim_allgather_hierarchical_msg_blocks, coll_loc_region_level(),
                              &info, &rank, &p, &bb);
    if (err != MPI_SUCCESS || !info)
        return err;
    const int g = info->region, s = info->local_size, r = info->nregions;
    const int slot = info->first[g] + info->local_rank; /* own virtual index */
    loc_buf b = {recvbuf, bb, recvcount, recvtype};
    long *disp = malloc(sizeof(long) * (size_t)((s > r ? s : r) + 1));
    if (!disp)
        return MPI_ERR_NO_MEM;
    if (slot != rank)
        coll_copy(coll_block(recvbuf, slot, bb), coll_block(recvbuf, rank, bb), bb);

    /* 1. gather the region's blocks to its leader */
    loc_group region = loc_group_region(info);
    for (int h = 0; h <= s; h++)
        disp[h] = info->first[g] + h;
    err = loc_gather_binomial(&region, disp, &b);
    /* 2. allgather(v) among the leaders: region j brings its size's blocks */
    if (!err && info->local_rank == 0) {
        loc_group leaders = loc_group_leaders(info);
        for (int j = 0; j <= r; j++)
            disp[j] = info->first[j];
        err = loc_bruckv(&leaders, disp, &b);
    }
    free(disp);
    /* 3. broadcast everything in the region */
    if (!err)
        err = loc_bcast_binomial(&region, 0, p, &b);
    if (!err)
        err = loc_place_virtual(info, &b, 0);
    return err;
}
