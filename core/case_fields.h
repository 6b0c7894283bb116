/* The case parameters of case_fields.def as data: struct members, the flag
 * parser and usage of `bench` and of the driver, the driver's argv, result
 * rows, checks, progress and directory names are generated from that one
 * table. Plain C (no libxml2, no MPI): the driver includes it too. The
 * collectives' descriptors are core/collectives.h's. */
#ifndef COLLSIM_CASE_FIELDS_H
#define COLLSIM_CASE_FIELDS_H

#include <stddef.h>
#include <stdio.h>

#include "collectives.h"
#include "cs_error.h"
#include "numlist.h"
#include "results.h"

/* a case's background and groups, parsed (below) */
typedef struct cs_case_parts cs_case_parts;

typedef enum {
    CS_FK_INT,
    CS_FK_ULONG,
    CS_FK_FLAG,
    CS_FK_WORD,
    CS_FK_CHOICE,
    CS_FK_TEXT,
    CS_FK_SPECIAL
} cs_field_kind;

/* ALL; VAR: v-collectives only; GROUPS: intergroup collectives only;
 * GROUPSV: intergroup ones with per-process blocks only; ROOTED: the rooted
 * ones, gather, scatter and bcast; OP: the reductions (collectives.def);
 * SEGMENTED: the broadcasts */
enum { CS_SCOPE_ALL, CS_SCOPE_VAR, CS_SCOPE_GROUPS, CS_SCOPE_GROUPSV, CS_SCOPE_ROOTED, CS_SCOPE_OP,
       CS_SCOPE_SEGMENTED };

typedef struct {
    const char *name; /* the struct member */
    cs_field_kind kind;
    long min;         /* INT */
    const char *arg;  /* WORD, CHOICE: the valid words; TEXT, SPECIAL: the metavariable */
    long dflt_n;      /* INT, ULONG, FLAG */
    const char *dflt_s; /* WORD, CHOICE, SPECIAL (as text) */
    int scope;
    const char *bench, *driver, *csv, *only, *scenario, *help;
    size_t offset;    /* of the member in the struct the table describes */
} cs_field;

/* CS_F_np, CS_F_iters, ...: a field's index in every table */
enum {
#define CS_CASE_FIELD(m, ...) CS_F_##m,
#include "case_fields.def"
#undef CS_CASE_FIELD
    CS_NFIELDS
};

/* Inside a struct: `#define CS_CASE_FIELD CS_CASE_MEMBER`, include the .def,
 * `#undef CS_CASE_FIELD` declares one member per field (SPECIAL ones have
 * hand-written members of their own types). */
#define CS_CASE_MEMBER(m, kind, ...) CS_MEMBER_##kind(m)
#define CS_MEMBER_INT(m) int m;
#define CS_MEMBER_ULONG(m) unsigned long m;
#define CS_MEMBER_FLAG(m) int m;
#define CS_MEMBER_WORD(m) const char *m;
#define CS_MEMBER_CHOICE(m) int m; /* the index in the valid words */
#define CS_MEMBER_TEXT(m) const char *m; /* NULL or "": the default */
#define CS_MEMBER_SPECIAL(m)

/* A table over struct `type`: `#define CS_CASE_FIELD(...) CS_FIELD_ENTRY(type,
 * __VA_ARGS__)`, include the .def inside the array's braces. */
#define CS_FIELD_ENTRY(type, m, kind, arg, dflt, scope, bench, driver, csv, only, scen, help)      \
    {#m,          CS_FK_##kind,       CS_MIN_##kind(arg), CS_ARG_##kind(arg), CS_DN_##kind(dflt), \
     CS_DS_##kind(dflt), CS_SCOPE_##scope, bench, driver, csv, only, scen, help,                   \
     CS_OFF_##kind(type, m)},
#define CS_MIN_INT(a) (a)
#define CS_MIN_ULONG(a) 0
#define CS_MIN_FLAG(a) 0
#define CS_MIN_WORD(a) 0
#define CS_MIN_CHOICE(a) 0
#define CS_MIN_TEXT(a) 0
#define CS_MIN_SPECIAL(a) 0
#define CS_ARG_INT(a) NULL
#define CS_ARG_ULONG(a) NULL
#define CS_ARG_FLAG(a) NULL
#define CS_ARG_WORD(a) a
#define CS_ARG_CHOICE(a) a
#define CS_ARG_TEXT(a) a
#define CS_ARG_SPECIAL(a) a
#define CS_DN_INT(d) (d)
#define CS_DN_ULONG(d) (d)
#define CS_DN_FLAG(d) (d)
#define CS_DN_WORD(d) 0
#define CS_DN_CHOICE(d) 0
#define CS_DN_TEXT(d) 0
#define CS_DN_SPECIAL(d) 0
#define CS_DS_INT(d) NULL
#define CS_DS_ULONG(d) NULL
#define CS_DS_FLAG(d) NULL
#define CS_DS_WORD(d) d
#define CS_DS_CHOICE(d) d
#define CS_DS_TEXT(d) NULL
#define CS_DS_SPECIAL(d) d
#define CS_OFF_INT(t, m) offsetof(t, m)
#define CS_OFF_ULONG(t, m) offsetof(t, m)
#define CS_OFF_FLAG(t, m) offsetof(t, m)
#define CS_OFF_WORD(t, m) offsetof(t, m)
#define CS_OFF_CHOICE(t, m) offsetof(t, m)
#define CS_OFF_TEXT(t, m) offsetof(t, m)
#define CS_OFF_SPECIAL(t, m) 0

/* Every generated member of obj at its default. */
void cs_fields_defaults(const cs_field *t, void *obj);

/* Copies every generated member from src (described by st) to dst (dt). */
void cs_fields_copy(const cs_field *dt, void *dst, const cs_field *st, const void *src);

/* Parses argv[*i] (and its value) if it is a field's flag, `bench` ones or
 * (driver) the driver's: 1 consumed (*i moved past the value), 0 not a
 * field's flag, -1 error. A SPECIAL field's value goes to raw[id] (no
 * check). given: a bit per field given. */
int cs_fields_parse(const cs_field *t, void *obj, int driver, int argc, char **argv, int *i,
                    const char **raw, unsigned long *given, cs_err *err);

/* The checks of the generated fields, the one place they live: words among
 * the valid ones, TEXT fields' own checks (dist), VAR fields given for a
 * collective that is not a v-collective, MPI_IN_PLACE for the collective.
 * given: bits of fields given explicitly (TEXT fields count when set). The
 * background and groups are checked where they are parsed, by
 * cs_fields_resolve. */
int cs_fields_check(const cs_field *t, const void *obj, const char *collective,
                    unsigned long given, cs_err *err);

/* A scenario's value of a field, checked fully (words among the valid ones,
 * dist by cs_dist_parse, FLAG as yes/no): 0, or -1 with "WHAT: expected an
 * integer >= 1" ("WHAT: expected one of byte, int, double", ...). WORD and
 * TEXT members then point to v: the caller keeps it. */
int cs_field_set(const cs_field *f, void *obj, const char *v, const char *what, cs_err *err);

/* A WORD or CHOICE field's valid words as case_fields.def lists them (field:
 * CS_F_model, ...): w's index among them, or -1 (also for a NULL w and a field of
 * another kind); valid, when not NULL, gets them as "a, b, c". The one list of a
 * field's words for code that takes them outside the flag and scenario
 * attribute parsers (<models>, the driver's model lookup). */
int cs_case_word(int field, const char *w, char *valid, size_t len);

/* 1 when the field means something for the collective (its scope: every collective, the
 * v-collectives, the rooted ones, those with an operation, ...). */
int cs_field_in_scope(const cs_field *f, const char *collective);
/* The collectives of the field's scope, joined by ", ". */
const char *cs_field_scope_collectives(const cs_field *f, char *out, size_t len);

/* VAR fields back to their defaults unless collective is a v-collective
 * (where they are neither passed nor recorded, and an error if set). */
void cs_fields_scope(const cs_field *t, void *obj, const char *collective);

/* The datatypes a reduction's --op takes (MPI's rules for MPI_SUM, MPI_MAX,
 * MPI_BXOR; matmul's elements are ints), or NULL when dtype is one of them. */
const char *cs_op_dtypes(const char *op, const char *dtype);

/* 1 for a commutative --op word (sum, max, bxor; NULL: the default, sum), 0 for matmul. */
int cs_op_commutative(const char *op);

/* Sizes against the datatype: each a multiple of its size. */
int cs_fields_check_sizes(const char *dtype, const long *sizes, size_t n, cs_err *err);

/* Bytes of one element of a datatype of the table (0: unknown). */
int cs_dtype_size(const char *dtype);

/* The longest text of a field's value (a background with its hosts). */
#define CS_FIELD_TEXT_MAX 256

/* Appends the driver flags of the generated fields to argv from index n;
 * buf holds the numbers' text (CS_NFIELDS entries). Returns the new count. */
int cs_fields_argv(const cs_field *t, const void *obj, const char *collective,
                   char buf[][CS_FIELD_TEXT_MAX], const char **argv, int n);

/* Sets every column the generated fields have (VAR ones for v-collectives
 * only; dist in its canonical spelling, the background's from parts, as
 * cs_fields_resolve parsed it; parts NULL: obj has no background); aborts
 * on a column results.c lacks. */
void cs_fields_row(const cs_field *t, const void *obj, const char *collective,
                   const cs_case_parts *parts, cs_result *r);

/* The fields with an --only key that differ from their defaults, other
 * than np: " ppn=4 region=socket" (sep ' ', with '=') or, for directory
 * names, "-ppn4-socket" (sep '-': INT fields as KEYVALUE, others VALUE). */
void cs_fields_label(const cs_field *t, const void *obj, char sep, char *out, size_t len);

/* Usage lines of the options, bench's or (driver) the driver's. */
void cs_fields_usage(const cs_field *t, FILE *f, int driver);

/* A field's value as text (SPECIAL: ""). */
void cs_field_text(const cs_field *f, const void *obj, char *out, size_t len);

/* ---- intergroup cases: --groups P:Q and --block-ratio A:B ---- */
typedef struct {
    int p, q;   /* sizes of group A (group 0) and group B (group 1) */
    int ra, rb; /* block ratio k_A:k_B (1:1 when not given) */
} cs_groups;

/* Parses groups ("P:Q") and ratio ("A:B"; NULL or "": 1:1), each two
 * integers >= 1: 0, or -1 with an error naming the option, the value and
 * the form expected. */
int cs_groups_parse(const char *groups, const char *ratio, cs_groups *g, cs_err *err);

/* Group B's block in bytes when group A's is `bytes`: bytes x rb / ra,
 * which must be a whole number of elements of tsize bytes (0), else -1 with
 * an error naming the size, the ratio and the sizes that work. */
int cs_groups_b_bytes(const cs_groups *g, long bytes, int tsize, long *b_bytes, cs_err *err);

/* The groups of np processes in the ratio "P:Q" (e.g. 25:7 at np 64:
 * "50:14"), as a string that lives as long as the program: 0, or -1 when
 * the ratio does not read or P + Q does not divide np. */
int cs_groups_scale(const char *ratio, int np, const char **groups, cs_err *err);

/* Bytes of the block of local rank i of group `group` (0: A, 1: B; n
 * members) when group A's block is `bytes` (B's: x rb / ra, checked by
 * cs_groups_b_bytes): that block, or with arith (--counts arithmetic)
 * ceil(x (i + 1) / n) elements of tsize bytes, x = that block in elements. */
long cs_groups_member_bytes(const cs_groups *g, int group, int i, long bytes, int tsize, int arith);

/* The sum of a group's blocks (its whole data, K_A or K_B). */
long long cs_groups_total_bytes(const cs_groups *g, int group, long bytes, int tsize, int arith);
/* --size-unit: whether `unit` (the size_unit field) is "node". */
int cs_size_unit_node(const char *unit);

/* --size-unit node: sizes per node, as a list of sizes per process (each
 * divided by ppn) in *out (caller frees): 0, or -1 naming the size that ppn
 * does not divide, or a ppn not given (ppn <= 0: the default, every core,
 * is refused so that the division is explicit). */
int cs_sizes_per_process(const cs_numlist *per_node, int ppn, cs_numlist *out, cs_err *err);
/* ---- background traffic: --background PATTERN:inter-LEVEL:SIZE:PROCS[@HOSTS] ----
 * A second job of PROCS ranks in the same simulation, on nodes of its own:
 * those HOSTS chooses (a --hosts SPEC, hostspec.h), or by default every node
 * the measured job leaves free; its ranks are dealt round-robin over the
 * LEVEL regions of those nodes (mapping.h, cs_map_background); it runs an
 * alltoall of SIZE bytes per process (SIZE / peers to each peer) restricted
 * to pairs in different LEVEL regions, round after round, from before the
 * first timed call until every measured rank has finished
 * (sim/driver/background.h). Kandalla et al. 2010, Section 5.1:
 * alltoall:inter-switch:4M:96. PATTERN alltoall-port moves the same bytes
 * as one flow per node and step (a node's ranks' traffic as its network
 * port presents it to the switch: background.h). */
typedef struct {
    char level[32]; /* pairs only between regions of this level */
    long bytes;     /* SIZE: each process's send buffer per round */
    int procs;      /* PROCS; 0: no background (quiet) */
    int port;       /* PATTERN alltoall-port: one flow per node and step */
    char hosts[128]; /* HOSTS as given; "": the nodes the measured job leaves free */
} cs_background;

/* "" or "none": procs 0. Otherwise the four parts, SIZE with an optional
 * binary K, M or G suffix, PROCS >= 2, SIZE >= PROCS (a byte per peer at
 * least), and optionally @HOSTS (names, '.', '+', '-', '_'; at most 127
 * characters): 0, or -1 with an error naming the value and the form
 * expected. The level and HOSTS are checked against a platform by the host
 * (bench_case.c). */
int cs_background_parse(const char *text, cs_background *bg, cs_err *err);

/* The canonical spelling, as results.csv records it: "" for none, else
 * "alltoall:inter-switch:4M:96" (SIZE with the largest exact suffix), then
 * "@HOSTS" as given when HOSTS is. */
void cs_background_text(const cs_background *bg, char *out, size_t len);

/* ---- a case's background and groups, parsed once ----
 * Parsed where the case is built (the driver: from its command line; the
 * host: cs_case_resolve) and carried with it: placement, memory estimate,
 * buffers and rows read these, never the text again. */
struct cs_case_parts {
    cs_background bg; /* procs 0: none */
    cs_groups groups; /* an intergroup collective's groups and block ratio; all 0 otherwise */
};

/* Parses obj's background and, for an intergroup collective, its groups
 * (required) and block ratio: the one place a case's text of them is read.
 * 0, or -1 with the error of cs_background_parse or cs_groups_parse, or
 * naming the missing --groups. */
int cs_fields_resolve(const cs_field *t, const void *obj, const char *collective,
                      cs_case_parts *parts, cs_err *err);

/* One --background value in its canonical spelling (cs_background_text): 0,
 * or -1 with cs_background_parse's error. */
int cs_background_canonical(const char *text, char *out, size_t len, cs_err *err);

#endif
