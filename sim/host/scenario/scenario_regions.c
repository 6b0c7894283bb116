/* <region>: the levels the locality-aware algorithms sweep, checked against every platform of
 * the scenario. */
#include "scenario_int.h"
#include "registry.h"
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* <region>socket node</region>: level names, each once; checked against
 * every platform's declared levels once the whole file is read */
int scn_parse_regions(scn_ctx *c, cs_scenario *s, xmlNode *n, long *line)
{
    if (*line)
        return cs_fail(c->err, "%s:%ld: <region> given twice (first on line %ld; list the levels "
                               "in one)",
                       c->path, scn_line_of(n), *line);
    *line = scn_line_of(n);
    char *text = scn_text_of(n), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(text, " \t\r\n,", &save); tok && !rc;
         tok = strtok_r(NULL, " \t\r\n,", &save)) {
        for (int i = 0; i < s->nregions && !rc; i++)
            if (!strcmp(s->regions[i], tok))
                rc = cs_fail(c->err, "%s:%ld: <region>: '%s' listed twice", c->path, *line, tok);
        if (!rc && (s->nregions == CS_MAX_LEVELS || strlen(tok) >= sizeof s->regions[0]))
            rc = cs_fail(c->err, "%s:%ld: <region>: '%s': at most %d levels of at most %zu "
                                 "characters",
                         c->path, *line, tok, CS_MAX_LEVELS, sizeof s->regions[0] - 1);
        if (!rc)
            snprintf(s->regions[s->nregions++], sizeof s->regions[0], "%s", tok);
    }
    if (!rc && !s->nregions)
        rc = cs_fail(c->err, "%s:%ld: <region> is empty (valid: locality levels of the platform, "
                             "such as node or socket)",
                     c->path, *line);
    free(text);
    return rc;
}

/* Every <region> level must be declared by every platform of the scenario. */
int scn_check_regions(scn_ctx *c, const cs_scenario *s, long line)
{
    /* the levels sweep the locality-aware algorithms only: with none, a
     * <region> would silently change nothing */
    int aware = 0;
    for (int a = 0; a < s->nalgs; a++)
        aware |= cs_alg_locality_aware(s->algs[a].collective, s->algs[a].name);
    if (!aware)
        return cs_fail(c->err, "%s:%ld: <region> sweeps the algorithms that take a region "
                               "(`collsim list algorithms`: e.g. allgather/loc_bruck), and none of "
                               "this scenario's does: remove <region> or add such an algorithm",
                       c->path, line);
    for (int i = 0; i < s->nplatforms; i++) {
        const cs_platform *pf = &s->pfs[i];
        int rc = 0;
        for (int k = 0; k < s->nregions && !rc; k++) {
            int found = 0;
            char valid[CS_MAX_LEVELS * 34] = "";
            for (int l = 0; l < pf->nlevels; l++) {
                found |= !strcmp(pf->levels[l], s->regions[k]);
                size_t u = strlen(valid);
                snprintf(valid + u, sizeof valid - u, "%s%s", u ? ", " : "", pf->levels[l]);
            }
            if (!found)
                rc = cs_fail(c->err, "%s:%ld: <region>: level '%s' is not declared by platform "
                                     "'%s' (valid: %s)",
                             c->path, line, s->regions[k], pf->name, valid);
        }
        if (rc)
            return rc;
    }
    return 0;
}
