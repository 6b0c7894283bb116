#include "platform.h"
#include "platform_net.h"
#include "smpirun.h"
#include "xml_error.h"

#include <errno.h>
#include <stdarg.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- locality declarations (platforms/README.md, "Locality levels") ----
 * While walking the file, the declarations of the enclosing zones are kept on
 * a stack; each host records, per level name, the innermost one as a key:
 * the declaring element's number (collsim.level), that number with the
 * host's group (collsim.group.LEVEL = N: floor(number in the host's name / N)),
 * or a number given to the region's name (collsim.region.LEVEL = NAME: every
 * element naming it shares the region, so regions need not be zones).
 * Levels are resolved once the whole file (and collsim.levels) is read. */
#define MAX_DECL 16
#define NAMED_DECL (1L << 30) /* keys of named regions: above any element number */

typedef struct {
    char level[32];
    long decl;     /* the declaring element's number, or NAMED_DECL + its name's */
    long group_of; /* 0: the whole element is one region; N: groups of N hosts by number */
    const char *zone; /* the declaring element's id (owned by walk_ctx.zones) */
} decl;

typedef struct {
    decl stack[MAX_DECL];
    int n;
    long ndecl;
    char **zones; /* [ndecl]: the declaring elements' ids */
    char **names; /* [nnames]: the region names of collsim.region.LEVEL, as LEVEL NAME */
    long nnames;
    char *levels_prop; /* collsim.levels of the top zone */
    long levels_line;
    /* per host: its declarations, innermost first for each name */
    decl (*host_decl)[MAX_DECL];
    int *host_ndecl;
    long *host_line; /* per host: the line of its <host> or <cluster> */
    int cap;
} walk_ctx;

static int valid_level_name(const char *s)
{
    if (!*s || strlen(s) >= 32)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_'))
            return 0;
    return 1;
}

/* The number of region NAME of level LEVEL among the named regions. */
static long region_name(walk_ctx *w, const char *level, const char *name)
{
    size_t len = strlen(level) + strlen(name) + 2;
    char *key = cs_xmalloc(len);
    snprintf(key, len, "%s %s", level, name);
    for (long i = 0; i < w->nnames; i++)
        if (!strcmp(w->names[i], key)) {
            free(key);
            return i;
        }
    w->names = cs_xrealloc(w->names, (size_t)(w->nnames + 1) * sizeof(char *));
    w->names[w->nnames] = key;
    return w->nnames++;
}

/* -1 when the platform would exceed CS_MAX_HOSTS (the caller names the element) */
static int add_host(cs_platform *pf, walk_ctx *w, const char *name, int cores, long line)
{
    if (pf->nhosts == CS_MAX_HOSTS)
        return -1;
    if (pf->nhosts == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        pf->hosts = cs_xrealloc(pf->hosts, (size_t)w->cap * sizeof(cs_host));
        w->host_decl = cs_xrealloc(w->host_decl, (size_t)w->cap * sizeof *w->host_decl);
        w->host_ndecl = cs_xrealloc(w->host_ndecl, (size_t)w->cap * sizeof(int));
        w->host_line = cs_xrealloc(w->host_line, (size_t)w->cap * sizeof(long));
    }
    w->host_line[pf->nhosts] = line;
    cs_host *h = &pf->hosts[pf->nhosts];
    memset(h, 0, sizeof *h);
    h->name = cs_xstrdup(name);
    h->cores = cores;
    /* innermost declaration first */
    int k = 0;
    for (int i = w->n - 1; i >= 0; i--)
        w->host_decl[pf->nhosts][k++] = w->stack[i];
    w->host_ndecl[pf->nhosts] = k;
    pf->nhosts++;
    pf->total_cores += cores;
    return 0;
}

/* attr: the attribute that adds the hosts, named with its value */
static int too_many_hosts(const cs_platform *pf, xmlNode *n, const char *attr, cs_err *err)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
    cs_fail(err, "%s:%ld: <%s %s=\"%s\">: the platform has more than %d hosts", pf->path,
            (long)xmlGetLineNo(n), (const char *)n->name, attr, v ? (const char *)v : "",
            CS_MAX_HOSTS);
    xmlFree(v);
    return -1;
}

static int attr_int(xmlNode *n, const char *attr, int dflt, const char *path, int *out, cs_err *err)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
    if (!v) {
        *out = dflt;
        return 0;
    }
    char *end;
    long x = strtol((const char *)v, &end, 10);
    int bad = end == (char *)v || *end || x < 1 || x > 1 << 20;
    if (bad)
        cs_fail(err, "%s:%ld: <%s %s=\"%s\">: expected a positive integer", path,
                (long)xmlGetLineNo(n), (const char *)n->name, attr, (const char *)v);
    xmlFree(v);
    *out = (int)x;
    return bad ? -1 : 0;
}

/* <cluster prefix radical suffix core>: radical is "0-15" or "0-3,8,10-11". */
static int add_cluster(cs_platform *pf, walk_ctx *w, xmlNode *n, cs_err *err)
{
    int cores;
    if (attr_int(n, "core", 1, pf->path, &cores, err))
        return -1;
    xmlChar *prefix = xmlGetProp(n, (const xmlChar *)"prefix");
    xmlChar *suffix = xmlGetProp(n, (const xmlChar *)"suffix");
    xmlChar *radical = xmlGetProp(n, (const xmlChar *)"radical");
    int rc = 0;
    if (!radical) {
        rc = cs_fail(err, "%s:%ld: <cluster> without a radical attribute", pf->path,
                     (long)xmlGetLineNo(n));
        goto out;
    }
    const char *c = (const char *)radical;
    while (*c) {
        char *end;
        long a = strtol(c, &end, 10), b = a;
        if (end == c)
            goto bad;
        if (*end == '-') {
            c = end + 1;
            b = strtol(c, &end, 10);
            if (end == c)
                goto bad;
        }
        if (b < a || a < 0 || (*end && *end != ','))
            goto bad;
        if (b - a >= CS_MAX_HOSTS - pf->nhosts) {
            rc = too_many_hosts(pf, n, "radical", err);
            goto out;
        }
        for (long i = 0; i <= b - a; i++) { /* (i from a to b would overflow at LONG_MAX) */
            char name[512];
            snprintf(name, sizeof name, "%s%ld%s", prefix ? (const char *)prefix : "", a + i,
                     suffix ? (const char *)suffix : "");
            add_host(pf, w, name, cores, (long)xmlGetLineNo(n));
        }
        c = *end ? end + 1 : end;
    }
    goto out;
bad:
    rc = cs_fail(err, "%s:%ld: <cluster radical=\"%s\">: expected ranges like 0-15 or 0-3,8",
                 pf->path, (long)xmlGetLineNo(n), (const char *)radical);
out:
    xmlFree(prefix);
    xmlFree(suffix);
    xmlFree(radical);
    return rc;
}

static void pop_decls(walk_ctx *w, int n) { w->n -= n; }

/* The locality props among n's direct children: pushes one declaration each
 * (returns how many), or -1 with err. */
static int push_decls(cs_platform *pf, walk_ctx *w, xmlNode *n, int top, cs_err *err)
{
    int pushed = 0;
    xmlChar *zid = xmlGetProp(n, (const xmlChar *)"id");
    for (xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE || xmlStrcmp(k->name, (const xmlChar *)"prop"))
            continue;
        xmlChar *id = xmlGetProp(k, (const xmlChar *)"id");
        xmlChar *v = xmlGetProp(k, (const xmlChar *)"value");
        const char *ids = id ? (const char *)id : "", *vs = v ? (const char *)v : "";
        long line = (long)xmlGetLineNo(k);
        int rc = 0;
        if (!strcmp(ids, "collsim.levels")) {
            if (!top)
                rc = cs_fail(err, "%s:%ld: <prop id=\"collsim.levels\">: only the top-level zone "
                                  "declares the levels",
                             pf->path, line);
            else {
                free(w->levels_prop);
                w->levels_prop = cs_xstrdup(vs);
                w->levels_line = line;
            }
        } else if (!strcmp(ids, "collsim.level") || !strncmp(ids, "collsim.group.", 14) ||
                   !strncmp(ids, "collsim.region.", 15)) {
            int group = ids[8] == 'g', named = ids[8] == 'r';
            const char *level = group ? ids + 14 : named ? ids + 15 : vs;
            long every = 0;
            if (named && !vs[0])
                rc = cs_fail(err, "%s:%ld: <prop id=\"%s\">: expected the region's name in value",
                             pf->path, line, ids);
            if (group) {
                char *end;
                every = strtol(vs, &end, 10);
                if (end == vs || *end || every < 1)
                    rc = cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: expected a number of "
                                      "hosts per region (a positive integer)",
                                 pf->path, line, ids, vs);
            }
            if (!rc && !valid_level_name(level))
                rc = cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: '%s' is not a level name "
                                  "(letters, digits, - and _)",
                             pf->path, line, ids, vs, level);
            else if (!rc && w->n == MAX_DECL)
                rc = cs_fail(err, "%s:%ld: more than %d nested locality declarations", pf->path,
                             line, MAX_DECL);
            else if (!rc) {
                decl *d = &w->stack[w->n++];
                snprintf(d->level, sizeof d->level, "%s", level);
                d->decl = w->ndecl;
                d->group_of = every;
                w->zones = cs_xrealloc(w->zones, (size_t)(w->ndecl + 1) * sizeof(char *));
                w->zones[w->ndecl] = cs_xstrdup(zid ? (const char *)zid : "?");
                d->zone = w->zones[w->ndecl++];
                if (named)
                    d->decl = NAMED_DECL + region_name(w, level, vs);
                pushed++;
            }
        }
        xmlFree(id);
        xmlFree(v);
        if (rc) {
            pop_decls(w, pushed);
            xmlFree(zid);
            return -1;
        }
    }
    xmlFree(zid);
    return pushed;
}


/* <config><prop id="OPTION" value="V"/></config>: SimGrid 3.32's options, which it would abort on
 * at run time when unknown or of a value its parser refuses */
static int check_config(const cs_platform *pf, xmlNode *config, cs_err *err)
{
    int rc = 0;
    for (xmlNode *k = config->children; k && !rc; k = k->next) {
        if (k->type != XML_ELEMENT_NODE || xmlStrcmp(k->name, (const xmlChar *)"prop"))
            continue;
        xmlChar *id = xmlGetProp(k, (const xmlChar *)"id"), *v = xmlGetProp(k, (const xmlChar *)"value");
        cs_err e;
        if (cs_smpi_option_known(id ? (const char *)id : "", v ? (const char *)v : "", &e))
            rc = cs_fail(err, "%s:%ld: <config> <prop id=\"%s\">: %s", pf->path,
                         (long)xmlGetLineNo(k), id ? (const char *)id : "", e.msg);
        xmlFree(id);
        xmlFree(v);
    }
    return rc;
}

static int walk(cs_platform *pf, walk_ctx *w, xmlNode *first, int depth, cs_err *err)
{
    for (xmlNode *n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        int is_cluster = !xmlStrcmp(n->name, (const xmlChar *)"cluster");
        int is_zone = !xmlStrcmp(n->name, (const xmlChar *)"zone") ||
                      !xmlStrcmp(n->name, (const xmlChar *)"AS");
        if (cs_platform_check_values(pf, n, err))
            return -1;
        int pushed = 0;
        if (is_cluster || is_zone) {
            pushed = push_decls(pf, w, n, depth == 0 && is_zone, err);
            if (pushed < 0)
                return -1;
        }
        int rc = 0;
        /* a cluster's and a host's own children (props, disks) are not walked: checked here */
        for (xmlNode *k = is_cluster || !xmlStrcmp(n->name, (const xmlChar *)"host") ? n->children
                                                                                     : NULL;
             k && !rc; k = k->next)
            if (k->type == XML_ELEMENT_NODE)
                rc = cs_platform_check_values(pf, k, err);
        if (rc) {
        } else if (is_cluster) {
            int before = pf->nhosts;
            rc = add_cluster(pf, w, n, err);
            if (!rc)
                rc = cs_platform_check_topology(pf, n, pf->nhosts - before, err);
        } else if (!xmlStrcmp(n->name, (const xmlChar *)"host")) {
            int cores;
            xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
            if (!id)
                return cs_fail(err, "%s:%ld: <host> without an id", pf->path,
                               (long)xmlGetLineNo(n));
            rc = attr_int(n, "core", 1, pf->path, &cores, err);
            if (!rc && add_host(pf, w, (const char *)id, cores, (long)xmlGetLineNo(n)))
                rc = too_many_hosts(pf, n, "id", err);
            xmlFree(id);
        } else if (!xmlStrcmp(n->name, (const xmlChar *)"prop")) {
            xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
            /* the description, and the top zone's local-work costs (what the
             * report's reduction models charge for the arithmetic) */
            char **to = !id ? NULL
                        : !xmlStrcmp(id, (const xmlChar *)"collsim/description")
                            ? (pf->description[0] ? NULL : &pf->description)
                        : depth > 1 ? NULL
                        : !xmlStrcmp(id, (const xmlChar *)"collsim.local.copy-call") ? &pf->copy_call
                        : !xmlStrcmp(id, (const xmlChar *)"collsim.local.copy-bw") ? &pf->copy_bw
                        : !xmlStrcmp(id, (const xmlChar *)"collsim.local.reduce-bw") ? &pf->reduce_bw
                                                                                    : NULL;
            if (to) {
                xmlChar *v = xmlGetProp(n, (const xmlChar *)"value");
                free(*to);
                *to = cs_xstrdup(v ? (const char *)v : "");
                xmlFree(v);
            }
            xmlFree(id);
        } else if (!xmlStrcmp(n->name, (const xmlChar *)"config")) {
            rc = check_config(pf, n, err);
        } else if (n->children) {
            rc = walk(pf, w, n->children, depth + (is_zone || is_cluster), err);
        }
        pop_decls(w, pushed);
        if (rc)
            return -1;
    }
    return 0;
}

/* The number in a host name (its cluster radical): the last run of digits;
 * -1 when there is none. */
static long host_number(const char *name)
{
    const char *e = name + strlen(name);
    while (e > name && !(e[-1] >= '0' && e[-1] <= '9'))
        e--;
    const char *b = e;
    while (b > name && b[-1] >= '0' && b[-1] <= '9')
        b--;
    return b < e ? strtol(b, NULL, 10) : -1;
}

/* collsim.levels: names separated by commas or spaces, finest first. */
static int parse_levels(cs_platform *pf, walk_ctx *w, cs_err *err)
{
    const char *text = w->levels_prop ? w->levels_prop : "node";
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    pf->nlevels = 0;
    pf->node_level = -1;
    char *save = NULL;
    for (char *t = strtok_r(buf, " ,\t\n", &save); t; t = strtok_r(NULL, " ,\t\n", &save)) {
        if (!valid_level_name(t) || !strcmp(t, "system") || !strcmp(t, "nonlocal"))
            return cs_fail(err, "%s:%ld: <prop id=\"collsim.levels\" value=\"%s\">: '%s' is not a "
                                "valid level name (letters, digits, - and _; 'system' and "
                                "'nonlocal' are reserved)",
                           pf->path, w->levels_line, text, t);
        for (int l = 0; l < pf->nlevels; l++)
            if (!strcmp(pf->levels[l], t))
                return cs_fail(err, "%s:%ld: <prop id=\"collsim.levels\">: level '%s' listed twice",
                               pf->path, w->levels_line, t);
        if (pf->nlevels == CS_MAX_LEVELS)
            return cs_fail(err, "%s:%ld: <prop id=\"collsim.levels\">: at most %d levels", pf->path,
                           w->levels_line, CS_MAX_LEVELS);
        if (!strcmp(t, "node"))
            pf->node_level = pf->nlevels;
        snprintf(pf->levels[pf->nlevels++], sizeof pf->levels[0], "%s", t);
    }
    if (pf->node_level < 0)
        return cs_fail(err, "%s:%ld: <prop id=\"collsim.levels\" value=\"%s\">: the levels must "
                            "include 'node' (what ranks per node count)",
                       pf->path, w->levels_line, text);
    return 0;
}

/* A host's region at one level: the declaration and group it falls in. */
typedef struct {
    long decl, group;
    int host;
} region_key;

static int cmp_region_key(const void *a, const void *b)
{
    const region_key *x = a, *y = b;
    return x->decl != y->decl     ? (x->decl > y->decl) - (x->decl < y->decl)
           : x->group != y->group ? (x->group > y->group) - (x->group < y->group)
                                  : (x->host > y->host) - (x->host < y->host);
}

/* Numbers the regions of level l by the first appearance of their keys in
 * host order: sorted, so that large platforms stay n log n. */
static void number_regions(cs_platform *pf, region_key *keys, int *first, int l)
{
    qsort(keys, (size_t)pf->nhosts, sizeof *keys, cmp_region_key);
    for (int i = 0; i < pf->nhosts; i++) /* first[h]: the first host sharing h's key */
        first[keys[i].host] = i && keys[i].decl == keys[i - 1].decl &&
                                      keys[i].group == keys[i - 1].group
                                  ? first[keys[i - 1].host]
                                  : keys[i].host;
    int nreg = 0;
    for (int h = 0; h < pf->nhosts; h++)
        pf->hosts[h].region[l] = first[h] == h ? nreg++ : pf->hosts[first[h]].region[l];
}

/* whether name is one of the comma-separated list */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *c = list; *c; c += strcspn(c, ",") + (c[strcspn(c, ",")] != 0))
        if (!strncmp(c, name, n) && (c[n] == ',' || !c[n]))
            return 1;
    return 0;
}

/* A level after the first that no element declares: collsim.levels names it, the file does
 * not make it (a misspelt or extra word shifts the others, so the message names the first level
 * and the words the file declares). */
static int undeclared_level(const cs_platform *pf, const walk_ctx *w, cs_err *err)
{
    char declared[512] = "";
    for (int h = 0; h < pf->nhosts; h++)
        for (int k = 0; k < w->host_ndecl[h]; k++) {
            const char *name = w->host_decl[h][k].level;
            size_t n = strlen(name);
            int seen = in_list(declared, name);
            if (!seen && strlen(declared) + n + 2 < sizeof declared)
                snprintf(declared + strlen(declared), sizeof declared - strlen(declared), "%s%s",
                         *declared ? "," : "", name);
        }
    for (int l = 1; l < pf->nlevels; l++) {
        const char *name = pf->levels[l];
        int seen = in_list(declared, name);
        if (!seen)
            return cs_fail(err, "%s:%ld: <prop id=\"collsim.levels\" value=\"%s\">: no zone or cluster "
                                "declares level '%s' (the first level, '%s', is the SimGrid host "
                                "itself; the file declares: %s; valid: HOST_LEVEL%s%s, HOST_LEVEL "
                                "being node, or a finer word such as socket when zones declare node)",
                           pf->path, w->levels_line, w->levels_prop ? w->levels_prop : "node", name,
                           pf->levels[0], *declared ? declared : "none", *declared ? "," : "",
                           declared);
    }
    return 0;
}

/* Resolves every host's region at every level, checks that levels nest, and
 * groups hosts into nodes. */
static int resolve_levels(cs_platform *pf, walk_ctx *w, cs_err *err)
{
    if (parse_levels(pf, w, err))
        return -1;
    region_key *keys = cs_xmalloc((size_t)pf->nhosts * sizeof *keys);
    int *first = cs_xmalloc((size_t)pf->nhosts * sizeof(int));
    int rc = 0;
    for (int h = 0; h < pf->nhosts && !rc; h++) /* every declaration names a declared level */
        for (int k = 0; k < w->host_ndecl[h] && !rc; k++) {
            const decl *d = &w->host_decl[h][k];
            int l = 0;
            while (l < pf->nlevels && strcmp(pf->levels[l], d->level))
                l++;
            if (l == pf->nlevels)
                rc = cs_fail(err, "%s: zone '%s' declares level '%s', which collsim.levels does not "
                                  "list (levels: %s%s%s%s%s)",
                             pf->path, d->zone, d->level, pf->levels[0],
                             pf->nlevels > 1 ? ", " : "", pf->nlevels > 1 ? pf->levels[1] : "",
                             pf->nlevels > 2 ? ", " : "", pf->nlevels > 2 ? "..." : "");
            else if (l == 0)
                rc = cs_fail(err, "%s: zone '%s' declares level '%s', but the finest level is the "
                                  "SimGrid host itself and is not declared by zones",
                             pf->path, d->zone, d->level);
        }
    if (!rc)
        rc = undeclared_level(pf, w, err);
    for (int l = 0; l < pf->nlevels && !rc; l++) {
        for (int h = 0; h < pf->nhosts && !rc; h++) {
            keys[h].host = h;
            if (l == 0) { /* each host its own region */
                keys[h].decl = h;
                keys[h].group = 0;
            } else {
                const decl *d = NULL;
                for (int k = 0; k < w->host_ndecl[h] && !d; k++)
                    if (!strcmp(w->host_decl[h][k].level, pf->levels[l]))
                        d = &w->host_decl[h][k];
                if (!d) {
                    rc = cs_fail(err, "%s: host '%s' has no '%s' region: declare <prop "
                                      "id=\"collsim.level\" value=\"%s\"/> on a zone around it, "
                                      "<prop id=\"collsim.region.%s\" value=\"NAME\"/>, or "
                                      "<prop id=\"collsim.group.%s\" value=\"N\"/>",
                                 pf->path, pf->hosts[h].name, pf->levels[l], pf->levels[l],
                                 pf->levels[l], pf->levels[l]);
                    break;
                }
                long g = 0;
                if (d->group_of) {
                    long num = host_number(pf->hosts[h].name);
                    if (num < 0) {
                        rc = cs_fail(err, "%s: collsim.group.%s on zone '%s': host '%s' has no "
                                          "number in its name",
                                     pf->path, pf->levels[l], d->zone,
                                     pf->hosts[h].name);
                        break;
                    }
                    g = num / d->group_of;
                }
                keys[h].decl = d->decl;
                keys[h].group = g;
            }
        }
        if (rc)
            break;
        number_regions(pf, keys, first, l);
        /* a region of the finer level lies in one region of this level: the one of its first
         * host (first[r]: the first host of finer region r; regions are numbered in host order) */
        for (int h = 0, nfiner = 0; h < pf->nhosts && !rc && l > 0; h++) {
            int r = pf->hosts[h].region[l - 1], k;
            if (r == nfiner)
                first[nfiner++] = h;
            else if (pf->hosts[k = first[r]].region[l] != pf->hosts[h].region[l])
                rc = cs_fail(err, "%s: levels do not nest: hosts '%s' and '%s' share a '%s' "
                                  "region but not a '%s' region",
                             pf->path, pf->hosts[k].name, pf->hosts[h].name, pf->levels[l - 1],
                             pf->levels[l]);
        }
    }
    free(keys);
    free(first);
    if (rc)
        return -1;
    /* nodes: the regions of the node level, their hosts consecutive */
    int nl = pf->node_level, cap = 0;
    for (int h = 0; h < pf->nhosts; h++) {
        int r = pf->hosts[h].region[nl];
        if (r == pf->nnodes) {
            if (pf->nnodes == cap) {
                cap = cap ? 2 * cap : 64;
                pf->nodes = cs_xrealloc(pf->nodes, (size_t)cap * sizeof(cs_node));
            }
            cs_node *n = &pf->nodes[pf->nnodes++];
            const decl *d = NULL;
            for (int k = 0; nl > 0 && k < w->host_ndecl[h] && !d; k++)
                if (!strcmp(w->host_decl[h][k].level, "node"))
                    d = &w->host_decl[h][k];
            char gname[600];
            if (d && d->group_of)
                snprintf(gname, sizeof gname, "%s/node%ld", d->zone,
                         host_number(pf->hosts[h].name) / d->group_of);
            n->name = cs_xstrdup(nl == 0 ? pf->hosts[h].name
                                 : d && !d->group_of ? (d->zone)
                                                     : gname);
            n->cores = 0;
            n->first_host = h;
            n->nhosts = nl == 0 ? 0 : 1;
        } else if (nl > 0) {
            cs_node *n = &pf->nodes[r];
            if (n->first_host + n->nhosts != h)
                return cs_fail(err, "%s: the hosts of node '%s' are not consecutive in the file "
                                    "('%s' comes after another node's host)",
                               pf->path, n->name, pf->hosts[h].name);
            n->nhosts++;
        }
        pf->nodes[r].cores += pf->hosts[h].cores;
        pf->hosts[h].node = r;
    }
    return 0;
}

typedef struct {
    const char *name;
    int index;
} named_index;

static int cmp_named_index(const void *a, const void *b)
{
    const named_index *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Two hosts of one name: SimGrid refuses the second one at run time. */
static int duplicate_hosts(cs_platform *pf, walk_ctx *w, cs_err *err)
{
    named_index *order = cs_xmalloc((size_t)pf->nhosts * sizeof *order);
    for (int i = 0; i < pf->nhosts; i++)
        order[i] = (named_index){pf->hosts[i].name, i};
    qsort(order, (size_t)pf->nhosts, sizeof *order, cmp_named_index);
    int rc = 0, dup = -1;
    for (int i = 1; i < pf->nhosts; i++) /* the later one of the first pair in file order */
        if (!strcmp(order[i].name, order[i - 1].name) && (dup < 0 || order[i].index < dup))
            dup = order[i].index, rc = order[i - 1].index;
    if (dup >= 0)
        rc = cs_fail(err, "%s:%ld: host id '%s' is already defined at line %ld (host ids must be "
                          "unique; a <cluster> names its hosts PREFIX + each radical + SUFFIX)",
                     pf->path, w->host_line[dup], pf->hosts[dup].name, w->host_line[rc]);
    else
        rc = 0;
    free(order);
    return rc;
}

void cs_platform_warn(cs_platform *pf, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t n = strlen(pf->warnings);
    pf->warnings = cs_xrealloc(pf->warnings, n + strlen(line) + 2);
    snprintf(pf->warnings + n, strlen(line) + 2, "%s\n", line);
}

/* pf's warnings on stderr, each once per process (a run loads a platform once per use) */
static void print_warnings(const cs_platform *pf)
{
    static char **shown;
    static int nshown;
    char *copy = cs_xstrdup(pf->warnings), *save = NULL;
    for (char *t = strtok_r(copy, "\n", &save); t; t = strtok_r(NULL, "\n", &save)) {
        int seen = 0;
        for (int i = 0; i < nshown && !seen; i++)
            seen = !strcmp(shown[i], t);
        if (seen)
            continue;
        fprintf(stderr, "collsim: warning: %s\n", t);
        shown = cs_xrealloc(shown, (size_t)(nshown + 1) * sizeof *shown);
        shown[nshown++] = cs_xstrdup(t);
    }
    free(copy);
}

int cs_platform_load(const char *path, cs_platform *pf, cs_err *err)
{
    memset(pf, 0, sizeof *pf);
    pf->path = cs_xstrdup(path);
    pf->description = cs_xstrdup("");
    pf->copy_call = cs_xstrdup("");
    pf->copy_bw = cs_xstrdup("");
    pf->reduce_bw = cs_xstrdup("");
    pf->warnings = cs_xstrdup("");
    pf->name = cs_platform_name_of(path);

    xmlDoc *doc = cs_xml_read(path, "platform", XML_PARSE_NOBLANKS | XML_PARSE_COMPACT, err);
    if (!doc) {
        cs_platform_free(pf);
        return -1;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    walk_ctx w;
    memset(&w, 0, sizeof w);
    int rc = 0;
    if (!root || xmlStrcmp(root->name, (const xmlChar *)"platform"))
        rc = cs_fail(err, "%s: root element is <%s>, expected a SimGrid <platform>", path,
                     root ? (const char *)root->name : "none");
    else if (walk(pf, &w, root->children, 0, err))
        rc = -1;
    else if (pf->nhosts == 0)
        rc = cs_fail(err, "%s: the platform defines no host (no <host> nor <cluster>)", path);
    else if (duplicate_hosts(pf, &w, err) || resolve_levels(pf, &w, err) ||
             cs_platform_check_prop_levels(pf, root, err) ||
             cs_platform_check_network(pf, root, err))
        rc = -1;
    for (long i = 0; i < w.ndecl; i++)
        free(w.zones[i]);
    free(w.zones);
    for (long i = 0; i < w.nnames; i++)
        free(w.names[i]);
    free(w.names);
    free(w.levels_prop);
    free(w.host_decl);
    free(w.host_ndecl);
    free(w.host_line);
    xmlFreeDoc(doc);
    if (rc)
        cs_platform_free(pf);
    else
        print_warnings(pf);
    return rc;
}

void cs_platform_free(cs_platform *pf)
{
    for (int i = 0; i < pf->nnodes; i++)
        free(pf->nodes[i].name);
    for (int i = 0; i < pf->nhosts; i++)
        free(pf->hosts[i].name);
    free(pf->nodes);
    free(pf->hosts);
    free(pf->path);
    free(pf->name);
    free(pf->description);
    free(pf->copy_call);
    free(pf->copy_bw);
    free(pf->reduce_bw);
    free(pf->warnings);
    memset(pf, 0, sizeof *pf);
}
