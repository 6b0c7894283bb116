/* Fuzz target: the results CSV readers (analysis/results.c: every command's, and repair's,
 * which leaves a torn last row out) on arbitrary bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
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
    free(rows);
    return 0;
}
