/* Multi-lane allgather (Träff and Hunold 2020, the full-lane decomposition;
 * a baseline of Bienz, Gautam, Kharel 2022, Sections 2.2 and 5). Lane l is
 * the set of processes with local rank l, one per region. Every process first
 * takes part in its lane's allgather across the regions (so every region
 * injects all its processes' data at once, each process a share), then the
 * processes of a region allgather what their lanes brought.
 *
 * Uneven regions. Lanes are 0..K-1, K the largest region's size. A region
 * of s < K processes has no process of local rank l >= s: its process of
 * local rank l mod s serves lane l as well, taking part in that lane's
 * allgather with no block of its own (it receives and relays). So every lane
 * spans all regions, every region receives every lane, and a process of a
 * small region runs ceil(K / s) lane allgathers, one after the other in lane
 * order (a lane's messages only involve that lane's members, so the order
 * cannot deadlock). The lane allgathers are Bruck allgathervs (a serving
 * process of a small region contributes nothing), the region allgather a
 * Bruck allgatherv of each process's lanes.
 *
 * Data layout. A scratch of p blocks holds the lanes in the region's serving
 * order (local rank h's lanes h, h+s, h+2s, ... next to each other), each
 * lane's blocks in region order; the blocks are copied to their ranks' slots
 * at the end.
 *
 * Cost: no model (analysis/cost_model.c). Memory: the receive buffer, a
 * scratch of p blocks (coll_scratch_alloc), the region tables of
 * coll_locality.h (built before timing); per rank, arrays of K lanes and of
 * the region's ranks (plain malloc). Restrictions: any p, any regions;
 * contiguous types; MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"
#include "allgather_loc_common.h"

#include <stdlib.h>
#include <string.h>

int collsim_allgather_multilane(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm)
{
    const coll_loc_info *info;
    int rank, p, err;
    size_t bb;

    err = loc_allgather_begin(collsim_allgather_multilane, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              collsim_allgather_multilane_msg_blocks, coll_loc_region_level(),
                              &info, &rank, &p, &bb);
    if (err != MPI_SUCCESS || !info)
        return err;
    const int g = info->region, s = info->local_size, r = info->nregions, l = info->local_rank;
    const int K = info->max_size;
    const int *size = info->region_size;

    /* lane_n[lane]: regions with a process of that local rank (the lane's
     * blocks); lane_at[lane]: where the lane starts in the scratch;
     * serve_at[h]: where local rank h's lanes start (serve_at[s] = p). */
    long *lane_n = calloc((size_t)K, sizeof(long)), *lane_at = malloc(sizeof(long) * (size_t)K);
    long *serve_at = malloc(sizeof(long) * (size_t)(s + 1));
    long *disp = malloc(sizeof(long) * (size_t)(r + 1));
    char *y = coll_scratch_alloc((size_t)p * bb);
    if (!lane_n || !lane_at || !serve_at || !disp || !y) {
        err = MPI_ERR_NO_MEM;
        goto out;
    }
    for (int j = 0; j < r; j++)
        for (int lane = 0; lane < size[j]; lane++)
            lane_n[lane]++;
    long at = 0;
    for (int h = 0; h < s; h++) {
        serve_at[h] = at;
        for (int lane = h; lane < K; lane += s) {
            lane_at[lane] = at;
            at += lane_n[lane];
        }
    }
    serve_at[s] = at;

    /* 1. the lanes this process serves: l, l+s, l+2s, ... */
    loc_buf b = {y, bb, recvcount, recvtype};
    for (int lane = l; lane < K && !err; lane += s) {
        disp[0] = lane_at[lane];
        for (int j = 0; j < r; j++)
            disp[j + 1] = disp[j] + (lane < size[j]);
        if (lane == l) /* own block, at its region's place in its lane */
            coll_copy(coll_block(y, (int)disp[g], bb), coll_block(recvbuf, rank, bb), bb);
        loc_group lg = loc_group_lane(info, lane);
        err = loc_bruckv(&lg, disp, &b);
    }
    /* 2. in the region: every process brings its lanes */
    if (!err) {
        loc_group rg = loc_group_region(info);
        err = loc_bruckv(&rg, serve_at, &b);
    }
    /* 3. to rank order */
    for (int lane = 0; lane < K && !err; lane++) {
        long k = lane_at[lane];
        for (int j = 0; j < r; j++)
            if (lane < size[j])
                coll_copy(coll_block(recvbuf, coll_loc_rank_of(info, j, lane), bb),
                       coll_block(y, (int)k++, bb), bb);
    }
out:
    free(lane_n);
    free(lane_at);
    free(serve_at);
    free(disp);
    coll_scratch_free(y);
    return err;
}
