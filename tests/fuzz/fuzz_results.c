/* Fuzz target: the results CSV reader (analysis/results.c) on arbitrary bytes. */
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
