/* The <expect> elements of a scenario (scenario.h): read, then checked against
 * the rest of the file once all of it is read (elements come in any order). */
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "numlist.h"
#include "scenario_int.h"

/* Reads an <expect>; names are checked against the rest of the scenario by
 * scn_check_expect once the whole file is read (elements come in any order). */
int scn_parse_expect(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"faster", "than",   "by",          "collective", "platform",
                                        "mapping", "np",    "bytes",       "metric",     "groups",
                                        "block-ratio", "counts", NULL};
    if (scn_check_attrs(c, n, attrs))
        return -1;
    s->expects = cs_xrealloc(s->expects, (size_t)(s->nexpects + 1) * sizeof *s->expects);
    cs_expect *x = &s->expects[s->nexpects++];
    memset(x, 0, sizeof *x);
    x->line = scn_line_of(n);
    x->mapping = -1;
    const char *names[] = {"faster", "than",  "by",     "collective", "platform",   "mapping",
                           "np",     "bytes", "metric", "groups",     "block-ratio", "counts"};
    enum { NV = sizeof names / sizeof names[0] };
    char *v[NV];
    char scope[512] = "";
    for (int i = 0; i < NV; i++) {
        v[i] = scn_attr_dup(n, names[i]);
        size_t u = strlen(scope);
        if (v[i] && i >= 4 && i != 8)
            snprintf(scope + u, sizeof scope - u, "%s%s=%s", u ? " " : "", names[i], v[i]);
    }
    x->scope = cs_xstrdup(scope[0] ? scope : "every point");
    cs_err e;
    cs_mapping m;
    int rc = 0;
    char *end = NULL;
    if (v[2])
        x->by_pct = strtod(v[2], &end);
    /* by="5x": a factor, the same test as by = 100 (1 - 1/5) = 80% */
    int factor = v[2] && end != v[2] && !strcmp(end, "x") && x->by_pct >= 1;
    if (factor) {
        x->by_factor = x->by_pct;
        x->by_pct = 100 * (1 - 1 / x->by_factor);
        static char pct[] = "%";
        end = pct;
    }
    for (int k = 0; v[8] && k < 3; k++)
        if (!strcmp(v[8], cs_metric_names[k]))
            x->metric = k + 1; /* + 1: found; set back below */
    if (v[8] && !x->metric)
        rc = cs_fail(c->err, "%s:%ld: <expect metric=\"%s\">: expected avg, max or min (the "
                             "average, maximum or minimum over processes)",
                     c->path, x->line, v[8]);
    else if (v[8])
        x->metric--;
    if (!v[0] || !v[1])
        rc = cs_fail(c->err, "%s:%ld: <expect> needs faster=\"ALG\" and than=\"ALG\" (two of the "
                             "scenario's algorithms)",
                     c->path, x->line);
    else if (!rc && v[2] && (end == v[2] || strcmp(end, "%") || !(x->by_pct >= 0 && x->by_pct < 100)))
        rc = cs_fail(c->err, "%s:%ld: <expect by=\"%s\">: expected a percentage from 0 to 100, "
                             "such as by=\"10%%\", or a factor of at least 1, such as by=\"5x\"",
                     c->path, x->line, v[2]);
    else if (v[5] && cs_mapping_parse(v[5], &m, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect mapping=\"%s\">: %s", c->path, x->line, v[5], e.msg);
    else if (v[6] && cs_numlist_parse(v[6], "np", 0, 1, &x->nps, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect np=\"%s\">: %s", c->path, x->line, v[6], e.msg);
    else if (v[7] && cs_numlist_parse(v[7], "bytes", 1, 0, &x->bytes, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect bytes=\"%s\">: %s", c->path, x->line, v[7], e.msg);
    if (!rc) {
        if (v[5])
            x->mapping = (int)m;
        snprintf(x->faster, sizeof x->faster, "%s", v[0]);
        snprintf(x->than, sizeof x->than, "%s", v[1]);
        snprintf(x->collective, sizeof x->collective, "%s", v[3] ? v[3] : "");
        snprintf(x->platform, sizeof x->platform, "%s", v[4] ? v[4] : "");
        x->groups = v[9], x->block_ratio = v[10], x->counts = v[11];
        v[9] = v[10] = v[11] = NULL;
    }
    for (int i = 0; i < NV; i++)
        free(v[i]);
    return rc;
}

/* "a, b, c" of the scenario's algorithms for one collective (or of its
 * collectives when coll is NULL), for error messages. */
static void alg_names(const cs_scenario *s, const char *coll, char *out, size_t len)
{
    out[0] = 0;
    for (int i = 0; i < s->nalgs; i++) {
        const char *name = coll ? s->algs[i].name : s->algs[i].collective;
        if (coll && strcmp(s->algs[i].collective, coll))
            continue;
        int seen = 0; /* each collective once */
        for (int k = 0; !coll && k < i && !seen; k++)
            seen = !strcmp(s->algs[k].collective, name);
        if (seen)
            continue;
        size_t u = strlen(out);
        snprintf(out + u, len - u, "%s%s", u ? ", " : "", name);
    }
}

static int check_expect_alg(scn_ctx *c, const cs_scenario *s, const cs_expect *x, const char *attr,
                            char *name, size_t len)
{
    cs_alg_sel sel;
    cs_err e;
    char valid[1024];
    alg_names(s, x->collective, valid, sizeof valid);
    /* resolving accepts the spellings <algorithms> accepts (allgather/bruck) */
    int known = !cs_resolve_alg(x->collective, name, &sel, &e);
    for (int i = 0; i < s->nalgs && known; i++)
        if (!strcmp(s->algs[i].collective, x->collective) && !strcmp(s->algs[i].name, sel.name)) {
            snprintf(name, len, "%s", sel.name);
            return 0;
        }
    return cs_fail(c->err, "%s:%ld: <expect %s=\"%s\">: not among the scenario's %s algorithms "
                           "(valid: %s)",
                   c->path, x->line, attr, name, x->collective, valid);
}

static int check_values(scn_ctx *c, const cs_expect *x, const char *attr, const cs_numlist *want,
                        const cs_numlist *have, const char *what)
{
    for (size_t i = 0; i < want->n; i++) {
        int found = 0;
        for (size_t k = 0; k < have->n && !found; k++)
            found = have->v[k] == want->v[i];
        if (!found) {
            char *valid = cs_numlist_join(have);
            cs_fail(c->err, "%s:%ld: <expect %s=...>: %ld is not among the scenario's %s (valid: %s)",
                    c->path, x->line, attr, want->v[i], what, valid);
            free(valid);
            return -1;
        }
    }
    return 0;
}

/* Every name and value of an <expect> must be part of the scenario, so that
 * a typo cannot leave an expectation with nothing to check. */

int cs_expect_covers(const cs_expect *x, const cs_groupset *g)
{
    const char *ratio = g->block_ratio ? g->block_ratio : "1:1";
    const char *counts = g->counts ? g->counts : "equal";
    return cs_groupset_applies(g, x->collective) &&
           (!x->groups || scn_same_text(x->groups, g->groups) || scn_same_text(x->groups, g->group_ratio)) &&
           (!x->block_ratio || !strcmp(x->block_ratio, ratio)) &&
           (!x->counts || !strcmp(x->counts, counts));
}

int scn_check_expect(scn_ctx *c, const cs_scenario *s, cs_expect *x)
{
    char valid[1024];
    if (!x->collective[0]) {
        alg_names(s, NULL, valid, sizeof valid);
        if (strchr(valid, ','))
            return cs_fail(c->err, "%s:%ld: <expect> needs collective=\"...\" in a scenario of "
                                   "several collectives (valid: %s)",
                           c->path, x->line, valid);
        snprintf(x->collective, sizeof x->collective, "%s", valid);
    }
    alg_names(s, x->collective, valid, sizeof valid);
    if (!valid[0]) {
        alg_names(s, NULL, valid, sizeof valid);
        return cs_fail(c->err, "%s:%ld: <expect collective=\"%s\">: not a collective of the "
                               "scenario (valid: %s)",
                       c->path, x->line, x->collective, valid);
    }
    if (check_expect_alg(c, s, x, "faster", x->faster, sizeof x->faster) ||
        check_expect_alg(c, s, x, "than", x->than, sizeof x->than))
        return -1;
    if (!strcmp(x->faster, x->than))
        return cs_fail(c->err, "%s:%ld: <expect>: faster and than both name '%s' (two different "
                               "algorithms are compared)",
                       c->path, x->line, x->faster);
    if (x->groups || x->block_ratio || x->counts) { /* some <groups> must match */
        int found = 0;
        valid[0] = 0;
        for (int i = 0; i < s->ngsets; i++) {
            const cs_groupset *g = &s->gsets[i];
            found |= cs_expect_covers(x, g);
            size_t u = strlen(valid);
            if (cs_groupset_applies(g, x->collective))
                snprintf(valid + u, sizeof valid - u, "%sgroups=%s block-ratio=%s counts=%s",
                         u ? "; " : "", g->groups ? g->groups : g->group_ratio,
                         g->block_ratio ? g->block_ratio : "1:1", g->counts ? g->counts : "equal");
        }
        if (!found)
            return cs_fail(c->err, "%s:%ld: <expect>: no <groups> of %s matches its groups, "
                                   "block-ratio and counts (valid: %s)",
                           c->path, x->line, x->collective, valid[0] ? valid : "none");
    }
    if (x->platform[0]) {
        int found = 0;
        valid[0] = 0;
        for (int i = 0; i < s->nplatforms; i++) {
            char *name = cs_platform_name_of(s->platforms[i]);
            size_t u = strlen(valid);
            snprintf(valid + u, sizeof valid - u, "%s%s", u ? ", " : "", name);
            found |= !strcmp(name, x->platform);
            free(name);
        }
        if (!found)
            return cs_fail(c->err, "%s:%ld: <expect platform=\"%s\">: not a platform of the "
                                   "scenario (valid: %s)",
                           c->path, x->line, x->platform, valid);
    }
    if (x->mapping >= 0 && !(s->mappings[0] == (cs_mapping)x->mapping ||
                             (s->nmappings == 2 && s->mappings[1] == (cs_mapping)x->mapping)))
        return cs_fail(c->err, "%s:%ld: <expect mapping=\"%s\">: not a mapping of the scenario "
                               "(valid: %s%s%s)",
                       c->path, x->line, cs_mapping_name((cs_mapping)x->mapping),
                       cs_mapping_name(s->mappings[0]), s->nmappings == 2 ? ", " : "",
                       s->nmappings == 2 ? cs_mapping_name(s->mappings[1]) : "");
    return check_values(c, x, "np", &x->nps, &s->nps, "process counts") ||
                   check_values(c, x, "bytes", &x->bytes, &s->sizes, "sizes")
               ? -1
               : 0;
}

