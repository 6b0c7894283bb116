/* Scenario files: an experiment described once (schema: scenarios/README.md).
 * Errors name the file, line and element, and what would be valid. */
#ifndef COLLSIM_SCENARIO_H
#define COLLSIM_SCENARIO_H

#include "case_fields.h"
#include "cs_error.h"
#include "mapping.h"
#include "numlist.h"
#include "registry.h"
#include "whatif.h"

/* <expect faster="A" than="B" .../>: A's average time is below B's, by at
 * least by_pct percent of B's time, at every point of its scope (platform,
 * mapping, hosts, np, bytes); a filter left empty covers every value of the
 * scenario. <expect alg="A" time="T" within="W%" .../>: A's time is T
 * within W percent of T at every point (a published figure; then `faster`
 * holds A and `than` is ""). Checked by analysis/expect.c. */
typedef struct {
    long line;
    char collective[32];
    char faster[96], than[96]; /* names as in the scenario's <algorithms> */
    char platform[128];        /* "": every platform */
    int mapping;               /* -1: every mapping, else a cs_mapping */
    cs_numlist nps, bytes;     /* n == 0: every value */
    double by_pct;
    int metric;                /* the time compared: CS_METRIC_AVG (default), _MAX, _MIN */
    /* intergroup: the <groups> elements covered, by their attributes
     * groups (sizes or ratio as written), block-ratio, counts; NULL: any */
    char *groups, *block_ratio, *counts;
    double by_factor;          /* by="5x": than's time >= 5 x faster's; 0: by is a percentage */
    char *scope;               /* the filters as written, for reports */
    char *hosts;               /* one <hosts> value ("" for all); NULL: every one */
    char *background;          /* one <background> value, canonical ("" for none); NULL: every one */
    char *model;               /* one <models> value; NULL: every one */
    double time_us, within_pct; /* alg="A" time="T" within="W%": T in us; 0: a comparison */
} cs_expect;

/* One <groups> element: the intergroup cases' groups, layout, block ratio
 * and counts (owned copies; NULL: the field's default), for one intergroup
 * collective or (collective "") every one of the scenario. */
typedef struct {
    long line;
    char collective[32];
    char *groups, *group_ratio, *layout, *block_ratio, *counts;
} cs_groupset;

typedef struct {
    char *path, *name, *description;
    char **platforms; /* resolved paths */
    int nplatforms;
    /* the platforms read, once, when the file is loaded: the checks and the
     * cases (cs_expand_cases without <vary>) use these; npfs of them read */
    cs_platform *pfs;
    int npfs;
    cs_mapping mappings[2];
    int nmappings;
    cs_numlist nps;
    cs_numlist ppns; /* <ppn>: ranks per node, swept; n == 0: the default only (0) */
    /* <region>: locality levels the locality-aware algorithms take as region
     * (driver --region), swept; nregions == 0: the driver's default only ("") */
    char regions[CS_MAX_LEVELS][32];
    int nregions;
    /* <background>: background traffic (case_fields.h, cs_background), swept,
     * in canonical spelling ("" = none, quiet); nbackgrounds == 0: quiet only */
#define CS_MAX_BACKGROUNDS 8
    char backgrounds[CS_MAX_BACKGROUNDS][192];
    cs_background background_parts[CS_MAX_BACKGROUNDS]; /* each parsed, once */
    int nbackgrounds;
    long background_line;
    /* <hosts>: the nodes the measured job takes (hostspec.h), swept, as
     * given ("" = all, every node); nhost_specs == 0: every node only */
#define CS_MAX_HOST_SPECS 16
    char host_specs[CS_MAX_HOST_SPECS][128];
    int nhost_specs;
    long host_specs_line;
    /* <models>: what costs simulated time (case_fields.def, model), swept;
     * nmodels == 0: the default (full) only */
    char models[3][16];
    int nmodels;
    long models_line;
    cs_alg_sel *algs; /* each with its collective */
    int nalgs;
    cs_numlist sizes;
    /* <vary>: a what-if parameter; each platform runs as one variant per value */
    int has_vary;
    cs_vary vary;
    cs_expect *expects;
    int nexpects;
    /* <groups>, repeatable: each intergroup collective runs once per element
     * that applies to it (the case fields below hold none of them; see
     * cs_scenario_groups) */
    cs_groupset *gsets;
    int ngsets; /* at most CS_MAX_GROUPSETS */
#define CS_MAX_GROUPSETS 64
    long dist_line; /* 0: no <distribution> */
    /* <smpi option="NAME" value="VALUE"/>: SMPI options every case runs with,
     * as "NAME:VALUE" (what bench --smpi-cfg takes), in file order */
#define CS_MAX_SMPI_OPTIONS 16
    char *smpi[CS_MAX_SMPI_OPTIONS];
    long smpi_lines[CS_MAX_SMPI_OPTIONS];
    int nsmpi;
    /* The case fields (case_fields.def), at their defaults unless the
     * attribute the table names sets them (<buffers dtype="int">, <iterations
     * timed>, <distribution name seed>, ...). Fields without one stay at their
     * defaults: np, ppn and region are swept by hand (nps, ppns, regions). */
#define CS_CASE_FIELD CS_CASE_MEMBER
#include "case_fields.def"
#undef CS_CASE_FIELD
    char *text[CS_NFIELDS]; /* what the WORD and TEXT members point to */
} cs_scenario;

/* The table over cs_scenario (cs_fields_copy to a cs_case). */
extern const cs_field cs_scenario_fields[CS_NFIELDS];

int cs_scenario_load(const char *path, cs_scenario *s, cs_err *err);

/* Whether an expectation covers a <groups> element: it applies to the
 * expectation's collective and matches its groups, block-ratio and counts
 * filters (groups: the element's sizes or ratio as written). */
int cs_expect_covers(const cs_expect *x, const cs_groupset *g);

/* Whether <groups> element k applies to `collective`. */
int cs_groupset_applies(const cs_groupset *g, const char *collective);
/* *out = *s with the case fields of <groups> element k (a shallow copy that
 * lives as long as s; never freed itself). */
void cs_scenario_groups(const cs_scenario *s, int k, cs_scenario *out);
void cs_scenario_free(cs_scenario *s);

#endif
