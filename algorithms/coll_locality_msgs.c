/* Region info from a provider (coll_locality.h): the regions of a
 * communicator learnt by messages over it (one MPI_Comm_split, point-to-point
 * steps of logarithmic depth). Internal to coll_locality.c, as the rank map's
 * coll_locality_map.c. */
#include "coll_locality_msgs.h"
#include "coll_locality_map.h"

#include "coll_share.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- small logarithmic collectives for the set-up ---- */

/* Element-wise minimum over comm, in place (dissemination: ceil(log2 p)
 * rounds; the minimum is idempotent, so overlapping windows are harmless). */
static int allmin_long(long *v, int n, MPI_Comm comm)
{
    long small[4], *in = n <= 4 ? small : malloc(sizeof(long) * (size_t)n);
    int rank, p, err = MPI_SUCCESS;

    if (!in)
        return MPI_ERR_NO_MEM;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int d = 1; d < p && !err; d <<= 1) {
        err = MPI_Sendrecv(v, n, MPI_LONG, (rank + d) % p, COLL_TAG_LOC_SETUP, in, n, MPI_LONG,
                           (rank - d + p) % p, COLL_TAG_LOC_SETUP, comm, MPI_STATUS_IGNORE);
        for (int i = 0; i < n && !err; i++)
            if (in[i] < v[i])
                v[i] = in[i];
    }
    if (in != small)
        free(in);
    return err;
}

/* MPI_Comm_split wants an int colour: colours that fit are used as they are,
 * others are hashed (a clash is detected and resolved after the split). */
static int colour_to_int(long c)
{
    if (c >= 0 && c <= INT_MAX)
        return (int)c;
    return (int)((unsigned long)c % 2147483647UL);
}

/* Splits a region again when two colours hashed to the same int (rare):
 * called by all its members, which all know `clash`. */
static int resolve_clash(MPI_Comm *rc, long c, int clash)
{
    int n, r, err;

    if (!clash)
        return MPI_SUCCESS;
    MPI_Comm_size(*rc, &n);
    MPI_Comm_rank(*rc, &r);
    long *all = malloc(sizeof(long) * (size_t)n);
    if (!all)
        return MPI_ERR_NO_MEM;
    err = collsim_allgather_bruck(&c, 1, MPI_LONG, all, 1, MPI_LONG, *rc);
    int first = 0;
    while (all[first] != c)
        first++;
    free(all);
    MPI_Comm fixed;
    if (!err && !(err = MPI_Comm_split(*rc, first, r, &fixed))) {
        MPI_Comm_free(rc);
        *rc = fixed;
    }
    return err;
}

/* What member 0 of each region tells everyone (one record of longs). */
enum { REC_LEADER, REC_SIZE, REC_STRIDE, REC_FLAGS, REC_LEN };
#define REC_OK 1L    /* every member had a colour */
#define REC_CLASH 2L /* two colours of the region hashed alike */

/* Every region's record to every rank: a Bruck allgather over comm in which
 * only member 0s contribute, so messages carry records, not ranks (at most
 * the number of regions). A rank holds the records of the ranks
 * rank .. rank+d-1 (mod p), ordered by that offset; on return *recs holds
 * all *nrecs of them, ordered by leader rank. The receive buffer of a step
 * is sized for its largest possible message (untouched pages cost nothing). */
static int gather_records(const long *mine, int have, MPI_Comm comm, long **recs, int *nrecs)
{
    int rank, p, n = have, err = MPI_SUCCESS;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    long *held = malloc(sizeof(long) * REC_LEN * (size_t)(have ? 1 : 0) + 1);
    if (!held)
        return MPI_ERR_NO_MEM;
    if (have)
        memcpy(held, mine, sizeof(long) * REC_LEN);
    for (int d = 1; d < p && !err; d <<= 1) {
        const int k = d < p - d ? d : p - d; /* ranks sent: offsets 0..k-1 */
        int nsend = 0, got = 0;
        while (nsend < n && coll_mod((int)held[nsend * REC_LEN + REC_LEADER] - rank, p) < k)
            nsend++;
        long *grown = realloc(held, sizeof(long) * REC_LEN * (size_t)(n + k) + 1);
        if (!grown) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        held = grown;
        MPI_Request req[2];
        MPI_Status st[2];
        err = MPI_Irecv(held + (size_t)n * REC_LEN, k * REC_LEN, MPI_LONG, (rank + d) % p,
                        COLL_TAG_LOC_SETUP, comm, &req[0]);
        if (!err)
            err = MPI_Isend(held, nsend * REC_LEN, MPI_LONG, coll_mod(rank - d, p),
                            COLL_TAG_LOC_SETUP, comm, &req[1]);
        if (!err)
            err = MPI_Waitall(2, req, st);
        if (!err)
            err = MPI_Get_count(&st[0], MPI_LONG, &got);
        n += got / REC_LEN;
    }
    if (err) {
        free(held);
        return err;
    }
    /* from offset order to leader order: a rotation */
    int first = 0; /* offsets 0.. are leaders rank.., then the wrapped ones */
    while (first < n && held[first * REC_LEN + REC_LEADER] >= rank)
        first++;
    long *sorted = malloc(sizeof(long) * REC_LEN * (size_t)n + 1);
    if (!sorted) {
        free(held);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++)
        memcpy(sorted + (size_t)i * REC_LEN, held + (size_t)((first + i) % n) * REC_LEN,
               sizeof(long) * REC_LEN);
    free(held);
    *recs = sorted;
    *nrecs = n;
    return MPI_SUCCESS;
}

/* ---- building one level's info from a provider (messages over comm) ---- */
int coll_loc_build_info_msgs(coll_loc_info *info, coll_loc_provider fn)
{
    MPI_Comm comm = info->comm;
    const int level = info->level;
    long c = -1, *recs = NULL;
    int err, ok;

    /* Errors found from here on are only reported after the collective steps
     * every rank takes anyway, so that no rank is left waiting. */
    ok = fn(level, &c) == MPI_SUCCESS;
    if (!ok)
        c = -1;
    err = MPI_Comm_split(comm, colour_to_int(c), info->rank, &info->comm_region);
    if (err)
        goto fail;

    /* Regions are numbered by their lowest rank, i.e. by the rank of their
     * member 0 (comm_region keeps comm's order). Each member 0 describes its
     * region in a record (its rank, size, the stride of its members' ranks if
     * they are evenly spaced, flags), and one Bruck allgather of the records
     * over comm tells everyone everything. Only point-to-point steps: one of
     * logarithmic depth in the region, one over comm, and a single
     * MPI_Comm_split (a second one, for a leaders' communicator, would cost
     * SMPI 3.32 more than all the rest: 38 s at 4,096 ranks). */
    int nrecs = 0, leader = -1;
    for (;;) {
        MPI_Comm_rank(info->comm_region, &info->local_rank);
        MPI_Comm_size(info->comm_region, &info->local_size);
        const int s = info->local_size;
        /* one colour in the region? everyone with a colour? ({c, ~c}: min and max) */
        long chk[3] = {c, ~c, ok};
        if ((err = allmin_long(chk, 3, info->comm_region)))
            goto fail;
        const int clash = chk[0] != ~chk[1];
        /* the members' ranks in comm */
        MPI_Group greg, gcomm;
        int *in = malloc(sizeof(int) * (size_t)s), *ranks = malloc(sizeof(int) * (size_t)s);
        if (!in || !ranks) {
            free(in);
            free(ranks);
            err = MPI_ERR_NO_MEM;
            goto fail;
        }
        for (int h = 0; h < s; h++)
            in[h] = h;
        MPI_Comm_group(info->comm_region, &greg);
        MPI_Comm_group(comm, &gcomm);
        err = MPI_Group_translate_ranks(greg, info->local_rank == 0 ? s : 1, in, gcomm, ranks);
        MPI_Group_free(&greg);
        MPI_Group_free(&gcomm);
        leader = ranks[0];
        long rec[REC_LEN] = {leader, s, s > 1 ? ranks[1] - ranks[0] : 0,
                             (chk[2] ? REC_OK : 0) | (clash ? REC_CLASH : 0)};
        for (int h = 2; h < s && info->local_rank == 0; h++)
            if (ranks[h] - ranks[h - 1] != rec[REC_STRIDE])
                rec[REC_STRIDE] = -1;
        free(in);
        free(ranks);
        if (err)
            goto fail;
        free(recs);
        recs = NULL;
        if ((err = gather_records(rec, info->local_rank == 0, comm, &recs, &nrecs)))
            goto fail;
        int any_clash = 0;
        for (int j = 0; j < nrecs; j++)
            any_clash |= (recs[j * REC_LEN + REC_FLAGS] & REC_CLASH) != 0;
        if (!any_clash)
            break;
        if ((err = resolve_clash(&info->comm_region, c, clash))) /* rare: split again */
            goto fail;
    }
    const int r = nrecs;
    info->nregions = r;
    info->region_size = coll_table_new(r);
    info->first = coll_table_new(r + 1);
    if (!info->region_size || !info->first) {
        err = MPI_ERR_NO_MEM;
        goto fail;
    }
    int all_ok = 1, block = 1, cyclic = 1;
    info->first[0] = 0;
    info->max_size = 0;
    info->min_size = INT_MAX;
    info->region = -1;
    for (int j = 0; j < r; j++) {
        const long *rec = recs + (size_t)j * REC_LEN;
        const int sz = (int)rec[REC_SIZE];
        info->region_size[j] = sz;
        info->first[j + 1] = info->first[j] + sz;
        if (sz > info->max_size)
            info->max_size = sz;
        if (sz < info->min_size)
            info->min_size = sz;
        if (rec[REC_LEADER] == leader)
            info->region = j;
        all_ok &= (rec[REC_FLAGS] & REC_OK) != 0;
        /* contiguous regions, ordered by their first rank: virtual = rank */
        block &= sz == 1 || rec[REC_STRIDE] == 1;
        /* member h of region j is rank j + h r */
        cyclic &= rec[REC_LEADER] == j && (sz == 1 || rec[REC_STRIDE] == r);
    }
    free(recs);
    recs = NULL;
    if (!all_ok) {
        err = MPI_ERR_OTHER; /* some rank had no colour (no provider, or coll_loc_init missing) */
        goto fail;
    }
    const int g = info->region, l = info->local_rank;
    info->layout = block ? COLL_LOC_BLOCK : cyclic ? COLL_LOC_CYCLIC : COLL_LOC_GENERAL;
    if (info->layout == COLL_LOC_GENERAL) {
        /* The full table: every rank knows its own virtual index, an
         * element-wise minimum over comm (unknown entries: LONG_MAX) makes
         * it complete everywhere. O(size) per process, for unusual layouts
         * only (sequential and cyclic mappings need no table). */
        long *t = malloc(sizeof(long) * (size_t)info->size);
        info->vrank = coll_table_new(info->size);
        if (!t || !info->vrank) {
            free(t);
            err = MPI_ERR_NO_MEM;
            goto fail;
        }
        for (int v = 0; v < info->size; v++)
            t[v] = LONG_MAX;
        t[info->first[g] + l] = info->rank;
        err = allmin_long(t, info->size, comm);
        for (int v = 0; v < info->size; v++)
            info->vrank[v] = (int)t[v];
        free(t);
        if (err)
            goto fail;
    }
    info->region_size = coll_table_share(info->region_size, r);
    info->first = coll_table_share(info->first, r + 1);
    info->vrank = coll_table_share(info->vrank, info->size);
    return MPI_SUCCESS;
fail:
    free(recs);
    return err;
}
