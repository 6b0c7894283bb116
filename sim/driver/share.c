/* Identical tables and region groups kept once for all simulated ranks
 * (share.h). */
#include "share.h"

#include "coll_share.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* An int sequence kept with a hash, in chained buckets. */
#define BUCKETS 4096

typedef struct entry {
    struct entry *next;
    unsigned long hash;
    int n;
    int *data;       /* tables: the shared table; groups: the members' world ranks */
    MPI_Group group; /* groups only */
} entry;

static entry *tables[BUCKETS], *groups[BUCKETS];

static unsigned long hash_of(const int *a, int n)
{
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned)a[i]) * 1099511628211UL;
    return h ^ (unsigned long)n;
}

static entry *find(entry *const *bucket, unsigned long h, const int *a, int n)
{
    for (entry *e = bucket[h % BUCKETS]; e; e = e->next)
        if (e->hash == h && e->n == n && !memcmp(e->data, a, sizeof(int) * (size_t)n))
            return e;
    return NULL;
}

static entry *add(entry **bucket, unsigned long h, int *a, int n)
{
    entry *e = malloc(sizeof *e);
    if (e) {
        *e = (entry){bucket[h % BUCKETS], h, n, a, MPI_GROUP_NULL};
        bucket[h % BUCKETS] = e;
    }
    return e;
}

static int *table_share(int *t, int n)
{
    const unsigned long h = hash_of(t, n);
    entry *e = find(tables, h, t, n);
    if (e) {
        coll_table_retain(e->data);
        coll_table_release(t);
        return e->data;
    }
    add(tables, h, t, n); /* not kept if out of memory: t stays this rank's own */
    return t;
}

static void table_forget(const int *t)
{
    const int n = coll_table_size(t);
    for (entry **pe = &tables[hash_of(t, n) % BUCKETS]; *pe; pe = &(*pe)->next)
        if ((*pe)->data == t) {
            entry *e = *pe;
            *pe = e->next;
            free(e);
            return;
        }
}

static int group_incl(MPI_Group g, int n, const int *ranks, MPI_Group *out)
{
    MPI_Group world;
    int *wr = malloc(sizeof(int) * (size_t)n + 1), err;

    if (!wr)
        return MPI_ERR_NO_MEM;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    err = MPI_Group_translate_ranks(g, n, ranks, world, wr);
    MPI_Group_free(&world);
    if (err) {
        free(wr);
        return err;
    }
    const unsigned long h = hash_of(wr, n);
    entry *e = find(groups, h, wr, n);
    if (e) {
        free(wr);
        *out = e->group;
        return MPI_SUCCESS;
    }
    if ((err = MPI_Group_incl(g, n, ranks, out)) || !(e = add(groups, h, wr, n)))
        free(wr); /* out of memory to keep it: this rank's own (never freed) */
    else
        e->group = *out;
    return err;
}

void sim_share_install(void)
{
    static const coll_share_hooks hooks = {table_share, table_forget, group_incl};
    coll_share_set_hooks(&hooks);
}
