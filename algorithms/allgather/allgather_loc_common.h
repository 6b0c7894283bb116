/* Building blocks shared by the locality-aware allgathers (loc_bruck,
 * loc_bruck_multilevel, hierarchical, multilane): groups of processes given by
 * a region layout (coll_locality.h), a Bruck allgatherv, binomial gather and
 * broadcast, the locality-aware Bruck engine of Bienz, Gautam, Kharel 2022
 * (Algorithm 2) generalised to any region sizes and placements, and the final
 * reordering from region ("virtual") order to rank order. Plain MPI.
 *
 * Buffers are arrays of blocks (one rank's allgather contribution each, of
 * `count` x `type`, `bb` bytes); ranges are in blocks, [lo, hi). Every
 * message is posted with Isend/Irecv and completed per step; a message whose
 * range is empty is not sent (both sides compute the same sizes). */
#ifndef COLLSIM_ALLGATHER_LOC_COMMON_H
#define COLLSIM_ALLGATHER_LOC_COMMON_H

#include "../coll_locality.h"
#include "../coll_util.h"

typedef struct {
    void *buf;
    size_t bb;
    int count;
    MPI_Datatype type;
} loc_buf;

/* A group of processes of info->comm: the members of region `arg`
 * (LOC_REGION), member 0 of every region (LOC_LEADERS), or lane `arg`
 * (LOC_LANE: one member per region, see allgather_multilane.c). Member i's
 * rank comes from the layout; `me` is the caller's member index. */
enum { LOC_REGION, LOC_LEADERS, LOC_LANE };
typedef struct {
    const coll_loc_info *info;
    int kind, arg, n, me;
} loc_group;

loc_group loc_group_region(const coll_loc_info *info);
loc_group loc_group_leaders(const coll_loc_info *info);
loc_group loc_group_lane(const coll_loc_info *info, int lane);
int loc_group_rank(const loc_group *g, int i);
/* Lane `lane`'s member in region j: local rank `lane`, or `lane mod size`
 * for a region with at most `lane` members. */
static inline int loc_lane_local(const coll_loc_info *info, int j, int lane)
{
    const int s = info->region_size[j];
    return lane < s ? lane : lane % s;
}

/* Allgatherv over the group, in place: member i's blocks are
 * [disp[i], disp[i+1]) (disp has n+1 non-decreasing entries); on return every
 * member holds [disp[0], disp[n]). Bruck's schedule (ceil(log2 n) steps); a
 * step's blocks that wrap past the last member travel as one message of two
 * pieces (an hindexed datatype). */
int loc_bruckv(const loc_group *g, const long *disp, const loc_buf *b);

/* Binomial-tree gather to member 0, in place (same disp convention). */
int loc_gather_binomial(const loc_group *g, const long *disp, const loc_buf *b);

/* Binomial-tree broadcast of blocks [lo, hi) from member 0. */
int loc_bcast_binomial(const loc_group *g, long lo, long hi, const loc_buf *b);

/* The locality-aware Bruck allgather(v) of Algorithm 2 on info->comm over
 * info's regions (see allgather_loc_common.c for the generalisation). Member v
 * of the virtual order contributes vdisp[v+1] - vdisp[v] blocks (vdisp NULL:
 * one each). b->buf is in rotated virtual order: the blocks of member v start
 * at slot vdisp[v] - vdisp[first[region]], modulo the total. On entry the
 * caller's own contribution is in place, on return everything. The local
 * steps are Bruck allgathervs, or with finer >= 0 this same algorithm again on
 * the region communicator over the regions of level `finer`. */
int loc_bruck_core(const coll_loc_info *info, const long *vdisp, const loc_buf *b, int finer);

/* b->buf holds one block per rank in virtual order rotated by `base` (slot w:
 * virtual index (base + w) mod size): move each block to its rank's slot. */
int loc_place_virtual(const coll_loc_info *info, const loc_buf *b, int base);

/* The start every locality-aware allgather shares: coll_allgather_begin (the
 * caller's own block in place in recvbuf; *rank, *p, *bb set; msg_blocks the
 * algorithm's rule of algorithms.def), then the
 * region layout of `level` (coll_loc_info_get). Returns an MPI error code;
 * on MPI_SUCCESS *info is NULL when there is nothing more to do (no data,
 * or one process), else the layout. */
int loc_allgather_begin(collsim_block_coll_fn self, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        coll_msg_blocks_fn msg_blocks, int level, const coll_loc_info **info,
                        int *rank, int *p, size_t *bb);

/* The whole loc_bruck allgather on a receive buffer whose own block is in
 * place (coll_allgather_begin): loc_bruck (finer < 0) and
 * loc_bruck_multilevel. */
int loc_bruck_allgather(const coll_loc_info *info, void *recvbuf, size_t bb, int recvcount,
                        MPI_Datatype recvtype, int finer);

#endif
