/* The network of a platform file checked before SimGrid reads it: every
 * element where SimGrid's DTD (4.1) takes it and in its order, every name a
 * route uses (hosts, routers, zones, links) defined, no route without a link,
 * one top-level zone or cluster, a routing SimGrid 3.32 knows, one namespace
 * for hosts, routers, zones and clusters, and every zone that routes by table
 * (Full) or by graph (Floyd, Dijkstra) joining only its own members, once per
 * direction, gateways inside their zones, reaching each of its hosts and zones
 * from each other. SimGrid finds these only inside smpirun, with a multi-line
 * abort. */
#ifndef COLLSIM_PLATFORM_NET_H
#define COLLSIM_PLATFORM_NET_H

#include "platform.h"

#include <libxml/tree.h>

/* root: the file's <platform> element; pf: its hosts as cs_platform_load
 * read them. 0, or -1 with a one-line error naming the file and line. */
int cs_platform_check_network(const cs_platform *pf, xmlNode *root, cs_err *err);

/* The names part of it (platform_names.c): link ids and netpoints (hosts, routers, zones,
 * clusters) defined once, every name a route uses defined; root as above. */
int cs_platform_check_names(const cs_platform *pf, xmlNode *root, cs_err *err);

/* The element order part of it (platform_order.c): parent and, recursively,
 * its descendants. */
int cs_platform_check_order(const cs_platform *pf, xmlNode *parent, cs_err *err);

/* The unit and range of element n's value attributes (platform_values.c): latencies, bandwidths,
 * speeds; a collsim property's name and value (core/platform_props.def); a TORUS cluster's
 * loopback. An implausible valid value is a warning (cs_platform_warn). */
int cs_platform_check_values(cs_platform *pf, xmlNode *n, cs_err *err);

/* A TORUS, FAT_TREE or DRAGONFLY cluster n whose radical names fewer hosts (nhosts) than its
 * topo_parameters make: SimGrid 3.32 aborts ("Insufficient number of radicals"). */
int cs_platform_check_topology(const cs_platform *pf, xmlNode *n, long nhosts, cs_err *err);

/* The LEVEL part of the top zone's per-level collsim properties: a level of pf (platform_values.c). */
int cs_platform_check_prop_levels(const cs_platform *pf, xmlNode *root, cs_err *err);

/* Adds a one-line warning to pf->warnings (platform.c); cs_platform_load prints each once. */
void cs_platform_warn(cs_platform *pf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
