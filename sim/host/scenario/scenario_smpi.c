/* <smpi>: SMPI options for every case of the scenario. */
#include "scenario_int.h"
#include "smpirun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* <smpi option="maxmin/precision" value="1e-2"/>: an SMPI 3.32 option for
 * every case (SimGrid itself rejects a name it does not know, at run time). */
int scn_parse_smpi(scn_ctx *c, cs_scenario *s, xmlNode *n)
{
    static const char *const attrs[] = {"option", "value", NULL};
    if (scn_check_attrs(c, n, attrs))
        return -1;
    xmlChar *opt = xmlGetProp(n, (const xmlChar *)"option");
    xmlChar *val = xmlGetProp(n, (const xmlChar *)"value");
    const char *o = opt ? (const char *)opt : "", *v = val ? (const char *)val : "";
    int rc = 0;
    if (!o[0] || !v[0] || !strchr(o, '/') || strpbrk(o, ": \t\n") || strpbrk(v, " \t\n"))
        rc = cs_fail(c->err, "%s:%ld: <smpi> needs option=\"NAME\" and value=\"VALUE\", an SMPI "
                             "3.32 option such as option=\"maxmin/precision\" value=\"1e-2\" (got "
                             "option=\"%s\" value=\"%s\")",
                     c->path, scn_line_of(n), o, v);
    cs_err why;
    if (!rc && cs_smpi_option_refused(o, v, &why))
        rc = cs_fail(c->err, "%s:%ld: <smpi>: %s", c->path, scn_line_of(n), why.msg);
    for (int k = 0; k < s->nsmpi && !rc; k++)
        if (!strncmp(s->smpi[k], o, strlen(o)) && s->smpi[k][strlen(o)] == ':')
            rc = cs_fail(c->err, "%s:%ld: <smpi option=\"%s\"> given twice (first at line %ld)",
                         c->path, scn_line_of(n), o, s->smpi_lines[k]);
    if (!rc && s->nsmpi == CS_MAX_SMPI_OPTIONS)
        rc = cs_fail(c->err, "%s:%ld: more than %d <smpi> options", c->path, scn_line_of(n),
                     CS_MAX_SMPI_OPTIONS);
    if (!rc) {
        size_t len = strlen(o) + strlen(v) + 2;
        s->smpi[s->nsmpi] = cs_xmalloc(len);
        snprintf(s->smpi[s->nsmpi], len, "%s:%s", o, v);
        s->smpi_lines[s->nsmpi++] = scn_line_of(n);
    }
    xmlFree(opt);
    xmlFree(val);
    return rc;
}
