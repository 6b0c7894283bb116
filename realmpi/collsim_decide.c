/* The decision tables of COLLSIM_<COLLECTIVE>=auto:FILE (collsim_decide.h). */
#include "collsim_decide.h"

#include "collectives.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALGS 32 /* distinct algorithms in one collective's table */

typedef struct {
    int np;
    long long bytes;
    int slot; /* index in the table's algs; 0: the library */
} rule;

typedef struct {
    char file[512];
    rule *rules; /* by np, then bytes */
    size_t n;
    const collsim_alg *algs[MAX_ALGS + 1]; /* [0] NULL: the library */
    int nalgs;
} table;

static table tables[CS_NCOLL];
static long *counts; /* [world rank][collective][slot] */
static int world;

static int by_point(const void *pa, const void *pb)
{
    const rule *a = pa, *b = pb;
    if (a->np != b->np)
        return a->np < b->np ? -1 : 1;
    return a->bytes < b->bytes ? -1 : a->bytes > b->bytes;
}

static int slot_of(table *t, const collsim_alg *a)
{
    for (int s = 1; s <= t->nalgs; s++)
        if (t->algs[s] == a)
            return s;
    if (t->nalgs == MAX_ALGS)
        return -1;
    t->algs[++t->nalgs] = a;
    return t->nalgs;
}

int collsim_decide_load(int c, const char *coll, const char *file, char *msg, size_t size)
{
    table *t = &tables[c];
    FILE *f = fopen(file, "r");
    if (!f) {
        snprintf(msg, size, "auto:%s: cannot read the decision table: %s", file, strerror(errno));
        return 1;
    }
    snprintf(t->file, sizeof t->file, "%s", file);
    char line[1024];
    int lineno = 0, bad = 0;
    size_t cap = 0;
    while (!bad && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "#\r\n")] = '\0';
        char name[128], alg[128], extra[8];
        long long np, bytes;
        int got = sscanf(line, "%127s %lld %lld %127s %7s", name, &np, &bytes, alg, extra);
        if (got <= 0)
            continue; /* blank or a comment */
        if (got != 4 || np < 1 || np > 1 << 30 || bytes < 0) {
            snprintf(msg, size, "auto:%s:%d: '%s' is not COLLECTIVE NP BYTES ALGORITHM "
                                "(NP >= 1, BYTES >= 0)", file, lineno, line);
            bad = 1;
            break;
        }
        if (strcmp(name, coll))
            continue;
        const collsim_alg *a = NULL;
        if (strcmp(alg, "library") && !(a = collsim_alg_find(coll, alg))) {
            char names[1024];
            snprintf(msg, size, "auto:%s:%d: no %s algorithm '%s' (valid: library, %s)", file,
                     lineno, coll, alg, collsim_alg_names(coll, names, sizeof names));
            bad = 1;
            break;
        }
        const int s = a ? slot_of(t, a) : 0;
        if (s < 0) {
            snprintf(msg, size, "auto:%s:%d: more than %d algorithms for %s", file, lineno,
                     MAX_ALGS, coll);
            bad = 1;
            break;
        }
        if (t->n == cap) {
            cap = cap ? 2 * cap : 64;
            rule *r = realloc(t->rules, cap * sizeof *r);
            if (!r) {
                snprintf(msg, size, "auto:%s: out of memory", file);
                bad = 1;
                break;
            }
            t->rules = r;
        }
        t->rules[t->n++] = (rule){(int)np, bytes, s};
        for (size_t i = 0; i + 1 < t->n; i++)
            if (t->rules[i].np == np && t->rules[i].bytes == bytes) {
                snprintf(msg, size, "auto:%s:%d: a second rule for %s at np %lld, %lld bytes",
                         file, lineno, coll, np, bytes);
                bad = 1;
            }
    }
    fclose(f);
    if (!bad && !t->n) {
        snprintf(msg, size, "auto:%s: no rule for %s (lines: %s NP BYTES ALGORITHM)", file, coll,
                 coll);
        bad = 1;
    }
    if (bad) {
        free(t->rules);
        memset(t, 0, sizeof *t);
        return 1;
    }
    qsort(t->rules, t->n, sizeof *t->rules, by_point);
    return 0;
}

int collsim_decide_active(int c) { return tables[c].n > 0; }

int collsim_decide_regions(void)
{
    for (int c = 0; c < CS_NCOLL; c++)
        for (int s = 1; s <= tables[c].nalgs; s++)
            if (tables[c].algs[s]->regions)
                return 1;
    return 0;
}

int collsim_decide_init(int world_size)
{
    world = world_size;
    if (!counts && !(counts = calloc((size_t)world_size * CS_NCOLL * (MAX_ALGS + 1), sizeof *counts)))
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

static int lookup(const table *t, int p, long long bytes)
{
    int np = 0, slot = 0;
    for (size_t i = 0; i < t->n && t->rules[i].np <= p; i++)
        np = t->rules[i].np;
    for (size_t i = 0; i < t->n; i++)
        if (t->rules[i].np == np && t->rules[i].bytes <= bytes)
            slot = t->rules[i].slot;
    return np ? slot : 0;
}

const collsim_alg *collsim_decide(int c, MPI_Comm comm, long long bytes)
{
    const table *t = &tables[c];
    int inter = 0, p, r;
    if (!t->n)
        return NULL;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return t->algs[t->nalgs ? 1 : 0];
    PMPI_Comm_size(comm, &p);
    const int s = lookup(t, p, bytes);
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (counts)
        counts[((size_t)r * CS_NCOLL + c) * (MAX_ALGS + 1) + s]++;
    return t->algs[s];
}

void collsim_decide_report(int c, const char *coll)
{
    const table *t = &tables[c];
    long sum[MAX_ALGS + 1];
    int r;
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    PMPI_Reduce(counts + ((size_t)r * CS_NCOLL + c) * (MAX_ALGS + 1), sum, MAX_ALGS + 1, MPI_LONG,
                MPI_SUM, 0, MPI_COMM_WORLD);
    if (r)
        return;
    char line[2048];
    int used = snprintf(line, sizeof line, "collsim_pmpi: %s/auto:%s: the table's choices:", coll,
                        t->file);
    for (int s = 1; s <= t->nalgs && used < (int)sizeof line; s++)
        used += snprintf(line + used, sizeof line - used, " %s %ld,", t->algs[s]->name, sum[s]);
    if (used < (int)sizeof line)
        snprintf(line + used, sizeof line - used, " library %ld; calls summed over %d processes",
                 sum[0], world);
    fprintf(stderr, "%s\n", line);
}
