/* Result rows: one per (case, message size). The one CSV format collsim writes
 * and reads (the driver's own rows, results.csv, baselines), with stable
 * column names (see CS_RESULTS_HEADER). Files are read by column name, so a
 * file written before a column existed still reads (the column takes its
 * default), and columns a user added (e.g. in pandas) are ignored. */
#ifndef COLLSIM_RESULTS_H
#define COLLSIM_RESULTS_H

#include <stdio.h>

#include "cs_error.h"

#define CS_RESULTS_HEADER                                                                         \
    "platform,mapping,np,ppn,collective,algorithm,region,model,dtype,mode,dist,seed,groups,layout,"     \
    "block_ratio,counts,size_unit,root,background,hosts,bytes,data_bytes,"                                  \
    "avg_us,min_us,max_us,call_max_us,root_us,iterations,status,nonlocal_max_msgs,nonlocal_max_bytes,"                \
    "nonlocal_total_msgs,nonlocal_total_bytes,account,placement,smpi_cfg,note"

typedef struct {
    char platform[128];
    char mapping[16];
    int np;
    int ppn;             /* ranks per node; 0: the node's core count (the default) */
    char collective[32];
    char algorithm[96];
    char region[16];     /* locality level the algorithm treats as region; "": default */
    /* what cost simulated time (case_fields.def): "full" (network, local
     * work, per-message overheads) or "network" (the network alone); "": not
     * recorded (a file written before the column, by the network-only model) */
    char model[16];   /* compare with cs_result_model() */
    char dtype[16];
    char mode[16];
    char dist[32];       /* block-size distribution of v-collectives; "": none */
    unsigned long seed;  /* its seed */
    /* intergroup collectives (inter_allgather, inter_allgatherv): the group
     * sizes P:Q, the layout, the block ratio k_A:k_B ("" as given: 1:1) and
     * the count pattern (inter_allgatherv); "" for the other collectives */
    char groups[24];
    char layout[16];
    char block_ratio[24];
    char counts[16];
    /* intergroup: how the sweep's sizes were given: "process" (bytes is the
     * size given) or "node" (bytes is the size given / ppn) */
    char size_unit[16];
    int root;            /* gather, scatter: the root's rank; 0 for the other collectives */
    /* the background traffic the case ran under (bench --background), in its
     * canonical spelling "alltoall:inter-switch:4M:96"; "": none (quiet) */
    char background[192];
    /* the nodes the case's job took (bench --hosts, hostspec.h) as given;
     * "": every node, in platform order (the default) */
    char hosts[128];
    long bytes;          /* per rank (per block); for v-collectives N, the largest block;
                            intergroup: a group A process's block, whatever size_unit */
    long long data_bytes; /* payload the collective defines: sum over ranks of the bytes
                             destined to other ranks; -1: not recorded */
    /* Each process's mean time per call (over the timed calls), then over
     * the processes: avg_us their mean (Kandalla et al.'s metric), min_us
     * and max_us their extremes (OSU's columns). call_max_us: per call the
     * slowest process's time, averaged over the calls (>= max_us); root_us:
     * the root's mean time per call (gather, scatter). -1: not measured (a
     * file written before these columns, or an unrooted
     * collective; call_max_us is measured for gather and scatter only, see
     * sim/driver/bench.c). */
    double avg_us, min_us, max_us;
    double call_max_us, root_us;
    int iterations;
    char status[16];     /* ok | fail (data check) | error (the run broke) | timeout */
    /* messages and bytes that left the sender's node in one call: the maximum
     * over ranks and the total; -1: not measured */
    long long nonlocal_max_msgs, nonlocal_max_bytes, nonlocal_total_msgs, nonlocal_total_bytes;
    /* every locality level, finest first: LEVEL:max_msgs:max_bytes:total_msgs:total_bytes
     * joined by ';'; "": not measured */
    char account[512];
    /* where the case's ranks were, at every locality level at or above the
     * node, coarsest first: "switch:0x64 1x232; node:0x16 ..." (per level,
     * each rank's region numbered by first appearance in rank order, run-
     * length encoded: RxN = N consecutive ranks in region R); a level that
     * does not fit is left out. Derived from the key (platform, mapping,
     * ppn, hosts, np), so not part of it; "": not recorded (an older file).
     * What the report's models of gather and scatter read (Kandalla's K3-K5). */
    char placement[512];
    /* the SMPI options the case ran with beyond collsim's own (bench --smpi-cfg,
     * a scenario's <smpi>), NAME:VALUE joined by spaces; not part of the key:
     * the same case under another solver setting is compared, not added */
    char smpi_cfg[256];
    char note[512];      /* for fail/error/timeout: the tail of the error output */
} cs_result;

/* A row with every field at its default (empty strings, 0, and -1 for the
 * "not measured" counters). */
void cs_result_init(cs_result *r);

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

/* Reads a results CSV (header line required, a UTF-8 byte-order mark before it
 * ignored; the columns up to status must be there, the others are optional). A row with status ok whose avg_us, min_us
 * or max_us is nan, inf or negative is an error naming file, line, column and
 * value. */
int cs_results_read(const char *path, cs_result **rows, size_t *n, cs_err *err);

/* The same; with `torn` not NULL an incomplete last row (no line break, fewer fields than the
 * header: what a run killed inside a write leaves) is left out and its length in bytes goes to
 * *torn (0: none). Without it, such a row is an error that says how to mend it. */
int cs_results_read_torn(const char *path, cs_result **rows, size_t *n, long *torn, cs_err *err);

/* line past a UTF-8 byte-order mark at its start (what spreadsheet programs write). */
char *cs_skip_bom(char *line);

/* Splits one CSV line into fields (RFC 4180 quotes). Returns the field count;
 * fields point into `line`, which is modified. */
int cs_csv_split(char *line, char **fields, int max);

/* Writes one CSV field, quoted when it holds a comma, quote or line break
 * (line breaks become spaces). */
void cs_csv_write_field(FILE *f, const char *s);

/* A row's model for comparisons: "" (not recorded) is "network". */
static inline const char *cs_result_model(const cs_result *r)
{
    return r->model[0] ? r->model : "network";
}

#endif
