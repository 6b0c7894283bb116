/* Building blocks of the rooted collectives (coll_rooted.h).
 *
 * The hierarchical engine. For levels L_1 (finest) .. L_d and a communicator,
 * a gather at level L_d (Kandalla et al. 2010, Section 4.2, made exact as
 * docs/papers.md, "Kandalla: the topology-aware algorithms", reads it) is:
 *   1. in every region of L_d, the same gather one level down (over L_1 ..
 *      L_{d-1}; with no level left, a flat tree) to the region's leader, which
 *      ends with the region's blocks in member (= rank) order;
 *   2. a tree over the R leaders to the leader of the root's region, member
 *      order starting with the root's region, so that a subtree's regions are
 *      consecutive and each message is one contiguous range of blocks (a
 *      gatherv-shaped binomial: sizes from the cached region tables, no
 *      message about sizes);
 *   3. if that leader is not the root, one message of all p blocks to it;
 *   4. the root puts the blocks from region order into rank order (a local
 *      permutation, free with simulated computation off).
 * The scatter runs the same steps backwards: the root packs its blocks into
 * region order (and sends them to its region's leader if it is not one),
 * the leaders scatter per-region vectors, each leader scatters its region's
 * blocks one level down. Regions may have any sizes and placements; a level
 * with one region is skipped. */
#include "coll_rooted.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "allgather/allgather_loc_common.h"

/* ---- entry checks ---- */
static int rooted_common(int root, MPI_Comm comm, int *rank, int *size)
{
    int err;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS ||
        (err = MPI_Comm_rank(comm, rank)) != MPI_SUCCESS ||
        (err = MPI_Comm_size(comm, size)) != MPI_SUCCESS)
        return err;
    return root < 0 || root >= *size ? MPI_ERR_ROOT : MPI_SUCCESS;
}

/* The block of this process from its significant (count, type); at the root
 * also the other side's, which must have as many bytes unless in place. */
static int rooted_block(int count, MPI_Datatype type, int at_root, int other_in_place,
                        int other_count, MPI_Datatype other_type, int size,
                        coll_msg_blocks_fn msg_blocks, rooted_buf *blk)
{
    size_t bb, ob;
    int err;
    if ((err = coll_block_bytes(type, count, &bb)) != MPI_SUCCESS)
        return err;
    if (at_root && !other_in_place) {
        if ((err = coll_block_bytes(other_type, other_count, &ob)) != MPI_SUCCESS)
            return err;
        if (ob != bb)
            return ob > bb ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
    }
    if (bb > 0 && msg_blocks(size) * count > INT_MAX)
        return MPI_ERR_COUNT;
    blk->count = count;
    blk->type = type;
    blk->bb = bb;
    return MPI_SUCCESS;
}

/* gather: the root's (count, type) are the receive side's, the others'
 * the send side's, and MPI_IN_PLACE is the root's sendbuf; scatter: the
 * other way round. */
static int rooted_begin(int gather, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, coll_msg_blocks_fn msg_blocks, int *rank, int *size,
                        rooted_buf *blk, int *in_place)
{
    int err;
    blk->buf = NULL;
    blk->bb = 0;
    *in_place = 0;
    if ((err = rooted_common(root, comm, rank, size)) != MPI_SUCCESS)
        return err;
    const int at_root = *rank == root;
    *in_place = (gather ? sendbuf : recvbuf) == MPI_IN_PLACE;
    if (*in_place && !at_root)
        return MPI_ERR_ARG;
    /* "mine": the side a non-root uses; "theirs": the root's */
    const int mc = gather ? sendcount : recvcount, tc = gather ? recvcount : sendcount;
    MPI_Datatype mt = gather ? sendtype : recvtype, tt = gather ? recvtype : sendtype;
    err = at_root ? rooted_block(tc, tt, 1, *in_place, mc, mt, *size, msg_blocks, blk)
                  : rooted_block(mc, mt, 0, 0, 0, MPI_BYTE, *size, msg_blocks, blk);
    if (err != MPI_SUCCESS)
        blk->bb = 0;
    return err;
}

int coll_gather_begin(collsim_rooted_fn self, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      coll_msg_blocks_fn msg_blocks, int *rank, int *size, rooted_buf *blk,
                      const void **mine)
{
    int in_place, err;
    *mine = NULL;
    blk->bb = 0;
    if (coll_adapt_rooted(self, 1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                          root, comm, &err))
        return err; /* served through packed bytes (coll_adapt.h); blk->bb == 0 */
    err = rooted_begin(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           msg_blocks, rank, size, blk, &in_place);
    *mine = err || !blk->bb ? NULL : in_place ? coll_cblock(recvbuf, root, blk->bb) : sendbuf;
    return err;
}

int coll_scatter_begin(collsim_rooted_fn self, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       coll_msg_blocks_fn msg_blocks, int *rank, int *size, rooted_buf *blk,
                       void **mine)
{
    int in_place, err;
    *mine = NULL;
    blk->bb = 0;
    if (coll_adapt_rooted(self, 0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                          root, comm, &err))
        return err; /* served through packed bytes (coll_adapt.h); blk->bb == 0 */
    err = rooted_begin(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           comm, msg_blocks, rank, size, blk, &in_place);
    *mine = in_place ? NULL : recvbuf;
    return err;
}

/* ---- trees over a group ---- */
static int flat_rank(const rooted_group *g, int i) { return (g->a + i) % g->n; }
static long flat_disp(const rooted_group *g, int i)
{
    (void)g;
    return i;
}

rooted_group rooted_group_flat(MPI_Comm comm, int p, int rank, int root)
{
    rooted_group g = {comm, p, coll_mod(rank - root, p), flat_rank, flat_disp, NULL, root, 0};
    return g;
}

/* The member after member me's subtree. */
static int tree_end(int n, int kind, int me)
{
    if (me == 0)
        return n;
    if (kind == ROOTED_DIRECT)
        return me + 1;
    const long low = me & -me;
    return me + low < n ? (int)(me + low) : n;
}

long rooted_span(const rooted_group *g, int kind, int me)
{
    return g->disp_of(g, tree_end(g->n, kind, me)) - g->disp_of(g, me);
}

/* Blocks [lo, hi) of x (relative to x->buf) to or from member `peer`;
 * nothing when empty. With req NULL a blocking call. */
static int xfer(const rooted_group *g, const rooted_buf *x, long lo, long hi, int peer, int tag,
                int is_send, MPI_Request *req)
{
    if (req)
        *req = MPI_REQUEST_NULL;
    if (hi <= lo)
        return MPI_SUCCESS;
    void *at = coll_block(x->buf, (int)lo, x->bb);
    const int n = (int)(hi - lo) * x->count, rank = g->rank_of(g, peer);
    if (is_send)
        return req ? MPI_Isend(at, n, x->type, rank, tag, g->comm, req)
                   : MPI_Send(at, n, x->type, rank, tag, g->comm);
    return req ? MPI_Irecv(at, n, x->type, rank, tag, g->comm, req)
               : MPI_Recv(at, n, x->type, rank, tag, g->comm, MPI_STATUS_IGNORE);
}

/* The root's side of a direct tree: one request per member, then wait. */
static int direct_root(const rooted_group *g, const rooted_buf *x, int tag, int is_send)
{
    const int n = g->n;
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)n);
    int err = MPI_SUCCESS;
    if (!req)
        return MPI_ERR_NO_MEM;
    int posted = 0;
    for (int i = 1; i < n && !err; i++, posted++)
        err = xfer(g, x, g->disp_of(g, i), g->disp_of(g, i + 1), i, tag, is_send, &req[i - 1]);
    if (posted > 0) {
        int werr = MPI_Waitall(posted, req, MPI_STATUSES_IGNORE);
        if (!err)
            err = werr;
    }
    free(req);
    return err;
}

int rooted_gather_tree(const rooted_group *g, int kind, const rooted_buf *x)
{
    const int n = g->n, me = g->me;
    const long base = g->disp_of(g, me);
    if (n <= 1)
        return MPI_SUCCESS;
    if (kind == ROOTED_DIRECT)
        return me == 0 ? direct_root(g, x, COLL_TAG_GATHER, 0)
                       : xfer(g, x, 0, g->disp_of(g, me + 1) - base, 0, COLL_TAG_GATHER, 1, NULL);
    /* MPICH's binomial gather: receive from the children in order of
     * increasing distance, then send the subtree to the parent. */
    for (int mask = 1; mask < n; mask <<= 1) {
        if (me & mask)
            return xfer(g, x, 0, g->disp_of(g, tree_end(n, kind, me)) - base, me - mask,
                        COLL_TAG_GATHER, 1, NULL);
        if (me + mask < n) {
            const int c = me + mask;
            int err = xfer(g, x, g->disp_of(g, c) - base, g->disp_of(g, tree_end(n, kind, c)) - base,
                           c, COLL_TAG_GATHER, 0, NULL);
            if (err)
                return err;
        }
    }
    return MPI_SUCCESS;
}

int rooted_scatter_tree(const rooted_group *g, int kind, const rooted_buf *x)
{
    const int n = g->n, me = g->me;
    const long base = g->disp_of(g, me);
    int err, mask;
    if (n <= 1)
        return MPI_SUCCESS;
    if (kind == ROOTED_DIRECT)
        return me == 0 ? direct_root(g, x, COLL_TAG_SCATTER, 1)
                       : xfer(g, x, 0, g->disp_of(g, me + 1) - base, 0, COLL_TAG_SCATTER, 0, NULL);
    /* MPICH's binomial scatter: receive the subtree from the parent, then
     * send each child its subtree, the largest first. */
    if (me) {
        mask = me & -me;
        if ((err = xfer(g, x, 0, g->disp_of(g, tree_end(n, kind, me)) - base, me - mask,
                        COLL_TAG_SCATTER, 0, NULL)))
            return err;
    } else {
        for (mask = 1; mask < n; mask <<= 1)
            ;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n) {
            const int c = me + mask;
            if ((err = xfer(g, x, g->disp_of(g, c) - base,
                            g->disp_of(g, tree_end(n, kind, c)) - base, c, COLL_TAG_SCATTER, 1,
                            NULL)))
                return err;
        }
    return MPI_SUCCESS;
}

/* ---- flat gather and scatter ---- */
/* The whole communicator as one tree rooted at root; *span: this process's
 * subtree in blocks. */
static rooted_group flat_group(MPI_Comm comm, int kind, int root, int *p, long *span)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, p);
    rooted_group g = rooted_group_flat(comm, *p, rank, root);
    *span = rooted_span(&g, kind, g.me);
    return g;
}

int rooted_flat_gather(MPI_Comm comm, int kind, int root, const void *mine, void *recvbuf,
                       const rooted_buf *blk)
{
    int p, err;
    long span;
    rooted_group g = flat_group(comm, kind, root, &p, &span);
    rooted_buf x = *blk;
    void *tmp = NULL;
    if (g.me == 0) { /* member order in recvbuf, own block first */
        x.buf = recvbuf;
        if (mine != recvbuf)
            coll_copy(recvbuf, mine, blk->bb);
    } else if (span == 1) { /* a leaf sends its own block */
        x.buf = (void *)mine;
    } else {
        if (!(x.buf = tmp = coll_scratch_alloc((size_t)span * blk->bb)))
            return MPI_ERR_NO_MEM;
        coll_copy(tmp, mine, blk->bb);
    }
    err = rooted_gather_tree(&g, kind, &x);
    if (!err && g.me == 0) /* member i is rank (root + i) mod p */
        coll_rotate_blocks(recvbuf, p, blk->bb, root);
    coll_scratch_free(tmp);
    return err;
}

int rooted_flat_scatter(MPI_Comm comm, int kind, int root, const void *sendbuf, void *mine,
                        const rooted_buf *blk)
{
    int p, err;
    long span;
    rooted_group g = flat_group(comm, kind, root, &p, &span);
    const size_t bb = blk->bb;
    rooted_buf x = *blk;
    void *tmp = NULL;
    if (g.me == 0 && root == 0) {
        x.buf = (void *)sendbuf; /* only sent from */
    } else if (g.me == 0) {     /* member order: ranks root .. p-1, then 0 .. root-1 */
        if (!(x.buf = tmp = coll_scratch_alloc((size_t)p * bb)))
            return MPI_ERR_NO_MEM;
        coll_copy_data(tmp, coll_cblock(sendbuf, root, bb), (size_t)(p - root) * bb);
        coll_copy_data(coll_block(tmp, p - root, bb), sendbuf, (size_t)root * bb);
    } else if (span == 1) {
        x.buf = mine;
    } else if (!(x.buf = tmp = coll_scratch_alloc((size_t)span * bb))) {
        return MPI_ERR_NO_MEM;
    }
    err = rooted_scatter_tree(&g, kind, &x);
    if (!err && mine && x.buf != mine)
        coll_copy(mine, g.me == 0 ? coll_cblock(sendbuf, root, bb) : x.buf, bb);
    coll_scratch_free(tmp);
    return err;
}

int rooted_gather_alg(collsim_rooted_fn self, int kind, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      coll_msg_blocks_fn msg_blocks)
{
    int rank, p;
    rooted_buf blk;
    const void *mine;
    int err = coll_gather_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                root, comm, msg_blocks, &rank, &p, &blk, &mine);
    if (err || blk.bb == 0)
        return err;
    return rooted_flat_gather(comm, kind, root, mine, recvbuf, &blk);
}

int rooted_scatter_alg(collsim_rooted_fn self, int kind, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       coll_msg_blocks_fn msg_blocks)
{
    int rank, p;
    rooted_buf blk;
    void *mine;
    int err = coll_scatter_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 root, comm, msg_blocks, &rank, &p, &blk, &mine);
    if (err || blk.bb == 0)
        return err;
    return rooted_flat_scatter(comm, kind, root, sendbuf, mine, &blk);
}

/* ---- the hierarchy ---- */
rooted_hier rooted_hier_node(int flat, int up)
{
    rooted_hier h = {1, {coll_loc_level_index("node")}, flat, up, 0};
    if (h.lev[0] < 0)
        h.nlev = -1;
    return h;
}

rooted_hier rooted_hier_region(int root_leader)
{
    rooted_hier h = {1, {coll_loc_region_level()}, ROOTED_BINOMIAL, ROOTED_BINOMIAL, root_leader};
    return h;
}

rooted_hier rooted_hier_multilevel(void)
{
    rooted_hier h = {coll_loc_region_level() + 1, {0}, ROOTED_BINOMIAL, ROOTED_BINOMIAL, 0};
    for (int i = 0; i < h.nlev; i++)
        h.lev[i] = i;
    return h;
}

/* The region j of `rank` and its index h in it. Block and cyclic layouts
 * compute it; a general layout is searched (O(p) per call and level). */
static void locate(const coll_loc_info *info, int rank, int *j, int *h)
{
    int v = rank;
    if (info->layout == COLL_LOC_CYCLIC) {
        *j = rank % info->nregions;
        *h = rank / info->nregions;
        return;
    }
    if (info->layout == COLL_LOC_GENERAL)
        for (v = 0; v < info->size && info->vrank[v] != rank; v++)
            ;
    *j = coll_loc_region_of_virtual(info, v);
    *h = v - info->first[*j];
}

/* The leaders' group: member i is the leader of region (a + i) mod R, the
 * root's region a first; its leader is member b of region a, member 0
 * elsewhere; blocks in region order from region a on. */
static int leaders_rank(const rooted_group *g, int i)
{
    const int j = (g->a + i) % g->n;
    return coll_loc_rank_of(g->info, j, j == g->a ? g->b : 0);
}

static long leaders_disp(const rooted_group *g, int i)
{
    const coll_loc_info *info = g->info;
    if (i >= g->n)
        return info->size;
    return coll_mod(info->first[(g->a + i) % g->n] - info->first[g->a], info->size);
}

/* What one level of the engine needs to know. */
typedef struct {
    const coll_loc_info *info;
    rooted_group leaders;
    int leader;      /* am I my region's leader */
    int lead_local;  /* my region's leader's local rank */
    int root_leader; /* rank in comm of the root region's leader */
} hier_level;

static int hier_level_get(const rooted_hier *h, int d, MPI_Comm comm, int root, hier_level *L)
{
    int err, jr, hr;
    if ((err = coll_loc_info_get(comm, h->lev[d - 1], &L->info)))
        return err;
    const coll_loc_info *info = L->info;
    locate(info, root, &jr, &hr);
    const int lead_h = h->root_leader ? hr : 0;
    L->lead_local = info->region == jr ? lead_h : 0;
    L->leader = info->local_rank == L->lead_local;
    rooted_group lg = {comm, info->nregions, coll_mod(info->region - jr, info->nregions),
                       leaders_rank, leaders_disp, info, jr, lead_h};
    L->leaders = lg;
    L->root_leader = coll_loc_rank_of(info, jr, lead_h);
    return MPI_SUCCESS;
}

static int hgather(const rooted_hier *h, int d, MPI_Comm comm, int root, const void *mine,
                   void *out, const rooted_buf *blk)
{
    hier_level L;
    int err;
    if (d == 0)
        return rooted_flat_gather(comm, h->flat, root, mine, out, blk);
    if ((err = hier_level_get(h, d, comm, root, &L)))
        return err;
    const coll_loc_info *info = L.info;
    if (info->nregions == 1)
        return hgather(h, d - 1, comm, root, mine, out, blk);
    const int rank = info->rank, p = info->size;
    rooted_buf x = *blk;
    void *tmp = NULL;
    if (L.leader) { /* its subtree's regions, its own region first */
        x.buf = rank == root ? out
                             : (tmp = coll_scratch_alloc((size_t)rooted_span(&L.leaders, h->up,
                                                                             L.leaders.me) *
                                                         blk->bb));
        if (!x.buf)
            return MPI_ERR_NO_MEM;
    }
    /* 1. in my region, to its leader */
    err = hgather(h, d - 1, info->comm_region, L.lead_local, mine, x.buf, blk);
    /* 2. among the leaders, to the root's region's leader */
    if (!err && L.leader)
        err = rooted_gather_tree(&L.leaders, h->up, &x);
    /* 3. that leader to the root, when it is another process */
    if (!err && rank == L.root_leader && rank != root)
        err = MPI_Send(x.buf, p * blk->count, blk->type, root, COLL_TAG_GATHER, comm);
    else if (!err && rank == root && L.root_leader != root)
        err = MPI_Recv(out, p * blk->count, blk->type, L.root_leader, COLL_TAG_GATHER, comm,
                       MPI_STATUS_IGNORE);
    /* 4. region order to rank order (costed in folded buffers too) */
    if (!err && rank == root) {
        loc_buf b = {out, blk->bb, blk->count, blk->type};
        err = loc_place_virtual(info, &b, info->first[L.leaders.a]);
    }
    coll_scratch_free(tmp);
    return err;
}

/* The root's blocks (rank order) into region order from region j on. */
static void pack_virtual(const coll_loc_info *info, const void *in, void *out, int j, size_t bb)
{
    const int p = info->size, base = info->first[j];
    for (int w = 0; w < p; w++)
        coll_copy_data(coll_block(out, w, bb),
               coll_cblock(in, coll_loc_rank_of_virtual(info, (base + w) % p), bb), bb);
}

static int hscatter(const rooted_hier *h, int d, MPI_Comm comm, int root, const void *in,
                    void *mine, const rooted_buf *blk)
{
    hier_level L;
    int err = MPI_SUCCESS;
    if (d == 0)
        return rooted_flat_scatter(comm, h->flat, root, in, mine, blk);
    if ((err = hier_level_get(h, d, comm, root, &L)))
        return err;
    const coll_loc_info *info = L.info;
    if (info->nregions == 1)
        return hscatter(h, d - 1, comm, root, in, mine, blk);
    const int rank = info->rank, p = info->size;
    const size_t bb = blk->bb;
    rooted_buf x = *blk;
    void *tmp = NULL;
    if (L.leader && !(x.buf = tmp = coll_scratch_alloc(
                          (size_t)rooted_span(&L.leaders, h->up, L.leaders.me) * bb)))
        return MPI_ERR_NO_MEM;
    /* 0. the root's blocks in region order, at the root's region's leader */
    if (rank == root) {
        void *packed = L.leader ? x.buf : coll_scratch_alloc((size_t)p * bb);
        if (!packed) {
            coll_scratch_free(tmp);
            return MPI_ERR_NO_MEM;
        }
        pack_virtual(info, in, packed, L.leaders.a, bb);
        if (!L.leader) {
            err = MPI_Send(packed, p * blk->count, blk->type, L.root_leader, COLL_TAG_SCATTER, comm);
            coll_scratch_free(packed);
        }
    } else if (rank == L.root_leader) {
        err = MPI_Recv(x.buf, p * blk->count, blk->type, root, COLL_TAG_SCATTER, comm,
                       MPI_STATUS_IGNORE);
    }
    /* 1. among the leaders: each gets its subtree's regions */
    if (!err && L.leader)
        err = rooted_scatter_tree(&L.leaders, h->up, &x);
    /* 2. in my region, from its leader */
    if (!err)
        err = hscatter(h, d - 1, info->comm_region, L.lead_local, x.buf, mine, blk);
    coll_scratch_free(tmp);
    return err;
}

int rooted_hier_gather(collsim_rooted_fn self, const rooted_hier *h, const void *sendbuf,
                       int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, coll_msg_blocks_fn msg_blocks)
{
    int rank, p, err;
    rooted_buf blk;
    const void *mine;
    err = coll_gather_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm,
                            msg_blocks, &rank, &p, &blk, &mine);
    if (err || blk.bb == 0)
        return err;
    if (h->nlev < 0)
        return MPI_ERR_ARG;
    void *own = NULL;
    if (rank == root && sendbuf == MPI_IN_PLACE && p > 1) {
        /* the receive buffer is the root's working buffer: keep its block apart */
        if (!(own = coll_scratch_alloc(blk.bb)))
            return MPI_ERR_NO_MEM;
        coll_copy(own, mine, blk.bb);
        mine = own;
    }
    err = hgather(h, h->nlev, comm, root, mine, rank == root ? recvbuf : NULL, &blk);
    coll_scratch_free(own);
    return err;
}

int rooted_hier_scatter(collsim_rooted_fn self, const rooted_hier *h, const void *sendbuf,
                        int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int root, MPI_Comm comm, coll_msg_blocks_fn msg_blocks)
{
    int rank, p, err;
    rooted_buf blk;
    void *mine, *own = NULL;
    err = coll_scatter_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm, msg_blocks, &rank, &p, &blk, &mine);
    if (err || blk.bb == 0)
        return err;
    if (h->nlev < 0)
        return MPI_ERR_ARG;
    if (!mine && !(mine = own = coll_scratch_alloc(blk.bb))) /* in place: its block comes back */
        return MPI_ERR_NO_MEM;
    err = hscatter(h, h->nlev, comm, root, rank == root ? sendbuf : NULL, mine, &blk);
    coll_scratch_free(own);
    return err;
}
