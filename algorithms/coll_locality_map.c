/* Region info from a rank map: the regions of a communicator derived by each
 * process from the map alone (no message over the communicator), with the
 * same numbering and layout as coll_locality.c's build_info_msgs() derives by
 * messages: regions ordered by their lowest rank, members in rank order. */
#include "coll_locality_map.h"

#include "coll_share.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int n, nregions, kind;
    int *region_size; /* [nregions] */
    int *first;       /* [nregions + 1] */
    int *vrank;       /* [n]: virtual index -> rank */
    int *vindex;      /* [n]: rank -> virtual index */
} region_layout;

typedef struct {
    long colour;
    int rank;
} coloured_rank;

static int by_colour_then_rank(const void *a, const void *b)
{
    const coloured_rank *x = a, *y = b;
    if (x->colour != y->colour)
        return x->colour < y->colour ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

typedef struct {
    int leader, start, size; /* start: in the sorted coloured_rank array */
} region_run;

static int by_leader(const void *a, const void *b)
{
    const region_run *x = a, *y = b;
    return (x->leader > y->leader) - (x->leader < y->leader);
}

static void free_layout(region_layout *L)
{
    coll_table_release(L->region_size);
    coll_table_release(L->first);
    coll_table_release(L->vrank);
    free(L->vindex);
    memset(L, 0, sizeof *L);
}

/* The regions of the n processes whose world ranks are wrank[0..n-1] (NULL:
 * the identity), at `level`. The tables are shared (coll_table_share). */
static int compute_layout(coll_loc_rank_map rank_map, const int *wrank, int n, int level,
                          region_layout *L)
{
    coloured_rank *cr = malloc(sizeof *cr * (size_t)n + 1);
    region_run *run = malloc(sizeof *run * (size_t)n + 1);
    int err = MPI_SUCCESS, r = 0;

    memset(L, 0, sizeof *L);
    L->vrank = coll_table_new(n);
    L->vindex = malloc(sizeof(int) * (size_t)n + 1);
    if (!cr || !run || !L->vrank || !L->vindex)
        err = MPI_ERR_NO_MEM;
    for (int i = 0; i < n && !err; i++) {
        cr[i].rank = i;
        err = rank_map(level, wrank ? wrank[i] : i, &cr[i].colour);
    }
    if (!err) {
        qsort(cr, (size_t)n, sizeof *cr, by_colour_then_rank);
        for (int i = 0; i < n; i++)
            if (i == 0 || cr[i].colour != cr[i - 1].colour)
                run[r++] = (region_run){cr[i].rank, i, 0};
        for (int j = 0; j < r; j++)
            run[j].size = (j + 1 < r ? run[j + 1].start : n) - run[j].start;
        qsort(run, (size_t)r, sizeof *run, by_leader);
        L->region_size = coll_table_new(r);
        L->first = coll_table_new(r + 1);
        if (!L->region_size || !L->first)
            err = MPI_ERR_NO_MEM;
    }
    if (!err) {
        int block = 1, cyclic = 1;
        L->n = n;
        L->nregions = r;
        L->first[0] = 0;
        for (int j = 0; j < r; j++) {
            L->region_size[j] = run[j].size;
            L->first[j + 1] = L->first[j] + run[j].size;
            for (int h = 0; h < run[j].size; h++) {
                const int v = L->first[j] + h, rank = cr[run[j].start + h].rank;
                L->vrank[v] = rank;
                L->vindex[rank] = v;
                block &= rank == v;
                cyclic &= rank == j + h * r;
            }
        }
        L->kind = block ? COLL_LOC_BLOCK : cyclic ? COLL_LOC_CYCLIC : COLL_LOC_GENERAL;
        L->region_size = coll_table_share(L->region_size, r);
        L->first = coll_table_share(L->first, r + 1);
        L->vrank = coll_table_share(L->vrank, n);
    }
    free(cr);
    free(run);
    if (err)
        free_layout(L);
    return err;
}

/* MPI_COMM_WORLD's layout per level, computed once per OS process (by the
 * first simulated rank under SMPI) and kept until the map changes. */
static region_layout world_layout[COLL_LOC_MAX_LEVELS];
static unsigned world_generation[COLL_LOC_MAX_LEVELS];

/* Fills info (whose comm, level, rank and size are set). */
int coll_loc_build_info_map(coll_loc_info *info, coll_loc_rank_map rank_map, unsigned generation)
{
    MPI_Comm comm = info->comm;
    const int level = info->level, p = info->size;
    region_layout own, *L = &own;
    int err = MPI_SUCCESS;

    /* The handle itself (a group comparison would cost O(p) per process,
     * as much as the general path) */
    if (comm == MPI_COMM_WORLD) {
        L = &world_layout[level];
        if (world_generation[level] != generation) {
            free_layout(L);
            if ((err = compute_layout(rank_map, NULL, p, level, L)))
                return err;
            world_generation[level] = generation;
        }
    } else {
        /* the members' world ranks: O(p) for this process */
        MPI_Group gcomm, gworld;
        int *in = malloc(sizeof(int) * (size_t)p + 1), *wr = malloc(sizeof(int) * (size_t)p + 1);
        if (!in || !wr)
            err = MPI_ERR_NO_MEM;
        MPI_Comm_group(comm, &gcomm);
        MPI_Comm_group(MPI_COMM_WORLD, &gworld);
        for (int i = 0; i < p && !err; i++)
            in[i] = i;
        if (!err)
            err = MPI_Group_translate_ranks(gcomm, p, in, gworld, wr);
        if (!err)
            err = compute_layout(rank_map, wr, p, level, L); /* this process's own */
        MPI_Group_free(&gcomm);
        MPI_Group_free(&gworld);
        free(in);
        free(wr);
        if (err)
            return err;
    }
    const int v = L->vindex[info->rank];
    int g = 0, hi = L->nregions; /* first[g] <= v < first[hi] */
    while (hi - g > 1) {
        const int mid = (g + hi) / 2;
        if (L->first[mid] <= v)
            g = mid;
        else
            hi = mid;
    }
    info->nregions = L->nregions;
    info->region = g;
    info->local_rank = v - L->first[g];
    info->local_size = L->region_size[g];
    info->layout = L->kind;
    info->max_size = 0;
    info->min_size = INT_MAX;
    for (int j = 0; j < L->nregions; j++) {
        if (L->region_size[j] > info->max_size)
            info->max_size = L->region_size[j];
        if (L->region_size[j] < info->min_size)
            info->min_size = L->region_size[j];
    }
    /* the tables: one more reference each (this info releases them) */
    info->region_size = coll_table_retain(L->region_size);
    info->first = coll_table_retain(L->first);
    if (L->kind == COLL_LOC_GENERAL)
        info->vrank = coll_table_retain(L->vrank);
    /* my region's communicator, among its members only */
    MPI_Group gcomm, greg = MPI_GROUP_NULL;
    MPI_Comm_group(comm, &gcomm);
    err = coll_group_incl(gcomm, info->local_size, L->vrank + L->first[g], &greg);
    MPI_Group_free(&gcomm);
    if (!err)
        err = MPI_Comm_create_group(comm, greg, COLL_TAG_LOC_SETUP, &info->comm_region);
    coll_group_done(&greg);
    if (L == &own)
        free_layout(L);
    return err;
}

