#include "region_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "regression.h"

/* Known to take no region: native:..., or an entry of algorithms.def without
 * regions. An unknown name (an algorithm since removed) is left alone. */
static int takes_no_region(const cs_result *r)
{
    if (!strncmp(r->algorithm, "native:", 7))
        return 1;
    const cs_alg_info *a = cs_alg_find(r->collective, r->algorithm);
    return a && !a->needs_regions;
}

int cs_row_region_stale(const cs_result *r) { return r->region[0] && takes_no_region(r); }

/* by key, then ok before the other statuses, then file order */
static int cmp_keep(const void *pa, const void *pb)
{
    const cs_result *a = *(const cs_result *const *)pa, *b = *(const cs_result *const *)pb;
    int c = cs_key_cmp(a, b);
    if (c)
        return c;
    int aok = !strcmp(a->status, "ok"), bok = !strcmp(b->status, "ok");
    if (aok != bok)
        return bok - aok;
    return (a > b) - (a < b);
}

size_t cs_rows_clear_stale_regions(cs_result *rows, size_t *n, size_t *dropped)
{
    size_t stale = 0;
    *dropped = 0;
    char *mark = cs_xmalloc(*n ? *n : 1); /* 1: was stale; then 2: drop */
    for (size_t i = 0; i < *n; i++) {
        mark[i] = (char)cs_row_region_stale(&rows[i]);
        if (mark[i]) {
            rows[i].region[0] = '\0';
            stale++;
        }
    }
    if (!stale) {
        free(mark);
        return 0;
    }
    /* rows of equal keys, one of them stale: the first in cmp_keep's order
     * stays (other duplicates are not this function's business) */
    const cs_result **v = cs_xmalloc(*n * sizeof *v);
    for (size_t i = 0; i < *n; i++)
        v[i] = &rows[i];
    qsort(v, *n, sizeof *v, cmp_keep);
    for (size_t i = 0, j; i < *n; i = j) {
        int any = mark[v[i] - rows] == 1;
        for (j = i + 1; j < *n && !cs_key_cmp(v[i], v[j]); j++)
            any |= mark[v[j] - rows] == 1;
        for (size_t k = i + 1; k < j && any; k++)
            mark[v[k] - rows] = 2;
    }
    size_t keep = 0;
    for (size_t i = 0; i < *n; i++)
        if (mark[i] != 2)
            rows[keep++] = rows[i];
    *dropped = *n - keep;
    *n = keep;
    free(mark);
    free(v);
    return stale;
}

void cs_rows_stale_algorithms(const cs_result *rows, size_t n, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (!cs_row_region_stale(&rows[i]))
            continue;
        char name[160];
        snprintf(name, sizeof name, "%s", rows[i].algorithm);
        /* each name once */
        size_t nl = strlen(name);
        int seen = 0;
        for (const char *p = buf; (p = strstr(p, name)) && !seen; p += nl)
            seen = (p == buf || p[-1] == ' ') && (p[nl] == ',' || p[nl] == '\0');
        size_t u = strlen(buf);
        if (!seen && u + nl + 3 < len)
            snprintf(buf + u, len - u, "%s%s", u ? ", " : "", name);
    }
}
