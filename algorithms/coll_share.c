/* Reference-counted tables and region groups (coll_share.h). */
#include "coll_share.h"

#include <stddef.h>
#include <stdlib.h>

static coll_share_hooks hooks; /* all NULL: none */

/* The count sits in front of the table, aligned as the ints that follow. */
typedef union {
    struct {
        int refs, n;
    } c;
    max_align_t align;
} table_head;

static table_head *head_of(int *t) { return (table_head *)(void *)t - 1; }

int *coll_table_new(int n)
{
    table_head *h = malloc(sizeof *h + sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!h)
        return NULL;
    h->c.refs = 1;
    h->c.n = n;
    return (int *)(void *)(h + 1);
}

int *coll_table_retain(int *t)
{
    if (t)
        head_of(t)->c.refs++;
    return t;
}

void coll_table_release(int *t)
{
    if (!t || --head_of(t)->c.refs > 0)
        return;
    if (hooks.table_forget)
        hooks.table_forget(t);
    free(head_of(t));
}

int coll_table_size(const int *t) { return ((const table_head *)(const void *)t - 1)->c.n; }

int *coll_table_share(int *t, int n)
{
    return t && hooks.table_share ? hooks.table_share(t, n) : t;
}

int coll_group_incl(MPI_Group g, int n, const int *ranks, MPI_Group *out)
{
    if (hooks.group_incl)
        return hooks.group_incl(g, n, ranks, out);
    return MPI_Group_incl(g, n, ranks, out);
}

void coll_group_done(MPI_Group *g)
{
    if (hooks.group_incl)
        *g = MPI_GROUP_NULL; /* the hook's */
    else if (*g != MPI_GROUP_NULL)
        MPI_Group_free(g);
}

void coll_share_set_hooks(const coll_share_hooks *h)
{
    if (h)
        hooks = *h;
    else
        hooks = (coll_share_hooks){0};
}
