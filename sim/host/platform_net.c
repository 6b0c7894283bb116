#include "platform_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a sorted set of names, each with where the file defines it ---- */
typedef struct {
    char *name;
    long pos;  /* its element's number in document order (elements before it come first) */
    long line;
} entry;

typedef struct {
    entry *v;
    long n, cap;
} nameset;

static void ns_add_at(nameset *s, const char *name, long pos, long line)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = cs_xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
    }
    s->v[s->n++] = (entry){cs_xstrdup(name), pos, line};
}

static void ns_add(nameset *s, const char *name) { ns_add_at(s, name, 0, 0); }

static int cmp_entry(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static int cmp_entry_name(const void *key, const void *e)
{
    return strcmp(key, ((const entry *)e)->name);
}

static void ns_seal(nameset *s)
{
    if (s->n)
        qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_entry);
}

/* the first definition of name (NULL: none) */
static const entry *ns_find(const nameset *s, const char *name)
{
    const entry *e = s->n ? bsearch(name, s->v, (size_t)s->n, sizeof *s->v, cmp_entry_name) : NULL;
    while (e && e > s->v && !strcmp(e[-1].name, name))
        e--;
    return e;
}

static int ns_has(const nameset *s, const char *name) { return ns_find(s, name) != NULL; }

/* "a, b, c, ... (N in all)" or "none" */
static const char *ns_sample(const nameset *s, char *buf, size_t size)
{
    buf[0] = 0;
    if (!s->n)
        return "none";
    long shown = s->n < 6 ? s->n : 5;
    for (long i = 0; i < shown; i++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? ", " : "", s->v[i].name);
    if (shown < s->n)
        snprintf(buf + strlen(buf), size - strlen(buf), ", ... (%ld in all)", s->n);
    return buf;
}

static void ns_free(nameset *s)
{
    for (long i = 0; i < s->n; i++)
        free(s->v[i].name);
    free(s->v);
}

static int is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, (const xmlChar *)name);
}

static int is_zone(const xmlNode *n) { return is(n, "zone") || is(n, "AS"); }

/* an attribute's value ("" when absent); free with xmlFree */
static char *attr(const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    return v ? (char *)v : (char *)xmlStrdup((const xmlChar *)"");
}

typedef struct {
    nameset points; /* hosts and routers: what <route> and a gateway name */
    nameset zones;  /* zones and clusters: what <zoneRoute> names */
    nameset links;
    nameset link_ids;      /* those of <link> alone: SimGrid 3.32 lets a <backbone> share one */
    nameset cluster_links; /* "ID_" of every cluster: the prefix of the links it makes */
} names;

static void collect(names *nm, xmlNode *first, long *pos)
{
    for (xmlNode *n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || is(n, "config"))
            continue;
        ++*pos;
        long line = (long)xmlGetLineNo(n);
        char *id = attr(n, "id");
        if (is(n, "router"))
            ns_add(&nm->points, id);
        else if (is_zone(n))
            ns_add(&nm->zones, id);
        else if (is(n, "cluster")) {
            ns_add(&nm->zones, id);
            char *router = attr(n, "router_id"), *prefix = attr(n, "prefix"),
                 *suffix = attr(n, "suffix");
            size_t len = strlen(prefix) + strlen(id) + strlen(suffix) + 16;
            char *name = cs_xmalloc(len);
            if (*router) /* else SimGrid 3.32's name: PREFIX ID _router SUFFIX */
                snprintf(name, len, "%s", router);
            else
                snprintf(name, len, "%s%s_router%s", prefix, id, suffix);
            ns_add(&nm->points, name);
            snprintf(name, len, "%s_", id);
            ns_add_at(&nm->cluster_links, name, *pos, line);
            free(name);
            xmlFree(router);
            xmlFree(prefix);
            xmlFree(suffix);
        } else if (is(n, "link") || is(n, "backbone")) {
            int link = is(n, "link");
            ns_add_at(&nm->links, id, *pos, line);
            if (link)
                ns_add_at(&nm->link_ids, id, *pos, line);
            char *policy = attr(n, "sharing_policy");
            if (!strcmp(policy, "SPLITDUPLEX")) { /* SimGrid makes ID_UP and ID_DOWN */
                size_t len = strlen(id) + 8;
                char *name = cs_xmalloc(len);
                for (int up = 1; up >= 0; up--) {
                    snprintf(name, len, "%s_%s", id, up ? "UP" : "DOWN");
                    ns_add_at(&nm->links, name, *pos, line);
                    if (link)
                        ns_add_at(&nm->link_ids, name, *pos, line);
                }
                free(name);
            }
            xmlFree(policy);
        }
        xmlFree(id);
        if (n->children)
            collect(nm, n->children, pos);
    }
}

/* the definition of link id (NULL: none) */
static const entry *find_link(const names *nm, const char *id)
{
    const entry *e = ns_find(&nm->links, id);
    for (long i = 0; i < nm->cluster_links.n && !e; i++)
        if (!strncmp(id, nm->cluster_links.v[i].name, strlen(nm->cluster_links.v[i].name)))
            e = &nm->cluster_links.v[i];
    return e;
}

static int is_route(const xmlNode *n) { return is(n, "route") || is(n, "bypassRoute"); }

static int is_zone_route(const xmlNode *n)
{
    return is(n, "zoneRoute") || is(n, "ASroute") || is(n, "bypassZoneRoute") ||
           is(n, "bypassASroute");
}

/* link ids given once (sorted: by name, then document order); the first repeated in the file */
static int unique_links(const cs_platform *pf, const nameset *links, cs_err *err)
{
    const entry *again = NULL, *first = NULL;
    for (long i = 1; i < links->n; i++)
        if (!strcmp(links->v[i].name, links->v[i - 1].name) &&
            (!again || links->v[i].pos < again->pos)) {
            again = &links->v[i];
            first = again - 1;
            while (first > links->v && !strcmp(first[-1].name, again->name))
                first--;
        }
    if (!again)
        return 0;
    return cs_fail(err, "%s:%ld: link id '%s' is already defined at line %ld (link ids must be "
                        "unique; sharing_policy=\"SPLITDUPLEX\" makes ID_UP and ID_DOWN too)",
                   pf->path, again->line, again->name, first->line);
}

/* every name a route uses, in document order */
static int check_names(const cs_platform *pf, const names *nm, xmlNode *first, long *pos,
                       cs_err *err)
{
    char list[512];
    for (xmlNode *n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || is(n, "config"))
            continue;
        ++*pos;
        long line = (long)xmlGetLineNo(n);
        int rc = 0;
        if (is_route(n) || is_zone_route(n)) {
            static const char *const ends[] = {"src", "dst", "gw_src", "gw_dst"};
            int zr = is_zone_route(n);
            for (int k = 0; k < (zr ? 4 : 2) && !rc; k++) {
                char *v = attr(n, ends[k]);
                const nameset *set = zr && k < 2 ? &nm->zones : &nm->points;
                if (!ns_has(set, v))
                    rc = cs_fail(err, "%s:%ld: <%s %s=\"%s\">: no %s '%s' in the file (%s: %s)",
                                 pf->path, line, (const char *)n->name, ends[k], v,
                                 set == &nm->zones ? "zone" : "host or router", v,
                                 set == &nm->zones ? "zones" : "hosts and routers",
                                 ns_sample(set, list, sizeof list));
                xmlFree(v);
            }
            int links = 0;
            for (xmlNode *k = n->children; k; k = k->next)
                links += is(k, "link_ctn");
            if (!rc && !links) {
                char *src = attr(n, "src"), *dst = attr(n, "dst");
                rc = cs_fail(err, "%s:%ld: <%s src=\"%s\" dst=\"%s\"> names no link: SimGrid "
                                  "refuses an empty route (give it at least one <link_ctn "
                                  "id=\"LINK\"/>)",
                             pf->path, line, (const char *)n->name, src, dst);
                xmlFree(src);
                xmlFree(dst);
            }
        } else if (is(n, "link_ctn")) {
            char *v = attr(n, "id");
            const entry *e = find_link(nm, v);
            if (!e)
                rc = cs_fail(err, "%s:%ld: <link_ctn id=\"%s\">: no link '%s' in the file (links: %s)",
                             pf->path, line, v, v, ns_sample(&nm->links, list, sizeof list));
            else if (e->pos > *pos) /* SimGrid reads the file in order */
                rc = cs_fail(err, "%s:%ld: <link_ctn id=\"%s\">: link '%s' is defined only later, at "
                                  "line %ld (SimGrid needs a link defined before a route uses it)",
                             pf->path, line, v, v, e->line);
            xmlFree(v);
        }
        if (!rc && n->children)
            rc = check_names(pf, nm, n->children, pos, err);
        if (rc)
            return -1;
    }
    return 0;
}

/* ---- the order of elements that SimGrid 3.32's DTD (4.1) accepts ---- */
/* A parent's content model: its children come in phases, each a space-separated list of the
 * elements allowed there (an element may repeat; a later phase may not go back to an earlier
 * one's elements). A zone holds either zones (then zoneRoutes) or hosts (then routes). */
typedef struct {
    const char *parent, *what; /* what: how the error names a parent of this model */
    const char *phase[4];
} content_model;

#define ZONE_OF_ZONES_PHASES                                                                       \
    {"prop", "AS zone include link backbone cluster peer trace trace_connect",                     \
     "zoneRoute ASroute bypassASroute bypassZoneRoute trace trace_connect", "trace trace_connect"}
#define ZONE_OF_HOSTS_PHASES                                                                       \
    {"prop",                                                                                       \
     "include storage_type storage host cabinet router link backbone trace trace_connect "         \
     "host_link",                                                                                  \
     "route bypassRoute trace trace_connect"}
#define ROUTE_PHASES {"link_ctn"}
#define EMPTY_PHASES {NULL}
static const content_model models[] = {
    {"platform", NULL, {"config random", "include cluster cabinet peer AS zone trace trace_connect",
                        "process actor"}},
    {"zone", "a zone of zones", ZONE_OF_ZONES_PHASES},
    {"AS", "a zone of zones", ZONE_OF_ZONES_PHASES},
    {"zone", "a zone of hosts", ZONE_OF_HOSTS_PHASES},
    {"AS", "a zone of hosts", ZONE_OF_HOSTS_PHASES},
    {"include", NULL, {"include cluster cabinet peer AS zone trace trace_connect"}},
    {"route", NULL, ROUTE_PHASES},
    {"ASroute", NULL, ROUTE_PHASES},
    {"zoneRoute", NULL, ROUTE_PHASES},
    {"bypassRoute", NULL, ROUTE_PHASES},
    {"bypassASroute", NULL, ROUTE_PHASES},
    {"bypassZoneRoute", NULL, ROUTE_PHASES},
    {"host", NULL, {"disk prop mount"}},
    {"storage_type", NULL, {"model_prop prop"}},
    {"cluster", NULL, {"prop"}},
    {"link", NULL, {"prop"}},
    {"storage", NULL, {"prop"}},
    {"disk", NULL, {"prop"}},
    {"config", NULL, {"prop"}},
    {"process", NULL, {"argument prop"}},
    {"actor", NULL, {"argument prop"}},
    {"trace", NULL, EMPTY_PHASES},
    {"trace_connect", NULL, EMPTY_PHASES},
    {"random", NULL, EMPTY_PHASES},
    {"cabinet", NULL, EMPTY_PHASES},
    {"peer", NULL, EMPTY_PHASES},
    {"router", NULL, EMPTY_PHASES},
    {"backbone", NULL, EMPTY_PHASES},
    {"host_link", NULL, EMPTY_PHASES},
    {"link_ctn", NULL, EMPTY_PHASES},
    {"mount", NULL, EMPTY_PHASES},
    {"argument", NULL, EMPTY_PHASES},
    {"prop", NULL, EMPTY_PHASES},
    {"model_prop", NULL, EMPTY_PHASES},
};
#define NMODELS (sizeof models / sizeof models[0])

/* whether the space-separated list holds name */
static int listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && !strncmp(p, name, len))
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static const content_model *model_of(const xmlNode *n, int zone_of_hosts)
{
    for (size_t i = 0; i < NMODELS; i++)
        if (is(n, models[i].parent) &&
            (!models[i].what || zone_of_hosts == !strcmp(models[i].what, "a zone of hosts")))
            return &models[i];
    return NULL;
}

/* the phase of m holding name from phase `from` on (-1: none) */
static int phase_of(const content_model *m, const char *name, int from)
{
    for (int p = from; p < 4 && m->phase[p]; p++)
        if (listed(m->phase[p], name))
            return p;
    return -1;
}

/* "<zone id="z">", or "<host>" without an id, into buf */
static const char *tag(const xmlNode *n, char *buf, size_t size)
{
    char *id = attr(n, "id");
    snprintf(buf, size, *id ? "<%s id=\"%s\">" : "<%s>", (const char *)n->name, id);
    xmlFree(id);
    return buf;
}

/* "prop, then AS, zone, ..., then ..." */
static const char *order_of(const content_model *m, char *buf, size_t size)
{
    buf[0] = 0;
    for (int p = 0; p < 4 && m->phase[p]; p++) {
        size_t at = strlen(buf);
        snprintf(buf + at, size - at, "%s%s", p ? "; then " : "", m->phase[p]);
    }
    return buf;
}

/* every element's children in the order its content model accepts, down from first */
static int check_order(const cs_platform *pf, xmlNode *parent, cs_err *err)
{
    char where[600], order[600];
    /* a zone holds hosts when its first child that only one kind of zone holds says so */
    int hosts = 0;
    for (xmlNode *k = parent->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        int in_zones = listed("AS zone cluster peer zoneRoute ASroute bypassASroute "
                              "bypassZoneRoute", (const char *)k->name);
        int in_hosts = listed("storage_type storage host cabinet router host_link route "
                              "bypassRoute", (const char *)k->name);
        if (in_zones != in_hosts) {
            hosts = in_hosts;
            break;
        }
    }
    const content_model *m = model_of(parent, hosts), *other = model_of(parent, !hosts);
    xmlNode *last = NULL; /* the child that opened the current phase */
    int phase = 0;
    for (xmlNode *k = parent->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        long line = (long)xmlGetLineNo(k);
        const char *name = (const char *)k->name;
        int p = phase_of(m, name, phase);
        if (!model_of(k, 0))
            return cs_fail(err, "%s:%ld: <%s> is not an element of SimGrid's platform files "
                                "(DTD 4.1)",
                           pf->path, line, name);
        if (p < 0 && phase_of(m, name, 0) >= 0)
            return cs_fail(err, "%s:%ld: <%s> after <%s> (line %ld) in %s: SimGrid (DTD 4.1) "
                                "takes %s's elements in this order: %s",
                           pf->path, line, name, (const char *)last->name,
                           (long)xmlGetLineNo(last), tag(parent, where, sizeof where),
                           (const char *)parent->name, order_of(m, order, sizeof order));
        if (p < 0 && m->what && phase_of(other, name, 0) >= 0)
            return cs_fail(err, "%s:%ld: <%s> in %s, which is %s: SimGrid (DTD 4.1) takes either "
                                "zones, clusters and links then <zoneRoute>s, or hosts, routers "
                                "and links then <route>s in one zone; put them in zones of "
                                "their own",
                           pf->path, line, name, tag(parent, where, sizeof where), m->what);
        if (p < 0)
            return cs_fail(err, "%s:%ld: <%s> in %s: SimGrid (DTD 4.1) takes %s", pf->path, line,
                           name, tag(parent, where, sizeof where),
                           m->phase[0] ? order_of(m, order, sizeof order) : "no element there");
        if (p > phase || !last)
            last = k;
        phase = p;
        if (check_order(pf, k, err))
            return -1;
    }
    return 0;
}

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

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static int find(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static int check_zone(const cs_platform *pf, xmlNode *zone, cs_err *err)
{
    char *routing = attr(zone, "routing"), *zid = attr(zone, "id");
    int full = !strcmp(routing, "Full");
    int graph = !strcmp(routing, "Floyd") || !strcmp(routing, "Dijkstra") ||
                !strcmp(routing, "DijkstraCache");
    int rc = 0;
    /* its members: hosts, zones and clusters (what must be reached), routers (the graph's) */
    int n = 0, cap = 0;
    child *members = NULL;
    char **names = NULL;
    int *needed = NULL;
    for (xmlNode *k = zone->children; k && (full || graph); k = k->next) {
        int reach = is(k, "host") || is_zone(k) || is(k, "cluster");
        if (!reach && !is(k, "router"))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            members = cs_xrealloc(members, (size_t)cap * sizeof *members);
            names = cs_xrealloc(names, (size_t)cap * sizeof *names);
            needed = cs_xrealloc(needed, (size_t)cap * sizeof *needed);
        }
        names[n] = attr(k, "id");
        members[n] = (child){names[n], n};
        needed[n++] = reach;
    }
    if (n > 1) {
        qsort(members, (size_t)n, sizeof *members, cmp_child);
        long long npairs = 0, pcap = 0, *pairs = NULL;
        int *parent = cs_xmalloc((size_t)n * sizeof(int));
        for (int i = 0; i < n; i++)
            parent[i] = i;
        for (xmlNode *k = zone->children; k; k = k->next) {
            if (!is(k, "route") && !is(k, "zoneRoute") && !is(k, "ASroute"))
                continue;
            char *s = attr(k, "src"), *d = attr(k, "dst"), *sym = attr(k, "symmetrical");
            int a = child_index(members, n, s), b = child_index(members, n, d);
            if (a >= 0 && b >= 0 && a != b) {
                parent[find(parent, a)] = find(parent, b);
                if (npairs + 2 > pcap) {
                    pcap = pcap ? 2 * pcap : 256;
                    pairs = cs_xrealloc(pairs, (size_t)pcap * sizeof *pairs);
                }
                pairs[npairs++] = (long long)a * n + b;
                if (strcmp(sym, "NO") && strcmp(sym, "no"))
                    pairs[npairs++] = (long long)b * n + a;
            }
            xmlFree(s);
            xmlFree(d);
            xmlFree(sym);
        }
        int from = -1, to = -1;
        if (full) { /* every ordered pair of members that must be reached */
            if (npairs)
                qsort(pairs, (size_t)npairs, sizeof *pairs, cmp_ll);
            long long k = 0;
            for (int i = 0; i < n && from < 0; i++)
                for (int j = 0; j < n && from < 0; j++) {
                    if (i == j || !needed[i] || !needed[j])
                        continue;
                    long long key = (long long)i * n + j;
                    while (k < npairs && pairs[k] < key)
                        k++;
                    if (k == npairs || pairs[k] != key)
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
    xmlFree(routing);
    xmlFree(zid);
    return rc;
}

static int check_zones(const cs_platform *pf, xmlNode *first, cs_err *err)
{
    for (xmlNode *n = first; n; n = n->next)
        if (is_zone(n) && (check_zones(pf, n->children, err) || check_zone(pf, n, err)))
            return -1;
    return 0;
}

int cs_platform_check_network(const cs_platform *pf, xmlNode *root, cs_err *err)
{
    names nm;
    memset(&nm, 0, sizeof nm);
    for (int i = 0; i < pf->nhosts; i++)
        ns_add(&nm.points, pf->hosts[i].name);
    long pos = 0;
    collect(&nm, root->children, &pos);
    ns_seal(&nm.points);
    ns_seal(&nm.zones);
    ns_seal(&nm.links);
    ns_seal(&nm.link_ids);
    pos = 0;
    int rc = check_order(pf, root, err) || unique_links(pf, &nm.link_ids, err) ||
                     check_names(pf, &nm, root->children, &pos, err) ||
                     check_zones(pf, root->children, err)
                 ? -1
                 : 0;
    ns_free(&nm.points);
    ns_free(&nm.zones);
    ns_free(&nm.links);
    ns_free(&nm.link_ids);
    ns_free(&nm.cluster_links);
    return rc;
}
