#include "cs_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_fail(cs_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void *check(void *p, size_t n)
{
    if (!p && n) {
        fprintf(stderr, "collsim: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

void *cs_xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *cs_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
char *cs_xstrdup(const char *s) { return check(strdup(s), strlen(s) + 1); }

size_t cs_edit_distance(const char *s, const char *t)
{
    size_t n = strlen(s), m = strlen(t);
    size_t *row = cs_xmalloc((m + 1) * sizeof *row);
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j], best = diag + (s[i - 1] != t[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    size_t d = row[m];
    free(row);
    return d;
}

const char *cs_nearest_word(const char *s, const char *const *words, size_t n)
{
    const char *best = NULL;
    size_t dbest = strlen(s) / 2 + 1;
    for (size_t i = 0; i < n; i++) {
        size_t d = cs_edit_distance(s, words[i]);
        if (d < dbest) {
            dbest = d;
            best = words[i];
        }
    }
    return best;
}
