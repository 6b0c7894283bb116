/* The <expect> elements of a scenario (scenario.h): read, then checked against
 * the rest of the file once all of it is read (elements come in any order). */
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "numlist.h"
#include "scenario_int.h"

/* Reads an <expect>; names are checked against the rest of the scenario by
 * scn_check_expect once the whole file is read (elements come in any order). */
/* time="1.57us" (us, ms or s; us when bare): in us, > 0; -1 when not */
static double parse_time_us(const char *v)
{
    char *end;
    double t = strtod(v, &end);
    double unit = !strcmp(end, "") || !strcmp(end, "us") ? 1 : !strcmp(end, "ms") ? 1e3
                  : !strcmp(end, "s")                      ? 1e6
                                                           : -1;
    return end == v || unit < 0 || !(t > 0) ? -1 : t * unit;
}

int scn_parse_expect(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const names[] = {"faster",  "than",   "by",     "collective", "platform",
                                        "mapping", "np",     "bytes",  "metric",     "groups",
                                        "block-ratio", "counts", "hosts", "background", "model",
                                        "alg", "time", "within", NULL};
    enum { FASTER, THAN, BY, COLL, PLATFORM, MAPPING, NP, BYTES, METRIC, GROUPS, RATIO, COUNTS,
           HOSTS, BACKGROUND, MODEL, ALG, TIME, WITHIN, NV };
    if (scn_check_attrs(c, n, names))
        return -1;
    s->expects = cs_xrealloc(s->expects, (size_t)(s->nexpects + 1) * sizeof *s->expects);
    cs_expect *x = &s->expects[s->nexpects++];
    memset(x, 0, sizeof *x);
    x->line = scn_line_of(n);
    x->mapping = -1;
    char *v[NV];
    char scope[512] = "";
    for (int i = 0; i < NV; i++) {
        v[i] = scn_attr_dup(n, names[i]);
        size_t u = strlen(scope);
        if (v[i] && i >= PLATFORM && i != METRIC && i <= MODEL)
            snprintf(scope + u, sizeof scope - u, "%s%s=%s", u ? " " : "", names[i], v[i]);
    }
    x->scope = cs_xstrdup(scope[0] ? scope : "every point");
    cs_err e;
    cs_mapping m;
    char bg[sizeof s->backgrounds[0]]; /* the background in canonical spelling */
    int rc = 0;
    char *end = NULL;
    if (v[BY])
        x->by_pct = strtod(v[BY], &end);
    /* by="5x": a factor, the same test as by = 100 (1 - 1/5) = 80% */
    int factor = v[BY] && end != v[BY] && !strcmp(end, "x") && x->by_pct >= 1;
    if (factor) {
        x->by_factor = x->by_pct;
        x->by_pct = 100 * (1 - 1 / x->by_factor);
        static char pct[] = "%";
        end = pct;
    }
    for (int k = 0; v[METRIC] && k < 3; k++)
        if (!strcmp(v[METRIC], cs_metric_names[k]))
            x->metric = k + 1; /* + 1: found; set back below */
    const int absolute = v[ALG] || v[TIME] || v[WITHIN];
    char *wend = NULL;
    if (v[WITHIN])
        x->within_pct = strtod(v[WITHIN], &wend);
    if (v[METRIC] && !x->metric)
        rc = cs_fail(c->err, "%s:%ld: <expect metric=\"%s\">: expected avg, max or min (the "
                             "average, maximum or minimum over processes)",
                     c->path, x->line, v[METRIC]);
    else if (v[METRIC])
        x->metric--;
    if (rc) {
    } else if (absolute && (v[FASTER] || v[THAN] || v[BY] || !v[ALG] || !v[TIME] || !v[WITHIN]))
        rc = cs_fail(c->err, "%s:%ld: <expect> with a time needs alg=\"ALG\", time=\"T\" and "
                             "within=\"W%%\" (e.g. alg=\"send_recv\" time=\"1.57us\" "
                             "within=\"5%%\"), and no faster, than or by",
                     c->path, x->line);
    else if (absolute && (x->time_us = parse_time_us(v[TIME])) < 0)
        rc = cs_fail(c->err, "%s:%ld: <expect time=\"%s\">: expected a time > 0 in us, ms or s "
                             "(e.g. 1.57us; a bare number is us)",
                     c->path, x->line, v[TIME]);
    else if (absolute && (wend == v[WITHIN] || strcmp(wend, "%") ||
                          !(x->within_pct > 0 && x->within_pct < 100)))
        rc = cs_fail(c->err, "%s:%ld: <expect within=\"%s\">: expected a percentage above 0 and "
                             "below 100, such as within=\"5%%\"",
                     c->path, x->line, v[WITHIN]);
    else if (!absolute && (!v[FASTER] || !v[THAN]))
        rc = cs_fail(c->err, "%s:%ld: <expect> needs faster=\"ALG\" and than=\"ALG\" (two of the "
                             "scenario's algorithms), or alg=\"ALG\" time=\"T\" within=\"W%%\"",
                     c->path, x->line);
    else if (v[BY] && (end == v[BY] || strcmp(end, "%") || !(x->by_pct >= 0 && x->by_pct < 100)))
        rc = cs_fail(c->err, "%s:%ld: <expect by=\"%s\">: expected a percentage from 0 to 100, "
                             "such as by=\"10%%\", or a factor of at least 1, such as by=\"5x\"",
                     c->path, x->line, v[BY]);
    else if (v[MAPPING] && cs_mapping_parse(v[MAPPING], &m, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect mapping=\"%s\">: %s", c->path, x->line, v[MAPPING],
                     e.msg);
    else if (v[NP] && cs_numlist_parse(v[NP], "np", 0, 1, &x->nps, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect np=\"%s\">: %s", c->path, x->line, v[NP], e.msg);
    else if (v[BYTES] && cs_numlist_parse(v[BYTES], "bytes", 1, 0, &x->bytes, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect bytes=\"%s\">: %s", c->path, x->line, v[BYTES],
                     e.msg);
    else if (v[BACKGROUND] && cs_background_canonical(v[BACKGROUND], bg, sizeof bg, &e))
        rc = cs_fail(c->err, "%s:%ld: <expect background=\"%s\">: %s", c->path, x->line,
                     v[BACKGROUND], e.msg);
    if (!rc) {
        if (v[MAPPING])
            x->mapping = (int)m;
        snprintf(x->faster, sizeof x->faster, "%s", absolute ? v[ALG] : v[FASTER]);
        snprintf(x->than, sizeof x->than, "%s", absolute ? "" : v[THAN]);
        snprintf(x->collective, sizeof x->collective, "%s", v[COLL] ? v[COLL] : "");
        snprintf(x->platform, sizeof x->platform, "%s", v[PLATFORM] ? v[PLATFORM] : "");
        x->groups = v[GROUPS], x->block_ratio = v[RATIO], x->counts = v[COUNTS];
        v[GROUPS] = v[RATIO] = v[COUNTS] = NULL;
        if (v[MODEL])
            x->model = cs_xstrdup(v[MODEL]);
        if (v[HOSTS]) /* "all": the default, recorded as "" */
            x->hosts = cs_xstrdup(strcmp(v[HOSTS], "all") ? v[HOSTS] : "");
        if (v[BACKGROUND]) /* in its canonical spelling, as <background> keeps it */
            x->background = cs_xstrdup(bg);
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

/* A filter on a swept element (<hosts>, <background>): value (NULL: none)
 * must be one of its n values (rows `stride` apart from `list`; "" spelled
 * `empty`, the only value when the element is absent). */
static int check_swept(scn_ctx *c, const cs_expect *x, const char *elem, const char *value,
                       const char *list, size_t stride, int n, const char *empty)
{
    if (!value)
        return 0;
    int found = !n && !value[0];
    char valid[1024] = "";
    for (int i = 0; i < n; i++) {
        const char *v = list + (size_t)i * stride;
        found |= !strcmp(v, value);
        size_t u = strlen(valid);
        snprintf(valid + u, sizeof valid - u, "%s%s", u ? ", " : "", v[0] ? v : empty);
    }
    if (found)
        return 0;
    return cs_fail(c->err, "%s:%ld: <expect %s=\"%s\">: not a <%s> value of the scenario "
                           "(valid: %s)",
                   c->path, x->line, elem, value[0] ? value : empty, elem,
                   valid[0] ? valid : empty);
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
    const int absolute = x->time_us > 0;
    if (check_expect_alg(c, s, x, absolute ? "alg" : "faster", x->faster, sizeof x->faster) ||
        (!absolute && check_expect_alg(c, s, x, "than", x->than, sizeof x->than)))
        return -1;
    if (check_swept(c, x, "hosts", x->hosts, s->host_specs[0], sizeof s->host_specs[0],
                    s->nhost_specs, "all") ||
        check_swept(c, x, "background", x->background, s->backgrounds[0],
                    sizeof s->backgrounds[0], s->nbackgrounds, "none") ||
        check_swept(c, x, "models", x->model && strcmp(x->model, "full") ? x->model : NULL,
                    s->models[0], sizeof s->models[0], s->nmodels, "full"))
        return -1;
    if (!absolute && !strcmp(x->faster, x->than))
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

