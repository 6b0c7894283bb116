/* Block-size distributions (see distributions.h for the exact definitions). */
#include "distributions.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64's finalizer (Steele, Lea, Flood 2014), with its increment. */
static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t cs_dist_draw(unsigned long seed, long i, long j, uint64_t c)
{
    uint64_t h = splitmix64((uint64_t)seed);
    h = splitmix64(h + (uint64_t)i);
    h = splitmix64(h + (uint64_t)j);
    return splitmix64(h + c);
}

/* Draw c as a double uniform on [0, 1), from its top 53 bits. */
static double unit(unsigned long seed, long i, long j, uint64_t c)
{
    return (double)(cs_dist_draw(seed, i, j, c) >> 11) * 0x1.0p-53;
}

#define PI 3.14159265358979323846

static long clamp(long v, long max) { return v < 0 ? 0 : v > max ? max : v; }

/* Block (src, dst) of the iid matrix of d. */
static long iid_block(const cs_dist *d, unsigned long seed, long src, long dst, long max)
{
    switch (d->kind) {
    case CS_DIST_UNIFORM:
        return clamp((long)(unit(seed, src, dst, 0) * (double)(max + 1)), max);
    case CS_DIST_WINDOW: {
        long lo = (long)((100 - d->window_pct) * (long long)max / 100);
        return clamp(lo + (long)(unit(seed, src, dst, 0) * (double)(max - lo + 1)), max);
    }
    case CS_DIST_GAUSSIAN: {
        const double mean = max / 2.0, sigma = max / 6.0;
        double z = 0.0;
        /* rejection outside +-3 sigma (p = 0.27% per pair); the bound on
         * attempts only guards against a broken hash */
        for (uint64_t a = 0; a < 64; a++) {
            double u1 = unit(seed, src, dst, 2 * a), u2 = unit(seed, src, dst, 2 * a + 1);
            z = sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * PI * u2);
            if (fabs(z) <= 3.0)
                break;
            z = 0.0;
        }
        return clamp((long)floor(mean + sigma * z + 0.5), max);
    }
    case CS_DIST_POWERLAW: {
        long k = (long)(unit(seed, src, dst, 0) * (double)d->exponents);
        if (k >= d->exponents)
            k = d->exponents - 1;
        return clamp((long)floor((double)max * pow(d->base, (double)k)), max);
    }
    }
    return 0;
}

long cs_dist_block(const cs_dist *d, unsigned long seed, long src, long dst, long max)
{
    if (max <= 0)
        return 0;
    return d->matrix == CS_MATRIX_TOEPLITZ ? iid_block(d, seed, 0, dst - src, max)
           : d->matrix == CS_MATRIX_HANKEL ? iid_block(d, seed, 0, src + dst, max)
                                           : iid_block(d, seed, src, dst, max);
}

long long cs_dist_total(const cs_dist *d, unsigned long seed, int p, long max)
{
    long long sum = 0;
    if (d->matrix == CS_MATRIX_TOEPLITZ) { /* diagonal k = j - i holds p - |k| blocks */
        for (long k = 1 - p; k < p; k++)
            if (k != 0)
                sum += (long long)(p - labs(k)) * cs_dist_block(d, seed, 0, k, max);
        return sum;
    }
    if (d->matrix == CS_MATRIX_HANKEL) { /* anti-diagonal s = i + j, less (i, i) */
        for (long s = 0; s <= 2L * (p - 1); s++)
            sum += (long long)((s < p ? s : 2L * (p - 1) - s) + 1 - (s % 2 == 0)) *
                   cs_dist_block(d, seed, 0, s, max);
        return sum;
    }
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            if (i != j)
                sum += cs_dist_block(d, seed, i, j, max);
    return sum;
}

static int bad(const char *text, const char *why, char *err, size_t errlen)
{
    snprintf(err, errlen, "bad distribution '%s'%s%s (valid: " CS_DIST_VALID ")", text,
             why[0] ? ": " : "", why);
    return -1;
}

/* A decimal integer taking the whole of s, within [min, max]. */
static int whole_long(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    long v = strtol(s, &end, 10);
    if (*end || errno || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* The distributions themselves, without a layout prefix. */
static int parse_iid(const char *text, const char *full, cs_dist *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!text)
        text = full = "";
    if (!strcmp(text, "uniform")) {
        out->kind = CS_DIST_UNIFORM;
        snprintf(out->name, sizeof out->name, "uniform");
        return 0;
    }
    if (!strcmp(text, "gaussian")) {
        out->kind = CS_DIST_GAUSSIAN;
        snprintf(out->name, sizeof out->name, "gaussian");
        return 0;
    }
    if (!strncmp(text, "window:", 7)) {
        long r;
        if (whole_long(text + 7, 0, 100, &r))
            return bad(full, "R must be an integer from 0 to 100", err, errlen);
        out->kind = CS_DIST_WINDOW;
        out->window_pct = (int)r;
        snprintf(out->name, sizeof out->name, "window:%d", out->window_pct);
        return 0;
    }
    if (!strncmp(text, "powerlaw:", 9)) {
        char num[64];
        const char *colon = strchr(text + 9, ':');
        size_t len = colon ? (size_t)(colon - (text + 9)) : strlen(text + 9);
        if (len == 0 || len >= sizeof num)
            return bad(full, "B must be a number with 0 < B < 1", err, errlen);
        memcpy(num, text + 9, len);
        num[len] = 0;
        char *end;
        errno = 0;
        double b = strtod(num, &end);
        if (*end || errno || !(b > 0.0 && b < 1.0) || num[0] == ' ')
            return bad(full, "B must be a number with 0 < B < 1", err, errlen);
        long k = CS_DIST_POWERLAW_DEFAULT_K;
        if (colon && whole_long(colon + 1, 1, 1L << 30, &k))
            return bad(full, "K must be an integer >= 1", err, errlen);
        out->kind = CS_DIST_POWERLAW;
        out->base = b;
        out->exponents = k;
        /* the shortest spelling that reads back as the same double */
        char bs[32];
        snprintf(bs, sizeof bs, "%g", b);
        if (strtod(bs, NULL) != b)
            snprintf(bs, sizeof bs, "%.17g", b);
        int n = k == CS_DIST_POWERLAW_DEFAULT_K
                    ? snprintf(out->name, sizeof out->name, "powerlaw:%s", bs)
                    : snprintf(out->name, sizeof out->name, "powerlaw:%s:%ld", bs, k);
        if (n >= (int)sizeof out->name) /* results keep 31 characters of it */
            return bad(full, "B has too many digits", err, errlen);
        return 0;
    }
    return bad(full, "", err, errlen);
}

int cs_dist_parse(const char *text, cs_dist *out, char *err, size_t errlen)
{
    static const struct {
        const char *prefix;
        cs_dist_matrix matrix;
    } layouts[] = {{"toeplitz:", CS_MATRIX_TOEPLITZ}, {"hankel:", CS_MATRIX_HANKEL}};
    for (size_t k = 0; text && k < sizeof layouts / sizeof layouts[0]; k++) {
        const size_t len = strlen(layouts[k].prefix);
        if (strncmp(text, layouts[k].prefix, len))
            continue;
        if (!strncmp(text + len, "toeplitz:", 9) || !strncmp(text + len, "hankel:", 7))
            return bad(text, "a layout takes one of the other distributions", err, errlen);
        if (parse_iid(text + len, text, out, err, errlen))
            return -1;
        char inner[sizeof out->name];
        memcpy(inner, out->name, sizeof inner);
        if (snprintf(out->name, sizeof out->name, "%s%s", layouts[k].prefix, inner) >=
            (int)sizeof out->name)
            return bad(text, "the spelling is longer than results keep (31 characters)", err,
                       errlen);
        out->matrix = layouts[k].matrix;
        return 0;
    }
    return parse_iid(text, text, out, err, errlen);
}
