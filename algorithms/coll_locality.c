/* Locality levels, providers and cached region communicators (see
 * coll_locality.h). Plain MPI. The set-up uses, with a provider, one
 * MPI_Comm_split and point-to-point messages with logarithmic schedules, with
 * a rank map one MPI_Comm_create_group per region; never a library
 * collective whose cost depends on an implementation's default (SMPI's
 * defaults are linear: hours at 32K ranks). */
#include "coll_locality.h"
#include "coll_locality_map.h"
#include "coll_locality_msgs.h"

#include "coll_share.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Tag of the set-up messages (distinct from the algorithms' tags). */

#define LEVEL_NAME_MAX 32

/* ---- process-wide settings (shared by all simulated ranks under SMPI) ---- */
static char level_names[COLL_LOC_MAX_LEVELS][LEVEL_NAME_MAX] = {"node"};
static int nlevels = 1;
static coll_loc_provider provider; /* NULL: the default provider */
static coll_loc_rank_map rank_map; /* non-NULL: colours known for every rank */
static int region_level;           /* index into level_names */
static unsigned generation = 1;    /* bumped by coll_loc_set_provider */

static int kv_self = MPI_KEYVAL_INVALID;  /* per-process state on MPI_COMM_SELF */
static int kv_cache = MPI_KEYVAL_INVALID; /* cached infos on a communicator */

/* ---- levels ---- */
int coll_loc_level_count(void) { return nlevels; }

const char *coll_loc_level_name(int level)
{
    return level >= 0 && level < nlevels ? level_names[level] : NULL;
}

int coll_loc_level_index(const char *name)
{
    for (int i = 0; name && i < nlevels; i++)
        if (!strcmp(level_names[i], name))
            return i;
    return -1;
}

int coll_loc_set_region_level(const char *name)
{
    int i = coll_loc_level_index(name);
    if (i < 0)
        return -1;
    region_level = i;
    return 0;
}

int coll_loc_region_level(void) { return region_level; }

const char *coll_loc_region_level_name(void) { return level_names[region_level]; }

static int install(int n, const char *const *names, coll_loc_provider fn, coll_loc_rank_map map)
{
    if (!fn) {
        strcpy(level_names[0], "node");
        nlevels = 1;
    } else {
        if (n < 1 || n > COLL_LOC_MAX_LEVELS || !names)
            return MPI_ERR_ARG;
        for (int i = 0; i < n; i++) {
            if (!names[i] || !names[i][0] || strlen(names[i]) >= LEVEL_NAME_MAX)
                return MPI_ERR_ARG;
            for (int k = 0; k < i; k++)
                if (!strcmp(names[k], names[i]))
                    return MPI_ERR_ARG;
        }
        for (int i = 0; i < n; i++)
            strcpy(level_names[i], names[i]);
        nlevels = n;
    }
    provider = fn;
    rank_map = map;
    region_level = coll_loc_level_index("node");
    if (region_level < 0)
        region_level = nlevels - 1;
    generation++;
    return MPI_SUCCESS;
}

int coll_loc_set_provider(int n, const char *const *names, coll_loc_provider fn)
{
    return install(n, names, fn, NULL);
}

/* A rank map is also this process's provider. */
static int map_self(int level, long *color)
{
    int w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    return rank_map(level, w, color);
}

int coll_loc_set_rank_map(int n, const char *const *names, coll_loc_rank_map fn)
{
    return fn ? install(n, names, map_self, fn) : MPI_ERR_ARG;
}

/* ---- the default provider: one level, "node" ---- */
typedef struct {
    long node; /* smallest MPI_COMM_WORLD rank sharing memory with this process */
} self_state;

static int free_self_state(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    free(value);
    return MPI_SUCCESS;
}

static int free_comm_cache(MPI_Comm comm, int keyval, void *value, void *extra);

static int ensure_keyvals(void)
{
    int err;
    /* Process-wide: under SMPI the first rank creates them for all. */
    if (kv_self == MPI_KEYVAL_INVALID &&
        (err = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_self_state, &kv_self, NULL)))
        return err;
    if (kv_cache == MPI_KEYVAL_INVALID &&
        (err = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_comm_cache, &kv_cache, NULL)))
        return err;
    return MPI_SUCCESS;
}

int coll_loc_init(void)
{
    MPI_Comm shm;
    MPI_Group gshm, gworld;
    int err, n;

    if ((err = ensure_keyvals()))
        return err;
    err = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    if (err)
        return err;
    MPI_Comm_size(shm, &n);
    MPI_Comm_group(shm, &gshm);
    MPI_Comm_group(MPI_COMM_WORLD, &gworld);
    int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
    self_state *st = malloc(sizeof *st);
    if (!in || !out || !st) {
        err = MPI_ERR_NO_MEM;
    } else {
        for (int i = 0; i < n; i++)
            in[i] = i;
        err = MPI_Group_translate_ranks(gshm, n, in, gworld, out);
        if (!err) {
            /* the smallest, whatever order the implementation gave the group */
            st->node = out[0];
            for (int i = 1; i < n; i++)
                if (out[i] < st->node)
                    st->node = out[i];
            err = MPI_Comm_set_attr(MPI_COMM_SELF, kv_self, st);
            if (!err)
                st = NULL;
        }
    }
    free(in);
    free(out);
    free(st);
    MPI_Group_free(&gshm);
    MPI_Group_free(&gworld);
    MPI_Comm_free(&shm);
    return err;
}

static int default_provider(int level, long *color)
{
    self_state *st;
    int flag = 0;

    if (level != 0 || kv_self == MPI_KEYVAL_INVALID)
        return MPI_ERR_OTHER;
    if (MPI_Comm_get_attr(MPI_COMM_SELF, kv_self, &st, &flag) != MPI_SUCCESS || !flag)
        return MPI_ERR_OTHER; /* coll_loc_init() was not called */
    *color = st->node;
    return MPI_SUCCESS;
}

/* ---- building one level's info (collective over comm) ---- */

static void free_info(coll_loc_info *info)
{
    if (!info)
        return;
    if (info->comm_region != MPI_COMM_NULL)
        MPI_Comm_free(&info->comm_region);
    coll_table_release(info->region_size);
    coll_table_release(info->first);
    coll_table_release(info->vrank);
    free(info);
}

static int build_info(MPI_Comm comm, int level, coll_loc_info **out)
{
    coll_loc_info *info = calloc(1, sizeof *info);

    *out = NULL;
    if (!info)
        return MPI_ERR_NO_MEM;
    info->comm = comm;
    info->level = level;
    info->comm_region = MPI_COMM_NULL;
    MPI_Comm_rank(comm, &info->rank);
    MPI_Comm_size(comm, &info->size);
    const int err = rank_map ? coll_loc_build_info_map(info, rank_map, generation)
                             : coll_loc_build_info_msgs(info, provider ? provider : default_provider);
    if (err)
        free_info(info);
    else
        *out = info;
    return err;
}

/* ---- the cache on a communicator ----
 * One entry per rank of the communicator *object*: under a real MPI (and for
 * SMPI's sub-communicators) only the calling process uses an object, but
 * SMPI's MPI_COMM_WORLD is a single object for all simulated ranks, so the
 * first call by another rank turns the entry into a table indexed by rank. */
typedef struct {
    unsigned generation;
    coll_loc_info *level[COLL_LOC_MAX_LEVELS];
} rank_cache;

typedef struct {
    int size, owner;   /* owner: the rank of the only user so far */
    rank_cache *single;
    rank_cache **slots; /* [size], once a second rank uses the object */
} comm_cache;

static void clear_rank_cache(rank_cache *rc)
{
    for (int i = 0; i < COLL_LOC_MAX_LEVELS; i++) {
        free_info(rc->level[i]);
        rc->level[i] = NULL;
    }
}

static int free_comm_cache(MPI_Comm comm, int keyval, void *value, void *extra)
{
    comm_cache *cc = value;
    (void)comm;
    (void)keyval;
    (void)extra;
    if (cc->single) {
        clear_rank_cache(cc->single);
        free(cc->single);
    }
    if (cc->slots) {
        for (int i = 0; i < cc->size; i++)
            if (cc->slots[i]) {
                clear_rank_cache(cc->slots[i]);
                free(cc->slots[i]);
            }
        free(cc->slots);
    }
    free(cc);
    return MPI_SUCCESS;
}

static int rank_cache_of(MPI_Comm comm, rank_cache **out)
{
    comm_cache *cc;
    int flag = 0, rank, err;

    if ((err = ensure_keyvals()))
        return err;
    if ((err = MPI_Comm_get_attr(comm, kv_cache, &cc, &flag)))
        return err;
    MPI_Comm_rank(comm, &rank);
    if (!flag) {
        cc = calloc(1, sizeof *cc);
        if (!cc || !(cc->single = calloc(1, sizeof *cc->single))) {
            free(cc);
            return MPI_ERR_NO_MEM;
        }
        MPI_Comm_size(comm, &cc->size);
        cc->owner = rank;
        if ((err = MPI_Comm_set_attr(comm, kv_cache, cc))) {
            free(cc->single);
            free(cc);
            return err;
        }
        *out = cc->single;
        return MPI_SUCCESS;
    }
    if (!cc->slots && cc->owner == rank) {
        *out = cc->single;
        return MPI_SUCCESS;
    }
    if (!cc->slots) {
        if (!(cc->slots = calloc((size_t)cc->size, sizeof *cc->slots)))
            return MPI_ERR_NO_MEM;
        cc->slots[cc->owner] = cc->single;
        cc->single = NULL;
    }
    if (!cc->slots[rank] && !(cc->slots[rank] = calloc(1, sizeof **cc->slots)))
        return MPI_ERR_NO_MEM;
    *out = cc->slots[rank];
    return MPI_SUCCESS;
}

int coll_loc_info_get(MPI_Comm comm, int level, const coll_loc_info **info)
{
    rank_cache *rc;
    int err;

    *info = NULL;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    if (level < 0 || level >= nlevels)
        return MPI_ERR_ARG;
    if ((err = rank_cache_of(comm, &rc)))
        return err;
    if (rc->generation != generation) {
        clear_rank_cache(rc);
        rc->generation = generation;
    }
    if (!rc->level[level] && (err = build_info(comm, level, &rc->level[level])))
        return err;
    *info = rc->level[level];
    return MPI_SUCCESS;
}

int coll_loc_split(MPI_Comm comm, int level, MPI_Comm *region)
{
    const coll_loc_info *info;
    int err = coll_loc_info_get(comm, level, &info);

    *region = err ? MPI_COMM_NULL : info->comm_region;
    return err;
}

int coll_loc_prepare(MPI_Comm comm)
{
    const coll_loc_info *info;
    int err = coll_loc_info_get(comm, coll_loc_region_level(), &info);

    for (int level = coll_loc_region_level() - 1; !err && level >= 0; level--)
        err = coll_loc_info_get(info->comm_region, level, &info);
    return err;
}

int coll_loc_rank_of_virtual(const coll_loc_info *info, int v)
{
    if (info->layout == COLL_LOC_BLOCK)
        return v;
    if (info->layout == COLL_LOC_GENERAL)
        return info->vrank[v];
    /* cyclic: the region holding v */
    const int lo = coll_loc_region_of_virtual(info, v);
    return lo + (v - info->first[lo]) * info->nregions;
}

int coll_loc_region_of_virtual(const coll_loc_info *info, int v)
{
    int lo = 0, hi = info->nregions; /* first[lo] <= v < first[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (info->first[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
