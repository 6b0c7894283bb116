#include "cli_check.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "cs_error.h"
#include "expect_points.h"
#include "merge.h"
#include "outdir.h"
#include "regression.h"
#include "resume.h"
#include "scenario.h"

/* One line on stderr, exit code 2. */
static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "collsim: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

static int die(const cs_err *e)
{
    fprintf(stderr, "collsim: %s\n", e->msg);
    return 2;
}

/* The one-line warning of rows of no case of the scenario the results'
 * directory records (a file that does not read is left to the command). */
static void warn_foreign_recorded(const char *cmd, const char *path)
{
    cs_result *rows;
    size_t n;
    cs_err e;
    if (cs_results_read(path, &rows, &n, &e))
        return;
    cs_warn_foreign_recorded(stderr, cmd, path, rows, n);
    free(rows);
}

/* Expectations of a scenario on a complete results file: a missing row is a
 * failure here (nothing was deliberately left out). */
static int check_expectations(const char *results, const char *scenario)
{
    cs_scenario s;
    cs_err e;
    cs_result *rows;
    size_t n;
    if (cs_scenario_load(scenario, &s, &e))
        return die(&e);
    if (!s.nexpects) {
        fprintf(stderr, "collsim: check: %s has no <expect> element: nothing to check\n", scenario);
        cs_scenario_free(&s);
        return 2;
    }
    if (cs_results_read(results, &rows, &n, &e)) {
        cs_scenario_free(&s);
        return die(&e);
    }
    cs_warn_foreign(stderr, "check", results, rows, n, &s);
    int failed = cs_scenario_expect_check(stdout, &s, rows, n, 0);
    free(rows);
    cs_scenario_free(&s);
    return failed ? 1 : 0;
}

int cs_cmd_check(int argc, char **argv)
{
    const char *results = NULL, *baseline = NULL, *scenario = NULL;
    cs_check_opts o = {1e-9, 0};
    int update = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--baseline") && v) { baseline = v; i++; }
        else if (!strcmp(a, "--scenario") && v) { scenario = v; i++; }
        else if (!strcmp(a, "--rtol") && v) {
            char *end;
            errno = 0;
            o.rtol = strtod(v, &end);
            if (end == v || *end || errno || !(o.rtol >= 0) || isinf(o.rtol))
                return bad("--rtol needs a relative tolerance >= 0, such as 1e-9 (got '%s')", v);
            i++;
        }
        else if (!strcmp(a, "--strict")) o.strict = 1;
        else if (!strcmp(a, "--update")) update = 1;
        else if (a[0] != '-' && !results) results = a;
        else
            return bad("check: unexpected argument '%s' (usage: check RESULTS.csv [--baseline "
                       "BASE.csv [--rtol X] [--strict] [--update]] [--scenario FILE.xml])", a);
    }
    if (!results)
        return bad("check needs a results file: check RESULTS.csv --baseline BASE.csv");
    if (!baseline && !scenario)
        return bad("check %s: compare with what? give --baseline BASE.csv and/or --scenario "
                   "FILE.xml", results);
    if (update && !baseline)
        return bad("check %s --update: rewrites the baseline, so it needs --baseline BASE.csv",
                   results);
    int rc = 0;
    cs_err e;
    if (!scenario)
        warn_foreign_recorded("check", results);
    if (baseline) {
        struct stat st;
        if (update && stat(baseline, &st)) {
            /* a first baseline: nothing to compare with yet */
            rc = 0;
        } else {
            rc = cs_check_files(stdout, results, baseline, &o, &e);
            if (rc < 0)
                return die(&e);
        }
        if (update) {
            if (cs_baseline_update(stdout, results, baseline, &e))
                return die(&e);
            rc = 0; /* the baseline now says what the results say */
        }
    }
    if (scenario) {
        int x = check_expectations(results, scenario);
        if (x == 2)
            return 2;
        rc |= x;
    }
    return rc;
}

int cs_cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    const char **inputs = cs_xmalloc((size_t)(argc + 1) * sizeof *inputs);
    int n = 0, strict = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--strict")) {
            strict = 1;
        } else if (argv[i][0] == '-') {
            free(inputs);
            return bad("merge: unexpected argument '%s' (usage: merge FILE.csv... --out "
                       "MERGED.csv [--strict])", argv[i]);
        } else {
            inputs[n++] = argv[i];
        }
    }
    int rc;
    cs_err e;
    if (!out)
        rc = bad("merge needs --out MERGED.csv (e.g. merge DIR/tasks/*/results.csv --out "
                 "DIR/results.csv)");
    else {
        /* each task's rows against the scenario its directory records */
        for (int i = 0; i < n; i++)
            warn_foreign_recorded("merge", inputs[i]);
        if ((rc = cs_merge_files(stdout, inputs, n, out, strict, &e)) < 0)
            rc = die(&e);
    }
    free(inputs);
    return rc;
}

/* The first of PATH.orig, PATH.orig.1, ... that does not exist. */
static void free_name(const char *path, char *out, size_t len)
{
    struct stat st;
    snprintf(out, len, "%s.orig", path);
    for (int k = 1; !stat(out, &st); k++)
        snprintf(out, len, "%s.orig.%d", path, k);
}

int cs_cmd_repair(int argc, char **argv)
{
    if (argc != 1 || argv[0][0] == '-')
        return bad("repair takes one results file: repair DIR/results.csv");
    const char *path = argv[0];
    cs_err e;
    /* the directory's lock: a sweep still writing the file must end first */
    char dir[2048];
    cs_dir_of(path, dir, sizeof dir);
    /* a sweep writing the file holds DIR/sweep.lock; without that file no
     * sweep writes there, and none is made (the file may be a baseline) */
    char lockfile[2100];
    snprintf(lockfile, sizeof lockfile, "%s/" CS_OUTDIR_LOCK, dir);
    struct stat st;
    int lock = -1;
    /* the lock first: a sweep holds it before its first row is in the file */
    if (!stat(lockfile, &st) && (lock = cs_outdir_lock(dir, &e)) < 0)
        return die(&e);
    if (stat(path, &st)) {
        const int err = errno;
        if (lock >= 0)
            close(lock);
        return bad("repair: cannot read %s: %s", path, strerror(err));
    }
    cs_results_file f;
    int rc = 0;
    /* what the other readers refuse: the rows given twice, an incomplete last row, the lines
     * holding NUL bytes; any other damage stays an error naming its line */
    if (cs_results_load(path, CS_READ_TORN | CS_READ_DAMAGED | CS_READ_DUPS, &f, &e)) {
        if (lock >= 0)
            close(lock);
        return die(&e);
    }
    const size_t n = f.n, keys = cs_results_dup_keys(f.rows, n, NULL, 0);
    if (!keys && !f.torn && !f.ndamaged) {
        printf("%s: every row reads and every case is given once (%zu rows); nothing to repair\n",
               path, n);
    } else {
        char orig[2100], *dropped = NULL, what[512] = "";
        size_t len = 0;
        free_name(path, orig, sizeof orig);
        FILE *log = open_memstream(&dropped, &len);
        for (size_t i = 0; i < f.ndamaged; i++)
            fprintf(log ? log : stderr, "  dropped line %ld: %s\n", f.damaged[i].line,
                    f.damaged[i].why);
        size_t keep = keys ? cs_results_dedupe(f.rows, n, NULL, log ? log : stderr) : n;
        if (log)
            fclose(log);
        if (f.ndamaged)
            snprintf(what, sizeof what, "%zu line%s holding NUL bytes (what a crash that "
                     "zero-fills part of a file leaves) dropped (listed above); ", f.ndamaged,
                     f.ndamaged > 1 ? "s" : "");
        if (f.torn)
            snprintf(what + strlen(what), sizeof what - strlen(what), "an incomplete last row "
                     "(%ld bytes, as a run killed while writing leaves) dropped; ", f.torn);
        if (keys)
            snprintf(what + strlen(what), sizeof what - strlen(what), "%zu (case, size) key%s "
                     "given more than once; kept one row each (a passing one first), dropped "
                     "%zu row%s (listed above); ", keys, keys > 1 ? "s were" : " was", n - keep,
                     n - keep > 1 ? "s" : "");
        /* the original stays where it is until the new file replaces it */
        if (link(path, orig))
            rc = bad("repair: cannot keep %s as %s: %s (nothing changed)", path, orig,
                     strerror(errno));
        else if (cs_results_write_file(path, f.rows, keep, &e))
            rc = die(&e);
        else
            printf("%s%s: %sthe file as it was is %s\n", dropped ? dropped : "", path, what, orig);
        free(dropped);
    }
    cs_results_file_free(&f);
    if (lock >= 0)
        close(lock);
    return rc;
}

int cs_cmd_compare(int argc, char **argv)
{
    if (argc != 2)
        return bad("compare needs two files: MEASURED.csv (collsim-mpibench --csv) PREDICTED.csv "
                   "(a simulation's results.csv)");
    cs_result *m, *p;
    size_t nm, np;
    cs_err e;
    if (cs_results_read(argv[0], &m, &nm, &e))
        return die(&e);
    if (cs_results_read(argv[1], &p, &np, &e)) {
        free(m);
        return die(&e);
    }
    /* a measurement (collsim-mpibench) has no platform, a prediction has one */
    size_t m_placed = 0, p_placed = 0;
    for (size_t i = 0; i < nm; i++)
        m_placed += m[i].platform[0] != 0;
    for (size_t i = 0; i < np; i++)
        p_placed += p[i].platform[0] != 0;
    if (nm && np && m_placed == nm && !p_placed) {
        free(m);
        free(p);
        return bad("compare: %s holds simulated rows (each names a platform) and %s measured ones "
                   "(none does): the measured file comes first (compare MEASURED.csv PREDICTED.csv)",
                   argv[0], argv[1]);
    }
    const size_t pairs = cs_compare_print(stdout, m, nm, p, np);
    free(m);
    free(p);
    if (!pairs)
        return bad("compare: no case of %s has a prediction in %s (a case: collective, algorithm, "
                   "np, bytes, dtype and the v- and intergroup parameters)", argv[0], argv[1]);
    return 0;
}
