/* Fuzz target: the results CSV readers (analysis/results.c: every command's, and repair's,
 * which leaves a torn last row out) on arbitrary bytes; what they read goes on through repair's
 * one-row-per-key and merge (written, then read again). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "merge.h"
#include "regression.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = cs_fuzz_file(data, size, "fuzz.csv");
    cs_result *rows;
    size_t n;
    cs_err err = {""};
    int rc = cs_results_read(path, &rows, &n, &err);
    cs_fuzz_outcome(rc, &err, path);
    /* repair's reader: what the plain one reads whole it reads the same, with nothing torn */
    cs_result *rrows;
    size_t rn;
    long torn;
    cs_err rerr = {""};
    int rrc = cs_results_read_torn(path, &rrows, &rn, &torn, &rerr);
    cs_fuzz_outcome(rrc, &rerr, path);
    if (!rc)
        cs_fuzz_require(!rrc && rn == n && !torn, "repair's reader disagrees on a whole file", path);
    if (!rrc)
        free(rrows);
    if (rc) {
        cs_fuzz_require(!rows && !n, "it failed and still returned rows", path);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const cs_result *r = &rows[i];
        /* every string column is terminated within its field */
        cs_fuzz_require(memchr(r->platform, 0, sizeof r->platform) &&
                            memchr(r->algorithm, 0, sizeof r->algorithm) &&
                            memchr(r->status, 0, sizeof r->status) &&
                            memchr(r->note, 0, sizeof r->note),
                        "a string column is not terminated", path);
        /* what the reader promises report, check and merge */
        if (!strcmp(r->status, "ok"))
            cs_fuzz_require(isfinite(r->avg_us) && r->avg_us >= 0 && isfinite(r->min_us) &&
                                r->min_us >= 0 && isfinite(r->max_us) && r->max_us >= 0,
                            "an ok row holds a time that is not finite and >= 0", path);
    }
    /* repair: one row per key; a key given once keeps its row */
    size_t keys = cs_results_dup_keys(rows, n, NULL, 0);
    cs_result *copy = malloc((n ? n : 1) * sizeof *copy);
    if (n)
        memcpy(copy, rows, n * sizeof *copy);
    size_t keep = cs_results_dedupe(copy, n, NULL, NULL);
    cs_fuzz_require(keep <= n && (keys || keep == n) && !cs_results_dup_keys(copy, keep, NULL, 0),
                    "repair's one row per key lost a key or kept one twice", path);
    free(copy);
    /* merge of the file alone: what it writes reads again, every row */
    if (!keys) {
        char out[1200];
        const char *slash = strrchr(path, '/');
        snprintf(out, sizeof out, "%.*s/merged.csv", (int)(slash ? slash - path : 1),
                 slash ? path : ".");
        FILE *log = fopen("/dev/null", "w");
        const char *in[1] = {path};
        cs_err merr = {""};
        int mrc = cs_merge_files(log ? log : stderr, in, 1, out, 0, &merr);
        if (log)
            fclose(log);
        cs_fuzz_outcome(mrc < 0 ? -1 : 0, &merr, path);
        if (mrc >= 0) {
            cs_result *back;
            size_t nback;
            cs_err berr = {""};
            int brc = cs_results_read(out, &back, &nback, &berr);
            cs_fuzz_require(!brc && nback == n, "merge wrote a file that does not read back", path);
            if (!brc)
                free(back);
        }
        remove(out);
    }
    free(rows);
    return 0;
}
