/* Fuzz target: the results CSV reader (core/results.c: every command's, check's and merge's,
 * which reads keys given twice, and repair's, which also leaves out a torn last row and the
 * lines of NUL bytes) on arbitrary bytes: every line after the header must be read, blank, or
 * named; what they read goes on through repair's one-row-per-key and merge (written, then read
 * again). The same bytes then go through what
 * `run --resume` does with an earlier results.csv (sim/host/run/resume.c: open_results), as the file
 * of a sweep of scenarios/regression-small.xml, whose baseline is a seed; nothing simulates. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "merge.h"
#include "regression.h"
#include "results.h"
#include "resume.h"
#include "runner.h"

/* The known scenario's cases, expanded once (its platforms are among the small ones of
 * fuzz_common.c). */
static const cs_caselist *known_cases(void)
{
    static cs_scenario s;
    static cs_caselist list;
    static int loaded;
    if (!loaded) {
        cs_err err = {""};
        cs_run_opts o = {.out_dir = ".", .resume = 1};
        if (cs_scenario_load(COLLSIM_SOURCE_DIR "/scenarios/regression-small.xml", &s, &err) ||
            cs_expand_cases(&s, &o, &list, &err)) {
            fprintf(stderr, "collsim fuzz: the known scenario: %s\n", err.msg);
            abort();
        }
        loaded = 1;
    }
    return &list;
}

/* open_results with --resume on the input as DIR/results.csv (its progress lines, on stdout,
 * go to /dev/null): 0 or one line naming the file; opened, the rows it returns are sorted, one
 * per key, none of an error of a case it runs again nor (unless accept_changes) of no case,
 * and the file now reads back as those rows under the current header. */
static void resume_reader(const uint8_t *data, size_t size, const char *dir, int accept_changes)
{
    char csv[2048], written[2048];
    const cs_caselist *list = known_cases();
    snprintf(csv, sizeof csv, "%s/results.csv", dir);
    FILE *f = fopen(csv, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
        perror("collsim fuzz: writing the input");
        abort();
    }
    cs_run_opts o = {.out_dir = dir, .resume = 1, .accept_changes = accept_changes};
    cs_result *old = NULL;
    size_t nold = 0;
    cs_err err = {""};
    fflush(stdout);
    int out = dup(1), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    int fd = open_results(&o, list, written, &old, &nold, &err);
    fflush(stdout);
    dup2(out, 1);
    close(out);
    close(null);
    cs_fuzz_outcome(fd < 0 ? -1 : 0, &err, csv);
    if (fd >= 0) {
        close(fd);
        size_t first, nerrors = 0;
        int sorted = 1;
        cs_result *errors = malloc((nold ? nold : 1) * sizeof *errors);
        for (size_t i = 0; i + 1 < nold; i++)
            sorted &= cs_key_cmp(&old[i], &old[i + 1]) < 0;
        for (size_t i = 0; i < nold; i++)
            if (!strcmp(old[i].status, "error"))
                errors[nerrors++] = old[i];
        cs_fuzz_require(sorted, "--resume's rows are not sorted one per key", csv);
        cs_fuzz_require(cs_rows_foreign(errors, nerrors, list, &first) == nerrors,
                        "--resume kept an error row of a case it runs again", csv);
        free(errors);
        cs_fuzz_require(accept_changes || !cs_rows_foreign(old, nold, list, &first),
                        "--resume kept rows of no case of the scenario", csv);
        char head[CS_RESULTS_HEADER_SIZE + 1] = "";
        f = fopen(csv, "r");
        cs_fuzz_require(f && fgets(head, sizeof head, f) && !strncmp(head, CS_RESULTS_HEADER,
                                                                     CS_RESULTS_HEADER_SIZE - 1) &&
                            !strcmp(head + CS_RESULTS_HEADER_SIZE - 1, "\n"),
                        "--resume left the file without the current header", csv);
        fclose(f);
        cs_result *back;
        size_t nback;
        cs_err berr = {""};
        int brc = cs_results_read(csv, &back, &nback, &berr);
        cs_fuzz_require(!brc && nback == nold, "--resume left a file that does not read back as "
                                               "the rows it resumes from", csv);
        const cs_result **by_key = brc ? NULL : cs_sort_by_key(back, nback);
        for (size_t i = 0; by_key && i < nback; i++)
            cs_fuzz_require(!cs_key_cmp(by_key[i], &old[i]),
                            "--resume left rows in the file other than those it resumes from", csv);
        free(by_key);
        if (!brc)
            free(back);
    }
    free(old);
    /* open_results may rewrite the file (a temporary file renamed over it) */
    unlink(csv);
}

/* The input's lines after the header, counted here, apart from the reader: split at each \n
 * (a last line without one counts), blank those with nothing before their \n or \r\n. */
static void count_lines(const uint8_t *data, size_t size, long *rows, long *blank)
{
    long lines = 0;
    *blank = 0;
    for (size_t i = 0, start = 0; i < size; i++)
        if (data[i] == '\n' || i + 1 == size) {
            const size_t body = i - start + (data[i] != '\n');
            if (lines++ && (body == 0 || (body == 1 && data[start] == '\r')))
                ++*blank;
            start = i + 1;
        }
    *rows = lines ? lines - 1 : 0;
}

/* The line a reader's error names ("PATH:L: ..."), or 0 when it names none. */
static long line_named(const cs_err *err, const char *path)
{
    const char *at = strstr(err->msg, path);
    long line = 0;
    if (at && at[strlen(path)] == ':' && sscanf(at + strlen(path) + 1, "%ld:", &line) != 1)
        line = 0;
    return line;
}

/* Nothing read is dropped unnamed: every line after the header is a row (at its line, in file
 * order), blank, or left out and named (damaged, torn); a refusal names a line of the file. */
static void every_line_accounted(int rc, const cs_err *err, const cs_results_file *f,
                                 const uint8_t *data, size_t size, const char *path)
{
    long rows, blank, line = line_named(err, path);
    count_lines(data, size, &rows, &blank);
    if (rc) {
        cs_fuzz_require(line <= rows + 1, "its error names a line past the file's end", path);
        return;
    }
    cs_fuzz_require((long)(f->n + f->ndamaged) + (f->torn > 0) + blank == rows,
                    "a line is neither a row, blank nor named (dropped without a word)", path);
    for (size_t i = 0; i < f->n; i++)
        cs_fuzz_require(f->lines[i] >= 2 && f->lines[i] <= rows + 1 &&
                            (!i || f->lines[i] > f->lines[i - 1]),
                        "a row's line is not in the file, or out of order", path);
}

/* The readers, repair and merge on the input written at path. */
static void readers(const uint8_t *data, size_t size, const char *path)
{
    cs_results_file strict, dups, mend;
    cs_err err = {""}, derr = {""}, merr = {""};
    /* every command's reader; check's and merge's (keys given twice read); repair's (an
     * incomplete last row and the lines of NUL bytes left out, listed) */
    int rc = cs_results_load(path, 0, &strict, &err);
    int drc = cs_results_load(path, CS_READ_DUPS, &dups, &derr);
    int mrc = cs_results_load(path, CS_READ_DUPS | CS_READ_TORN | CS_READ_DAMAGED, &mend, &merr);
    cs_fuzz_outcome(rc, &err, path);
    cs_fuzz_outcome(drc, &derr, path);
    cs_fuzz_outcome(mrc, &merr, path);
    every_line_accounted(rc, &err, &strict, data, size, path);
    every_line_accounted(drc, &derr, &dups, data, size, path);
    every_line_accounted(mrc, &merr, &mend, data, size, path);
    /* what a stricter reader reads whole, a more lenient one reads the same, leaving out nothing */
    if (!rc)
        cs_fuzz_require(!drc && dups.n == strict.n, "check's reader disagrees on a whole file", path);
    if (!drc)
        cs_fuzz_require(!mrc && mend.n == dups.n && !mend.torn && !mend.ndamaged,
                        "repair's reader disagrees on a whole file", path);
    cs_fuzz_require(!rc || (!strict.rows && !strict.n), "it failed and still returned rows", path);
    cs_fuzz_require(!rc || !cs_results_dup_keys(strict.rows, strict.n, NULL, 0),
                    "every command's reader read a key twice", path);
    for (size_t i = 0; i < mend.n; i++) {
        const cs_result *r = &mend.rows[i];
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
    size_t n = mend.n, keys = cs_results_dup_keys(mend.rows, n, NULL, 0);
    size_t keep = cs_results_dedupe(mend.rows, n, NULL, NULL);
    cs_fuzz_require(keep <= n && (keys || keep == n) && !cs_results_dup_keys(mend.rows, keep, NULL, 0),
                    "repair's one row per key lost a key or kept one twice", path);
    /* merge of the file alone: what it writes reads again, every row */
    if (!rc) {
        char out[1200];
        const char *slash = strrchr(path, '/');
        snprintf(out, sizeof out, "%.*s/merged.csv", (int)(slash ? slash - path : 1),
                 slash ? path : ".");
        FILE *log = fopen("/dev/null", "w");
        const char *in[1] = {path};
        cs_err gerr = {""};
        int grc = cs_merge_files(log ? log : stderr, in, 1, out, 0, &gerr);
        if (log)
            fclose(log);
        cs_fuzz_outcome(grc < 0 ? -1 : 0, &gerr, path);
        if (grc >= 0) {
            cs_result *back;
            size_t nback;
            cs_err berr = {""};
            int brc = cs_results_read(out, &back, &nback, &berr);
            cs_fuzz_require(!brc && nback == strict.n, "merge wrote a file that does not read back",
                            path);
            if (!brc)
                free(back);
        }
        remove(out);
    }
    cs_results_file_free(&strict);
    cs_results_file_free(&dups);
    cs_results_file_free(&mend);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = cs_fuzz_file(data, size, "fuzz.csv");
    readers(data, size, path);
    /* --resume, beside the input in a directory of its own: refusing rows of no case of the
     * scenario, then keeping them (--accept-changes) */
    char dir[1200];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s/resume", (int)(slash - path), path);
    if (mkdir(dir, 0700) && errno != EEXIST) {
        perror("collsim fuzz: mkdir");
        abort();
    }
    resume_reader(data, size, dir, 0);
    resume_reader(data, size, dir, 1);
    rmdir(dir);
    return 0;
}
