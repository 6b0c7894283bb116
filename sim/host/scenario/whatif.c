#include "whatif.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_error.h"

static const struct {
    const char *level, *bandwidth, *latency;
} levels[] = {
    {"node-links", "//cluster/@bw", "//cluster/@lat"},
    {"uplinks", "//link/@bandwidth", "//link/@latency"},
    {"backbone", "//cluster/@bb_bw", "//cluster/@bb_lat"},
    {"loopback", "//cluster/@loopback_bw", "//cluster/@loopback_lat"},
    {"cores", "//cluster/@core | //host/@core", NULL},
};

int cs_vary_level(const char *level, const char *quantity, cs_vary *v, cs_err *err)
{
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        if (strcmp(levels[i].level, level))
            continue;
        if (!levels[i].latency) { /* cores: a count, not a link quantity */
            snprintf(v->xpath, sizeof v->xpath, "%s", levels[i].bandwidth);
            snprintf(v->name, sizeof v->name, "%s", level);
            return 0;
        }
        const char *q = quantity ? quantity : "bandwidth";
        if (strcmp(q, "bandwidth") && strcmp(q, "latency"))
            return cs_fail(err, "quantity '%s' (valid: bandwidth, latency)", q);
        snprintf(v->xpath, sizeof v->xpath, "%s",
                 !strcmp(q, "bandwidth") ? levels[i].bandwidth : levels[i].latency);
        snprintf(v->name, sizeof v->name, "%s.%s", level, q);
        return 0;
    }
    return cs_fail(err, "unknown level '%s' (valid: node-links, uplinks, backbone, loopback, cores)",
                   level);
}

/* "941.48Mbps" -> 941.48 and "Mbps"; the unit is kept as written. */
static int scale_value(const char *in, double factor, int absolute, double value, char *out,
                       size_t len)
{
    char *unit;
    double x = strtod(in, &unit);
    if (unit == in)
        return -1;
    double y = absolute ? value : x * factor;
    if (absolute && *unit == 0 && (y != floor(y) || y < 1))
        return -1; /* counts (cores) stay positive integers */
    snprintf(out, len, "%.10g%s", y, unit);
    return 0;
}

static void label(const cs_vary *v, int k, char *out, size_t len)
{
    if (v->absolute)
        snprintf(out, len, "%s=%.10g", v->name, v->values[k]);
    else
        snprintf(out, len, "%s=x%.10g", v->name, v->values[k]);
}

/* The attributes v names on the platform document: their count (> 0), or -1 with one line in
 * err (an invalid XPath, one that selects nothing or something else than attributes, or a value
 * of v that an attribute cannot take). *res is freed by the caller. */
static int select_attrs(const cs_vary *v, xmlDoc *doc, const char *platform_path,
                        xmlXPathObject **res, cs_err *err)
{
    cs_xml_quiet(); /* libxml2 would print an invalid expression's error itself */
    xmlResetLastError();
    xmlXPathContext *ctx = xmlXPathNewContext(doc);
    *res = ctx ? xmlXPathEvalExpression((const xmlChar *)v->xpath, ctx) : NULL;
    xmlXPathFreeContext(ctx);
    if (!*res || (*res)->type != XPATH_NODESET) {
        const xmlError *e = xmlGetLastError();
        char why[200] = "";
        if (!*res && e && e->message)
            snprintf(why, sizeof why, ": %.*s", (int)strcspn(e->message, "\n"), e->message);
        return cs_fail(err, "XPath '%s' is not valid%s (it must select attributes, e.g. "
                            "//cluster/@bw)", v->xpath, why);
    }
    int n = (*res)->nodesetval ? (*res)->nodesetval->nodeNr : 0;
    if (n == 0)
        return cs_fail(err, "'%s' selects nothing on platform %s: no parameter to vary",
                       v->xpath, platform_path);
    for (int i = 0; i < n; i++) {
        xmlNode *node = (*res)->nodesetval->nodeTab[i];
        if (node->type != XML_ATTRIBUTE_NODE)
            return cs_fail(err, "XPath '%s' selects <%s>, not an attribute (end it with /@name)",
                           v->xpath, (const char *)node->name);
        xmlChar *old = xmlNodeGetContent(node);
        char val[128];
        int bad = -1;
        for (int k = 0; k < v->nvalues && bad < 0; k++)
            if (scale_value((const char *)old, v->values[k], v->absolute, v->values[k], val,
                            sizeof val))
                bad = k;
        if (bad >= 0)
            cs_fail(err, "platform %s: attribute %s=\"%s\" cannot be set to %s%.10g",
                    platform_path, (const char *)node->name, (const char *)old,
                    v->absolute ? "" : "x", v->values[bad]);
        xmlFree(old);
        if (bad >= 0)
            return -1;
    }
    return n;
}

int cs_vary_check(const cs_vary *v, const char *platform_path, cs_err *err)
{
    xmlDoc *doc = cs_xml_read(platform_path, "platform", 0, err);
    if (!doc)
        return -1;
    xmlXPathObject *res = NULL;
    int n = select_attrs(v, doc, platform_path, &res, err);
    xmlXPathFreeObject(res);
    xmlFreeDoc(doc);
    return n < 0 ? -1 : 0;
}

char *cs_vary_write(const cs_vary *v, int k, const char *platform_path, const char *dir,
                    cs_err *err)
{
    xmlDoc *doc = cs_xml_read(platform_path, "platform", 0, err);
    if (!doc)
        return NULL;
    char *path = NULL;
    xmlXPathObject *res = NULL;
    int n = select_attrs(v, doc, platform_path, &res, err);
    for (int i = 0; i < n; i++) {
        xmlNode *node = res->nodesetval->nodeTab[i];
        xmlChar *old = xmlNodeGetContent(node);
        char val[128];
        scale_value((const char *)old, v->values[k], v->absolute, v->values[k], val, sizeof val);
        xmlFree(old);
        xmlSetProp(node->parent, node->name, (const xmlChar *)val);
    }
    if (n > 0) {
        char note[900];
        snprintf(note, sizeof note, " collsim what-if variant of %s: %s %s %.10g ", platform_path,
                 v->xpath, v->absolute ? "set to" : "multiplied by", v->values[k]);
        xmlAddPrevSibling(xmlDocGetRootElement(doc), xmlNewDocComment(doc, (const xmlChar *)note));
        const char *base = strrchr(platform_path, '/');
        base = base ? base + 1 : platform_path;
        size_t blen = strlen(base);
        if (blen > 4 && !strcmp(base + blen - 4, ".xml"))
            blen -= 4;
        char lab[128];
        label(v, k, lab, sizeof lab);
        size_t len = strlen(dir) + blen + strlen(lab) + 8;
        path = cs_xmalloc(len);
        snprintf(path, len, "%s/%.*s@%s.xml", dir, (int)blen, base, lab);
        if (xmlSaveFormatFile(path, doc, 0) < 0) {
            cs_fail(err, "cannot write %s: %s", path, strerror(errno));
            free(path);
            path = NULL;
        }
    }
    xmlXPathFreeObject(res);
    xmlFreeDoc(doc);
    return path;
}

static char *prop(xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    char *s = v ? cs_xstrdup((const char *)v) : NULL;
    xmlFree(v);
    return s;
}

/* Factors and values are decimals ("0.5 1 2"), so not a cs_numlist. */
static int parse_doubles(const char *text, double **out, int *n)
{
    *out = NULL;
    *n = 0;
    const char *c = text;
    while (*c) {
        while (*c == ' ' || *c == ',' || *c == '\t' || *c == '\n')
            c++;
        if (!*c)
            break;
        char *end;
        double x = strtod(c, &end);
        if (end == c || !(x > 0) || !isfinite(x) || (*end && *end != ' ' && *end != ',' && *end != '\t' && *end != '\n'))
            return -1;
        *out = cs_xrealloc(*out, (size_t)(*n + 1) * sizeof(double));
        (*out)[(*n)++] = x;
        c = end;
    }
    return *n ? 0 : -1;
}

int cs_vary_parse(void *node, const char *path, cs_vary *v, cs_err *err)
{
    xmlNode *n = node;
    long line = (long)xmlGetLineNo(n);
    static const char *const allowed[] = {"level", "quantity", "xpath", "name", "factors", "values", NULL};
    memset(v, 0, sizeof *v);
    v->line = line;
    for (xmlAttr *a = n->properties; a; a = a->next) {
        int ok = 0;
        for (const char *const *k = allowed; *k; k++)
            ok |= !xmlStrcmp(a->name, (const xmlChar *)*k);
        if (!ok)
            return cs_fail(err, "%s:%ld: <vary>: unknown attribute '%s' (valid: level, quantity, "
                                "xpath, name, factors, values)",
                           path, line, (const char *)a->name);
    }
    char *level = prop(n, "level"), *quantity = prop(n, "quantity"), *xpath = prop(n, "xpath"),
         *name = prop(n, "name"), *factors = prop(n, "factors"), *values = prop(n, "values");
    int rc = 0;
    cs_err e;
    if (!!level == !!xpath)
        rc = cs_fail(err, "%s:%ld: <vary> needs exactly one of level=\"...\" (node-links, uplinks, "
                          "backbone, loopback, cores) or xpath=\"...\"",
                     path, line);
    else if (!!factors == !!values)
        rc = cs_fail(err, "%s:%ld: <vary> needs exactly one of factors=\"0.5 1 2\" or values=\"4 8\"",
                     path, line);
    else if (level && cs_vary_level(level, quantity, v, &e))
        rc = cs_fail(err, "%s:%ld: <vary>: %s", path, line, e.msg);
    else if (parse_doubles(factors ? factors : values, &v->values, &v->nvalues))
        rc = cs_fail(err, "%s:%ld: <vary %s=\"%s\">: expected finite positive numbers separated by spaces",
                     path, line, factors ? "factors" : "values", factors ? factors : values);
    if (!rc) {
        v->absolute = values != NULL;
        if (xpath) {
            snprintf(v->xpath, sizeof v->xpath, "%s", xpath);
            snprintf(v->name, sizeof v->name, "%s", name ? name : "param");
        } else if (name) {
            snprintf(v->name, sizeof v->name, "%s", name);
        }
        for (char *c = v->name; *c; c++) /* the name becomes part of a file name */
            if (*c == '/' || *c == ' ' || *c == '@' || *c == ',')
                *c = '_';
    } else {
        free(v->values);
        v->values = NULL;
    }
    free(level);
    free(quantity);
    free(xpath);
    free(name);
    free(factors);
    free(values);
    return rc;
}

void cs_vary_free(cs_vary *v)
{
    free(v->values);
    v->values = NULL;
    v->nvalues = 0;
}
