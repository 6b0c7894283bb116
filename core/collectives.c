/* The collectives' descriptors (collectives.h), from collectives.def. */
#include "collectives.h"

#include <stdio.h>
#include <string.h>

#define CS_COLLECTIVE(name, sig, send, root, in_place, note, min_np, mpi, pmpi, ...)               \
    static const char *const builtins_##name[] = {__VA_ARGS__, NULL};
#include "collectives.def"
#undef CS_COLLECTIVE

const cs_coll_props cs_coll_table[CS_NCOLL] = {
#define CS_COLLECTIVE(name, sig, send, root, in_place, note, min_np, mpi, pmpi, ...)               \
    {#name,          CS_SIG_##sig, CS_SEND_##send, CS_ROOT_##root,    CS_IN_PLACE_##in_place,       \
     CS_IN_PLACE_##in_place != CS_IN_PLACE_no, note, CS_SIG_##sig##_VARIABLE, CS_SIG_##sig##_GROUPS,          \
     CS_SIG_##sig##_OP,    min_np,         #mpi,           CS_PMPI_##pmpi,    builtins_##name},
#include "collectives.def"
#undef CS_COLLECTIVE
};

const cs_coll_props *cs_colls(void) { return cs_coll_table; }

const cs_coll_props *cs_coll_find(const char *name)
{
    for (size_t i = 0; name && i < CS_NCOLL; i++)
        if (!strcmp(cs_coll_table[i].name, name))
            return &cs_coll_table[i];
    return NULL;
}

const char *cs_coll_names(const char *sep)
{
    static char joined[2][256];
    char *out = joined[sep[0] == '|'];
    out[0] = 0;
    for (size_t i = 0; i < CS_NCOLL; i++) {
        size_t u = strlen(out);
        snprintf(out + u, sizeof joined[0] - u, "%s%s", i ? sep : "", cs_coll_table[i].name);
    }
    return out;
}

const char *cs_coll_join(const char *sep, char *out, unsigned long len,
                         int (*keep)(const cs_coll_props *))
{
    out[0] = 0;
    for (size_t i = 0; i < CS_NCOLL; i++)
        if (keep(&cs_coll_table[i])) {
            size_t u = strlen(out);
            snprintf(out + u, len - u, "%s%s", u ? sep : "", cs_coll_table[i].name);
        }
    return out;
}

int cs_coll_takes_in_place(const cs_coll_props *c) { return c->in_place; }
int cs_coll_is_intergroup(const cs_coll_props *c) { return c->groups != 0; }
int cs_coll_is_rooted(const cs_coll_props *c) { return c->rooted != CS_ROOT_none; }
int cs_coll_has_op(const cs_coll_props *c) { return c->op; }

int cs_coll_send_blocks(const cs_coll_props *c, int p) { return c->send_blocks_per_rank ? p : 1; }

int cs_coll_recv_blocks(const cs_coll_props *c, int p, int in_place)
{
    /* MPI_IN_PLACE into a reduce-scatter: the receive buffer holds the p blocks of input */
    if (in_place && c->op && c->send_blocks_per_rank)
        return p;
    /* a reduction's result is one vector (or a reduce-scatter's one block), a broadcast's one
     * block; the rest hold p blocks (a scatter's too: the data check sees a write beyond the
     * rank's block in the p - 1 blocks after it) */
    return c->op || c->rooted == CS_ROOT_one_from ? 1 : p;
}

int cs_coll_min_np(const char *collective)
{
    const cs_coll_props *c = cs_coll_find(collective);
    return c ? c->min_np : 1;
}

const char *cs_coll_min_np_why(const char *collective)
{
    static char why[160];
    const cs_coll_props *c = cs_coll_find(collective);
    if (!c || c->min_np <= 1)
        return "a collective needs 1 process at least";
    snprintf(why, sizeof why, "%s%s: it needs %d processes at least", c->name,
             c->sig == CS_SIG_p2p ? " bounces each size between ranks 0 and 1" : "", c->min_np);
    return why;
}
