#include "numlist.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One value of an item, with an optional binary suffix. */
static int parse_value(const char *s, size_t len, int allow_suffix, long *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (end == buf || errno || buf[0] == '+')
        return -1;
    long mult = 1;
    if (*end && allow_suffix) {
        switch (toupper((unsigned char)*end)) {
        case 'K': mult = 1L << 10; break;
        case 'M': mult = 1L << 20; break;
        case 'G': mult = 1L << 30; break;
        default: return -1;
        }
        end++;
        if (!strcmp(end, "iB") || !strcmp(end, "B"))
            end += strlen(end);
    }
    if (*end)
        return -1;
    if (v > LONG_MAX / mult || v < LONG_MIN / mult)
        return -1;
    *out = v * mult;
    return 0;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int push(cs_numlist *l, size_t *cap, long v, const char *what, cs_err *err)
{
    if (l->n >= CS_NUMLIST_MAX)
        return cs_fail(err, "%s expands to more than %d values", what, CS_NUMLIST_MAX);
    if (l->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        l->v = cs_xrealloc(l->v, *cap * sizeof(long));
    }
    l->v[l->n++] = v;
    return 0;
}

static int parse_item(const char *item, size_t len, const char *what, int allow_suffix, long min,
                      cs_numlist *l, size_t *cap, cs_err *err)
{
    const char *parts[3];
    size_t plen[3];
    int np = 0;
    const char *start = item;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || item[i] == ':') {
            if (np == 3)
                goto bad;
            parts[np] = start;
            plen[np++] = (size_t)(item + i - start);
            start = item + i + 1;
        }
    }
    long a, b, step = 0;
    int geometric = 0;
    if (parse_value(parts[0], plen[0], allow_suffix, &a))
        goto bad;
    if (np == 1) {
        b = a;
    } else {
        if (parse_value(parts[1], plen[1], allow_suffix, &b))
            goto bad;
        if (np == 2) {
            geometric = 1;
            step = 2;
        } else if (plen[2] > 1 && (parts[2][0] == 'x' || parts[2][0] == '*')) {
            geometric = 1;
            if (parse_value(parts[2] + 1, plen[2] - 1, 0, &step) || step < 2)
                goto bad;
        } else if (parse_value(parts[2], plen[2], 0, &step) || step < 1) {
            goto bad;
        }
        if (b < a)
            return cs_fail(err, "%s: range '%.*s' ends before it starts", what, (int)len, item);
    }
    if (a < min)
        return cs_fail(err, "%s: value %ld in '%.*s' is below the minimum %ld", what, a, (int)len,
                       item, min);
    for (long v = a; v <= b;) {
        if (push(l, cap, v, what, err))
            return -1;
        if (np == 1)
            break;
        if (geometric) {
            if (v == 0)
                v = 1; /* 0:1024 means 0, 1, 2, 4, ... as OSU's 0-byte start */
            else if (v > LONG_MAX / step)
                break;
            else
                v *= step;
        } else {
            if (v > LONG_MAX - step)
                break;
            v += step;
        }
    }
    return 0;
bad:
    return cs_fail(err,
                   "%s: cannot read '%.*s' (valid items: N, A:B doubling, A:B:S step S, A:B:xF "
                   "factor F%s)",
                   what, (int)len, item, allow_suffix ? "; values may end in K, M or G" : "");
}

int cs_numlist_parse(const char *text, const char *what, int allow_suffix, long min,
                     cs_numlist *out, cs_err *err)
{
    out->v = NULL;
    out->n = 0;
    size_t cap = 0;
    const char *c = text ? text : "";
    while (*c) {
        while (*c && (isspace((unsigned char)*c) || *c == ','))
            c++;
        const char *s = c;
        while (*c && !isspace((unsigned char)*c) && *c != ',')
            c++;
        if (c > s && parse_item(s, (size_t)(c - s), what, allow_suffix, min, out, &cap, err)) {
            cs_numlist_free(out);
            return -1;
        }
    }
    if (out->n == 0)
        return cs_fail(err, "%s is empty (write e.g. '1,2,4' or '1:1048576')", what);
    /* duplicates: on a sorted copy, so long ranges stay cheap */
    long *sorted = cs_xmalloc(out->n * sizeof(long));
    memcpy(sorted, out->v, out->n * sizeof(long));
    qsort(sorted, out->n, sizeof(long), cmp_long);
    for (size_t i = 1; i < out->n; i++)
        if (sorted[i] == sorted[i - 1]) {
            long dup = sorted[i];
            free(sorted);
            cs_numlist_free(out);
            return cs_fail(err, "%s lists %ld twice", what, dup);
        }
    free(sorted);
    return 0;
}

void cs_numlist_free(cs_numlist *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

char *cs_numlist_join(const cs_numlist *l)
{
    size_t cap = l->n * 21 + 1, used = 0;
    char *s = cs_xmalloc(cap);
    s[0] = 0;
    for (size_t i = 0; i < l->n; i++)
        used += (size_t)snprintf(s + used, cap - used, i ? ",%ld" : "%ld", l->v[i]);
    return s;
}

const char *cs_fmt_bytes(double bytes, char *buf, size_t len)
{
    static const char *const units[] = {"kB", "MB", "GB", "TB"};
    if (bytes < 1e3) {
        snprintf(buf, len, "%.0f B", bytes);
        return buf;
    }
    double div = 1e3;
    int u = 0;
    while (u < 3 && bytes >= div * 1e3) {
        div *= 1e3;
        u++;
    }
    snprintf(buf, len, "%.1f %s", bytes / div, units[u]);
    return buf;
}

void cs_numlist_sort(cs_numlist *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_long);
}
