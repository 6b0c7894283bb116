/* Building blocks of the rooted collectives, MPI_Gather and MPI_Scatter
 * (algorithms/gather/, algorithms/scatter/): the entry checks, binomial and
 * direct trees over a group of processes whose members bring contiguous
 * ranges of blocks, and the hierarchical (leader-based) engine that the
 * node-level two-level algorithms of MVAPICH2, the switch-leader algorithms of
 * Kandalla et al. 2010 and their multilevel variant are instances of. Plain MPI.
 *
 * Blocks. A block is one process's contribution (gather) or share (scatter):
 * `count` elements of `type`, `bb` bytes, contiguous (coll_block_bytes). Each
 * process describes blocks with its own significant arguments (MPI's rule):
 * the root of a gather with (recvcount, recvtype), any other process with
 * (sendcount, sendtype); a scatter the other way round. The signatures match,
 * so a message of k blocks sent as k x count of one type is received as k x
 * count of the other. */
#ifndef COLLSIM_COLL_ROOTED_H
#define COLLSIM_COLL_ROOTED_H

#include "coll_locality.h"
#include "coll_util.h"

typedef struct {
    void *buf;
    size_t bb;
    int count;
    MPI_Datatype type;
} rooted_buf;

/* Common entry of every gather: checks comm, root (MPI_ERR_ROOT), the counts
 * and types (MPI_IN_PLACE only at the root; at the root the send block, unless
 * in place, must have as many bytes as a receive block), that
 * msg_blocks(size) blocks fit an int count (MPI_ERR_COUNT), and describes this
 * process's block in *blk (buf NULL). *mine: this process's block (the send
 * buffer, or recvbuf's slot `root` in place). blk->bb == 0: nothing to do (the
 * same on every process), or the call was served here on packed bytes through
 * self (a datatype with holes, coll_adapt.h). */
int coll_gather_begin(collsim_rooted_fn self, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      coll_msg_blocks_fn msg_blocks, int *rank, int *size, rooted_buf *blk,
                      const void **mine);

/* The same for a scatter: MPI_IN_PLACE as recvbuf at the root only (its block
 * stays in sendbuf); *mine is where this process's block goes, NULL at an
 * in-place root. */
int coll_scatter_begin(collsim_rooted_fn self, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       coll_msg_blocks_fn msg_blocks, int *rank, int *size, rooted_buf *blk,
                       void **mine);

/* A group of processes of `comm` for one tree: member 0 is the tree's root,
 * member i (0 <= i < n) is rank rank_of(g, i) and holds the blocks
 * [disp_of(g, i), disp_of(g, i + 1)) of the whole (disp_of(g, 0) = 0). */
typedef struct rooted_group rooted_group;
struct rooted_group {
    MPI_Comm comm;
    int n, me;
    int (*rank_of)(const rooted_group *g, int i);
    long (*disp_of)(const rooted_group *g, int i);
    const coll_loc_info *info; /* the callbacks' parameters */
    int a, b;
};

/* The flat group of p ranks rooted at `root`: member i is rank (root + i) mod
 * p, one block each. */
rooted_group rooted_group_flat(MPI_Comm comm, int p, int rank, int root);

/* The kinds of tree: MPICH's binomial tree (Thakur, Rabenseifner, Gropp 2005;
 * MPICH's mask loops: docs/papers.md, "Kandalla: the baselines"; Kandalla
 * et al. 2010 Sec. 4.1), or MVAPICH2's direct one (the
 * root posts a receive / send per member and waits for all). */
enum { ROOTED_BINOMIAL, ROOTED_DIRECT };

/* Blocks member `me` holds in the tree: its subtree's, [disp(me), disp(end)). */
long rooted_span(const rooted_group *g, int kind, int me);

/* Gather over the group to member 0. x->buf holds this member's span
 * (rooted_span), starting with its own blocks, which are in place; on return
 * member 0's holds all, in member order. */
int rooted_gather_tree(const rooted_group *g, int kind, const rooted_buf *x);

/* Scatter over the group from member 0, whose x->buf holds all blocks in
 * member order; on return every member's x->buf holds its span. */
int rooted_scatter_tree(const rooted_group *g, int kind, const rooted_buf *x);

/* The whole flat gather (scatter) on comm with the given tree: blocks in rank
 * order in recvbuf (sendbuf) at the root. */
int rooted_flat_gather(MPI_Comm comm, int kind, int root, const void *mine, void *recvbuf,
                       const rooted_buf *blk);
int rooted_flat_scatter(MPI_Comm comm, int kind, int root, const void *sendbuf, void *mine,
                        const rooted_buf *blk);

/* The flat algorithms whole: the entry checks, then the flat tree. */
int rooted_gather_alg(collsim_rooted_fn self, int kind, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      coll_msg_blocks_fn msg_blocks);
int rooted_scatter_alg(collsim_rooted_fn self, int kind, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       coll_msg_blocks_fn msg_blocks);

/* A hierarchy of locality levels (coll_locality.h), finest first, with the
 * tree used inside the finest regions (flat) and among each level's region
 * leaders (up). The leader of a region is its member 0 (lowest rank), or,
 * with root_leader, the root itself in the root's region (Kandalla et al.'s
 * "for simplicity" assumption, Section 4.2); otherwise a root that is not its
 * region's leader gets the gathered data from that leader in one more
 * message (gather), or sends the whole buffer to it first (scatter). */
typedef struct {
    int nlev, lev[COLL_LOC_MAX_LEVELS];
    int flat, up;
    int root_leader;
} rooted_hier;

/* The level indices for the algorithms: "node" alone; the region level
 * alone; the region level and every finer one. -1 in nlev's place (returned
 * as MPI_ERR_ARG by the engines) when the platform declares no node level. */
rooted_hier rooted_hier_node(int flat, int up);
rooted_hier rooted_hier_region(int root_leader);
rooted_hier rooted_hier_multilevel(void);

/* Gather (scatter) on comm over the hierarchy. */
int rooted_hier_gather(collsim_rooted_fn self, const rooted_hier *h, const void *sendbuf,
                       int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, coll_msg_blocks_fn msg_blocks);
int rooted_hier_scatter(collsim_rooted_fn self, const rooted_hier *h, const void *sendbuf,
                        int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int root, MPI_Comm comm, coll_msg_blocks_fn msg_blocks);

#endif
