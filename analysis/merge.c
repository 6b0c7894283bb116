#include "merge.h"

#include <stdlib.h>
#include <string.h>

#include "fits.h"
#include "regression.h"

/* The tasks' platform fits (platforms.csv beside each input) beside out, each
 * platform once, for the report's cost models; inputs without one add none. */
static int merge_fits(const char *const *inputs, int ninputs, const char *out, cs_err *err)
{
    cs_platform_fit *all = NULL;
    size_t n = 0;
    char path[4096];
    for (int i = 0; i < ninputs; i++) {
        cs_platform_fit *fits;
        size_t k;
        cs_fits_path_beside(inputs[i], path, sizeof path);
        if (cs_fits_read(path, &fits, &k, err) < 0) {
            free(all);
            return -1;
        }
        for (size_t q = 0; q < k; q++)
            if (!cs_fits_find(all, n, fits[q].platform)) {
                all = cs_xrealloc(all, (n + 1) * sizeof *all);
                all[n++] = fits[q];
            }
        free(fits);
    }
    cs_fits_path_beside(out, path, sizeof path);
    int rc = n ? cs_fits_write(path, all, n, err) : 0;
    free(all);
    return rc;
}

int cs_merge_files(FILE *f, const char *const *inputs, int ninputs, const char *out, cs_err *err)
{
    if (ninputs < 1)
        return cs_fail(err, "merge needs at least one results file (e.g. DIR/tasks/*/results.csv)");
    cs_result *all = NULL;
    int *from = NULL; /* input of each row, to name both files of a duplicate */
    size_t n = 0;
    for (int i = 0; i < ninputs; i++) {
        cs_result *rows;
        size_t k;
        if (cs_results_read(inputs[i], &rows, &k, err)) {
            free(all);
            free(from);
            return -1;
        }
        all = cs_xrealloc(all, (n + k + 1) * sizeof *all);
        from = cs_xrealloc(from, (n + k + 1) * sizeof *from);
        memcpy(all + n, rows, k * sizeof *rows);
        for (size_t q = 0; q < k; q++)
            from[n + q] = i;
        n += k;
        free(rows);
    }
    const cs_result **v = cs_sort_by_key(all, n);
    size_t dups = 0, notok = 0;
    for (size_t i = 0; i < n; i++) {
        notok += strcmp(v[i]->status, "ok") != 0;
        if (i && !cs_key_cmp(v[i - 1], v[i])) {
            char key[512];
            cs_key_format(v[i], key, sizeof key);
            fprintf(f, "collsim: merge: %s is in both %s and %s\n", key,
                    inputs[from[v[i - 1] - all]], inputs[from[v[i] - all]]);
            dups++;
        }
    }
    int rc = 0;
    if (dups) {
        fprintf(f, "collsim: merge: %zu cases given twice; %s not written (merge each task's "
                   "results once)\n",
                dups, out);
        rc = 1;
    } else {
        cs_result *sorted = cs_rows_copy(v, n);
        if (cs_results_write_file(out, sorted, n, err) || merge_fits(inputs, ninputs, out, err))
            rc = -1;
        free(sorted);
        if (!rc)
            fprintf(f, "# merged %zu rows from %d files into %s; %zu rows did not pass\n", n,
                    ninputs, out, notok);
        if (!rc && notok)
            rc = 1;
    }
    free(v);
    free(all);
    free(from);
    return rc;
}
