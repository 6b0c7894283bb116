/* Read-only int tables kept once for identical copies (coll_shared_table.h). */
#include "coll_shared_table.h"

#include <stdlib.h>
#include <string.h>

typedef struct shared_table {
    struct shared_table *next;
    unsigned long hash;
    int n, refs;
    int *data;
} shared_table;
static shared_table *shared_tables;

static unsigned long table_hash(const int *a, int n)
{
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned)a[i]) * 1099511628211UL;
    return h ^ (unsigned long)n;
}

/* Returns the shared copy of a[0..n-1] (a is freed if one existed) or a,
 * now shared; NULL stays NULL. */
int *coll_share_table(int *a, int n)
{
    shared_table *t;
    unsigned long h;

    if (!a)
        return NULL;
    h = table_hash(a, n);
    for (t = shared_tables; t; t = t->next)
        if (t->hash == h && t->n == n && !memcmp(t->data, a, sizeof(int) * (size_t)n)) {
            t->refs++;
            free(a);
            return t->data;
        }
    if ((t = malloc(sizeof *t))) {
        *t = (shared_table){shared_tables, h, n, 1, a};
        shared_tables = t;
    }
    return a; /* unshared if the list entry could not be allocated */
}

void coll_release_table(int *a)
{
    if (!a)
        return;
    for (shared_table **pt = &shared_tables; *pt; pt = &(*pt)->next)
        if ((*pt)->data == a) {
            shared_table *t = *pt;
            if (--t->refs == 0) {
                *pt = t->next;
                free(t->data);
                free(t);
            }
            return;
        }
    free(a); /* never shared */
}

int *coll_retain_table(int *a)
{
    for (shared_table *t = shared_tables; a && t; t = t->next)
        if (t->data == a) {
            t->refs++;
            return a;
        }
    return a; /* NULL, or unshared (see coll_share_table): never reached with one */
}
