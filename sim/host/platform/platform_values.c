/* Link, host and cluster values of a platform file, checked as SimGrid 3.32 reads them, and its
 * collsim properties (platform_net.h: cs_platform_check_values). */
#include "platform_net.h"
#include "platform_props.h"
#include "platform_xml.h"

#include <errno.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- link, host and cluster values, checked as SimGrid 3.32 reads them ----
 * (its unit parser, xbt_parse_get_time, _bandwidth and _speed): strtod, then a unit from a fixed
 * table. Checked here because SimGrid aborts on a bad unit with "The Impossible Did Happen",
 * silently accepts a negative latency or a zero bandwidth, and takes a number without a unit as
 * seconds, bytes per second or flops with only a warning among its log lines: bw="37.659" is
 * 37.659 B/s. Here a value needs its unit (a latency of exactly 0 excepted); a valid value
 * outside the plausible range (PLAUSIBLE_*) is a warning. */
typedef enum { V_TIME, V_BW, V_SPEED } value_kind;

/* SimGrid's prefixes; "" first for the bare unit */
static const char *const dec_prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y", NULL};
static const char *const bin_prefixes[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi", NULL};
static const char *const long_prefixes[] = {"",     "kilo", "mega",  "giga", "tera",
                                            "peta", "exa",  "zeta", "yotta", NULL};

/* plausible links: 1 MB/s to 10 TB/s, latencies 1 ns to 10 ms (0 is "no latency") */
#define PLAUSIBLE_BW_MIN 1e6
#define PLAUSIBLE_BW_MAX 1e13
#define PLAUSIBLE_LAT_MIN 1e-9
#define PLAUSIBLE_LAT_MAX 1e-2

/* What base with one of prefixes is worth (prefixes[k]: first * step^k); 0 when unit is none. */
static double prefix_scale(const char *unit, const char *const *prefixes, double first, double step,
                           const char *base)
{
    for (double x = first; *prefixes; prefixes++, x *= step) {
        size_t n = strlen(*prefixes);
        if (!strncmp(unit, *prefixes, n) && !strcmp(unit + n, base))
            return x;
    }
    return 0;
}

/* What one unit is worth in s, B/s or flop/s; 0 when SimGrid does not take it. */
static double unit_scale(value_kind kind, const char *unit)
{
    static const char *const times[] = {"w", "d", "h", "m", "s", "ms", "us", "ns", "ps", NULL};
    static const double time_scale[] = {604800, 86400, 3600, 60, 1, 1e-3, 1e-6, 1e-9, 1e-12};
    double x = 0;
    switch (kind) {
    case V_TIME:
        for (int i = 0; times[i]; i++)
            if (!strcmp(unit, times[i]))
                return time_scale[i];
        return 0;
    case V_BW:
        if ((x = prefix_scale(unit, dec_prefixes, 1, 1000, "Bps")) ||
            (x = prefix_scale(unit, bin_prefixes, 1024, 1024, "Bps")))
            return x;
        if ((x = prefix_scale(unit, dec_prefixes, 1, 1000, "bps")) ||
            (x = prefix_scale(unit, bin_prefixes, 1024, 1024, "bps")))
            return x / 8;
        return 0;
    case V_SPEED:
        return (x = prefix_scale(unit, dec_prefixes, 1, 1000, "f"))
                   ? x
                   : prefix_scale(unit, long_prefixes, 1, 1000, "flops");
    }
    return 0;
}

/* One value: NULL when valid, else what is wrong with it (in buf or static); *si gets it in s,
 * B/s or flop/s. */
static const char *value_problem(value_kind kind, const char *s, char *buf, size_t size, double *si)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s)
        return "is not a number";
    if (errno == ERANGE || !isfinite(x))
        return "is out of range";
    if (kind == V_TIME ? x < 0 : x <= 0)
        return kind == V_TIME ? "must be >= 0" : "must be > 0";
    if (!*end && !(kind == V_TIME && x == 0)) {
        snprintf(buf, size, "has no unit (SimGrid would read %s %s)", s,
                 kind == V_TIME ? "seconds" : kind == V_BW ? "bytes per second" : "flop/s");
        return buf;
    }
    if (*end && !unit_scale(kind, end)) {
        snprintf(buf, size, "has an unknown unit '%s'", end);
        return buf;
    }
    *si = *end ? x * unit_scale(kind, end) : x;
    return NULL;
}

/* "<link id="l1" bandwidth="...">" of attr, for messages */
static const char *where(xmlNode *n, const char *name, const char *v, char *buf, size_t size)
{
    char *id = attr(n, "id");
    snprintf(buf, size, "<%s%s%s%s %s=\"%s\">", (const char *)n->name, *id ? " id=\"" : "", id,
             *id ? "\"" : "", name, v);
    xmlFree(id);
    return buf;
}

/* Checks attr of n when present; lists (speeds per pstate, a wifi link's
 * bandwidths) are checked item by item. */
static int check_value(cs_platform *pf, xmlNode *n, const char *attr, value_kind kind, cs_err *err)
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
    char buf[160], at[600];
    double si = 0, lo = 0, hi = 0; /* the smallest and largest value of the list */
    int nval = 0;
    for (char *t = *seps ? strtok_r(copy, seps, &save) : copy; t && !problem;
         t = *seps ? strtok_r(NULL, seps, &save) : NULL) {
        problem = value_problem(kind, t + strspn(t, " \t"), buf, sizeof buf, &si);
        lo = !nval || si < lo ? si : lo;
        hi = !nval++ || si > hi ? si : hi;
    }
    if (!*copy && !problem)
        problem = "is not a number";
    int rc = 0;
    if (problem)
        rc = cs_fail(err, "%s:%ld: %s: %s %s (%s)", pf->path, (long)xmlGetLineNo(n),
                     where(n, attr, (const char *)v, at, sizeof at), attr, problem, valid[kind]);
    else if (kind == V_BW && (lo < PLAUSIBLE_BW_MIN || hi > PLAUSIBLE_BW_MAX))
        cs_platform_warn(pf, "%s:%ld: %s: %g B/s is implausible for a link (expected 1 MB/s to "
                             "10 TB/s; is the unit right?)",
                         pf->path, (long)xmlGetLineNo(n),
                         where(n, attr, (const char *)v, at, sizeof at),
                         lo < PLAUSIBLE_BW_MIN ? lo : hi);
    else if (kind == V_TIME && ((lo > 0 && lo < PLAUSIBLE_LAT_MIN) || hi > PLAUSIBLE_LAT_MAX))
        cs_platform_warn(pf, "%s:%ld: %s: %g s is implausible for a latency (expected 0, or 1 ns "
                             "to 10 ms; is the unit right?)",
                         pf->path, (long)xmlGetLineNo(n),
                         where(n, attr, (const char *)v, at, sizeof at),
                         hi > PLAUSIBLE_LAT_MAX ? hi : lo);
    free(copy);
    xmlFree(v);
    return rc;
}

/* A collsim property: one of core/platform_props.def's, its value as the table says. */
static int check_prop(cs_platform *pf, xmlNode *n, cs_err *err)
{
    char *id = attr(n, "id"), *v = attr(n, "value");
    const cs_prop_info *p = cs_prop_is_collsim(id) ? cs_prop_find(id) : NULL;
    char near[256], problem[300], warning[300];
    int rc = 0;
    /* the top zone: the <platform>'s zone (or cluster); a deeper one is read by nobody */
    const xmlNode *up = n->parent;
    int top = up && (is_zone(up) || is(up, "cluster")) && up->parent && up->parent->type == XML_ELEMENT_NODE &&
              !xmlStrcmp(up->parent->name, (const xmlChar *)"platform");
    char at[600];
    if (cs_prop_is_collsim(id) && !p)
        rc = cs_fail(err, "%s:%ld: <prop id=\"%s\">: unknown collsim property (did you mean %s? "
                          "`./collsim list properties` lists them)",
                     pf->path, (long)xmlGetLineNo(n), id, cs_prop_nearest(id, near, sizeof near));
    else if (p && !strcmp(p->where, "top zone") && !top)
        rc = cs_fail(err, "%s:%ld: <prop id=\"%s\"> in %s: collsim reads this property only on the "
                          "top-level zone",
                     pf->path, (long)xmlGetLineNo(n), id,
                     up && up->type == XML_ELEMENT_NODE ? tag(up, at, sizeof at) : "the document");
    else if (p && cs_prop_check_value(p, v, problem, sizeof problem, warning, sizeof warning))
        rc = cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: %s", pf->path,
                     (long)xmlGetLineNo(n), id, v, problem);
    else if (p && warning[0])
        cs_platform_warn(pf, "%s:%ld: <prop id=\"%s\" value=\"%s\">: %s", pf->path,
                         (long)xmlGetLineNo(n), id, v, warning);
    xmlFree(id);
    xmlFree(v);
    return rc;
}

/* SimGrid 3.32 routes a TORUS cluster's host to itself only through a loopback: without one, two
 * ranks on one host abort the run ("no connecting path between node-0 and node-0"). */
static int check_torus(const cs_platform *pf, xmlNode *n, cs_err *err)
{
    char *topo = attr(n, "topology"), *bw = attr(n, "loopback_bw"), *lat = attr(n, "loopback_lat");
    int rc = 0;
    char at[600];
    if (!strcmp(topo, "TORUS") && (!*bw || !*lat))
        rc = cs_fail(err, "%s:%ld: %s topology=\"TORUS\" without %s%s%s: SimGrid 3.32 finds no "
                          "route from a torus host to itself, so two ranks on one host abort the "
                          "run (give loopback_bw and loopback_lat, e.g. loopback_bw=\"10GBps\" "
                          "loopback_lat=\"0.3us\")",
                     pf->path, (long)xmlGetLineNo(n), tag(n, at, sizeof at),
                     !*bw ? "loopback_bw" : "", !*bw && !*lat ? " and " : "",
                     !*lat ? "loopback_lat" : "");
    xmlFree(topo);
    xmlFree(bw);
    xmlFree(lat);
    return rc;
}

/* The value attributes of SimGrid 3.32's DTD (4.1) elements, collsim's properties, and a torus
 * cluster's loopback. */
int cs_platform_check_values(cs_platform *pf, xmlNode *n, cs_err *err)
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
        {"disk", "read_bw", V_BW},          {"disk", "write_bw", V_BW},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!xmlStrcmp(n->name, (const xmlChar *)table[i].element) &&
            check_value(pf, n, table[i].attr, table[i].kind, err))
            return -1;
    if (is(n, "prop"))
        return check_prop(pf, n, err);
    if (is(n, "cluster"))
        return check_torus(pf, n, err);
    return 0;
}

/* The LEVEL of a top zone's per-level property (collsim.overhead.send.LEVEL, ...): one of
 * collsim.levels or system; once the levels are read. */
int cs_platform_check_prop_levels(const cs_platform *pf, xmlNode *root, cs_err *err)
{
    for (xmlNode *z = root->children; z; z = z->next)
        for (xmlNode *n = is_zone(z) || is(z, "cluster") ? z->children : NULL; n; n = n->next) {
            if (!is(n, "prop"))
                continue;
            char *id = attr(n, "id"), level[64], list[256] = "";
            const cs_prop_info *p = cs_prop_find(id);
            int bad = p && (p->check == CS_PROP_OVERHEAD || p->check == CS_PROP_FACTOR) &&
                      *cs_prop_part(p, id, "LEVEL", level, sizeof level) && strcmp(level, "system");
            for (int l = 0; bad && l < pf->nlevels; l++) {
                bad = strcmp(level, pf->levels[l]) != 0;
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s, ", pf->levels[l]);
            }
            int rc = bad ? cs_fail(err, "%s:%ld: <prop id=\"%s\">: '%s' is not a level of this "
                                        "platform (collsim.levels: %ssystem)",
                                   pf->path, (long)xmlGetLineNo(n), id, level, list)
                         : 0;
            xmlFree(id);
            if (rc)
                return -1;
        }
    return 0;
}

/* The hosts a TORUS ("X,Y,..."), FAT_TREE ("LEVELS;DOWN,...;UP,...;PARALLEL,...") or DRAGONFLY
 * ("GROUPS,L;CHASSIS,L;ROUTERS,L;NODES") topology makes; 0 when params is not of that form. */
static long topology_hosts(const char *topo, const char *params)
{
    int fat = !strcmp(topo, "FAT_TREE"), dragon = !strcmp(topo, "DRAGONFLY");
    if (!fat && !dragon && strcmp(topo, "TORUS"))
        return 0;
    long hosts = 1;
    int part = 0;
    for (const char *c = params; *c; part++) {
        size_t n = strcspn(c, ";");
        /* the parts that count hosts: TORUS its one part's numbers, FAT_TREE the second part's,
         * DRAGONFLY each part's first number */
        int counts = fat ? part == 1 : 1;
        for (const char *d = c; counts && d < c + n;) {
            char *end;
            long x = strtol(d, &end, 10);
            if (end == d || x < 1 || x > 1 << 20 || hosts > (1L << 40) / x)
                return 0;
            hosts *= x;
            d = end;
            if (dragon || d >= c + n || *d != ',')
                break;
            d++;
        }
        c += n + (c[n] == ';');
    }
    return (fat && part != 4) || (dragon && part != 4) || (!fat && !dragon && part != 1) ? 0 : hosts;
}

int cs_platform_check_topology(const cs_platform *pf, xmlNode *n, long nhosts, cs_err *err)
{
    char *topo = attr(n, "topology"), *params = attr(n, "topo_parameters"), *radical = attr(n, "radical");
    long want = topology_hosts(topo, params);
    char at[600];
    int rc = 0;
    if (want > nhosts)
        rc = cs_fail(err, "%s:%ld: %s topology=\"%s\" topo_parameters=\"%s\" radical=\"%s\": the "
                          "topology has %ld hosts and the radical names %ld (SimGrid 3.32 aborts: "
                          "give a radical of %ld numbers, e.g. 0-%ld)",
                     pf->path, (long)xmlGetLineNo(n), tag(n, at, sizeof at), topo, params, radical,
                     want, nhosts, want, want - 1);
    xmlFree(topo);
    xmlFree(params);
    xmlFree(radical);
    return rc;
}
