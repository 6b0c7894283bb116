/* The names a platform's network uses (platform_net.h, cs_platform_check_names): link ids and
 * netpoints defined once, every name a route uses defined. */
#include "platform_net.h"
#include "platform_xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- a sorted set of names, each with where the file defines it ---- */
typedef struct {
    char *name;
    long pos;  /* its element's number in document order (elements before it come first) */
    long line;
    const char *kind; /* what the element is ("host", "zone", ...), in the netpoints set */
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
    s->v[s->n++] = (entry){cs_xstrdup(name), pos, line, NULL};
}

static void ns_add_kind(nameset *s, const char *name, long pos, long line, const char *kind)
{
    ns_add_at(s, name, pos, line);
    s->v[s->n - 1].kind = kind;
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

typedef struct {
    nameset points; /* hosts and routers: what <route> and a gateway name */
    nameset zones;  /* zones and clusters: what <zoneRoute> names */
    nameset links;
    nameset link_ids;      /* those of <link> alone: SimGrid 3.32 lets a <backbone> share one */
    nameset cluster_links; /* "ID_" of every cluster: the prefix of the links it makes */
    nameset netpoints;     /* ids of hosts, routers, zones, clusters and clusters' routers */
} names;

static void collect(names *nm, xmlNode *first, long *pos)
{
    for (xmlNode *n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || is(n, "config"))
            continue;
        ++*pos;
        long line = (long)xmlGetLineNo(n);
        char *id = attr(n, "id");
        if (is(n, "host"))
            ns_add_kind(&nm->netpoints, id, *pos, line, "a host");
        else if (is(n, "router")) {
            ns_add(&nm->points, id);
            ns_add_kind(&nm->netpoints, id, *pos, line, "a router");
        } else if (is_zone(n)) {
            ns_add(&nm->zones, id);
            ns_add_kind(&nm->netpoints, id, *pos, line, "a zone");
        } else if (is(n, "cluster")) {
            ns_add(&nm->zones, id);
            ns_add_kind(&nm->netpoints, id, *pos, line, "a cluster");
            char *router = attr(n, "router_id"), *prefix = attr(n, "prefix"),
                 *suffix = attr(n, "suffix");
            size_t len = strlen(prefix) + strlen(id) + strlen(suffix) + 16;
            char *name = cs_xmalloc(len);
            if (*router) /* else SimGrid 3.32's name: PREFIX ID _router SUFFIX */
                snprintf(name, len, "%s", router);
            else
                snprintf(name, len, "%s%s_router%s", prefix, id, suffix);
            ns_add(&nm->points, name);
            ns_add_kind(&nm->netpoints, name, *pos, line, "a cluster's router");
            snprintf(name, len, "%s_", id);
            ns_add_at(&nm->cluster_links, name, *pos, line);
            free(name);
            xmlFree(router);
            xmlFree(prefix);
            xmlFree(suffix);
        } else if (is(n, "link") || is(n, "backbone")) {
            int link = is(n, "link");
            char *policy = attr(n, "sharing_policy");
            /* (kind "SPLITDUPLEX": SimGrid knows the link by ID_UP and ID_DOWN alone) */
            ns_add_kind(&nm->links, id, *pos, line,
                        link && !strcmp(policy, "SPLITDUPLEX") ? "SPLITDUPLEX" : NULL);
            if (link)
                ns_add_at(&nm->link_ids, id, *pos, line);
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

/* SimGrid 3.32 gives hosts, routers, zones and clusters one namespace and aborts on a second
 * element of a name ("Refusing to create a router named 'a': this name already describes a
 * node", or a zone of a host's name breaking its routes); two hosts are found before
 * (duplicate_hosts) */
static int unique_netpoints(const cs_platform *pf, const nameset *np, cs_err *err)
{
    const entry *again = NULL;
    for (long i = 1; i < np->n; i++)
        if (!strcmp(np->v[i].name, np->v[i - 1].name) && (!again || np->v[i].pos < again->pos))
            again = &np->v[i];
    if (!again)
        return 0;
    const entry *first = again - 1;
    while (first > np->v && !strcmp(first[-1].name, again->name))
        first--;
    return cs_fail(err, "%s:%ld: '%s' names %s here and %s at line %ld (hosts, routers, zones and "
                        "clusters share one namespace in SimGrid: give each its own id)",
                   pf->path, again->line, again->name, again->kind, first->kind, first->line);
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
            char *v = attr(n, "id"), *dir = attr(n, "direction");
            const entry *e = find_link(nm, v);
            int directed = !strcmp(dir, "UP") || !strcmp(dir, "DOWN");
            int of_cluster = e && nm->cluster_links.n && e >= nm->cluster_links.v &&
                             e < nm->cluster_links.v + nm->cluster_links.n;
            if (!e)
                rc = cs_fail(err, "%s:%ld: <link_ctn id=\"%s\">: no link '%s' in the file (links: %s)",
                             pf->path, line, v, v, ns_sample(&nm->links, list, sizeof list));
            else if (e->pos > *pos) /* SimGrid reads the file in order */
                rc = cs_fail(err, "%s:%ld: <link_ctn id=\"%s\">: link '%s' is defined only later, at "
                                  "line %ld (SimGrid needs a link defined before a route uses it)",
                             pf->path, line, v, v, e->line);
            /* SimGrid 3.32 aborts on either ("Link not found: l1") */
            else if (e->kind && !directed)
                rc = cs_fail(err, "%s:%ld: <link_ctn id=\"%s\">: link '%s' (line %ld) is "
                                  "sharing_policy=\"SPLITDUPLEX\": give direction=\"UP\" or "
                                  "\"DOWN\", or name %s_UP or %s_DOWN",
                             pf->path, line, v, v, e->line, v, v);
            else if (!e->kind && directed && !of_cluster)
                rc = cs_fail(err, "%s:%ld: <link_ctn id=\"%s\" direction=\"%s\">: link '%s' (line "
                                  "%ld) is not sharing_policy=\"SPLITDUPLEX\": a direction names "
                                  "one side of a SPLITDUPLEX link (leave direction out)",
                             pf->path, line, v, dir, v, e->line);
            xmlFree(v);
            xmlFree(dir);
        } else if (is(n, "host_link")) { /* a Cluster zone's: SimGrid 3.32 aborts on a missing name */
            static const char *const ends[] = {"id", "up", "down"};
            for (int k = 0; k < 3 && !rc; k++) {
                char *v = attr(n, ends[k]);
                if (k == 0 && !ns_has(&nm->points, v))
                    rc = cs_fail(err, "%s:%ld: <host_link id=\"%s\">: no host '%s' in the file (hosts "
                                      "and routers: %s)",
                                 pf->path, line, v, v, ns_sample(&nm->points, list, sizeof list));
                else if (k > 0 && !find_link(nm, v))
                    rc = cs_fail(err, "%s:%ld: <host_link %s=\"%s\">: no link '%s' in the file (links: "
                                      "%s)",
                                 pf->path, line, ends[k], v, v,
                                 ns_sample(&nm->links, list, sizeof list));
                xmlFree(v);
            }
        }
        if (!rc && n->children)
            rc = check_names(pf, nm, n->children, pos, err);
        if (rc)
            return -1;
    }
    return 0;
}

int cs_platform_check_names(const cs_platform *pf, xmlNode *root, cs_err *err)
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
    ns_seal(&nm.netpoints);
    pos = 0;
    int rc = unique_links(pf, &nm.link_ids, err) || unique_netpoints(pf, &nm.netpoints, err) ||
                     check_names(pf, &nm, root->children, &pos, err)
                 ? -1
                 : 0;
    ns_free(&nm.points);
    ns_free(&nm.zones);
    ns_free(&nm.links);
    ns_free(&nm.link_ids);
    ns_free(&nm.cluster_links);
    ns_free(&nm.netpoints);
    return rc;
}
