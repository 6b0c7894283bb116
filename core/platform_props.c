/* The collsim properties of a platform file (platform_props.h). */
#include "platform_props.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_error.h"

const cs_prop_info cs_props[] = {
#define CS_PLATFORM_PROP(name, check, where, unit, range, absent, meaning)                         \
    {name, CS_PROP_##check, where, unit, range, absent, meaning},
#include "platform_props.def"
#undef CS_PLATFORM_PROP
};
const int cs_nprops = (int)(sizeof cs_props / sizeof cs_props[0]);

int cs_prop_is_collsim(const char *id)
{
    return !strncmp(id, "collsim.", 8) || !strncmp(id, "collsim/", 8);
}

static int is_placeholder(const char *part, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (part[i] < 'A' || part[i] > 'Z')
            return 0;
    return n > 0;
}

static int is_name(const char *part, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((part[i] >= 'a' && part[i] <= 'z') || (part[i] >= 'A' && part[i] <= 'Z') ||
              (part[i] >= '0' && part[i] <= '9') || part[i] == '-' || part[i] == '_'))
            return 0;
    return n > 0;
}

/* Walks name and id part by part ('.'-separated); 1 when every part matches. With word, the part
 * of id under that placeholder goes into buf. With fill, buf gets name with its placeholders
 * replaced by id's parts where the counts agree (no match needed). */
static int match(const char *name, const char *id, const char *word, char *buf, size_t size)
{
    const char *a = name, *b = id;
    for (;;) {
        size_t na = strcspn(a, "."), nb = strcspn(b, ".");
        if (is_placeholder(a, na)) {
            if (!is_name(b, nb))
                return 0;
            if (word && strlen(word) == na && !strncmp(a, word, na))
                snprintf(buf, size, "%.*s", (int)nb, b);
        } else if (na != nb || strncmp(a, b, na))
            return 0;
        a += na;
        b += nb;
        if (!*a || !*b)
            return !*a && !*b;
        a++, b++;
    }
}

const cs_prop_info *cs_prop_find(const char *id)
{
    for (int i = 0; i < cs_nprops; i++)
        if (match(cs_props[i].name, id, NULL, NULL, 0))
            return &cs_props[i];
    return NULL;
}

const char *cs_prop_part(const cs_prop_info *p, const char *id, const char *word, char *buf,
                         size_t size)
{
    buf[0] = 0;
    match(p->name, id, word, buf, size);
    return buf;
}

/* name with its placeholders replaced by id's parts when both have as many parts */
static void fill(const char *name, const char *id, char *buf, size_t size)
{
    size_t pa = 0, pb = 0;
    for (const char *c = name; *c; c++)
        pa += *c == '.';
    for (const char *c = id; *c; c++)
        pb += *c == '.';
    buf[0] = 0;
    for (const char *a = name, *b = id;;) {
        size_t na = strcspn(a, "."), nb = strcspn(b, ".");
        size_t len = strlen(buf);
        if (pa == pb && is_placeholder(a, na))
            snprintf(buf + len, size - len, "%.*s", (int)nb, b);
        else
            snprintf(buf + len, size - len, "%.*s", (int)na, a);
        a += na;
        b += nb;
        if (!*a)
            return;
        len = strlen(buf);
        snprintf(buf + len, size - len, ".");
        a++;
        if (*b)
            b++;
    }
}

const char *cs_prop_nearest(const char *id, char *buf, size_t size)
{
    size_t best = (size_t)-1;
    char cand[256];
    buf[0] = 0;
    for (int i = 0; i < cs_nprops; i++) {
        fill(cs_props[i].name, id, cand, sizeof cand);
        size_t d = cs_edit_distance(id, cand);
        if (d < best) {
            best = d;
            snprintf(buf, size, "%s", cand);
        }
    }
    return buf;
}

/* One number of a piece: finite, >= 0, followed by sep (or the end when sep is 0). */
static int number(const char **s, char sep, double *out)
{
    char *end;
    *out = strtod(*s, &end);
    if (end == *s || !isfinite(*out) || *out < 0 || (sep ? *end != sep : *end && *end != ';'))
        return -1;
    *s = *end ? end + 1 : end;
    return 0;
}

/* Pieces of nfields numbers ("START:A[:B];..."): starts increasing from 0; with positive, the
 * second field above 0. lo/hi (0: none): the second field's plausible range in unit, a note
 * into warning otherwise. */
static int pieces(const char *v, int nfields, int positive, double lo, double hi,
                  const char *what, const char *unit, char *warning, size_t wsize)
{
    double last = -1;
    int n = 0;
    for (const char *s = v; *s; n++) {
        double f[3];
        for (int k = 0; k < nfields; k++)
            if (number(&s, k + 1 < nfields ? ':' : 0, &f[k]))
                return -1;
        if (f[0] <= last || (n == 0 && f[0] != 0) || (positive && f[1] <= 0))
            return -1;
        last = f[0];
        if (warning && !warning[0] && ((lo > 0 && f[1] < lo) || (hi > 0 && f[1] > hi)))
            snprintf(warning, wsize, "%s %g %s from %g bytes on is implausible (expected %g to "
                                     "%g %s)",
                     what, f[1], unit, f[0], lo, hi, unit);
    }
    return n ? 0 : -1;
}

int cs_prop_check_value(const cs_prop_info *p, const char *value, char *problem, size_t psize,
                        char *warning, size_t wsize)
{
    if (warning)
        warning[0] = 0;
    char *end;
    double x;
    switch (p->check) {
    case CS_PROP_SECONDS:
        x = strtod(value, &end);
        if (end != value && !*end && isfinite(x) && x >= 0)
            return 0;
        snprintf(problem, psize, "expected seconds, a number >= 0 without a unit");
        return -1;
    case CS_PROP_BW_PIECES:
        if (!pieces(value, 2, 1, 1e8, 1e12, "the rate", "B/s", warning, wsize))
            return 0;
        snprintf(problem, psize, "expected 0:BYTES_PER_SECOND;SIZE:BYTES_PER_SECOND;... (sizes "
                                 "increasing from 0, rates above 0, numbers without a unit)");
        return -1;
    case CS_PROP_OVERHEAD:
        if (!pieces(value, 3, 0, 0, 1e-2, "the offset", "s", warning, wsize))
            return 0;
        snprintf(problem, psize, "expected 0:OFFSET:PERBYTE;START:OFFSET:PERBYTE;... (starts "
                                 "increasing from 0, numbers >= 0 in bytes, s and s per byte)");
        return -1;
    case CS_PROP_FACTOR:
        if (!pieces(value, 2, 1, 0, 0, "", "", NULL, 0))
            return 0;
        snprintf(problem, psize, "expected 0:FACTOR;SIZE:FACTOR;... (sizes increasing from 0, "
                                 "factors above 0)");
        return -1;
    default: /* the levels' own checks (sim/host/platform/platform.c), calibrate's */
        return 0;
    }
}

void cs_props_print(FILE *out, int markdown)
{
    if (markdown)
        fprintf(out, "| property | on | value (unit) | valid | absent | meaning |\n"
                     "|---|---|---|---|---|---|\n");
    for (int i = 0; i < cs_nprops; i++) {
        const cs_prop_info *p = &cs_props[i];
        if (markdown)
            fprintf(out, "| `%s` | %s | %s | %s | %s | %s |\n", p->name, p->where, p->unit,
                    p->range, p->absent, p->meaning);
        else
            fprintf(out, "%s\n    on: %s\n    value: %s\n    valid: %s\n    absent: %s\n"
                         "    meaning: %s\n",
                    p->name, p->where, p->unit, p->range, p->absent, p->meaning);
    }
}
