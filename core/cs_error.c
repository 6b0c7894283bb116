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

/* Levenshtein distance of a and b, both shorter than 128 characters (else a large number) */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[128];
    if (la >= 128 || lb >= 128)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

const char *cs_nearest_word(const char *s, const char *const *words, size_t n)
{
    const char *best = NULL;
    size_t dbest = strlen(s) / 2 + 1;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(s, words[i]);
        if (d < dbest) {
            dbest = d;
            best = words[i];
        }
    }
    return best;
}
