/* SMPI-format piecewise tables read from platform properties (cost.h): the full model's
 * overheads and copy bandwidth (cost.c), the per-level network factors (factors.cc). */
#include "cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "F:A;F:A" (two numbers a piece) or "F:A:B;..." (three) */
int cost_parse_piecewise(const char *key, const char *text, const char *two, cost_piecewise *out,
                         char *err, size_t errsize)
{
    const int three = two == NULL;
    memset(out, 0, sizeof *out);
    const char *s = text;
    while (*s) {
        char *end;
        double v[3] = {0, 0, 0};
        int nv = three ? 3 : 2;
        for (int k = 0; k < nv; k++) {
            v[k] = strtod(s, &end);
            if (end == s || !isfinite(v[k]) || v[k] < 0 || (k + 1 < nv && *end != ':') ||
                (k + 1 == nv && *end && *end != ';')) {
                snprintf(err, errsize, "platform property %s='%s': expected %s, non-negative "
                                       "numbers, pieces joined by ';'",
                         key, text, three ? "START:OFFSET:PERBYTE" : two);
                return -1;
            }
            s = *end ? end + 1 : end;
        }
        if (out->n == COST_MAX_PIECES || (out->n && v[0] <= out->from[out->n - 1]) ||
            (!three && v[1] <= 0)) {
            snprintf(err, errsize, "platform property %s='%s': at most %d pieces, sizes "
                                   "increasing%s", key, text, COST_MAX_PIECES,
                     three ? "" : ", values above 0");
            return -1;
        }
        out->from[out->n] = v[0];
        out->a[out->n] = v[1];
        out->b[out->n] = v[2];
        out->n++;
    }
    if (out->n == 0 || out->from[0] != 0) {
        snprintf(err, errsize, "platform property %s='%s': the first piece must start at 0",
                 key, text);
        return -1;
    }
    return 0;
}
