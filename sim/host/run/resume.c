/* The results directory of a sweep: OUT/results.csv written case by case so
 * that a killed run resumes without losing or repeating a case, and
 * OUT/platforms.csv, the platforms' fits for the report. */
#include "resume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fits.h"
#include "outdir.h"
#include "postal.h"
#include "region_rows.h"
#include "regression.h"

static int key_qsort(const void *a, const void *b) { return cs_key_cmp(a, b); }

/* Whether a row with r's key is among the sorted rows of the resumed file. */
int have_row(const cs_result *r, const cs_result *sorted, size_t n)
{
    return n && bsearch(r, sorted, n, sizeof *sorted, key_qsort) != NULL;
}

/* A case is recorded when a row exists for each of its sizes. */
int recorded(const cs_case *c, const cs_result *sorted, size_t n)
{
    for (size_t i = 0; i < c->sizes->n; i++) {
        cs_result probe;
        cs_case_row(c, c->np, c->sizes->v[i], &probe);
        if (!have_row(&probe, sorted, n))
            return 0;
    }
    return 1;
}

/* One case's rows reach the file in a single write(2) on an O_APPEND
 * descriptor, so a sweep killed between cases never leaves part of a case;
 * rows the resumed file already holds are not written twice. */
int append_rows(int fd, const char *path, const cs_result *rows, size_t n,
                const cs_result *old, size_t nold, cs_err *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return cs_fail(err, "cannot format rows for %s: %s", path, strerror(errno));
    for (size_t i = 0; i < n; i++)
        if (!have_row(&rows[i], old, nold))
            cs_results_write_row(m, &rows[i]);
    fclose(m);
    int rc = 0;
    for (size_t off = 0; off < len && !rc;) {
        ssize_t w = write(fd, buf + off, len - off);
        if (w < 0 && errno != EINTR)
            rc = cs_fail(err, "cannot write %s: %s", path, strerror(errno));
        else if (w > 0)
            off += (size_t)w;
    }
    free(buf);
    return rc;
}

/* A run killed inside a write can leave an incomplete last line: cut it off
 * (its case is then not recorded and runs again) so that the file reads. */
static int drop_torn_tail(const char *path, cs_err *err)
{
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return cs_fail(err, "cannot open %s: %s", path, strerror(errno));
    off_t end = lseek(fd, 0, SEEK_END), keep = end;
    char c = '\n';
    while (keep > 0 && pread(fd, &c, 1, keep - 1) == 1 && c != '\n')
        keep--;
    int rc = 0;
    if (keep < end) {
        if (ftruncate(fd, keep))
            rc = cs_fail(err, "cannot repair %s: %s", path, strerror(errno));
        else
            printf("# %s: dropped an incomplete last line (%ld bytes) left by an interrupted run\n",
                   path, (long)(end - keep));
    }
    close(fd);
    return rc;
}

/* Whether one of the cases, at one of its sizes, has r's key. */
static int row_of_cases(const cs_result *r, const cs_case *cases, size_t ncases)
{
    for (size_t c = 0; c < ncases; c++)
        for (size_t i = 0; i < cases[c].sizes->n; i++) {
            cs_result probe;
            cs_case_row(&cases[c], cases[c].np, cases[c].sizes->v[i], &probe);
            if (!cs_key_cmp(r, &probe))
                return 1;
        }
    return 0;
}

/* Rows with status "error" say a case could not run here (no memory, could
 * not start, the simulator died): a resumed sweep runs those cases again, so
 * their rows leave the file first (rewritten whole, then renamed over it).
 * Only cases this run will run (after --only) lose theirs. Failed data checks
 * and timeouts stay: running them again changes nothing. */
static int drop_error_rows(const char *path, cs_result *rows, size_t *n, const cs_case *cases,
                           size_t ncases, cs_err *err)
{
    size_t keep = 0;
    for (size_t i = 0; i < *n; i++)
        if (strcmp(rows[i].status, "error") || !row_of_cases(&rows[i], cases, ncases))
            rows[keep++] = rows[i];
    if (keep == *n)
        return 0;
    if (cs_results_write_file(path, rows, keep, err))
        return -1;
    printf("# %s: %zu row%s recorded as errors dropped; their cases run again\n", path, *n - keep,
           *n - keep > 1 ? "s" : "");
    *n = keep;
    return 0;
}

/* A file written before <region> stopped sweeping the algorithms that take
 * no region holds such a case once per level, each row carrying its level.
 * Resumed, each becomes the one case `run` now makes of it: the region
 * cleared, one row kept per key (the copies were the same simulation), the
 * file rewritten (then renamed over it). So those cases are recorded: nothing
 * runs again, and nothing is written twice. */
static int clear_stale_regions(const char *path, cs_result *rows, size_t *n, cs_err *err)
{
    char names[512];
    cs_rows_stale_algorithms(rows, *n, names, sizeof names);
    size_t dropped, stale = cs_rows_clear_stale_regions(rows, n, &dropped);
    if (!stale)
        return 0;
    if (cs_results_write_file(path, rows, *n, err))
        return -1;
    printf("# %s: %zu row%s of algorithms that take no region (%s) carried a region level "
           "(written before <region> stopped sweeping them): kept once each with an empty "
           "region, %zu cop%s at other levels dropped; those cases are not run again\n",
           path, stale, stale > 1 ? "s" : "", names, dropped, dropped == 1 ? "y" : "ies");
    return 0;
}

size_t cs_rows_foreign(const cs_result *rows, size_t n, const cs_caselist *list, size_t *first)
{
    size_t nkeys = 0;
    for (size_t c = 0; c < list->nall; c++)
        nkeys += list->all[c].sizes->n;
    cs_result *keys = cs_xmalloc((nkeys ? nkeys : 1) * sizeof *keys);
    nkeys = 0;
    for (size_t c = 0; c < list->nall; c++)
        for (size_t i = 0; i < list->all[c].sizes->n; i++)
            cs_case_row(&list->all[c], list->all[c].np, list->all[c].sizes->v[i], &keys[nkeys++]);
    qsort(keys, nkeys, sizeof *keys, key_qsort);
    size_t foreign = 0;
    *first = 0;
    for (size_t i = 0; i < n; i++)
        if (!have_row(&rows[i], keys, nkeys) && !foreign++)
            *first = i;
    free(keys);
    return foreign;
}

/* Rows of no case of the scenario (another sweep's rows appended to the file,
 * another platform, another algorithm) would be kept beside this sweep's and
 * reported as its own: refused, unless the scenario was changed on purpose
 * (--accept-changes), when the rows of the cases it no longer has are kept. */
static int refuse_foreign(const char *path, const cs_result *rows, size_t n,
                          const cs_caselist *list, int accept_changes, cs_err *err)
{
    size_t first, foreign = cs_rows_foreign(rows, n, list, &first);
    if (!foreign)
        return 0;
    char key[512];
    cs_key_format(&rows[first], key, sizeof key);
    if (accept_changes) {
        printf("# %s: %zu row%s of no case of the scenario as it is now (e.g. %s): kept\n", path,
               foreign, foreign > 1 ? "s" : "", key);
        return 0;
    }
    return cs_fail(err, "%s: %zu row%s of no case of this scenario (e.g. %s): another sweep's "
                        "rows, which --resume would mix with these; move %s to a file of "
                        "%s own, or give --force to start afresh",
                   path, foreign, foreign > 1 ? "s" : "", key, foreign > 1 ? "them" : "it",
                   foreign > 1 ? "their" : "its");
}

size_t cs_warn_foreign(FILE *f, const char *cmd, const char *path, const cs_result *rows,
                       size_t n, const cs_scenario *s)
{
    /* <vary> writes its platform variants into a results directory: not
     * for a command that only reads one */
    cs_caselist list;
    cs_run_opts o = {.out_dir = "."};
    cs_err e;
    if (s->has_vary || cs_expand_cases(s, &o, &list, &e))
        return 0;
    size_t first, foreign = cs_rows_foreign(rows, n, &list, &first);
    cs_caselist_free(&list);
    if (!foreign)
        return 0;
    char key[512];
    cs_key_format(&rows[first], key, sizeof key);
    fprintf(f, "collsim: %s: warning: %s holds %zu row%s of no case of scenario '%s' (%s), e.g. "
               "%s: another sweep's rows, taken here as this one's; move %s to a file of %s "
               "own\n",
            cmd, path, foreign, foreign > 1 ? "s" : "", s->name, s->path, key,
            foreign > 1 ? "them" : "it", foreign > 1 ? "their" : "its");
    return foreign;
}

size_t cs_warn_foreign_recorded(FILE *f, const char *cmd, const char *path, const cs_result *rows,
                                size_t n)
{
    char dir[2048];
    cs_dir_of(path, dir, sizeof dir);
    /* the scenario as its rows were written: recorded, its file unchanged and
     * no change accepted since (then the rows of its earlier cases belong) */
    cs_outdir_record rec;
    cs_err e;
    char hash[17];
    if (cs_outdir_record_read(dir, &rec, &e) <= 0 || rec.earlier[0] || !rec.file[0] ||
        cs_scenario_hash(rec.file, hash, &e) || strcmp(hash, rec.hash))
        return 0;
    cs_scenario s;
    if (cs_scenario_load(rec.file, &s, &e))
        return 0;
    size_t foreign = cs_warn_foreign(f, cmd, path, rows, n, &s);
    cs_scenario_free(&s);
    return foreign;
}

/* A file written before a column existed reads (its rows take the default),
 * but rows appended under its old header would not: it is rewritten with
 * today's header first. */
static int update_header(const char *path, const cs_result *rows, size_t n, cs_err *err)
{
    char line[CS_RESULTS_HEADER_SIZE + 8] = ""; /* room for a byte-order mark */
    FILE *f = fopen(path, "r");
    if (!f)
        return cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    line[strcspn(line, "\n")] = 0;
    /* \r\n line ends: the rows appended would end in \n alone; the file is rewritten in one */
    const size_t len = strlen(line);
    const int crlf = len && line[len - 1] == '\r';
    line[len - crlf] = 0;
    const char *head = cs_skip_bom(line);
    if (head == line && !crlf && !strcmp(line, CS_RESULTS_HEADER))
        return 0;
    if (cs_results_write_file(path, rows, n, err))
        return -1;
    if (head == line && crlf && !strcmp(head, CS_RESULTS_HEADER))
        printf("# %s: rewritten with \\n line ends (it had \\r\\n), %zu rows kept\n", path, n);
    else if (head != line && !strcmp(head, CS_RESULTS_HEADER))
        printf("# %s: rewritten without the byte-order mark before its header (what spreadsheet "
               "programs write), %zu rows kept\n", path, n);
    else
        printf("# %s: rewritten with the current columns (written by an earlier collsim)\n", path);
    return 0;
}

/* --force starts afresh: the previous rows are kept as results.csv.N and
 * their cases' files as cases.N (the first N free for both, as demo keeps
 * DIR.N), so that nothing is lost and cases/ holds this sweep's alone. */
static int keep_previous(const char *dir, const char *csv_path, cs_err *err)
{
    struct stat st;
    int rows = !stat(csv_path, &st) && st.st_size > (off_t)CS_RESULTS_HEADER_SIZE;
    char cases[2100], kept_csv[2100], kept_cases[2200];
    snprintf(cases, sizeof cases, "%s/cases", dir);
    int files = !stat(cases, &st);
    if (!rows && !files)
        return 0;
    for (int k = 1;; k++) {
        snprintf(kept_csv, sizeof kept_csv, "%s.%d", csv_path, k);
        snprintf(kept_cases, sizeof kept_cases, "%s.%d", cases, k);
        if (stat(kept_csv, &st) && stat(kept_cases, &st))
            break;
    }
    if (rows && rename(csv_path, kept_csv))
        return cs_fail(err, "cannot keep the previous %s as %s: %s (nothing changed)", csv_path,
                       kept_csv, strerror(errno));
    if (files && rename(cases, kept_cases))
        return cs_fail(err, "cannot move the previous sweep's %s to %s: %s (its rows are kept "
                            "as %s)", cases, kept_cases, strerror(errno), rows ? kept_csv : "-");
    if (rows && files)
        printf("# --force: the previous sweep's rows are kept as %s, its cases' files as %s\n",
               kept_csv, kept_cases);
    else
        printf("# --force: the previous sweep's %s kept as %s\n",
               rows ? "rows are" : "cases' files are", rows ? kept_csv : kept_cases);
    return 0;
}

/* The alpha/beta fits of the platforms this run's cases ran on, beside
 * results.csv, for the report's cost models (analysis does not simulate). A
 * resumed run keeps the rows it has: the same platform file fits the same. */
int write_platform_fits(const cs_caselist *l, const cs_run_opts *o, cs_err *err)
{
    char path[2100];
    snprintf(path, sizeof path, "%s/" CS_FITS_FILE, o->out_dir);
    cs_platform_fit *fits = NULL;
    size_t n = 0;
    if (o->resume && cs_fits_read(path, &fits, &n, err) < 0)
        return -1;
    size_t nold = n;
    for (int p = 0; p < l->npfs; p++) {
        size_t c = 0;
        while (c < l->n && l->v[c].platform != &l->pfs[p])
            c++;
        if (c == l->n || cs_fits_find(fits, nold, l->pfs[p].name))
            continue;
        fits = cs_xrealloc(fits, (n + 1) * sizeof *fits);
        cs_postal_platform_fit(&l->pfs[p], &fits[n++]);
    }
    int rc = n == nold && o->resume ? 0 : cs_fits_write(path, fits, n, err);
    free(fits);
    return rc;
}

/* Opens OUT/results.csv (csv_path, 2048 bytes) for appending: a new file
 * with its header, or with --resume the recorded rows (sorted, for
 * recorded()/have_row()) after repairing what a killed run left. Returns the
 * descriptor, or -1 (err). */
int open_results(const cs_run_opts *o, const cs_caselist *list, char *csv_path,
                 cs_result **old_out, size_t *nold_out, cs_err *err)
{
    snprintf(csv_path, 2048, "%s/results.csv", o->out_dir);
    cs_result *old = NULL;
    size_t nold = 0;
    struct stat st;
    int exists = !stat(csv_path, &st);
    if (exists && o->resume) {
        if (drop_torn_tail(csv_path, err) || stat(csv_path, &st)) {
            return -1;
        }
        exists = st.st_size > 0; /* killed before the header: start afresh */
    }
    if (exists && o->resume) {
        /* the reader refuses rows given twice (two sweeps at once, before the lock existed):
         * which of them holds is the user's call (repair), as for a damaged row */
        if (cs_results_read(csv_path, &old, &nold, err))
            return -1;
        if (clear_stale_regions(csv_path, old, &nold, err) ||
            refuse_foreign(csv_path, old, nold, list, o->accept_changes, err) ||
            drop_error_rows(csv_path, old, &nold, list->v, list->n, err) ||
            update_header(csv_path, old, nold, err)) {
            free(old);
            return -1;
        }
        if (nold) /* a file of a header alone reads as no rows and a null pointer */
            qsort(old, nold, sizeof *old, key_qsort);
    } else if (exists && !o->force) {
        return cs_fail(err, "%s already exists: add --resume to continue that sweep, or --force "
                            "to start a new one (the previous rows are kept as %s.1), or choose "
                            "--out DIR",
                       csv_path, csv_path);
    } else if (o->force && !o->resume && keep_previous(o->out_dir, csv_path, err)) {
        return -1;
    }
    /* close-on-exec: the simulations a sweep starts have no business with it */
    int csv = open(csv_path,
                   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (exists && o->resume ? 0 : O_TRUNC),
                   0644);
    if (csv < 0) {
        free(old);
        return cs_fail(err, "cannot write %s: %s", csv_path, strerror(errno));
    }
    if (!(exists && o->resume)) {
        FILE *h = fdopen(dup(csv), "w");
        if (h) {
            cs_results_write_header(h);
            fclose(h);
        }
    }
    *old_out = old;
    *nold_out = nold;
    return csv;
}
