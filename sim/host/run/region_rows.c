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

size_t cs_rows_clear_stale_regions(cs_result *rows, size_t *n, size_t *dropped)
{
    size_t stale = 0;
    *dropped = 0;
    char *mark = cs_xmalloc(*n ? *n : 1);
    for (size_t i = 0; i < *n; i++) {
        mark[i] = (char)cs_row_region_stale(&rows[i]);
        if (mark[i]) {
            rows[i].region[0] = '\0';
            stale++;
        }
    }
    /* rows of equal keys, one of them stale: one stays (an ok one first);
     * other duplicates are not this function's business */
    size_t keep = stale ? cs_results_dedupe(rows, *n, mark, NULL) : *n;
    *dropped = *n - keep;
    *n = keep;
    free(mark);
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
