/* Multilevel locality-aware Bruck allgather (Bienz, Gautam, Kharel 2022,
 * Section 3, last paragraph): loc_bruck over the regions of the region level
 * (e.g. nodes), whose local steps are themselves locality-aware Bruck
 * allgathervs over the regions of the next finer level (e.g. sockets) inside
 * each region, with plain Bruck only within the finest regions.
 *
 * The finer level is the one just below the region level in
 * coll_locality.h's list (levels are finest first). When there is none (the
 * default provider has only "node"), this is loc_bruck exactly. Uneven and
 * non-contiguous regions are handled at both levels as in loc_bruck; the
 * finer level works on a scratch copy of the step's data in its own region
 * order (allgather_loc_common.c, local_step).
 *
 * Cost: no model (analysis/cost_model.c): loc_bruck's Eq. (4) with a
 * locality-aware local term. Memory: loc_bruck's, plus a scratch copy of a
 * local step's data in the finer level's order (coll_scratch_alloc).
 * Restrictions: any p, any regions; contiguous types; MPI_IN_PLACE accepted. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"
#include "allgather_loc_common.h"

int collsim_allgather_loc_bruck_multilevel(const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                           MPI_Datatype recvtype, MPI_Comm comm)
{
    const coll_loc_info *info;
    const int level = coll_loc_region_level();
    int rank, p, err;
    size_t bb;

    err = loc_allgather_begin(collsim_allgather_loc_bruck_multilevel, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              collsim_allgather_loc_bruck_multilevel_msg_blocks, level, &info,
                              &rank, &p, &bb);
    if (err != MPI_SUCCESS || !info)
        return err;
    return loc_bruck_allgather(info, recvbuf, bb, recvcount, recvtype, level - 1);
}
