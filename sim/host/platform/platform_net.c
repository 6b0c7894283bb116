/* The network's zones and routes (platform_net.h): one top-level zone, known routings, routes
 * inside their zones once per direction, every zone reaching its members; the names are
 * platform_names.c's. */
#include "platform_net.h"
#include "platform_xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- every zone reaches each of its hosts and zones ---- */
typedef struct {
    const char *name;
    int index;
} child;

static int cmp_child(const void *a, const void *b)
{
    return strcmp(((const child *)a)->name, ((const child *)b)->name);
}

static int child_index(const child *sorted, int n, const char *name)
{
    child key = {name, 0};
    const child *c = n ? bsearch(&key, sorted, (size_t)n, sizeof key, cmp_child) : NULL;
    return c ? c->index : -1;
}

/* an ordered pair of a zone's members that a route joins, and the route */
typedef struct {
    long long key; /* src * n + dst */
    long line;
    xmlNode *route;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    return x->key != y->key ? (x->key > y->key) - (x->key < y->key)
                            : (x->line > y->line) - (x->line < y->line);
}

static int find(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* ---- what SimGrid 3.32 builds of zones (src/surf/sg_platf.cpp, src/kernel/routing) ---- */
/* the routing models it creates (compared ignoring case); any other value aborts it */
static const char *const routings = "Full, Floyd, Dijkstra, DijkstraCache, Cluster, None, Vivaldi, Wifi";

static int routing_is(const char *routing, const char *model) { return !strcasecmp(routing, model); }

static int known_routing(const char *routing)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", routings);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
        if (routing_is(routing, t))
            return 1;
    return 0;
}

/* whether cluster c makes a host or router called name: PREFIX RADICAL SUFFIX, or its router */
static int cluster_holds(const xmlNode *c, const char *name)
{
    char *id = attr(c, "id"), *router = attr(c, "router_id"), *prefix = attr(c, "prefix"),
         *suffix = attr(c, "suffix"), *radical = attr(c, "radical");
    size_t np = strlen(prefix), ns = strlen(suffix), nn = strlen(name);
    int found = 0;
    if (*router)
        found = !strcmp(name, router);
    else /* PREFIX ID _router SUFFIX */
        found = nn == np + strlen(id) + 7 + ns && !strncmp(name, prefix, np) &&
                !strncmp(name + np, id, strlen(id)) && !strncmp(name + np + strlen(id), "_router", 7) &&
                !strcmp(name + nn - ns, suffix);
    if (!found && nn > np + ns && !strncmp(name, prefix, np) && !strcmp(name + nn - ns, suffix)) {
        char *end;
        long x = strtol(name + np, &end, 10);
        /* SimGrid names them with std::to_string: no sign, no leading zero */
        int digits = name[np] >= '0' && name[np] <= '9' && end == name + nn - ns &&
                     (name[np] != '0' || end == name + np + 1);
        for (const char *r = radical; digits && *r && !found;) { /* "0-15" or "0-3,8" */
            long a = strtol(r, &end, 10), b = a;
            if (end == r)
                break;
            if (*end == '-')
                b = strtol(end + 1, &end, 10);
            found = x >= a && x <= b;
            r = *end ? end + 1 : end;
        }
    }
    xmlFree(id);
    xmlFree(router);
    xmlFree(prefix);
    xmlFree(suffix);
    xmlFree(radical);
    return found;
}

/* whether zone or cluster m holds a host or router called name, at any depth */
static int holds(const xmlNode *m, const char *name)
{
    if (is(m, "cluster"))
        return cluster_holds(m, name);
    for (const xmlNode *k = m->children; k; k = k->next) {
        int found = 0;
        if (is(k, "host") || is(k, "router")) {
            char *id = attr(k, "id");
            found = !strcmp(id, name);
            xmlFree(id);
        } else if (is_zone(k) || is(k, "cluster"))
            found = holds(k, name);
        if (found)
            return 1;
    }
    return 0;
}

/* "a, b, c, ... (N in all)": the members of the kind wanted */
static const char *member_sample(char **names, const int *kind, int n, int want, char *buf,
                                 size_t size)
{
    int shown = 0, all = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++)
        if (kind[i] == want && all++ < 5)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", shown++ ? ", " : "", names[i]);
    if (all > shown)
        snprintf(buf + strlen(buf), size - strlen(buf), ", ... (%d in all)", all);
    return all ? buf : "none";
}

enum { M_POINT = 1, M_ZONE = 2 }; /* a zone's members: hosts and routers; zones and clusters */

/* A route of a routed zone (Full, Floyd, Dijkstra) joins two of the zone's own members, a
 * <zoneRoute>'s gateways lie in its zones: SimGrid 3.32 aborts otherwise ("Internal error: ...
 * are not in the same netzone", "gw_src ... belongs to ..."). */
static int check_route_ends(const cs_platform *pf, xmlNode *zone, xmlNode *r, const child *members,
                            char **names, const int *kind, xmlNode **elem, int n, cs_err *err)
{
    static const char *const ends[] = {"src", "dst", "gw_src", "gw_dst"};
    int zr = !is(r, "route");
    char where[600], list[512];
    int rc = 0, at[2] = {-1, -1};
    for (int e = 0; e < 2 && !rc; e++) {
        char *v = attr(r, ends[e]);
        int i = at[e] = child_index(members, n, v);
        int want = zr ? M_ZONE : M_POINT;
        if (i < 0 || kind[i] != want)
            rc = cs_fail(err, "%s:%ld: <%s %s=\"%s\">: '%s' is not a %s of %s, the zone the route is "
                              "in (%s: %s; a <route> joins two hosts or routers of its zone, a "
                              "<zoneRoute> two zones or clusters of its zone)",
                         pf->path, (long)xmlGetLineNo(r), (const char *)r->name, ends[e], v, v,
                         zr ? "zone or cluster" : "host or router", tag(zone, where, sizeof where),
                         zr ? "its zones and clusters" : "its hosts and routers",
                         member_sample(names, kind, n, want, list, sizeof list));
        xmlFree(v);
    }
    for (int e = 0; e < 2 && !rc && zr; e++) {
        char *gw = attr(r, ends[e + 2]);
        if (!holds(elem[at[e]], gw))
            rc = cs_fail(err, "%s:%ld: <%s %s=\"%s\">: '%s' is not in %s '%s', its %s (a gateway is a "
                              "host or router inside the zone at its end of the route)",
                         pf->path, (long)xmlGetLineNo(r), (const char *)r->name, ends[e + 2], gw,
                         gw, is(elem[at[e]], "cluster") ? "cluster" : "zone", names[at[e]],
                         ends[e]);
        else if (e == 1) {
            char *g0 = attr(r, "gw_src");
            if (!strcmp(g0, gw))
                rc = cs_fail(err, "%s:%ld: <%s gw_src=\"%s\" gw_dst=\"%s\">: a route between zones "
                                  "needs two different gateways",
                             pf->path, (long)xmlGetLineNo(r), (const char *)r->name, g0, gw);
            xmlFree(g0);
        }
        xmlFree(gw);
    }
    return rc;
}

/* "<route src="a" dst="b">" into buf */
static const char *route_tag(const xmlNode *r, char *buf, size_t size)
{
    char *s = attr(r, "src"), *d = attr(r, "dst");
    snprintf(buf, size, "<%s src=\"%s\" dst=\"%s\">", (const char *)r->name, s, d);
    xmlFree(s);
    xmlFree(d);
    return buf;
}

/* SimGrid 3.32 takes one route per direction between two members (a symmetrical one gives both)
 * and one bypass route per direction; a second aborts it ("The route between a and b already
 * exists"). pairs: sorted by key, then line. */
static int check_twice(const cs_platform *pf, const pair *pairs, long long npairs, cs_err *err)
{
    const pair *again = NULL;
    for (long long k = 1; k < npairs; k++)
        if (pairs[k].key == pairs[k - 1].key && (!again || pairs[k].line < again->line))
            again = &pairs[k];
    if (!again)
        return 0;
    const pair *first = again - 1;
    while (first > pairs && first[-1].key == again->key)
        first--;
    char a[600], b[600];
    return cs_fail(err, "%s:%ld: %s: the route %s (line %ld) already joins these two in this "
                        "direction (routes are symmetrical unless symmetrical=\"NO\": give one "
                        "route per pair, or one per direction with symmetrical=\"NO\")",
                   pf->path, again->line, route_tag(again->route, a, sizeof a),
                   route_tag(first->route, b, sizeof b), first->line);
}

/* bypass routes: one per source and destination, in any zone */
static int check_bypass_twice(const cs_platform *pf, xmlNode *zone, cs_err *err)
{
    for (xmlNode *k = zone->children; k; k = k->next) {
        if (!is(k, "bypassRoute") && !is(k, "bypassZoneRoute") && !is(k, "bypassASroute"))
            continue;
        char *s = attr(k, "src"), *d = attr(k, "dst");
        int rc = 0;
        for (xmlNode *j = zone->children; j != k && !rc; j = j->next) {
            if (!is(j, "bypassRoute") && !is(j, "bypassZoneRoute") && !is(j, "bypassASroute"))
                continue;
            char *s2 = attr(j, "src"), *d2 = attr(j, "dst");
            char a[600];
            if (!strcmp(s, s2) && !strcmp(d, d2))
                rc = cs_fail(err, "%s:%ld: %s: a bypass route from '%s' to '%s' is already given at "
                                  "line %ld (one bypass route per source and destination)",
                             pf->path, (long)xmlGetLineNo(k), route_tag(k, a, sizeof a), s, d,
                             (long)xmlGetLineNo(j));
            xmlFree(s2);
            xmlFree(d2);
        }
        xmlFree(s);
        xmlFree(d);
        if (rc)
            return -1;
    }
    return 0;
}

static int check_zone(const cs_platform *pf, xmlNode *zone, cs_err *err)
{
    char *routing = attr(zone, "routing"), *zid = attr(zone, "id");
    char where[600];
    if (!known_routing(routing)) {
        int rc = cs_fail(err, "%s:%ld: %s: unknown routing=\"%s\" (SimGrid 3.32 takes: %s; in any "
                              "case)",
                         pf->path, (long)xmlGetLineNo(zone), tag(zone, where, sizeof where), routing,
                         routings);
        xmlFree(routing);
        xmlFree(zid);
        return rc;
    }
    int full = routing_is(routing, "Full");
    int graph = routing_is(routing, "Floyd") || routing_is(routing, "Dijkstra") ||
                routing_is(routing, "DijkstraCache");
    int rc = check_bypass_twice(pf, zone, err);
    /* its members: hosts, zones and clusters (what must be reached), routers (the graph's) */
    int n = 0, cap = 0;
    child *members = NULL;
    char **names = NULL;
    int *needed = NULL, *kind = NULL;
    xmlNode **elem = NULL;
    for (xmlNode *k = zone->children; k && (full || graph) && !rc; k = k->next) {
        int reach = is(k, "host") || is_zone(k) || is(k, "cluster");
        if (!reach && !is(k, "router"))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            members = cs_xrealloc(members, (size_t)cap * sizeof *members);
            names = cs_xrealloc(names, (size_t)cap * sizeof *names);
            needed = cs_xrealloc(needed, (size_t)cap * sizeof *needed);
            kind = cs_xrealloc(kind, (size_t)cap * sizeof *kind);
            elem = cs_xrealloc(elem, (size_t)cap * sizeof *elem);
        }
        names[n] = attr(k, "id");
        members[n] = (child){names[n], n};
        kind[n] = is(k, "host") || is(k, "router") ? M_POINT : M_ZONE;
        elem[n] = k;
        needed[n++] = reach;
    }
    if ((full || graph) && !rc) {
        if (n)
            qsort(members, (size_t)n, sizeof *members, cmp_child);
        long long npairs = 0, pcap = 0;
        pair *pairs = NULL;
        int *parent = cs_xmalloc((size_t)(n ? n : 1) * sizeof(int));
        for (int i = 0; i < n; i++)
            parent[i] = i;
        for (xmlNode *k = zone->children; k && !rc; k = k->next) {
            if (!is(k, "route") && !is(k, "zoneRoute") && !is(k, "ASroute"))
                continue;
            if (check_route_ends(pf, zone, k, members, names, kind, elem, n, err)) {
                rc = -1;
                break;
            }
            char *s = attr(k, "src"), *d = attr(k, "dst"), *sym = attr(k, "symmetrical");
            int a = child_index(members, n, s), b = child_index(members, n, d);
            long line = (long)xmlGetLineNo(k);
            parent[find(parent, a)] = find(parent, b);
            if (npairs + 2 > pcap) {
                pcap = pcap ? 2 * pcap : 256;
                pairs = cs_xrealloc(pairs, (size_t)pcap * sizeof *pairs);
            }
            pairs[npairs++] = (pair){(long long)a * n + b, line, k};
            if (a != b && strcmp(sym, "NO") && strcmp(sym, "no"))
                pairs[npairs++] = (pair){(long long)b * n + a, line, k};
            xmlFree(s);
            xmlFree(d);
            xmlFree(sym);
        }
        if (npairs)
            qsort(pairs, (size_t)npairs, sizeof *pairs, cmp_pair);
        if (!rc)
            rc = check_twice(pf, pairs, npairs, err);
        int from = -1, to = -1;
        if (rc) {
        } else if (full) { /* every ordered pair of members that must be reached */
            long long k = 0;
            for (int i = 0; i < n && from < 0; i++)
                for (int j = 0; j < n && from < 0; j++) {
                    if (i == j || !needed[i] || !needed[j])
                        continue;
                    long long key = (long long)i * n + j;
                    while (k < npairs && pairs[k].key < key)
                        k++;
                    if (k == npairs || pairs[k].key != key)
                        from = i, to = j;
                }
        } else {
            for (int i = 0, first = -1; i < n && from < 0; i++)
                if (needed[i] && first < 0)
                    first = i;
                else if (needed[i] && find(parent, i) != find(parent, first))
                    from = first, to = i;
        }
        if (from >= 0)
            rc = cs_fail(err, "%s:%ld: <zone id=\"%s\" routing=\"%s\">: no route from '%s' to '%s' "
                              "(%s)",
                         pf->path, (long)xmlGetLineNo(zone), zid,
                         routing, names[from], names[to],
                         full ? "a Full zone needs a <route> (hosts) or <zoneRoute> (zones) "
                                "between every two of its hosts and zones, symmetrical unless "
                                "symmetrical=\"NO\""
                              : "routes between its hosts, routers and zones must connect every "
                                "two of its hosts and zones");
        free(pairs);
        free(parent);
    }
    for (int i = 0; i < n; i++)
        xmlFree(names[i]);
    free(names);
    free(members);
    free(needed);
    free(kind);
    free(elem);
    xmlFree(routing);
    xmlFree(zid);
    return rc ? -1 : 0;
}

/* a <peer> in a zone of routing Vivaldi (SimGrid 3.32 aborts on any other: "<peer> tag can only be
 * used in Vivaldi netzones") */
static int check_peer(const cs_platform *pf, xmlNode *peer, cs_err *err)
{
    char *routing = peer->parent && is_zone(peer->parent) ? attr(peer->parent, "routing") : NULL;
    int ok = routing && routing_is(routing, "Vivaldi");
    xmlFree(routing);
    char where[600], at[600];
    if (ok)
        return 0;
    return cs_fail(err, "%s:%ld: %s in %s: SimGrid 3.32 takes a <peer> only in a zone of "
                        "routing=\"Vivaldi\"",
                   pf->path, (long)xmlGetLineNo(peer), tag(peer, where, sizeof where),
                   is_zone(peer->parent) ? tag(peer->parent, at, sizeof at) : "<platform>");
}

static int check_zones(const cs_platform *pf, xmlNode *first, cs_err *err)
{
    for (xmlNode *n = first; n; n = n->next)
        if ((is_zone(n) && (check_zones(pf, n->children, err) || check_zone(pf, n, err))) ||
            (is(n, "peer") && check_peer(pf, n, err)))
            return -1;
    return 0;
}

/* SimGrid 3.32 makes the first top-level zone or cluster the root of the platform and gives a later
 * one no parent and no models: its first host or link aborts ("Invalid CPU model: nullptr. Have
 * you set the parent of this NetZone"). */
static int check_top(const cs_platform *pf, xmlNode *root, cs_err *err)
{
    const xmlNode *first = NULL;
    char a[600], b[600];
    for (xmlNode *k = root->children; k; k = k->next) {
        if (!is_zone(k) && !is(k, "cluster"))
            continue;
        if (first)
            return cs_fail(err, "%s:%ld: %s beside %s (line %ld) at the top level: SimGrid 3.32 "
                                "takes one top-level <zone> or <cluster>, the platform's root "
                                "(put both in one <zone routing=\"Full\"> joined by a "
                                "<zoneRoute>)",
                           pf->path, (long)xmlGetLineNo(k), tag(k, a, sizeof a),
                           tag(first, b, sizeof b), (long)xmlGetLineNo(first));
        first = k;
    }
    return 0;
}

int cs_platform_check_network(const cs_platform *pf, xmlNode *root, cs_err *err)
{
    return cs_platform_check_order(pf, root, err) || check_top(pf, root, err) ||
                   cs_platform_check_names(pf, root, err) || check_zones(pf, root->children, err)
               ? -1
               : 0;
}
