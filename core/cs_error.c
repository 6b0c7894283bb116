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
