/* Result rows: one per (case, message size). The one CSV format collsim writes
 * and reads (the driver's own rows, results.csv, baselines), with stable
 * column names: results_columns.def, from which the row, its header, its
 * reading and writing and its comparisons (the key, the comparison point)
 * are generated. Files are read by column name, so a
 * file written before a column existed still reads (the column takes its
 * default), and columns a user added (e.g. in pandas) are ignored. */
#ifndef COLLSIM_RESULTS_H
#define COLLSIM_RESULTS_H

#include <stdio.h>

#include "cs_error.h"

/* The columns (results_columns.def): CS_RC_platform, CS_RC_np, ...: a
 * column's index in file order. */
enum {
#define CS_RESULT_COLUMN(name, ...) CS_RC_##name,
#include "results_columns.def"
#undef CS_RESULT_COLUMN
    CS_RC_NCOLUMNS
};

/* A row: one member per column, its comment in results_columns.def. */
#define CS_RC_MEMBER_STR(m, size) char m[size];
#define CS_RC_MEMBER_INT(m, size) int m;
#define CS_RC_MEMBER_LONG(m, size) long m;
#define CS_RC_MEMBER_LLONG(m, size) long long m;
#define CS_RC_MEMBER_ULONG(m, size) unsigned long m;
#define CS_RC_MEMBER_DOUBLE(m, size) double m;
typedef struct {
#define CS_RESULT_COLUMN(name, type, size, ...) CS_RC_MEMBER_##type(name, size)
#include "results_columns.def"
#undef CS_RESULT_COLUMN
} cs_result;

/* The header line: the column names in file order, joined by ','
 * ("platform,mapping,np,...,note"), and its size with the final 0. */
extern const char *const cs_results_header;
#define CS_RESULTS_HEADER cs_results_header
enum {
    CS_RESULTS_HEADER_SIZE = 0 /* each name and its ',' (the last one's: the 0) */
#define CS_RESULT_COLUMN(name, ...) +sizeof #name
#include "results_columns.def"
#undef CS_RESULT_COLUMN
};

/* What a column is to a row (results_columns.def: role, site) */
typedef enum {
    CS_ROLE_KEY,     /* the identity, not the point: what the compared algorithms differ in */
    CS_ROLE_POINT,   /* the identity, the comparison point, the report group */
    CS_ROLE_AXIS,    /* the identity and the point; a report group spans it */
    CS_ROLE_RATIO,   /* POINT, compared by its ratio there */
    CS_ROLE_SETTING, /* a parameter of the run that does not identify the case */
    CS_ROLE_VALUE    /* measured, or derived from the key */
} cs_column_role;

typedef struct {
    const char *name;
    cs_column_role role;
    int key_rank, point_rank; /* 1, 2, ...: the order of the key and the point; 0: not in it */
    int site;                 /* where or how the case ran: not compared by `compare` */
    int required;             /* a file must have it */
} cs_column_info;

/* Column i (0 .. CS_RC_NCOLUMNS - 1, file order). */
const cs_column_info *cs_result_column(int i);
/* The index of the column named name, or -1. */
int cs_result_column_index(const char *name);

/* A row with every column at its default (results_columns.def). */
void cs_result_init(cs_result *r);

/* The comparisons of rows, generated from the roles of results_columns.def;
 * each orders by its columns' ranks (names alphabetically, numbers
 * numerically) and returns 0 for rows alike there.
 * cs_key_cmp: the identity of a row, one case at one size (check, merge,
 * repair, expect, resume); the order of merged files and baselines. */
int cs_key_cmp(const cs_result *a, const cs_result *b);
/* The comparison point where algorithms compete (best-algorithm tables, the
 * report): the key less what tells the algorithms apart (algorithm, region),
 * the groups by their ratio; a report group's rows are contiguous in it. */
int cs_result_cmp_point(const cs_result *a, const cs_result *b);
/* The report group (a table, a figure): the point less its axes (np, bytes). */
int cs_result_cmp_group(const cs_result *a, const cs_result *b);
/* Whether a and b are the same case whatever machine ran or modelled it
 * (`compare`): the key less the columns whose site is 1. */
int cs_result_same_case(const cs_result *a, const cs_result *b);

/* A row's model as compared: "" (not recorded) is "network". */
const char *cs_result_model(const cs_result *r);

/* The ratio of groups "P:Q" in lowest terms ("50:14" -> "25:7"); "" when
 * groups is empty or does not read. */
const char *cs_groups_ratio(const char *groups, char *buf, size_t len);

/* Whether an algorithm runs at more than one region level in the rows. Then
 * it is two competitors, and reports and `run`'s best-algorithm table name
 * each ALG@LEVEL (cs_result_alg_label; a row without region, e.g. an
 * algorithm that takes none, stays ALG); otherwise every name is plain ALG,
 * as with one level (loc_bruck at node beside bruck without region). */
int cs_results_several_regions(const cs_result *rows, size_t n);
/* x's algorithm as those name it: ALG@LEVEL when `several` and x has a
 * region, else ALG (then x->algorithm itself, not buf). */
const char *cs_result_alg_label(const cs_result *x, int several, char *buf, size_t len);

/* Sets r's column `column` from its text as a file spells it: 0, or -1 for an
 * unknown column or a value that does not read. */
int cs_result_set(cs_result *r, const char *column, const char *text);

/* A row's placement column read back: each of ranks 0..np-1's region at
 * `level` (NULL or "": the coarsest recorded, whose name goes to level_out
 * when not NULL) into region_of[0..np-1], numbered by first appearance: 0,
 * or -1 when the column does not hold that level for np ranks. */
int cs_placement_regions(const char *placement, const char *level, int np, int *region_of,
                         char *level_out, size_t out_len);

void cs_results_write_header(FILE *f);
void cs_results_write_row(FILE *f, const cs_result *r);

/* Writes a whole results CSV (header and rows) to path through a temporary
 * file renamed over it, so a reader never sees half a file. */
int cs_results_write_file(const char *path, const cs_result *rows, size_t n, cs_err *err);

/* Writes path through a temporary file renamed over it: body(f, arg) writes
 * the content. */
int cs_write_replacing(const char *path, void (*body)(FILE *f, const void *arg), const void *arg,
                       cs_err *err);

/* A line a reader left out: where, and why ("3 NUL bytes from character 1"). */
typedef struct {
    long line;
    char why[160];
} cs_bad_line;

/* A results file as read: the rows, the line each came from (the header is line 1), and what
 * the flags of cs_results_load let it leave out, each named. */
typedef struct {
    cs_result *rows;
    long *lines;
    size_t n;
    cs_bad_line *damaged; /* CS_READ_DAMAGED: the lines holding NUL bytes, left out */
    size_t ndamaged;
    long torn, torn_line; /* CS_READ_TORN: the incomplete last row left out: its bytes, line */
} cs_results_file;

enum {
    /* an incomplete last row (no line break, fewer fields than the header: what a run killed
     * inside a write leaves) is left out; without it, an error that says how to mend it */
    CS_READ_TORN = 1,
    /* a line holding NUL bytes (what a crash that zero-fills part of a file leaves) is left
     * out and listed; without it, an error naming the line */
    CS_READ_DAMAGED = 2,
    /* a (case, size) key given more than once is read, for the caller to name; without it,
     * an error naming the key, its lines and the repair */
    CS_READ_DUPS = 4,
};

/* The one reader of results CSV files: every command's. A header line is required (a UTF-8
 * byte-order mark before it ignored; the columns up to status must be there, the others are
 * optional, a column given twice is an error). Each later line is a row, or blank (nothing
 * before its \n or \r\n: read as nothing), or an error naming file, line and what is wrong:
 * NUL bytes, a field count other than the header's, a carriage return or a byte-order mark
 * inside the row, a second header, a line of spaces, a misplaced quote, a number that does not
 * read, a text longer than its column holds, a row with status ok whose avg_us, min_us or
 * max_us is nan, inf or negative; then a key given twice (unless CS_READ_DUPS). flags: CS_READ_*.
 * Returns 0, or -1 (err; *out empty). */
int cs_results_load(const char *path, int flags, cs_results_file *out, cs_err *err);
void cs_results_file_free(cs_results_file *f);

/* cs_results_load with no flag, the rows alone (the caller frees them). */
int cs_results_read(const char *path, cs_result **rows, size_t *n, cs_err *err);

/* A row's key as text: "yahoo sequential np=13 allgather/ring byte check 1000 B". */
void cs_key_format(const cs_result *r, char *buf, size_t len);

/* line past a UTF-8 byte-order mark at its start (what spreadsheet programs write). */
char *cs_skip_bom(char *line);

/* Splits one CSV line into fields (RFC 4180 quotes). Returns the field count (max + 1 when
 * there are more than max), or -1 when a quoted field is not closed or text follows its
 * closing quote; fields point into `line`, which is modified. */
int cs_csv_split(char *line, char **fields, int max);

/* Writes one CSV field, quoted when it holds a comma, quote or line break
 * (line breaks become spaces). */
void cs_csv_write_field(FILE *f, const char *s);

#endif
