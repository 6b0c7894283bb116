/* <groups>: the intergroup settings of a scenario, one set per element (scenario_int.h). */
#include "scenario_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* <groups ... collective="...">: the case fields of one element (scn_parse_fields
 * from their defaults), kept as a groups set of the scenario. */
int scn_parse_groups(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    static const int fields[] = {CS_F_groups, CS_F_group_ratio, CS_F_layout, CS_F_block_ratio,
                                 CS_F_counts};
    char *coll = scn_attr_dup(n, "collective");
    xmlUnsetProp(n, (const xmlChar *)"collective"); /* not a case field */
    cs_err e;
    int rc = 0;
    if (coll) {
        const cs_coll_props *cp = cs_coll_find(coll);
        if (cs_collective_valid(coll, &e))
            rc = cs_fail(c->err, "%s:%ld: <groups collective=\"%s\">: %s", c->path, scn_line_of(n),
                         coll, e.msg);
        else if (!cp || !cp->groups)
            rc = cs_fail(c->err, "%s:%ld: <groups collective=\"%s\">: not an intergroup "
                                 "collective (valid: inter_allgather, inter_allgatherv)",
                         c->path, scn_line_of(n), coll);
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        *(const char **)((char *)s + cs_scenario_fields[fields[i]].offset) =
            cs_scenario_fields[fields[i]].dflt_s;
    if (!rc && s->ngsets == CS_MAX_GROUPSETS)
        rc = cs_fail(c->err, "%s:%ld: more than %d <groups> elements", c->path, scn_line_of(n),
                     CS_MAX_GROUPSETS);
    if (!rc && !(rc = scn_parse_fields(c, s, n))) {
        s->gsets = cs_xrealloc(s->gsets, (size_t)(s->ngsets + 1) * sizeof *s->gsets);
        cs_groupset *g = &s->gsets[s->ngsets++];
        memset(g, 0, sizeof *g);
        g->line = scn_line_of(n);
        snprintf(g->collective, sizeof g->collective, "%s", coll ? coll : "");
        char **dst[] = {&g->groups, &g->group_ratio, &g->layout, &g->block_ratio, &g->counts};
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            const char *v = *(const char **)((char *)s + cs_scenario_fields[fields[i]].offset);
            *dst[i] = v ? cs_xstrdup(v) : NULL;
        }
    }
    free(coll);
    return rc;
}

int cs_groupset_applies(const cs_groupset *g, const char *collective)
{
    return !g->collective[0] || !strcmp(g->collective, collective);
}

void cs_scenario_groups(const cs_scenario *s, int k, cs_scenario *out)
{
    *out = *s;
    const cs_groupset *g = &s->gsets[k];
    out->groups = g->groups;
    out->group_ratio = g->group_ratio;
    out->layout = g->layout;
    out->block_ratio = g->block_ratio;
    out->counts = g->counts;
}

/* Two <groups> that give one intergroup collective the same cases would run
 * each case twice. */
int scn_check_groupsets(scn_ctx *c, const cs_scenario *s)
{
    for (int i = 0; i < s->nalgs; i++) {
        const cs_coll_props *cp = cs_coll_find(s->algs[i].collective);
        if (!cp || !cp->groups)
            continue;
        for (int a = 0; a < s->ngsets; a++)
            for (int b = a + 1; b < s->ngsets; b++) {
                const cs_groupset *x = &s->gsets[a], *y = &s->gsets[b];
                if (cs_groupset_applies(x, s->algs[i].collective) &&
                    cs_groupset_applies(y, s->algs[i].collective) &&
                    scn_same_text(x->groups, y->groups) && scn_same_text(x->group_ratio, y->group_ratio) &&
                    scn_same_text(x->layout, y->layout) && scn_same_text(x->block_ratio, y->block_ratio) &&
                    (cp->groups < 2 || scn_same_text(x->counts, y->counts)))
                    return cs_fail(c->err, "%s:%ld: <groups> gives %s the cases of line %ld again "
                                           "(counts apply to inter_allgatherv only): tell them "
                                           "apart, or name the collective each is for with "
                                           "collective=\"...\"",
                                   c->path, y->line, s->algs[i].collective, x->line);
            }
    }
    return 0;
}
