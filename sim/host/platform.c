#include "platform.h"

#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *cs_platforms_dir(void)
{
    const char *env = getenv("COLLSIM_PLATFORMS_DIR");
    return env && *env ? env : COLLSIM_SOURCE_DIR "/platforms";
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cs_platform_names(char ***names)
{
    DIR *d = opendir(cs_platforms_dir());
    int n = 0, cap = 0;
    *names = NULL;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".xml")) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                *names = cs_xrealloc(*names, (size_t)cap * sizeof(char *));
            }
            (*names)[n] = cs_xstrdup(e->d_name);
            (*names)[n++][len - 4] = 0;
        }
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof(char *), cmp_str);
    return n;
}

void cs_platform_names_free(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int cs_platform_find(const char *name_or_file, char **path_out, cs_err *err)
{
    struct stat st;
    if (strchr(name_or_file, '/') || strstr(name_or_file, ".xml")) {
        if (stat(name_or_file, &st) || !S_ISREG(st.st_mode))
            return cs_fail(err, "platform file '%s' does not exist", name_or_file);
        *path_out = cs_xstrdup(name_or_file);
        return 0;
    }
    size_t len = strlen(cs_platforms_dir()) + strlen(name_or_file) + 6;
    char *path = cs_xmalloc(len);
    snprintf(path, len, "%s/%s.xml", cs_platforms_dir(), name_or_file);
    if (!stat(path, &st) && S_ISREG(st.st_mode)) {
        *path_out = path;
        return 0;
    }
    free(path);
    char **names;
    int n = cs_platform_names(&names);
    char list[1024] = "";
    for (int i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    cs_platform_names_free(names, n);
    return cs_fail(err, "unknown platform '%s' (valid: %s; or a path to a SimGrid XML file)",
                   name_or_file, n ? list : "none found");
}

static void add_node(cs_platform *pf, int *cap, const char *name, int cores)
{
    if (pf->nnodes == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        pf->nodes = cs_xrealloc(pf->nodes, (size_t)*cap * sizeof(cs_node));
    }
    pf->nodes[pf->nnodes].name = cs_xstrdup(name);
    pf->nodes[pf->nnodes++].cores = cores;
    pf->total_cores += cores;
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
static int add_cluster(cs_platform *pf, int *cap, xmlNode *n, cs_err *err)
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
        for (long i = a; i <= b; i++) {
            char name[512];
            snprintf(name, sizeof name, "%s%ld%s", prefix ? (const char *)prefix : "", i,
                     suffix ? (const char *)suffix : "");
            add_node(pf, cap, name, cores);
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

static int walk(cs_platform *pf, int *cap, xmlNode *first, cs_err *err)
{
    for (xmlNode *n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (!xmlStrcmp(n->name, (const xmlChar *)"cluster")) {
            if (add_cluster(pf, cap, n, err))
                return -1;
        } else if (!xmlStrcmp(n->name, (const xmlChar *)"host")) {
            int cores;
            xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
            if (!id)
                return cs_fail(err, "%s:%ld: <host> without an id", pf->path,
                               (long)xmlGetLineNo(n));
            int rc = attr_int(n, "core", 1, pf->path, &cores, err);
            if (!rc)
                add_node(pf, cap, (const char *)id, cores);
            xmlFree(id);
            if (rc)
                return -1;
        } else if (!xmlStrcmp(n->name, (const xmlChar *)"prop") && !pf->description[0]) {
            xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
            if (id && !xmlStrcmp(id, (const xmlChar *)"collsim/description")) {
                xmlChar *v = xmlGetProp(n, (const xmlChar *)"value");
                free(pf->description);
                pf->description = cs_xstrdup(v ? (const char *)v : "");
                xmlFree(v);
            }
            xmlFree(id);
        } else if (n->children && xmlStrcmp(n->name, (const xmlChar *)"config")) {
            if (walk(pf, cap, n->children, err))
                return -1;
        }
    }
    return 0;
}

char *cs_platform_name_of(const char *path)
{
    const char *base = strrchr(path, '/');
    char *name = cs_xstrdup(base ? base + 1 : path);
    size_t len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, ".xml"))
        name[len - 4] = 0;
    return name;
}

int cs_platform_load(const char *path, cs_platform *pf, cs_err *err)
{
    memset(pf, 0, sizeof *pf);
    pf->path = cs_xstrdup(path);
    pf->description = cs_xstrdup("");
    pf->name = cs_platform_name_of(path);

    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        cs_fail(err, "%s:%d: malformed XML: %s", path, e ? e->line : 0,
                e && e->message ? e->message : "cannot parse");
        if (strlen(err->msg) && err->msg[strlen(err->msg) - 1] == '\n')
            err->msg[strlen(err->msg) - 1] = 0;
        cs_platform_free(pf);
        return -1;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    int cap = 0, rc = 0;
    if (!root || xmlStrcmp(root->name, (const xmlChar *)"platform"))
        rc = cs_fail(err, "%s: root element is <%s>, expected a SimGrid <platform>", path,
                     root ? (const char *)root->name : "none");
    else if (walk(pf, &cap, root->children, err))
        rc = -1;
    else if (pf->nnodes == 0)
        rc = cs_fail(err, "%s: the platform defines no host (no <host> nor <cluster>)", path);
    xmlFreeDoc(doc);
    if (rc)
        cs_platform_free(pf);
    return rc;
}

void cs_platform_free(cs_platform *pf)
{
    for (int i = 0; i < pf->nnodes; i++)
        free(pf->nodes[i].name);
    free(pf->nodes);
    free(pf->path);
    free(pf->name);
    free(pf->description);
    memset(pf, 0, sizeof *pf);
}
