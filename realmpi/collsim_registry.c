/* The registry of algorithms.def as a table for real MPI programs (collsim.h). */
#include "collsim.h"

#include <stdio.h>
#include <string.h>

/* columns read here: the collective (its member of the function union), in_place, regions */
#define CS_IN_PLACE_in_place 1
#define CS_IN_PLACE_no_in_place 0
#define CS_REGIONS_regions 1
#define CS_REGIONS_no_regions 0
#define CS_ALG_ENTRY(c, n, f, ip, rg)                                                              \
    {.collective = #c, .name = #n, .c = f, .in_place = CS_IN_PLACE_##ip,                          \
     .regions = CS_REGIONS_##rg, .msg_blocks = f##_msg_blocks},

/* The intergroup algorithms (column groups) are not in this table: they take a
 * group descriptor, not a communicator; a real program calls them through
 * their intercommunicator wrappers (algorithms/intergroup/intergroup_intercomm.h). */
#define CS_ENTRY_groups(...)
#define CS_ENTRY_no_groups(...) __VA_ARGS__

static const collsim_alg table[] = {
#define COLLSIM_ALG(coll, name, fn, source, paper, section, restriction, in_place, datatypes,      \
                    procs, regions, groups, setup, ops, cost, cost_formula, cost_note, state_bytes, \
                    msg_blocks, msg_unit)                                                          \
    CS_ENTRY_##groups(CS_ALG_ENTRY(coll, name, fn, in_place, regions))
#include "algorithms.def"
#undef COLLSIM_ALG
};

int collsim_alg_count(void) { return (int)(sizeof table / sizeof table[0]); }

const collsim_alg *collsim_alg_at(int i)
{
    return i >= 0 && i < collsim_alg_count() ? &table[i] : NULL;
}

const collsim_alg *collsim_alg_find(const char *collective, const char *name)
{
    if (!collective || !name)
        return NULL;
    const size_t n = strlen(collective);
    if (!strncmp(name, collective, n) && name[n] == '/')
        name += n + 1;
    for (int i = 0; i < collsim_alg_count(); i++)
        if (!strcmp(table[i].collective, collective) && !strcmp(table[i].name, name))
            return &table[i];
    return NULL;
}

char *collsim_alg_names(const char *collective, char *buf, int size)
{
    int used = 0;

    if (size > 0)
        buf[0] = '\0';
    for (int i = 0; i < collsim_alg_count() && used < size; i++)
        if (!strcmp(table[i].collective, collective))
            used += snprintf(buf + used, (size_t)(size - used), "%s%s", used ? ", " : "",
                             table[i].name);
    return buf;
}

/* ---- regions of consecutive ranks ---- */
static int region_block = 1;

static int block_map(int level, int world_rank, long *color)
{
    (void)level;
    *color = world_rank / region_block;
    return MPI_SUCCESS;
}

int collsim_set_block_regions(int block)
{
    static const char *const names[] = {"node"};

    if (block < 1)
        return MPI_ERR_ARG;
    region_block = block;
    return coll_loc_set_rank_map(1, names, block_map);
}
