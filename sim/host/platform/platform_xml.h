/* Small libxml2 helpers shared by the platform checks (platform_names.c, platform_net.c,
 * platform_order.c). */
#ifndef COLLSIM_PLATFORM_XML_H
#define COLLSIM_PLATFORM_XML_H

#include <libxml/tree.h>
#include <stdio.h>

static inline int is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, (const xmlChar *)name);
}

static inline int is_zone(const xmlNode *n) { return is(n, "zone") || is(n, "AS"); }

/* an attribute's value ("" when absent); free with xmlFree */
static inline char *attr(const xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    return v ? (char *)v : (char *)xmlStrdup((const xmlChar *)"");
}

/* "<name id="ID">" (or "<name>"), for messages */
static inline const char *tag(const xmlNode *n, char *buf, size_t size)
{
    char *id = attr(n, "id");
    snprintf(buf, size, *id ? "<%s id=\"%s\">" : "<%s>", (const char *)n->name, id);
    xmlFree(id);
    return buf;
}

#endif
