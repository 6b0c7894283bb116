/* What the scenario reader's files (scenario*.c) share: the loading context and the
 * small XML helpers (scenario.h is the interface). */
#ifndef COLLSIM_HOST_SCENARIO_INT_H
#define COLLSIM_HOST_SCENARIO_INT_H

#include <libxml/tree.h>

#include "scenario.h"

typedef struct {
    const char *path;
    cs_err *err;
    long *pf_lines, *alg_lines; /* where each platform and algorithm was given */
    long nps_line;              /* where <processes> was given */
    long field_lines[CS_NFIELDS]; /* where each case field's attribute was given, 0: not */
} scn_ctx;

long scn_line_of(xmlNode *n);
/* Every attribute of n must be in `allowed` (NULL-terminated). */
int scn_check_attrs(scn_ctx *c, xmlNode *n, const char *const *allowed);
/* A copy of attribute `name`, or NULL. */
char *scn_attr_dup(xmlNode *n, const char *name);
/* Equal strings, NULL being "". */
int scn_same_text(const char *a, const char *b);

/* The element's text (malloc'ed). */
char *scn_text_of(xmlNode *n);
/* Reads the attributes of n that are case fields: only the table's ones for this element are
 * allowed, each converted and checked by the table. */
int scn_parse_fields(scn_ctx *c, cs_scenario *s, xmlNode *n);

/* <region> (scenario_regions.c): the levels, each once (*line: the element's line, 0 before);
 * checked once the file is read against every platform's levels */
int scn_parse_regions(scn_ctx *c, cs_scenario *s, xmlNode *n, long *line);
int scn_check_regions(scn_ctx *c, const cs_scenario *s, long line);

/* <smpi option value> (scenario_smpi.c): one SMPI option for every case */
int scn_parse_smpi(scn_ctx *c, cs_scenario *s, xmlNode *n);

/* scenario_groups.c: a <groups> element, read; then no two sets giving a collective the same
 * cases, once the whole file is read. */
int scn_parse_groups(scn_ctx *c, cs_scenario *s, xmlNode *n);
int scn_check_groupsets(scn_ctx *c, const cs_scenario *s);

/* scenario_place.c: <background> and <hosts>, read; then checked against
 * every platform once the whole file is read. */
int scn_parse_backgrounds(scn_ctx *c, cs_scenario *s, xmlNode *n);
int scn_parse_hosts(scn_ctx *c, cs_scenario *s, xmlNode *n);
int scn_parse_models(scn_ctx *c, cs_scenario *s, xmlNode *n);
int scn_check_placements(scn_ctx *c, const cs_scenario *s);
/* Every (platform, mapping, ppn, hosts, background, np) of the sweep places
 * its ranks, and its background's, on the platform: what a case would
 * otherwise record as an error row at run time. */
int scn_check_fits(scn_ctx *c, const cs_scenario *s);

/* Reads an <expect>; scn_check_expect checks its names against the scenario
 * once the whole file is read. */
int scn_parse_expect(scn_ctx *c, cs_scenario *s, xmlNode *n);
int scn_check_expect(scn_ctx *c, const cs_scenario *s, cs_expect *x);

#endif
