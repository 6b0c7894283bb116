#include "scenario.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

typedef struct {
    const char *path;
    cs_err *err;
} ctx;

static long line_of(xmlNode *n) { return (long)xmlGetLineNo(n); }

/* Every attribute of n must be in `allowed` (NULL-terminated). */
static int check_attrs(ctx *c, xmlNode *n, const char *const *allowed)
{
    for (xmlAttr *a = n->properties; a; a = a->next) {
        int ok = 0;
        for (const char *const *k = allowed; *k; k++)
            ok |= !xmlStrcmp(a->name, (const xmlChar *)*k);
        if (!ok) {
            char list[256] = "";
            for (const char *const *k = allowed; *k; k++) {
                size_t u = strlen(list);
                snprintf(list + u, sizeof list - u, "%s%s", u ? ", " : "", *k);
            }
            return cs_fail(c->err, "%s:%ld: <%s>: unknown attribute '%s' (valid: %s)", c->path,
                           line_of(n), (const char *)n->name, (const char *)a->name,
                           list[0] ? list : "none");
        }
    }
    return 0;
}

static char *text_of(xmlNode *n)
{
    xmlChar *t = xmlNodeGetContent(n);
    char *s = cs_xstrdup(t ? (const char *)t : "");
    xmlFree(t);
    return s;
}

static int int_attr(ctx *c, xmlNode *n, const char *name, int min, int dflt, int *out)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    *out = dflt;
    if (!v)
        return 0;
    char *end;
    long x = strtol((const char *)v, &end, 10);
    int bad = end == (char *)v || *end || x < min || x > 1000000000;
    if (bad)
        cs_fail(c->err, "%s:%ld: <%s %s=\"%s\">: expected an integer >= %d", c->path, line_of(n),
                (const char *)n->name, name, (const char *)v, min);
    xmlFree(v);
    *out = (int)x;
    return bad ? -1 : 0;
}

static int yesno_attr(ctx *c, xmlNode *n, const char *name, int *out)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    int rc = 0;
    if (v) {
        if (!xmlStrcmp(v, (const xmlChar *)"yes"))
            *out = 1;
        else if (!xmlStrcmp(v, (const xmlChar *)"no"))
            *out = 0;
        else
            rc = cs_fail(c->err, "%s:%ld: <%s %s=\"%s\">: expected yes or no", c->path,
                         line_of(n), (const char *)n->name, name, (const char *)v);
        xmlFree(v);
    }
    return rc;
}

/* Platform paths in a scenario are relative to the scenario file. */
static int add_platform(ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"name", "file", NULL};
    if (check_attrs(c, n, attrs))
        return -1;
    xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
    xmlChar *file = xmlGetProp(n, (const xmlChar *)"file");
    int rc = 0;
    char *path = NULL;
    cs_err e;
    if (!!name == !!file) {
        rc = cs_fail(c->err, "%s:%ld: <platform> needs exactly one of name=\"...\" (e.g. yahoo) "
                             "or file=\"path.xml\"",
                     c->path, line_of(n));
    } else if (name) {
        if (cs_platform_find((const char *)name, &path, &e))
            rc = cs_fail(c->err, "%s:%ld: <platform>: %s", c->path, line_of(n), e.msg);
    } else {
        char full[2048];
        const char *slash = strrchr(c->path, '/');
        if (file[0] == '/' || !slash)
            snprintf(full, sizeof full, "%s", (const char *)file);
        else
            snprintf(full, sizeof full, "%.*s/%s", (int)(slash - c->path), c->path,
                     (const char *)file);
        if (cs_platform_find(full, &path, &e))
            rc = cs_fail(c->err, "%s:%ld: <platform>: %s", c->path, line_of(n), e.msg);
    }
    if (!rc) {
        s->platforms = cs_xrealloc(s->platforms, (size_t)(s->nplatforms + 1) * sizeof(char *));
        s->platforms[s->nplatforms++] = path;
    }
    xmlFree(name);
    xmlFree(file);
    return rc;
}

static int parse_mappings(ctx *c, cs_scenario *s, xmlNode *n)
{
    char *text = text_of(n), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(text, " \t\r\n,", &save); tok && !rc;
         tok = strtok_r(NULL, " \t\r\n,", &save)) {
        cs_mapping m;
        cs_err e;
        if (cs_mapping_parse(tok, &m, &e))
            rc = cs_fail(c->err, "%s:%ld: <mappings>: %s", c->path, line_of(n), e.msg);
        else if (s->nmappings == 2 || (s->nmappings == 1 && s->mappings[0] == m))
            rc = cs_fail(c->err, "%s:%ld: <mappings>: '%s' listed twice", c->path, line_of(n), tok);
        else
            s->mappings[s->nmappings++] = m;
    }
    if (!rc && !s->nmappings)
        rc = cs_fail(c->err, "%s:%ld: <mappings> is empty (valid: sequential, cyclic)", c->path,
                     line_of(n));
    free(text);
    return rc;
}

static int parse_collective(ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"name", NULL};
    if (check_attrs(c, n, attrs))
        return -1;
    xmlChar *coll = xmlGetProp(n, (const xmlChar *)"name");
    cs_err e;
    int rc = 0;
    if (!coll)
        rc = cs_fail(c->err, "%s:%ld: <collective> needs name=\"allgather\"", c->path, line_of(n));
    else if (cs_collective_valid((const char *)coll, &e))
        rc = cs_fail(c->err, "%s:%ld: <collective>: %s", c->path, line_of(n), e.msg);
    int found = 0;
    for (xmlNode *k = n->children; k && !rc; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(k->name, (const xmlChar *)"algorithms")) {
            rc = cs_fail(c->err, "%s:%ld: <collective>: unknown element <%s> (valid: <algorithms>)",
                         c->path, line_of(k), (const char *)k->name);
            break;
        }
        found = 1;
        char *text = text_of(k), *save = NULL;
        for (char *tok = strtok_r(text, " \t\r\n,", &save); tok && !rc;
             tok = strtok_r(NULL, " \t\r\n,", &save)) {
            s->algs = cs_xrealloc(s->algs, (size_t)(s->nalgs + 1) * sizeof(cs_alg_sel));
            if (cs_resolve_alg((const char *)coll, tok, &s->algs[s->nalgs], &e))
                rc = cs_fail(c->err, "%s:%ld: <algorithms>: %s", c->path, line_of(k), e.msg);
            else
                s->nalgs++;
        }
        free(text);
    }
    if (!rc && !found)
        rc = cs_fail(c->err, "%s:%ld: <collective> lists no <algorithms>", c->path, line_of(n));
    xmlFree(coll);
    return rc;
}

static int parse_buffers(ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"mode", "dtype", NULL};
    if (check_attrs(c, n, attrs))
        return -1;
    xmlChar *mode = xmlGetProp(n, (const xmlChar *)"mode");
    xmlChar *dtype = xmlGetProp(n, (const xmlChar *)"dtype");
    int rc = 0;
    if (mode && !xmlStrcmp(mode, (const xmlChar *)"fold"))
        s->fold = 1;
    else if (mode && xmlStrcmp(mode, (const xmlChar *)"check"))
        rc = cs_fail(c->err, "%s:%ld: <buffers mode=\"%s\">: valid modes are check and fold",
                     c->path, line_of(n), (const char *)mode);
    if (!rc && dtype) {
        if (xmlStrcmp(dtype, (const xmlChar *)"byte") && xmlStrcmp(dtype, (const xmlChar *)"int") &&
            xmlStrcmp(dtype, (const xmlChar *)"double"))
            rc = cs_fail(c->err, "%s:%ld: <buffers dtype=\"%s\">: valid types are byte, int, double",
                         c->path, line_of(n), (const char *)dtype);
        else
            snprintf(s->dtype, sizeof s->dtype, "%s", (const char *)dtype);
    }
    xmlFree(mode);
    xmlFree(dtype);
    return rc;
}

static int parse_list(ctx *c, xmlNode *n, const char *what, int suffix, long min, cs_numlist *out)
{
    char *text = text_of(n);
    cs_err e;
    int rc = 0;
    if (out->n)
        rc = cs_fail(c->err, "%s:%ld: <%s> given twice", c->path, line_of(n), (const char *)n->name);
    else if (cs_numlist_parse(text, what, suffix, min, out, &e))
        rc = cs_fail(c->err, "%s:%ld: <%s>: %s", c->path, line_of(n), (const char *)n->name, e.msg);
    free(text);
    return rc;
}

static const char *const elements =
    "description, platform, mappings, processes, collective, sizes, iterations, buffers, timeout";

static int parse_element(ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const none[] = {NULL};
    const char *name = (const char *)n->name;
    if (!strcmp(name, "description")) {
        free(s->description);
        s->description = text_of(n);
        return check_attrs(c, n, none);
    }
    if (!strcmp(name, "platform"))
        return add_platform(c, s, n);
    if (!strcmp(name, "mappings"))
        return check_attrs(c, n, none) || parse_mappings(c, s, n) ? -1 : 0;
    if (!strcmp(name, "processes")) {
        static const char *const attrs[] = {"oversubscribe", NULL};
        if (check_attrs(c, n, attrs) || yesno_attr(c, n, "oversubscribe", &s->oversubscribe))
            return -1;
        return parse_list(c, n, "process counts", 0, 1, &s->nps);
    }
    if (!strcmp(name, "collective"))
        return parse_collective(c, s, n);
    if (!strcmp(name, "sizes"))
        return check_attrs(c, n, none) || parse_list(c, n, "size list", 1, 0, &s->sizes) ? -1 : 0;
    if (!strcmp(name, "iterations")) {
        static const char *const attrs[] = {"warmup", "timed", NULL};
        return check_attrs(c, n, attrs) || int_attr(c, n, "warmup", 0, 1, &s->warmup) ||
                       int_attr(c, n, "timed", 1, 3, &s->iters)
                   ? -1
                   : 0;
    }
    if (!strcmp(name, "buffers"))
        return parse_buffers(c, s, n);
    if (!strcmp(name, "timeout")) {
        static const char *const attrs[] = {"seconds", NULL};
        return check_attrs(c, n, attrs) || int_attr(c, n, "seconds", 1, 0, &s->timeout_s) ? -1 : 0;
    }
    return cs_fail(c->err, "%s:%ld: unknown element <%s> in <scenario> (valid: %s)", c->path,
                   line_of(n), name, elements);
}

int cs_scenario_load(const char *path, cs_scenario *s, cs_err *err)
{
    memset(s, 0, sizeof *s);
    s->path = cs_xstrdup(path);
    s->description = cs_xstrdup("");
    s->iters = 3;
    s->warmup = 1;
    snprintf(s->dtype, sizeof s->dtype, "byte");
    ctx c = {path, err};
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    int rc = 0;
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        FILE *f = fopen(path, "r");
        if (!f)
            rc = cs_fail(err, "scenario file '%s' cannot be read", path);
        else
            rc = cs_fail(err, "%s:%d: malformed XML: %s", path, e ? e->line : 0,
                         e && e->message ? e->message : "cannot parse");
        if (f)
            fclose(f);
        size_t len = strlen(err->msg);
        if (len && err->msg[len - 1] == '\n')
            err->msg[len - 1] = 0;
        cs_scenario_free(s);
        return rc;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    static const char *const root_attrs[] = {"name", NULL};
    if (!root || xmlStrcmp(root->name, (const xmlChar *)"scenario")) {
        rc = cs_fail(err, "%s:%ld: root element is <%s>, expected <scenario>", path,
                     root ? line_of(root) : 0L, root ? (const char *)root->name : "none");
    } else if (!(rc = check_attrs(&c, root, root_attrs))) {
        xmlChar *name = xmlGetProp(root, (const xmlChar *)"name");
        if (name) {
            s->name = cs_xstrdup((const char *)name);
        } else { /* the file name without .xml */
            const char *base = strrchr(path, '/');
            s->name = cs_xstrdup(base ? base + 1 : path);
            char *dot = strstr(s->name, ".xml");
            if (dot)
                *dot = 0;
        }
        xmlFree(name);
        for (xmlNode *n = root->children; n && !rc; n = n->next)
            if (n->type == XML_ELEMENT_NODE)
                rc = parse_element(&c, s, n);
        const char *missing = !s->nplatforms ? "<platform name=\"...\"/>"
                              : !s->nmappings ? "<mappings>sequential cyclic</mappings>"
                              : !s->nps.n     ? "<processes>...</processes>"
                              : !s->nalgs     ? "<collective name=\"allgather\"><algorithms>...</algorithms></collective>"
                              : !s->sizes.n   ? "<sizes>...</sizes>"
                                              : NULL;
        if (!rc && missing)
            rc = cs_fail(err, "%s: the scenario needs %s", path, missing);
    }
    xmlFreeDoc(doc);
    if (rc)
        cs_scenario_free(s);
    return rc;
}

void cs_scenario_free(cs_scenario *s)
{
    for (int i = 0; i < s->nplatforms; i++)
        free(s->platforms[i]);
    free(s->platforms);
    free(s->algs);
    free(s->path);
    free(s->name);
    free(s->description);
    cs_numlist_free(&s->nps);
    cs_numlist_free(&s->sizes);
    memset(s, 0, sizeof *s);
}
