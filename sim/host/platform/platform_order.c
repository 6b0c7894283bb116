/* The order of elements in a platform file, as SimGrid 3.32's DTD (4.1) takes
 * it (platform_net.h). */
#include "platform_net.h"
#include "platform_xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
int cs_platform_check_order(const cs_platform *pf, xmlNode *parent, cs_err *err)
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
        if (listed("storage_type storage mount include", name)) /* SimGrid 3.32 dies on them */
            return cs_fail(err, "%s:%ld: <%s>: SimGrid removed this element (in 3.%s) and 3.32 refuses "
                                "it; leave it out",
                           pf->path, line, name, !strcmp(name, "include") ? "18" : "27");
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
        if (cs_platform_check_order(pf, k, err))
            return -1;
    }
    return 0;
}

