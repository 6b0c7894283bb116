/* Result rows: one per (case, message size). The one CSV format collsim writes
 * and reads, with stable column names (see CS_RESULTS_HEADER). */
#ifndef COLLSIM_RESULTS_H
#define COLLSIM_RESULTS_H

#include <stdio.h>

#include "cs_error.h"

#define CS_RESULTS_HEADER                                                                         \
    "platform,mapping,np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,iterations,"   \
    "status,note"

typedef struct {
    char platform[128];
    char mapping[16];
    int np;
    char collective[32];
    char algorithm[96];
    char dtype[16];
    char mode[16];
    long bytes;          /* per rank */
    double avg_us, min_us, max_us;
    int iterations;
    char status[16];     /* ok | fail (data check) | error (the run broke) | timeout */
    char note[512];      /* for fail/error/timeout: the tail of the error output */
} cs_result;

void cs_results_write_header(FILE *f);
void cs_results_write_row(FILE *f, const cs_result *r);

/* Writes a whole results CSV (header and rows) to path through a temporary
 * file renamed over it, so a reader never sees half a file. */
int cs_results_write_file(const char *path, const cs_result *rows, size_t n, cs_err *err);

/* Reads a results CSV (header required). */
int cs_results_read(const char *path, cs_result **rows, size_t *n, cs_err *err);

/* Reads the driver's own rows (np..status, no platform/mapping/note). */
int cs_results_read_driver(const char *path, cs_result **rows, size_t *n, cs_err *err);

/* Splits one CSV line into fields (RFC 4180 quotes). Returns the field count;
 * fields point into `line`, which is modified. */
int cs_csv_split(char *line, char **fields, int max);

#endif
