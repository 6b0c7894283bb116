/* Link, host and cluster values of a platform file, checked as SimGrid 3.32 reads them
 * (platform_net.h: cs_platform_check_values). */
#include "platform_net.h"

#include <errno.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- link, host and cluster values, checked as SimGrid 3.32 reads them ----
 * (src/xbt/xbt_parse_units.cpp): strtod, then a unit from a fixed table, or
 * none (SimGrid then assumes s, Bps or f with a warning). Checked here because
 * SimGrid aborts on a bad unit with "The Impossible Did Happen" and silently
 * accepts a negative latency or a zero bandwidth. */
typedef enum { V_TIME, V_BW, V_SPEED } value_kind;

/* SimGrid's prefixes; "" first for the bare unit */
static const char *const dec_prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y", NULL};
static const char *const bin_prefixes[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi", NULL};
static const char *const long_prefixes[] = {"",     "kilo", "mega",  "giga", "tera",
                                            "peta", "exa",  "zeta", "yotta", NULL};

/* unit == one of prefixes followed by base */
static int prefixed(const char *unit, const char *const *prefixes, const char *base)
{
    for (; *prefixes; prefixes++) {
        size_t n = strlen(*prefixes);
        if (!strncmp(unit, *prefixes, n) && !strcmp(unit + n, base))
            return 1;
    }
    return 0;
}

static int known_unit(value_kind kind, const char *unit)
{
    static const char *const times[] = {"w", "d", "h", "m", "s", "ms", "us", "ns", "ps", NULL};
    switch (kind) {
    case V_TIME:
        for (int i = 0; times[i]; i++)
            if (!strcmp(unit, times[i]))
                return 1;
        return 0;
    case V_BW:
        return prefixed(unit, dec_prefixes, "Bps") || prefixed(unit, bin_prefixes, "Bps") ||
               prefixed(unit, dec_prefixes, "bps") || prefixed(unit, bin_prefixes, "bps");
    case V_SPEED:
        return prefixed(unit, dec_prefixes, "f") || prefixed(unit, long_prefixes, "flops");
    }
    return 0;
}

/* One value: NULL when valid, else what is wrong with it (in buf or static). */
static const char *value_problem(value_kind kind, const char *s, char *buf, size_t size)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s)
        return "is not a number";
    if (errno == ERANGE || !isfinite(x))
        return "is out of range";
    if (*end && !known_unit(kind, end)) {
        snprintf(buf, size, "has an unknown unit '%s'", end);
        return buf;
    }
    if (kind == V_TIME ? x < 0 : x <= 0)
        return kind == V_TIME ? "must be >= 0" : "must be > 0";
    return NULL;
}

/* Checks attr of n when present; lists (speeds per pstate, a wifi link's
 * bandwidths) are checked item by item. */
static int check_value(const char *path, xmlNode *n, const char *attr, value_kind kind, cs_err *err)
{
    static const char *const valid[] = {
        [V_TIME] = "a number with a unit: s, ms, us, ns, ps, m, h, d, w",
        [V_BW] = ("a number with a unit: Bps, kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, ..., or "
                  "bps, kbps, Mbps, Gbps, Kibps, Mibps, Gibps, ..."),
        [V_SPEED] = "a number with a unit: f, kf, Mf, Gf, Tf, ..., or flops, kiloflops, ...",
    };
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
    if (!v)
        return 0;
    const char *seps = kind == V_BW && !xmlStrcmp(n->name, (const xmlChar *)"link") ? ";,"
                       : kind == V_SPEED                                         ? ","
                                                                                 : "";
    char *copy = cs_xstrdup((const char *)v), *save = NULL;
    const char *problem = NULL;
    char buf[160];
    for (char *t = *seps ? strtok_r(copy, seps, &save) : copy; t && !problem;
         t = *seps ? strtok_r(NULL, seps, &save) : NULL)
        problem = value_problem(kind, t + strspn(t, " \t"), buf, sizeof buf);
    if (!*copy && !problem)
        problem = "is not a number";
    int rc = 0;
    if (problem) {
        xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
        rc = cs_fail(err, "%s:%ld: <%s%s%s%s %s=\"%s\">: %s %s (%s)", path, (long)xmlGetLineNo(n),
                     (const char *)n->name, id ? " id=\"" : "", id ? (const char *)id : "",
                     id ? "\"" : "", attr, (const char *)v, attr, problem, valid[kind]);
        xmlFree(id);
    }
    free(copy);
    xmlFree(v);
    return rc;
}

/* The value attributes of SimGrid 3.32's DTD (4.1) elements. */
int cs_platform_check_values(const char *path, xmlNode *n, cs_err *err)
{
    static const struct {
        const char *element, *attr;
        value_kind kind;
    } table[] = {
        {"link", "bandwidth", V_BW},        {"link", "latency", V_TIME},
        {"backbone", "bandwidth", V_BW},    {"backbone", "latency", V_TIME},
        {"host", "speed", V_SPEED},         {"cluster", "speed", V_SPEED},
        {"cluster", "bw", V_BW},            {"cluster", "lat", V_TIME},
        {"cluster", "bb_bw", V_BW},         {"cluster", "bb_lat", V_TIME},
        {"cluster", "loopback_bw", V_BW},   {"cluster", "loopback_lat", V_TIME},
        {"cluster", "limiter_link", V_BW},  {"cabinet", "speed", V_SPEED},
        {"cabinet", "bw", V_BW},            {"cabinet", "lat", V_TIME},
        {"peer", "speed", V_SPEED},         {"peer", "bw_in", V_BW},
        {"peer", "bw_out", V_BW},           {"peer", "lat", V_TIME},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!xmlStrcmp(n->name, (const xmlChar *)table[i].element) &&
            check_value(path, n, table[i].attr, table[i].kind, err))
            return -1;
    return 0;
}
