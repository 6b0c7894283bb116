#include "scenario.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_case.h"
#include "distributions.h"
#include "expect.h"
#include "platform.h"
#include "smpirun.h"
#include "xml_error.h"
#include "scenario_int.h"

long scn_line_of(xmlNode *n) { return (long)xmlGetLineNo(n); }

/* Every attribute of n must be in `allowed` (NULL-terminated). */
int scn_check_attrs(scn_ctx *c, xmlNode *n, const char *const *allowed)
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
                           scn_line_of(n), (const char *)n->name, (const char *)a->name,
                           list[0] ? list : "none");
        }
    }
    return 0;
}

char *scn_text_of(xmlNode *n)
{
    xmlChar *t = xmlNodeGetContent(n);
    char *s = cs_xstrdup(t ? (const char *)t : "");
    xmlFree(t);
    return s;
}

/* a v-collective: block sizes from <distribution> */

/* The same file under two spellings (name="yahoo", file="../yahoo.xml"). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) || stat(b, &sb))
        return !strcmp(a, b);
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Platform paths in a scenario are relative to the scenario file. */
static int add_platform(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"name", "file", NULL};
    if (scn_check_attrs(c, n, attrs))
        return -1;
    xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
    xmlChar *file = xmlGetProp(n, (const xmlChar *)"file");
    int rc = 0;
    char *path = NULL;
    cs_err e;
    if (!!name == !!file) {
        rc = cs_fail(c->err, "%s:%ld: <platform> needs exactly one of name=\"...\" (e.g. yahoo) "
                             "or file=\"path.xml\"",
                     c->path, scn_line_of(n));
    } else if (name) {
        if (cs_platform_find((const char *)name, &path, &e))
            rc = cs_fail(c->err, "%s:%ld: <platform>: %s", c->path, scn_line_of(n), e.msg);
    } else {
        char full[2048];
        const char *slash = strrchr(c->path, '/');
        if (file[0] == '/' || !slash)
            snprintf(full, sizeof full, "%s", (const char *)file);
        else
            snprintf(full, sizeof full, "%.*s/%s", (int)(slash - c->path), c->path,
                     (const char *)file);
        if (cs_platform_find(full, &path, &e))
            rc = cs_fail(c->err, "%s:%ld: <platform>: %s", c->path, scn_line_of(n), e.msg);
    }
    /* a platform given twice would run every case twice into one directory */
    for (int i = 0; i < s->nplatforms && !rc; i++)
        if (same_file(s->platforms[i], path))
            rc = cs_fail(c->err, "%s:%ld: <platform>: '%s' given twice (first on line %ld)",
                         c->path, scn_line_of(n), (const char *)(name ? name : file),
                         c->pf_lines[i]);
    if (!rc) {
        s->platforms = cs_xrealloc(s->platforms, (size_t)(s->nplatforms + 1) * sizeof(char *));
        c->pf_lines = cs_xrealloc(c->pf_lines, (size_t)(s->nplatforms + 1) * sizeof(long));
        c->pf_lines[s->nplatforms] = scn_line_of(n);
        s->platforms[s->nplatforms++] = path;
        path = NULL;
    }
    free(path);
    xmlFree(name);
    xmlFree(file);
    return rc;
}

static int parse_mappings(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    char *text = scn_text_of(n), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(text, " \t\r\n,", &save); tok && !rc;
         tok = strtok_r(NULL, " \t\r\n,", &save)) {
        cs_mapping m;
        cs_err e;
        if (cs_mapping_parse(tok, &m, &e))
            rc = cs_fail(c->err, "%s:%ld: <mappings>: %s", c->path, scn_line_of(n), e.msg);
        else if (s->nmappings == 2 || (s->nmappings == 1 && s->mappings[0] == m))
            rc = cs_fail(c->err, "%s:%ld: <mappings>: '%s' listed twice", c->path, scn_line_of(n), tok);
        else
            s->mappings[s->nmappings++] = m;
    }
    if (!rc && !s->nmappings)
        rc = cs_fail(c->err, "%s:%ld: <mappings> is empty (valid: sequential, cyclic)", c->path,
                     scn_line_of(n));
    free(text);
    return rc;
}

static int parse_collective(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"name", NULL};
    if (scn_check_attrs(c, n, attrs))
        return -1;
    xmlChar *coll = xmlGetProp(n, (const xmlChar *)"name");
    cs_err e;
    int rc = 0;
    if (!coll)
        rc = cs_fail(c->err, "%s:%ld: <collective> needs name=\"allgather\"", c->path, scn_line_of(n));
    else if (cs_collective_valid((const char *)coll, &e))
        rc = cs_fail(c->err, "%s:%ld: <collective>: %s", c->path, scn_line_of(n), e.msg);
    int found = 0;
    for (xmlNode *k = n->children; k && !rc; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(k->name, (const xmlChar *)"algorithms")) {
            rc = cs_fail(c->err, "%s:%ld: <collective>: unknown element <%s> (valid: <algorithms>)",
                         c->path, scn_line_of(k), (const char *)k->name);
            break;
        }
        found = 1;
        char *text = scn_text_of(k), *save = NULL;
        for (char *tok = strtok_r(text, " \t\r\n,", &save); tok && !rc;
             tok = strtok_r(NULL, " \t\r\n,", &save)) {
            s->algs = cs_xrealloc(s->algs, (size_t)(s->nalgs + 1) * sizeof(cs_alg_sel));
            c->alg_lines = cs_xrealloc(c->alg_lines, (size_t)(s->nalgs + 1) * sizeof(long));
            cs_alg_sel *sel = &s->algs[s->nalgs];
            if (cs_resolve_alg((const char *)coll, tok, sel, &e))
                rc = cs_fail(c->err, "%s:%ld: <algorithms>: %s", c->path, scn_line_of(k), e.msg);
            /* resolved names: ring and allgather/ring are one algorithm */
            for (int i = 0; i < s->nalgs && !rc; i++)
                if (!strcmp(s->algs[i].collective, sel->collective) &&
                    !strcmp(s->algs[i].name, sel->name))
                    rc = cs_fail(c->err, "%s:%ld: <algorithms>: '%s' listed twice (%s '%s', "
                                         "first on line %ld)",
                                 c->path, scn_line_of(k), tok, sel->collective, sel->name,
                                 c->alg_lines[i]);
            if (!rc)
                c->alg_lines[s->nalgs++] = scn_line_of(k);
        }
        free(text);
    }
    if (!rc && !found)
        rc = cs_fail(c->err, "%s:%ld: <collective> lists no <algorithms>", c->path, scn_line_of(n));
    xmlFree(coll);
    return rc;
}

static int parse_list(scn_ctx *c, xmlNode *n, const char *what, int suffix, long min, cs_numlist *out)
{
    char *text = scn_text_of(n);
    cs_err e;
    int rc = 0;
    if (out->n)
        rc = cs_fail(c->err, "%s:%ld: <%s> given twice", c->path, scn_line_of(n), (const char *)n->name);
    else if (cs_numlist_parse(text, what, suffix, min, out, &e))
        rc = cs_fail(c->err, "%s:%ld: <%s>: %s", c->path, scn_line_of(n), (const char *)n->name, e.msg);
    free(text);
    return rc;
}

char *scn_attr_dup(xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    char *s = v ? cs_xstrdup((const char *)v) : NULL;
    xmlFree(v);
    return s;
}

const cs_field cs_scenario_fields[CS_NFIELDS] = {
#define CS_CASE_FIELD(...) CS_FIELD_ENTRY(cs_scenario, __VA_ARGS__)
#include "case_fields.def"
#undef CS_CASE_FIELD
};

/* The element whose attribute sets f ("<buffers dtype>": buffers, and dtype
 * in attr), or NULL: f is swept or read by hand. */
static const char *field_elem(const cs_field *f, char *elem, char *attr, size_t len)
{
    const char *sc = f->scenario, *sp = sc ? strchr(sc, ' ') : NULL;
    if (!sp || sc[0] != '<' || f->kind == CS_FK_SPECIAL)
        return NULL;
    snprintf(elem, len, "%.*s", (int)(sp - sc - 1), sc + 1);
    snprintf(attr, len, "%.*s", (int)strcspn(sp + 1, ">"), sp + 1);
    return elem;
}

/* Reads the attributes of n that are case fields: only the table's ones
 * for this element are allowed, each converted and checked by the table. */
int scn_parse_fields(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    char attrs[CS_NFIELDS][32], elem[32];
    const char *allowed[CS_NFIELDS + 1];
    int na = 0, ids[CS_NFIELDS];
    for (int k = 0; k < CS_NFIELDS; k++)
        if (field_elem(&cs_scenario_fields[k], elem, attrs[na], sizeof elem) &&
            !strcmp(elem, (const char *)n->name)) {
            allowed[na] = attrs[na];
            ids[na++] = k;
        }
    allowed[na] = NULL;
    if (scn_check_attrs(c, n, allowed))
        return -1;
    for (int i = 0; i < na; i++) {
        const cs_field *f = &cs_scenario_fields[ids[i]];
        char *v = scn_attr_dup(n, allowed[i]), what[2400];
        if (!v)
            continue;
        snprintf(what, sizeof what, "%s:%ld: <%s %s=\"%s\">", c->path, scn_line_of(n),
                 (const char *)n->name, allowed[i], v);
        if (cs_field_set(f, s, v, what, c->err)) {
            free(v);
            return -1;
        }
        free(s->text[ids[i]]); /* WORD and TEXT members point to v */
        s->text[ids[i]] = v;
        c->field_lines[ids[i]] = scn_line_of(n);
    }
    return 0;
}

/* Whether some case field is an attribute of element `name`. */
static int has_fields(const char *name)
{
    char elem[32], attr[32];
    for (int k = 0; k < CS_NFIELDS; k++)
        if (field_elem(&cs_scenario_fields[k], elem, attr, sizeof elem) && !strcmp(elem, name))
            return 1;
    return 0;
}

/* <distribution name="window:50" seed="7"/>, once, with a name. */
static int parse_distribution(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    if (s->dist_line)
        return cs_fail(c->err, "%s:%ld: <distribution> given twice (first on line %ld; one per "
                               "scenario)",
                       c->path, scn_line_of(n), s->dist_line);
    if (scn_parse_fields(c, s, n))
        return -1;
    if (!xmlHasProp(n, (const xmlChar *)"name"))
        return cs_fail(c->err, "%s:%ld: <distribution> needs name=\"...\" (valid: " CS_DIST_VALID
                               ")",
                       c->path, scn_line_of(n));
    s->dist_line = scn_line_of(n);
    return 0;
}

/* The valid elements, for messages: those read by hand, then those whose
 * attributes are case fields (case_fields.def). */
static const char *elements(char *out, size_t len)
{
    char elem[32], attr[32], delimited[40];
    snprintf(out, len, "description, platform, mappings, processes, ppn, hosts, region, "
                       "background, collective, sizes, expect, vary, distribution, smpi");
    for (int k = 0; k < CS_NFIELDS; k++) {
        if (!field_elem(&cs_scenario_fields[k], elem, attr, sizeof elem))
            continue;
        snprintf(delimited, sizeof delimited, " %s,", elem);
        char all[1024];
        snprintf(all, sizeof all, " %s,", out);
        if (!strstr(all, delimited))
            snprintf(out + strlen(out), len - strlen(out), ", %s", elem);
    }
    return out;
}

static int parse_element(scn_ctx *c, cs_scenario *s, xmlNode *n, long *region_line)
{
    static const char *const none[] = {NULL};
    const char *name = (const char *)n->name;
    if (!strcmp(name, "description")) {
        free(s->description);
        s->description = scn_text_of(n);
        return scn_check_attrs(c, n, none);
    }
    if (!strcmp(name, "platform"))
        return add_platform(c, s, n);
    if (!strcmp(name, "mappings"))
        return scn_check_attrs(c, n, none) || parse_mappings(c, s, n) ? -1 : 0;
    if (!strcmp(name, "processes") && !(c->nps_line = scn_line_of(n)))
        return -1;
    if (!strcmp(name, "processes"))
        return scn_parse_fields(c, s, n) || parse_list(c, n, "process counts", 0, 1, &s->nps) ? -1 : 0;
    if (!strcmp(name, "ppn"))
        return scn_check_attrs(c, n, none) || parse_list(c, n, "ranks-per-node list", 0, 1, &s->ppns)
                   ? -1
                   : 0;
    if (!strcmp(name, "region"))
        return scn_check_attrs(c, n, none) || scn_parse_regions(c, s, n, region_line) ? -1 : 0;
    if (!strcmp(name, "background"))
        return scn_check_attrs(c, n, none) || scn_parse_backgrounds(c, s, n) ? -1 : 0;
    if (!strcmp(name, "hosts"))
        return scn_check_attrs(c, n, none) || scn_parse_hosts(c, s, n) ? -1 : 0;
    if (!strcmp(name, "models"))
        return scn_check_attrs(c, n, none) || scn_parse_models(c, s, n) ? -1 : 0;
    if (!strcmp(name, "collective"))
        return parse_collective(c, s, n);
    if (!strcmp(name, "sizes")) {
        if (scn_parse_fields(c, s, n) || parse_list(c, n, "size list", 1, 0, &s->sizes))
            return -1;
        cs_numlist_sort(&s->sizes); /* the order a case runs them in (numlist.h) */
        return 0;
    }
    if (!strcmp(name, "expect"))
        return scn_parse_expect(c, s, n);
    if (!strcmp(name, "distribution"))
        return parse_distribution(c, s, n);
    if (!strcmp(name, "smpi"))
        return scn_parse_smpi(c, s, n);
    if (!strcmp(name, "vary")) {
        if (s->has_vary)
            return cs_fail(c->err, "%s:%ld: <vary> given twice (one parameter per scenario)",
                           c->path, scn_line_of(n));
        s->has_vary = !cs_vary_parse(n, c->path, &s->vary, c->err);
        return s->has_vary ? 0 : -1;
    }
    if (!strcmp(name, "groups"))
        return scn_parse_groups(c, s, n);
    if (has_fields(name)) /* <iterations>, <buffers>, <timeout>, ... */
        return scn_parse_fields(c, s, n);
    char valid[1024];
    return cs_fail(c->err, "%s:%ld: unknown element <%s> in <scenario> (valid: %s)", c->path,
                   scn_line_of(n), name, elements(valid, sizeof valid));
}

int scn_same_text(const char *a, const char *b) { return !strcmp(a ? a : "", b ? b : ""); }

/* An attribute given for collectives the scenario has none of (<reduction op> without a
 * reduction, <root rank="0"> without a rooted collective) would change nothing: an error
 * naming its line, as for any element that cannot apply. */
static int scn_check_field_scopes(const scn_ctx *c, const cs_scenario *s)
{
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &cs_scenario_fields[k];
        if (!c->field_lines[k])
            continue;
        int used = 0;
        for (int i = 0; i < s->nalgs && !used; i++)
            used = cs_field_in_scope(f, s->algs[i].collective);
        char elem[32], attr[32], which[256];
        if (!used && field_elem(f, elem, attr, sizeof elem))
            return cs_fail(c->err, "%s:%ld: <%s %s> is for %s, and the scenario has none of "
                                   "them: remove it or add such a collective",
                           c->path, c->field_lines[k], elem, attr,
                           cs_field_scope_collectives(f, which, sizeof which));
    }
    return 0;
}

int cs_scenario_load(const char *path, cs_scenario *s, cs_err *err)
{
    memset(s, 0, sizeof *s);
    s->path = cs_xstrdup(path);
    s->description = cs_xstrdup("");
    cs_fields_defaults(cs_scenario_fields, s);
    scn_ctx c = {path, err, NULL, NULL, 0, {0}};
    xmlDoc *doc = cs_xml_read(path, "scenario", 0, err);
    int rc = 0;
    if (!doc) {
        cs_scenario_free(s);
        return -1;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    static const char *const root_attrs[] = {"name", NULL};
    if (!root || xmlStrcmp(root->name, (const xmlChar *)"scenario")) {
        rc = cs_fail(err, "%s:%ld: root element is <%s>, expected <scenario>", path,
                     root ? scn_line_of(root) : 0L, root ? (const char *)root->name : "none");
    } else if (!(rc = scn_check_attrs(&c, root, root_attrs))) {
        xmlChar *name = xmlGetProp(root, (const xmlChar *)"name");
        /* the name goes into file names and one-line records */
        for (const xmlChar *q = name; q && *q && !rc; q++)
            if (*q < 0x20 || *q == '/')
                rc = cs_fail(err, "%s:%ld: <scenario name=\"...\">: a name has no line break, "
                                  "control character or '/' (it names the results directory)",
                             path, scn_line_of(root));
        if (!rc && name && (!name[0] || !strcmp((const char *)name, ".") ||
                            !strcmp((const char *)name, "..")))
            rc = cs_fail(err, "%s:%ld: <scenario name=\"%s\">: the name names the results "
                              "directory (results/NAME): give a word such as \"quickstart\", or "
                              "leave name out to use the file's name",
                         path, scn_line_of(root), (const char *)name);
        if (rc) {
            /* refused above */
        } else if (name) {
            s->name = cs_xstrdup((const char *)name);
        } else { /* the file name without .xml */
            const char *base = strrchr(path, '/');
            s->name = cs_xstrdup(base ? base + 1 : path);
            char *dot = strstr(s->name, ".xml");
            if (dot)
                *dot = 0;
        }
        xmlFree(name);
        long region_line = 0;
        for (xmlNode *n = root->children; n && !rc; n = n->next)
            if (n->type == XML_ELEMENT_NODE)
                rc = parse_element(&c, s, n, &region_line);
        const char *missing = !s->nplatforms ? "<platform name=\"...\"/>"
                              : !s->nmappings ? "<mappings>sequential cyclic</mappings>"
                              : !s->nps.n     ? "<processes>...</processes>"
                              : !s->nalgs     ? "<collective name=\"allgather\"><algorithms>...</algorithms></collective>"
                              : !s->sizes.n   ? "<sizes>...</sizes>"
                                              : NULL;
        if (!rc && missing)
            rc = cs_fail(err, "%s: the scenario needs %s", path, missing);
        if (!rc)
            s->pfs = cs_xmalloc((size_t)s->nplatforms * sizeof *s->pfs);
        for (int i = 0; i < s->nplatforms && !rc; i++) {
            cs_err e;
            if (cs_platform_load(s->platforms[i], &s->pfs[i], &e))
                rc = cs_fail(err, "%s:%ld: <platform>: %s", path, c.pf_lines[i], e.msg);
            else
                s->npfs++;
        }
        for (int i = 0; i < s->npfs && !rc && s->has_vary; i++) {
            cs_err e;
            if (cs_vary_check(&s->vary, s->platforms[i], &e))
                rc = cs_fail(err, "%s:%ld: <vary>: %s", path, s->vary.line, e.msg);
        }
        if (!rc && region_line)
            rc = scn_check_regions(&c, s, region_line);
        if (!rc && (s->nbackgrounds || s->nhost_specs))
            rc = scn_check_placements(&c, s);
        if (!rc)
            rc = scn_check_fits(&c, s);
        /* sizes against the datatype and an MPI count, before any case runs */
        cs_err se;
        if (!rc && cs_fields_check_sizes(s->dtype, s->sizes.v, s->sizes.n, &se))
            rc = cs_fail(err, "%s: <sizes>: %s", path, se.msg);
        /* ... and every algorithm, np and size against its largest MPI count;
         * an intergroup collective against its <groups> */
        int has_groups = 0;
        /* <sizes unit="node">: the sizes per process at each <ppn> */
        size_t nppn = s->ppns.n ? s->ppns.n : 1;
        cs_numlist *sizes = cs_xmalloc(nppn * sizeof *sizes);
        for (size_t q = 0; q < nppn; q++) {
            sizes[q] = s->sizes;
            if (!rc && cs_size_unit_node(s->size_unit) &&
                cs_sizes_per_process(&s->sizes, s->ppns.n ? (int)s->ppns.v[q] : 0, &sizes[q], &se))
                rc = cs_fail(err, "%s: <sizes unit=\"node\">: %s", path, se.msg);
        }
        for (int i = 0; i < s->nalgs && !rc; i++) {
            const cs_coll_props *cp = cs_coll_find(s->algs[i].collective);
            has_groups |= cp && cp->groups;
            for (size_t j = 0; j < s->nps.n && !rc; j++)
                if (s->nps.v[j] < cs_coll_min_np(s->algs[i].collective))
                    rc = cs_fail(err, "%s:%ld: <processes> %ld: %s", path, c.nps_line,
                                 s->nps.v[j], cs_coll_min_np_why(s->algs[i].collective));
            for (size_t j = 0; j < s->nps.n && !rc && cp && cp->rooted; j++)
                if (s->root >= s->nps.v[j])
                    rc = cs_fail(err, "%s: <root rank=\"%d\"> at <processes> %ld: the root must "
                                      "be a rank, 0..%ld", path, s->root, s->nps.v[j],
                                 s->nps.v[j] - 1);
            if (!rc && cp && cp->op &&
                cs_alg_op_check(s->algs[i].collective, s->algs[i].name, s->op, &se))
                rc = cs_fail(err, "%s:%ld: <algorithms>: %s", path, c.alg_lines[i], se.msg);
            for (size_t j = 0; j < s->nps.n && !rc && !(cp && cp->groups); j++)
                for (size_t k = 0; k < s->sizes.n && !rc; k++)
                    if (cs_alg_count_check(s->algs[i].collective, s->algs[i].name,
                                           (int)s->nps.v[j], s->sizes.v[k], s->dtype, &se))
                        rc = cs_fail(err, "%s:%ld: <algorithms>: %s", path, c.alg_lines[i],
                                     se.msg);
            /* an intergroup collective against each <groups> that applies
             * (none: the case check says what is missing) */
            int applied = 0;
            for (int t = 0; t <= s->ngsets && !rc && cp && cp->groups; t++) {
                if (t == s->ngsets ? applied
                                   : !cs_groupset_applies(&s->gsets[t], s->algs[i].collective))
                    continue;
                applied++;
                cs_scenario v = *s;
                long line = c.alg_lines[i];
                if (t < s->ngsets) {
                    cs_scenario_groups(s, t, &v);
                    line = s->gsets[t].line;
                }
                if (v.groups && v.groups[0] && v.group_ratio && v.group_ratio[0])
                    rc = cs_fail(err, "%s:%ld: <groups> has sizes=\"%s\" and ratio=\"%s\": give "
                                      "one (sizes: P:Q at the one process count; ratio: scaled to "
                                      "each)", path, line, v.groups, v.group_ratio);
                for (size_t j = 0; j < s->nps.n && !rc; j++) {
                    const char *groups = v.groups;
                    if (v.group_ratio && v.group_ratio[0] &&
                        cs_groups_scale(v.group_ratio, (int)s->nps.v[j], &groups, &se))
                        rc = cs_fail(err, "%s: <groups ratio=\"%s\">: %s", path, v.group_ratio,
                                     se.msg);
                    cs_scenario at = v; /* the groups at this process count, parsed */
                    cs_case_parts parts;
                    at.groups = groups;
                    if (!rc && cs_fields_resolve(cs_scenario_fields, &at, s->algs[i].collective,
                                                 &parts, &se))
                        rc = cs_fail(err, "%s:%ld: <groups> at <processes> %ld: %s", path, line,
                                     s->nps.v[j], se.msg);
                    for (size_t q = 0; q < nppn && !rc; q++)
                        if (cs_groups_case_check(s->algs[i].collective, s->algs[i].name,
                                                 &parts.groups, v.counts, s->dtype,
                                                 (int)s->nps.v[j], sizes[q].v, sizes[q].n, &se))
                            rc = cs_fail(err, "%s:%ld: <groups> at <processes> %ld: %s", path,
                                         line, s->nps.v[j], se.msg);
                }
            }
        }
        for (size_t q = 0; q < nppn; q++)
            if (sizes[q].v != s->sizes.v)
                cs_numlist_free(&sizes[q]);
        free(sizes);
        char which[256];
        if (!rc && !has_groups && s->ngsets)
            rc = cs_fail(err, "%s:%ld: <groups> is for the intergroup collectives (%s), and the "
                              "scenario has none: remove it or add such a collective", path,
                         s->gsets[0].line, cs_coll_join(", ", which, sizeof which,
                                                        cs_coll_is_intergroup));
        if (!rc)
            rc = scn_check_groupsets(&c, s);
        if (!rc)
            rc = scn_check_field_scopes(&c, s);
        /* an <smpi option="smpi/COLL"> with a native: algorithm of COLL */
        for (int k = 0; k < s->nsmpi && !rc; k++)
            for (int i = 0; i < s->nalgs && !rc; i++)
                if (cs_smpi_option_conflicts(s->smpi[k], s->algs[i].collective, s->algs[i].name,
                                             &se))
                    rc = cs_fail(err, "%s:%ld: <smpi>: %s", path, s->smpi_lines[k], se.msg);
        for (int i = 0; i < s->nexpects && !rc; i++)
            rc = scn_check_expect(&c, s, &s->expects[i]);
    }
    xmlFreeDoc(doc);
    free(c.pf_lines);
    free(c.alg_lines);
    if (rc)
        cs_scenario_free(s);
    return rc;
}

void cs_scenario_free(cs_scenario *s)
{
    for (int i = 0; i < s->nplatforms; i++)
        free(s->platforms[i]);
    free(s->platforms);
    for (int i = 0; i < s->npfs; i++)
        cs_platform_free(&s->pfs[i]);
    free(s->pfs);
    free(s->algs);
    free(s->path);
    free(s->name);
    free(s->description);
    cs_numlist_free(&s->nps);
    cs_numlist_free(&s->ppns);
    cs_numlist_free(&s->sizes);
    if (s->has_vary)
        cs_vary_free(&s->vary);
    for (int i = 0; i < s->nexpects; i++) {
        cs_numlist_free(&s->expects[i].nps);
        cs_numlist_free(&s->expects[i].bytes);
        free(s->expects[i].scope);
        free(s->expects[i].groups);
        free(s->expects[i].block_ratio);
        free(s->expects[i].counts);
        free(s->expects[i].hosts);
        free(s->expects[i].model);
        free(s->expects[i].background);
    }
    free(s->expects);
    for (int i = 0; i < s->ngsets; i++) {
        cs_groupset *g = &s->gsets[i];
        free(g->groups);
        free(g->group_ratio);
        free(g->layout);
        free(g->block_ratio);
        free(g->counts);
    }
    free(s->gsets);
    for (int k = 0; k < CS_NFIELDS; k++)
        free(s->text[k]);
    for (int k = 0; k < s->nsmpi; k++)
        free(s->smpi[k]);
    memset(s, 0, sizeof *s);
}
