#include "merge.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The task of a path DIR/tasks/K/results.csv, as `run --emit` lays them out:
 * K, with DIR's length in *dirlen (0: the current directory); -1 otherwise. */
static long task_of(const char *path, size_t *dirlen)
{
    static const char tail[] = "/results.csv";
    size_t len = strlen(path), e = len - (sizeof tail - 1), b;
    if (len < sizeof tail || strcmp(path + e, tail))
        return -1;
    for (b = e; b && isdigit((unsigned char)path[b - 1]); b--)
        ;
    if (b == e || b < 6 || strncmp(path + b - 6, "tasks/", 6) || (b > 6 && path[b - 7] != '/'))
        return -1;
    *dirlen = b > 6 ? b - 7 : 0;
    return strtol(path + b, NULL, 10);
}

/* How many tasks the job list --emit wrote in dir runs (jobs.txt: a line
 * each; collsim.sbatch: --array=0-LAST), its path in list; 0: neither. */
static long emitted_tasks(const char *dir, char *list, size_t len)
{
    char line[16384];
    long n = 0, last;
    snprintf(list, len, "%s/jobs.txt", dir);
    FILE *f = fopen(list, "r");
    if (f) { /* counted by character: a line may be longer than any buffer */
        int c, prev = '\n';
        while ((c = getc(f)) != EOF) {
            n += c == '\n' && prev != '\n';
            prev = c;
        }
        n += prev != '\n'; /* a last line without its line break */
        fclose(f);
        return n;
    }
    snprintf(list, len, "%s/collsim.sbatch", dir);
    if (!(f = fopen(list, "r")))
        return 0;
    while (!n && fgets(line, sizeof line, f))
        if (sscanf(line, "#SBATCH --array=0-%ld", &last) == 1)
            n = last + 1;
    fclose(f);
    return n;
}

/* The tasks of the emitted job list beside the inputs that bring no row (not
 * given, or empty), named on f. Returns their count; 0 also when the inputs
 * are not one emitted sweep's tasks (then nothing says what to expect). */
static long missing_tasks(FILE *f, const char *const *inputs, int ninputs, const size_t *rows)
{
    size_t dirlen = 0, len;
    char dir[4096], list[4200];
    for (int i = 0; i < ninputs; i++) {
        if (task_of(inputs[i], &len) < 0 ||
            (i && (len != dirlen || strncmp(inputs[i], inputs[0], len))))
            return 0; /* not one sweep's tasks */
        dirlen = len;
    }
    snprintf(dir, sizeof dir, "%.*s", (int)dirlen, dirlen ? inputs[0] : ".");
    long m = emitted_tasks(dir, list, sizeof list);
    if (m <= 0 || m > 10000000)
        return 0;
    char *has = cs_xmalloc((size_t)m);
    memset(has, 0, (size_t)m);
    for (int i = 0; i < ninputs; i++) {
        long k = task_of(inputs[i], &len);
        if (k < m && rows[i])
            has[k] = 1;
    }
    long miss = 0;
    for (long k = 0; k < m; k++)
        miss += !has[k];
    if (miss) {
        fprintf(f, "collsim: merge: %ld of %ld task files missing or empty (%s runs %ld "
                   "tasks): %s/tasks/K/results.csv for K = ",
                miss, m, list, m, dir);
        /* runs of missing tasks as ranges: 40 of 48 is one short line; then the
         * command that runs them again (sbatch's array indices are K, jobs.txt's
         * lines K + 1) */
        char *ranges = NULL, *lines = NULL;
        size_t rl = 0, ll = 0;
        FILE *r = open_memstream(&ranges, &rl), *l = open_memstream(&lines, &ll);
        for (long k = 0, sep = 0; k < m; k++) {
            if (has[k])
                continue;
            long j = k;
            while (j + 1 < m && !has[j + 1])
                j++;
            fprintf(f, "%s%ld", sep ? ", " : "", k);
            fprintf(r, "%s%ld", sep ? "," : "", k);
            fprintf(l, "%s%ld", sep++ ? ";" : "", k + 1);
            if (j > k) {
                fprintf(f, "-%ld", j);
                fprintf(r, "-%ld", j);
                fprintf(l, ",%ld", j + 1);
            }
            fputc('p', l);
            k = j;
        }
        fclose(r);
        fclose(l);
        const size_t ln = strlen(list);
        if (ln > 6 && !strcmp(list + ln - 6, "sbatch"))
            fprintf(f, "; run them again: sbatch --array=%s %s\n", ranges, list);
        else
            fprintf(f, "; run them again: sed -n '%s' %s | parallel\n", lines, list);
        free(ranges);
        free(lines);
    }
    free(has);
    return miss;
}

/* Whether out is one of the inputs (the same file, however spelled: a link, "./", another
 * path): writing the merge there would replace that input's rows with every input's, and the
 * next merge would find them twice. -1 (err) then. */
static int out_is_an_input(const char *const *inputs, int ninputs, const char *out, cs_err *err)
{
    struct stat o, in;
    if (stat(out, &o))
        return 0; /* a new file is no input */
    for (int i = 0; i < ninputs; i++)
        if (!stat(inputs[i], &in) && in.st_dev == o.st_dev && in.st_ino == o.st_ino)
            return cs_fail(err, "merge: --out %s is the input %s (the same file): the merge would "
                                "replace its rows; write the merge to a new file (e.g. --out "
                                "DIR/results.csv beside DIR/tasks/)",
                           out, inputs[i]);
    return 0;
}

/* One row of the merge: the input it came from and its line there. */
typedef struct {
    int input;
    long line;
} origin;

/* Each key given more than once, named with the files and lines of two of its rows, on f:
 * how many keys. */
static size_t name_dups(FILE *f, const cs_result **v, size_t n, const cs_result *all,
                        const origin *from, const char *const *inputs)
{
    size_t dups = 0;
    for (size_t i = 1; i < n; i++) {
        if (cs_key_cmp(v[i - 1], v[i]))
            continue;
        char key[512];
        const origin *a = &from[v[i - 1] - all], *b = &from[v[i] - all];
        cs_key_format(v[i], key, sizeof key);
        if (a->input == b->input)
            fprintf(f, "collsim: merge: %s is on lines %ld and %ld of %s\n", key, a->line,
                    b->line, inputs[a->input]);
        else
            fprintf(f, "collsim: merge: %s is in both %s (line %ld) and %s (line %ld)\n", key,
                    inputs[a->input], a->line, inputs[b->input], b->line);
        dups += i < 2 || cs_key_cmp(v[i - 2], v[i - 1]); /* each key once */
    }
    return dups;
}

int cs_merge_files(FILE *f, const char *const *inputs, int ninputs, const char *out, int strict,
                   cs_err *err)
{
    if (ninputs < 1)
        return cs_fail(err, "merge needs at least one results file (e.g. DIR/tasks/*/results.csv)");
    if (out_is_an_input(inputs, ninputs, out, err))
        return -1;
    cs_result *all = NULL;
    origin *from = NULL; /* of each row, to name both places of a duplicate */
    size_t n = 0, *nrows = cs_xmalloc((size_t)ninputs * sizeof *nrows);
    for (int i = 0; i < ninputs; i++) {
        cs_results_file in;
        /* keys given twice, in one input or two, are named below with their places */
        if (cs_results_load(inputs[i], CS_READ_DUPS, &in, err)) {
            free(all);
            free(from);
            free(nrows);
            return -1;
        }
        const size_t k = in.n;
        nrows[i] = k;
        all = cs_xrealloc(all, (n + k + 1) * sizeof *all);
        from = cs_xrealloc(from, (n + k + 1) * sizeof *from);
        if (k) /* a file of a header alone reads as no rows and NULL */
            memcpy(all + n, in.rows, k * sizeof *in.rows);
        for (size_t q = 0; q < k; q++)
            from[n + q] = (origin){i, in.lines[q]};
        n += k;
        cs_results_file_free(&in);
    }
    const cs_result **v = cs_sort_by_key(all, n);
    size_t notok = 0;
    for (size_t i = 0; i < n; i++)
        notok += strcmp(v[i]->status, "ok") != 0;
    const size_t dups = name_dups(f, v, n, all, from, inputs);
    int rc = 0;
    /* --strict: a task that brought no row leaves the merge incomplete, so nothing is written */
    long missing = dups ? 0 : missing_tasks(f, inputs, ninputs, nrows);
    if (dups) {
        fprintf(f, "collsim: merge: %zu (case, size) key%s given twice; %s not written (merge "
                   "each task's results once)\n",
                dups, dups > 1 ? "s" : "", out);
        rc = 1;
    } else if (missing && strict) {
        fprintf(f, "collsim: merge --strict: %ld task%s brought no row; %s not written (run "
                   "them, or merge without --strict)\n",
                missing, missing > 1 ? "s" : "", out);
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
    free(nrows);
    return rc;
}
