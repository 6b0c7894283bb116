/* Where a scenario's jobs run: <hosts> (the measured job's nodes) and
 * <background> (a second job), each a list of values swept like the other
 * case parameters (scenario.h). Read first, then checked against every
 * platform once the whole file is read. */
#include <stdlib.h>
#include <string.h>

#include "bench_case.h"
#include "hostspec.h"
#include "platform.h"
#include "scenario_int.h"

#include <stdio.h>

/* An element given once: its line in *line, or an error naming both. */
static int once(scn_ctx *c, xmlNode *n, long *line)
{
    if (*line)
        return cs_fail(c->err, "%s:%ld: <%s> given twice (first on line %ld; list the values in "
                               "one)",
                       c->path, scn_line_of(n), (const char *)n->name, *line);
    *line = scn_line_of(n);
    return 0;
}

/* <background>none alltoall:inter-switch:1M:96</background>: each value as
 * bench --background takes it, each once (in any spelling), kept in
 * canonical spelling; levels and hosts are checked against the platforms
 * once the whole file is read (scn_check_placements). */
int scn_parse_backgrounds(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    if (once(c, n, &s->background_line))
        return -1;
    const long line = s->background_line;
    char *text = scn_text_of(n), *save = NULL, canon[sizeof s->backgrounds[0]];
    int rc = 0;
    cs_background bg;
    cs_err e;
    for (char *tok = strtok_r(text, " \t\r\n,", &save); tok && !rc;
         tok = strtok_r(NULL, " \t\r\n,", &save)) {
        if (cs_background_parse(tok, &bg, &e)) {
            rc = cs_fail(c->err, "%s:%ld: <background>: %s", c->path, line, e.msg);
            break;
        }
        cs_background_text(&bg, canon, sizeof canon);
        for (int i = 0; i < s->nbackgrounds && !rc; i++)
            if (!strcmp(s->backgrounds[i], canon))
                rc = cs_fail(c->err, "%s:%ld: <background>: '%s' listed twice (as '%s')", c->path,
                             line, tok, canon[0] ? canon : "none");
        if (!rc && s->nbackgrounds == CS_MAX_BACKGROUNDS)
            rc = cs_fail(c->err, "%s:%ld: <background>: at most %d values", c->path, line,
                         CS_MAX_BACKGROUNDS);
        if (!rc) {
            s->background_parts[s->nbackgrounds] = bg;
            snprintf(s->backgrounds[s->nbackgrounds++], sizeof s->backgrounds[0], "%s", canon);
        }
    }
    if (!rc && !s->nbackgrounds)
        rc = cs_fail(c->err, "%s:%ld: <background> is empty (valid: none, or "
                             "alltoall:inter-LEVEL:SIZE:PROCS[@HOSTS] such as "
                             "alltoall:inter-switch:4M:96)",
                     c->path, line);
    free(text);
    return rc;
}

/* <models>full network</models>: the models each case runs under
 * (case_fields.def, model), each once. */
int scn_parse_models(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    if (once(c, n, &s->models_line))
        return -1;
    const long line = s->models_line;
    char *text = scn_text_of(n), *save = NULL, valid[256];
    int rc = 0;
    cs_case_word(CS_F_model, "", valid, sizeof valid);
    for (char *tok = strtok_r(text, " \t\r\n", &save); tok && !rc;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (cs_case_word(CS_F_model, tok, NULL, 0) < 0)
            rc = cs_fail(c->err, "%s:%ld: <models>: unknown model '%s' (valid: %s)", c->path,
                         line, tok, valid);
        for (int i = 0; i < s->nmodels && !rc; i++)
            if (!strcmp(s->models[i], tok))
                rc = cs_fail(c->err, "%s:%ld: <models>: '%s' listed twice", c->path, line, tok);
        if (!rc)
            snprintf(s->models[s->nmodels++], sizeof s->models[0], "%s", tok);
    }
    if (!rc && !s->nmodels)
        rc = cs_fail(c->err, "%s:%ld: <models> is empty (valid: %s)", c->path, line, valid);
    free(text);
    return rc;
}

/* <hosts>all node-0..3+node-4..32</hosts>: each value a --hosts SPEC
 * (hostspec.h; "all": every node, the default), each once; whitespace
 * separates them (a SPEC joins its terms with '+'). */
int scn_parse_hosts(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    if (once(c, n, &s->host_specs_line))
        return -1;
    const long line = s->host_specs_line;
    char *text = scn_text_of(n), *save = NULL;
    int rc = 0;
    cs_err e;
    for (char *tok = strtok_r(text, " \t\r\n", &save); tok && !rc;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        const char *v = strcmp(tok, "all") ? tok : ""; /* recorded as the default */
        if (cs_hostspec_check(tok, "hosts", &e))
            rc = cs_fail(c->err, "%s:%ld: <hosts>: %s", c->path, line, e.msg);
        for (int i = 0; i < s->nhost_specs && !rc; i++)
            if (!strcmp(s->host_specs[i], v))
                rc = cs_fail(c->err, "%s:%ld: <hosts>: '%s' listed twice", c->path, line, tok);
        if (!rc && s->nhost_specs == CS_MAX_HOST_SPECS)
            rc = cs_fail(c->err, "%s:%ld: <hosts>: at most %d values", c->path, line,
                         CS_MAX_HOST_SPECS);
        if (!rc)
            snprintf(s->host_specs[s->nhost_specs++], sizeof s->host_specs[0], "%s", v);
    }
    if (!rc && !s->nhost_specs)
        rc = cs_fail(c->err, "%s:%ld: <hosts> is empty (valid: all, or a list of nodes: %s)",
                     c->path, line, CS_HOSTSPEC_FORM);
    free(text);
    return rc;
}

/* Every <hosts> value must choose nodes of every platform, every
 * <background> level be declared by every platform and its hosts choose
 * nodes there (whether a job fits its nodes, and the background apart from
 * the measured job, depends on each case's mapping: checked per case). */
int scn_check_placements(scn_ctx *c, const cs_scenario *s)
{
    int rc = 0;
    for (int i = 0; i < s->nplatforms && !rc; i++) {
        const cs_platform *pf = &s->pfs[i];
        cs_err e;
        char where[CS_FIELD_TEXT_MAX + 96];
        for (int k = 0; k < s->nhost_specs && !rc; k++) {
            int *nodes, n;
            if (cs_hostspec_select(pf, s->host_specs[k], "hosts", &nodes, &n, &e))
                rc = cs_fail(c->err, "%s:%ld: <hosts>: %s", c->path, s->host_specs_line, e.msg);
            else
                free(nodes);
        }
        for (int k = 0; k < s->nbackgrounds && !rc; k++) {
            const cs_background bg = s->background_parts[k];
            if (!bg.procs)
                continue; /* none has no level */
            snprintf(where, sizeof where, "%s:%ld: <background> %s: ", c->path,
                     s->background_line, s->backgrounds[k]);
            rc = cs_region_check(pf, bg.level, where, c->err);
            int *nodes, n;
            if (!rc && bg.hosts[0] && cs_hostspec_select(pf, bg.hosts, "hosts", &nodes, &n, &e))
                rc = cs_fail(c->err, "%s%s", where, e.msg);
            else if (!rc && bg.hosts[0])
                free(nodes);
        }
    }
    return rc;
}

int scn_check_fits(scn_ctx *c, const cs_scenario *s)
{
    const size_t nppn = s->ppns.n ? s->ppns.n : 1, nhs = s->nhost_specs ? s->nhost_specs : 1,
                 nbg = s->nbackgrounds ? s->nbackgrounds : 1;
    int rc = 0;
    for (int i = 0; i < s->nplatforms && !rc; i++) {
        const cs_platform *pf = &s->pfs[i];
        cs_err e;
        for (int m = 0; m < s->nmappings && !rc; m++)
            for (size_t q = 0; q < nppn && !rc; q++)
                for (size_t h = 0; h < nhs && !rc; h++)
                    for (size_t b = 0; b < nbg && !rc; b++)
                        for (size_t n = 0; n < s->nps.n && !rc; n++) {
                            cs_case k;
                            cs_case_init(&k);
                            k.platform = pf;
                            k.mapping = s->mappings[m];
                            k.ppn = s->ppns.n ? (int)s->ppns.v[q] : 0;
                            k.np = (int)s->nps.v[n];
                            k.oversubscribe = s->oversubscribe;
                            k.hosts = s->nhost_specs ? s->host_specs[h] : NULL;
                            const char *bg = s->nbackgrounds ? s->backgrounds[b] : NULL;
                            /* the job alone, then with its background */
                            int *map = cs_xmalloc((size_t)k.np * sizeof(int));
                            int bad = cs_case_resolve(&k, &e) || cs_case_map(&k, map, NULL, 0, &e);
                            free(map);
                            int of_bg = 0;
                            if (!bad && bg && bg[0]) {
                                k.background = bg;
                                of_bg = 1;
                                bad = cs_case_resolve(&k, &e);
                                map = cs_xmalloc((size_t)(k.np + k.parts.bg.procs) * sizeof(int));
                                bad = bad || cs_case_map(&k, map, NULL, 0, &e);
                                free(map);
                            }
                            if (bad) {
                                char what[CS_FIELD_TEXT_MAX + 64] = "", *w = what;
                                const char *end = what + sizeof what;
                                w += snprintf(w, (size_t)(end - w), "%s", cs_mapping_name(k.mapping));
                                if (k.ppn)
                                    w += snprintf(w, (size_t)(end - w), ", ppn %d", k.ppn);
                                if (k.hosts && k.hosts[0])
                                    snprintf(w, (size_t)(end - w), ", hosts %s", k.hosts);
                                rc = cs_fail(c->err, "%s:%ld: <%s> on platform '%s' (%s): %s",
                                             c->path, of_bg ? s->background_line : c->nps_line,
                                             of_bg ? "background" : "processes",
                                             pf->name, what, e.msg);
                            }
                        }
    }
    return rc;
}
