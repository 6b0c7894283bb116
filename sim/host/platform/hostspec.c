/* --hosts SPEC (hostspec.h). */
#include "hostspec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_node_region(const cs_platform *pf, int n, int l)
{
    const cs_node *nd = &pf->nodes[n];
    int h = nd->nhosts > 0 ? nd->first_host
            : nd->first_host < pf->nhosts && !strcmp(pf->hosts[nd->first_host].name, nd->name)
                ? nd->first_host
                : -1;
    return h < 0 ? n : pf->hosts[h].region[l];
}

/* A term's parts: [t, t + len) */
typedef struct {
    const char *t;
    size_t len;
} term;

/* "N-per-LEVEL[-cyclic]": N, the level's text and whether cyclic; 0 when
 * the term has that form (the level not yet checked), -1 when not. */
static int per_level_form(term x, long *count, term *level, int *cyclic)
{
    size_t d = 0;
    while (d < x.len && isdigit((unsigned char)x.t[d]))
        d++;
    if (d == 0 || d > 6 || x.len < d + 5 || strncmp(x.t + d, "-per-", 5))
        return -1;
    *count = strtol(x.t, NULL, 10);
    level->t = x.t + d + 5;
    level->len = x.len - d - 5;
    *cyclic = level->len > 7 && !strncmp(level->t + level->len - 7, "-cyclic", 7);
    if (*cyclic)
        level->len -= 7;
    return 0;
}

/* A node name or range is letters, digits, '-', '_' and '.' */
static int name_chars(term x)
{
    for (size_t i = 0; i < x.len; i++)
        if (!isalnum((unsigned char)x.t[i]) && !strchr("-_.", x.t[i]))
            return 0;
    return x.len > 0;
}

int cs_hostspec_check(const char *spec, const char *what, cs_err *err)
{
    if (!spec || !spec[0] || !strcmp(spec, "all"))
        return 0;
    if (strlen(spec) > CS_HOSTSPEC_MAX)
        return cs_fail(err, "%s '%.40s...': longer than %d characters (use ranges: "
                            "node-4..node-32, or N-per-LEVEL)", what, spec, CS_HOSTSPEC_MAX);
    for (const char *p = spec;;) {
        term x = {p, strcspn(p, "+")};
        long n;
        term lv;
        int cyc;
        if (!x.len)
            return cs_fail(err, "%s '%s': an empty term (expected %s)", what, spec,
                           CS_HOSTSPEC_FORM);
        if (!per_level_form(x, &n, &lv, &cyc) && (n < 1 || !lv.len))
            return cs_fail(err, "%s '%s': '%.*s': expected N-per-LEVEL with N >= 1 and a "
                                "level name (e.g. 4-per-switch)", what, spec, (int)x.len, x.t);
        if (!name_chars(x))
            return cs_fail(err, "%s '%s': '%.*s': expected %s (node names are letters, "
                                "digits, '-' and '_')", what, spec, (int)x.len, x.t,
                           CS_HOSTSPEC_FORM);
        p += x.len;
        if (!*p)
            return 0;
        p++;
    }
}

/* The node called [t, t + len), or -1. */
static int node_named(const cs_platform *pf, const char *t, size_t len)
{
    for (int i = 0; i < pf->nnodes; i++)
        if (strlen(pf->nodes[i].name) == len && !strncmp(pf->nodes[i].name, t, len))
            return i;
    return -1;
}

typedef struct {
    const cs_platform *pf;
    const char *spec, *what;
    int *nodes, n;
    int *by; /* per node: the index of the term that took it + 1; 0: free */
    cs_err *err;
} sel;

static int take(sel *s, int node, term x, int k)
{
    if (s->by[node]) {
        const char *p = s->spec;
        for (int i = 1; i < s->by[node]; i++) /* the earlier term, for the message */
            p += strcspn(p, "+") + 1;
        return cs_fail(s->err, "%s '%s': node %s is chosen twice (by '%.*s' and '%.*s')", s->what,
                       s->spec, s->pf->nodes[node].name, (int)strcspn(p, "+"), p, (int)x.len,
                       x.t);
    }
    s->by[node] = k + 1;
    s->nodes[s->n++] = node;
    return 0;
}

static int unknown_node(sel *s, term x, const char *t, size_t len)
{
    const cs_platform *pf = s->pf;
    return cs_fail(s->err, "%s '%s': '%.*s': platform '%s' has no node '%.*s' (its nodes: %s .. "
                           "%s)",
                   s->what, s->spec, (int)x.len, x.t, pf->name, (int)len, t, pf->nodes[0].name,
                   pf->nodes[pf->nnodes - 1].name);
}

/* NAME..NAME or NAME..NUMBER */
static int range(sel *s, term x, const char *dots, int k)
{
    const char *b = dots + 2;
    size_t alen = (size_t)(dots - x.t), blen = x.len - alen - 2;
    int a = node_named(s->pf, x.t, alen);
    if (a < 0)
        return unknown_node(s, x, x.t, alen);
    char full[160];
    size_t digits = 0;
    while (digits < blen && isdigit((unsigned char)b[digits]))
        digits++;
    if (digits == blen) { /* node-4..32: the first name with the number replaced */
        size_t stem = alen;
        while (stem > 0 && isdigit((unsigned char)x.t[stem - 1]))
            stem--;
        snprintf(full, sizeof full, "%.*s%.*s", (int)stem, x.t, (int)blen, b);
    } else {
        snprintf(full, sizeof full, "%.*s", (int)blen, b);
    }
    int z = node_named(s->pf, full, strlen(full));
    if (z < 0)
        return unknown_node(s, x, full, strlen(full));
    for (int i = a;; i += a <= z ? 1 : -1) {
        if (take(s, i, x, k))
            return -1;
        if (i == z)
            return 0;
    }
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* N-per-LEVEL[-cyclic]: the first N free nodes of each region of the level */
static int per_level(sel *s, term x, long count, term lv, int cyclic, int k)
{
    const cs_platform *pf = s->pf;
    int l = -1;
    char valid[CS_MAX_LEVELS * 34] = "";
    for (int i = pf->node_level; i < pf->nlevels; i++) {
        if (strlen(pf->levels[i]) == lv.len && !strncmp(pf->levels[i], lv.t, lv.len))
            l = i;
        size_t u = strlen(valid);
        snprintf(valid + u, sizeof valid - u, "%s%s", u ? ", " : "", pf->levels[i]);
    }
    if (l < 0)
        return cs_fail(s->err, "%s '%s': '%.*s': '%.*s' is not a level of platform '%s' at or "
                               "above node (valid: %s)",
                       s->what, s->spec, (int)x.len, x.t, (int)lv.len, lv.t, pf->name, valid);
    /* the regions with free nodes, by number, and each one's free nodes in order */
    int *reg = cs_xmalloc(sizeof(int) * (size_t)pf->nnodes), nreg = 0;
    for (int i = 0; i < pf->nnodes; i++)
        if (!s->by[i])
            reg[nreg++] = cs_node_region(pf, i, l);
    qsort(reg, (size_t)nreg, sizeof *reg, cmp_int);
    int u = 0;
    for (int i = 0; i < nreg; i++)
        if (!u || reg[i] != reg[u - 1])
            reg[u++] = reg[i];
    nreg = u;
    int *pick = cs_xmalloc(sizeof(int) * (size_t)(nreg * count > 0 ? nreg * count : 1));
    int rc = 0;
    for (int r = 0; r < nreg && !rc; r++) {
        int got = 0;
        for (int i = 0; i < pf->nnodes && got < count; i++)
            if (!s->by[i] && cs_node_region(pf, i, l) == reg[r])
                pick[cyclic ? got++ * nreg + r : r * count + got++] = i;
        if (got < count)
            rc = cs_fail(s->err, "%s '%s': '%.*s': %s region %d of platform '%s' has %d free "
                                 "node%s, fewer than %ld",
                         s->what, s->spec, (int)x.len, x.t, pf->levels[l], reg[r], pf->name, got,
                         got == 1 ? "" : "s", count);
    }
    for (long i = 0; i < nreg * count && !rc; i++)
        rc = take(s, pick[i], x, k);
    free(pick);
    free(reg);
    return rc;
}

int cs_hostspec_select(const cs_platform *pf, const char *spec, const char *what, int **nodes,
                       int *n, cs_err *err)
{
    *nodes = cs_xmalloc(sizeof(int) * (size_t)(pf->nnodes > 0 ? pf->nnodes : 1));
    *n = 0;
    if (!spec || !spec[0] || !strcmp(spec, "all")) {
        for (int i = 0; i < pf->nnodes; i++)
            (*nodes)[(*n)++] = i;
        return 0;
    }
    if (cs_hostspec_check(spec, what, err)) {
        free(*nodes);
        *nodes = NULL;
        return -1;
    }
    sel s = {pf, spec, what, *nodes, 0, calloc((size_t)pf->nnodes + 1, sizeof(int)), err};
    int rc = 0, k = 0;
    for (const char *p = spec; !rc; k++) {
        term x = {p, strcspn(p, "+")};
        long count;
        term lv;
        int cyclic;
        const char *dots = NULL;
        for (size_t i = 0; i + 1 < x.len && !dots; i++)
            if (x.t[i] == '.' && x.t[i + 1] == '.')
                dots = x.t + i;
        if (!per_level_form(x, &count, &lv, &cyclic))
            rc = per_level(&s, x, count, lv, cyclic, k);
        else if (dots)
            rc = range(&s, x, dots, k);
        else {
            int i = node_named(pf, x.t, x.len);
            rc = i < 0 ? unknown_node(&s, x, x.t, x.len) : take(&s, i, x, k);
        }
        p += x.len;
        if (!*p)
            break;
        p++;
    }
    free(s.by);
    *n = s.n;
    if (rc) {
        free(*nodes);
        *nodes = NULL;
        *n = 0;
    }
    return rc;
}
