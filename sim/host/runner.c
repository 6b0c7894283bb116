#include "runner.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "best.h"
#include "bench_case.h"
#include "expect.h"
#include "progress.h"
#include "regression.h"
#include "results.h"
#include "select.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int mkdirs(const char *path, cs_err *err)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) && errno != EEXIST)
                return cs_fail(err, "cannot create %s: %s", buf, strerror(errno));
            *p = '/';
        }
    if (mkdir(buf, 0755) && errno != EEXIST)
        return cs_fail(err, "cannot create %s: %s", buf, strerror(errno));
    return 0;
}

int cs_mkdirs(const char *path, cs_err *err) { return mkdirs(path, err); }

typedef struct {
    cs_case c;
    char workdir[2048];
    pid_t pid;
    double started;
} slot;

/* A case is recorded when a row exists for each of its sizes. */
static int recorded(const cs_case *c, const cs_result *rows, size_t n)
{
    for (size_t i = 0; i < c->sizes->n; i++) {
        cs_result probe;
        cs_case_row(c, c->np, c->sizes->v[i], &probe);
        int found = 0;
        for (size_t k = 0; k < n && !found; k++)
            found = !cs_key_cmp(&rows[k], &probe);
        if (!found)
            return 0;
    }
    return 1;
}

void cs_caselist_free(cs_caselist *l)
{
    for (int i = 0; i < l->npfs; i++)
        cs_platform_free(&l->pfs[i]);
    free(l->pfs);
    free(l->v);
    memset(l, 0, sizeof *l);
}

int cs_expand_cases(const cs_scenario *s, const cs_run_opts *o, cs_caselist *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    /* with <vary>: each platform becomes one generated file per value, kept
     * in OUT/platforms so that any case can be re-run by hand */
    int nvalues = s->has_vary ? s->vary.nvalues : 1, npfs = s->nplatforms * nvalues;
    cs_platform *pfs = cs_xmalloc((size_t)npfs * sizeof(cs_platform));
    char dir[2100];
    snprintf(dir, sizeof dir, "%s/platforms", o->out_dir);
    if (s->has_vary && cs_mkdirs(dir, err)) {
        free(pfs);
        return -1;
    }
    for (int i = 0; i < npfs; i++) {
        const char *base = s->platforms[i / nvalues];
        char *variant = s->has_vary ? cs_vary_write(&s->vary, i % nvalues, base, dir, err) : NULL;
        if ((s->has_vary && !variant) || cs_platform_load(variant ? variant : base, &pfs[i], err)) {
            for (int k = 0; k < i; k++)
                cs_platform_free(&pfs[k]);
            free(pfs);
            free(variant);
            return -1;
        }
        free(variant);
    }

    /* expand: platform x mapping x ppn x np x region x algorithm, in that
     * order (no <ppn>: one value, 0 = the default; no <region>: one, "") */
    size_t nppn = s->ppns.n ? s->ppns.n : 1;
    size_t nreg = s->nregions ? (size_t)s->nregions : 1;
    size_t ncases =
        (size_t)npfs * (size_t)s->nmappings * nppn * s->nps.n * nreg * (size_t)s->nalgs;
    cs_case *cases = cs_xmalloc(ncases * sizeof(cs_case));
    size_t k = 0;
    for (int p = 0; p < npfs; p++)
        for (int m = 0; m < s->nmappings; m++)
            for (size_t q = 0; q < nppn; q++)
                for (size_t n = 0; n < s->nps.n; n++)
                    for (size_t g = 0; g < nreg; g++)
                    for (int a = 0; a < s->nalgs; a++) {
                        cs_case *c = &cases[k++];
                        memset(c, 0, sizeof *c);
                        c->platform = &pfs[p];
                        c->mapping = s->mappings[m];
                        c->ppn = s->ppns.n ? (int)s->ppns.v[q] : 0;
                        c->np = (int)s->nps.v[n];
                        c->oversubscribe = s->oversubscribe;
                        c->alg = s->algs[a];
                        c->sizes = &s->sizes;
                        c->iters = s->iters;
                        c->warmup = s->warmup;
                        c->fold = s->fold;
                        c->dtype = s->dtype;
                        c->timeout_s = s->timeout_s;
                        c->region = s->nregions ? s->regions[g] : NULL;
                        if (cs_collective_variable(c->alg.collective)) {
                            c->dist = s->dist[0] ? s->dist : NULL;
                            c->seed = s->seed;
                        }
                    }
    *out = (cs_caselist){cases, ncases, pfs, npfs};
    if ((o->only && cs_select_only(o->only, out->v, &out->n, err)) ||
        (o->pick_case && cs_select_index(o->case_index, out->v, &out->n, err))) {
        cs_caselist_free(out);
        return -1;
    }
    return 0;
}

int cs_run_scenario(const cs_scenario *s, const cs_run_opts *o, cs_err *err)
{
    /* selection errors (--only, --case) come before anything is written */
    cs_caselist list;
    if (cs_expand_cases(s, o, &list, err))
        return -1;
    if (mkdirs(o->out_dir, err)) {
        cs_caselist_free(&list);
        return -1;
    }
    char csv_path[2048];
    snprintf(csv_path, sizeof csv_path, "%s/results.csv", o->out_dir);
    cs_result *old = NULL;
    size_t nold = 0;
    struct stat st;
    int exists = !stat(csv_path, &st);
    if (exists && o->resume) {
        if (cs_results_read(csv_path, &old, &nold, err)) {
            cs_caselist_free(&list);
            return -1;
        }
    } else if (exists && !o->force) {
        cs_caselist_free(&list);
        return cs_fail(err, "%s already exists: add --resume to continue that sweep, or --force "
                            "to start a new one (it is overwritten), or choose --out DIR",
                       csv_path);
    }
    FILE *csv = fopen(csv_path, exists && o->resume ? "a" : "w");
    if (!csv) {
        cs_caselist_free(&list);
        free(old);
        return cs_fail(err, "cannot write %s: %s", csv_path, strerror(errno));
    }
    if (!(exists && o->resume))
        cs_results_write_header(csv);
    fflush(csv);

    cs_case *cases = list.v;
    size_t ncases = list.n;

    int jobs = o->jobs > 0 ? o->jobs : 1;
    slot *slots = calloc((size_t)jobs, sizeof(slot));
    size_t next = 0, done = 0, skipped = 0, failed_cases = 0;
    double t0 = now_s();
    int rc = 0, expect_failed = 0;
    cs_progress prog;
    cs_progress_start(&prog, stdout, ncases, 0);
    for (;;) {
        /* fill free slots */
        for (int j = 0; j < jobs && next < ncases; j++) {
            if (slots[j].pid > 0)
                continue;
            while (next < ncases && o->resume && recorded(&cases[next], old, nold)) {
                next++;
                skipped++;
                done++;
                prog.done++; /* already recorded: no time spent, not in the ETA */
                prog.skipped++;
            }
            if (next >= ncases)
                break;
            slot *sl = &slots[j];
            sl->c = cases[next++];
            char ppn[48] = "";
            if (sl->c.ppn)
                snprintf(ppn, sizeof ppn, "-ppn%d", sl->c.ppn);
            snprintf(sl->workdir, sizeof sl->workdir, "%s/cases/%s-%s%s-np%d-%s-%s%s%s", o->out_dir,
                     sl->c.platform->name, cs_mapping_name(sl->c.mapping), ppn, sl->c.np,
                     sl->c.alg.collective, sl->c.alg.name, sl->c.region ? "-" : "",
                     sl->c.region ? sl->c.region : "");
            for (char *q = sl->workdir + strlen(o->out_dir); *q; q++)
                if (*q == ':')
                    *q = '_';
            cs_err e;
            char parent[2100];
            snprintf(parent, sizeof parent, "%s/cases", o->out_dir);
            if (mkdirs(parent, &e) || (sl->pid = cs_case_start(&sl->c, sl->workdir, 0, &e)) < 0) {
                /* a case that cannot even start is recorded, and the sweep goes on */
                cs_result r;
                cs_case_row(&sl->c, sl->c.np, 0, &r);
                snprintf(r.status, sizeof r.status, "error");
                snprintf(r.note, sizeof r.note, "%s", e.msg);
                for (size_t i = 0; i < sl->c.sizes->n; i++) {
                    r.bytes = sl->c.sizes->v[i];
                    cs_results_write_row(csv, &r);
                }
                fflush(csv);
                sl->pid = 0;
                done++;
                failed_cases++;
                char line[2600];
                if (sl->c.ppn)
                    snprintf(ppn, sizeof ppn, " ppn=%d", sl->c.ppn);
                if (sl->c.region) {
                    size_t u = strlen(ppn);
                    snprintf(ppn + u, sizeof ppn - u, " region=%.12s", sl->c.region);
                }
                snprintf(line, sizeof line, "%s %s%s np=%d %s/%s: error: %s", sl->c.platform->name,
                         cs_mapping_name(sl->c.mapping), ppn, sl->c.np, sl->c.alg.collective,
                         sl->c.alg.name, e.msg);
                cs_progress_case(&prog, 1, line);
                j--; /* reuse this slot */
                continue;
            }
            sl->started = now_s();
        }
        int running = 0;
        for (int j = 0; j < jobs; j++)
            running += slots[j].pid > 0;
        if (!running && next >= ncases)
            break;
        /* reap: poll so that per-case timeouts are honoured */
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid == 0) {
            for (int j = 0; j < jobs; j++) {
                slot *sl = &slots[j];
                if (sl->pid > 0 && sl->c.timeout_s > 0 && now_s() - sl->started > sl->c.timeout_s)
                    kill(-sl->pid, SIGKILL);
            }
            struct timespec nap = {0, 20 * 1000 * 1000};
            nanosleep(&nap, NULL);
            continue;
        }
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            rc = cs_fail(err, "lost track of running cases: %s", strerror(errno));
            break;
        }
        for (int j = 0; j < jobs; j++) {
            slot *sl = &slots[j];
            if (sl->pid != pid)
                continue;
            double wall = now_s() - sl->started;
            int timed_out = sl->c.timeout_s > 0 && WIFSIGNALED(status) && wall >= sl->c.timeout_s;
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            cs_result *rows;
            size_t nrows;
            cs_case_collect(&sl->c, sl->workdir, code, timed_out, &rows, &nrows);
            int bad = 0;
            for (size_t i = 0; i < nrows; i++) {
                cs_results_write_row(csv, &rows[i]);
                bad |= strcmp(rows[i].status, "ok") != 0;
            }
            fflush(csv);
            free(rows);
            done++;
            failed_cases += bad;
            char line[512];
            char ppn[48] = "";
            if (sl->c.ppn)
                snprintf(ppn, sizeof ppn, " ppn=%d", sl->c.ppn);
            if (sl->c.region) {
                size_t u = strlen(ppn);
                snprintf(ppn + u, sizeof ppn - u, " region=%.12s", sl->c.region);
            }
            snprintf(line, sizeof line, "%-8s %-10s%s np=%-5d %-30s %s (%.1f s)",
                     sl->c.platform->name, cs_mapping_name(sl->c.mapping), ppn, sl->c.np,
                     sl->c.alg.name, bad ? (timed_out ? "TIMEOUT" : "FAILED") : "ok", wall);
            cs_progress_case(&prog, bad, line);
            sl->pid = 0;
        }
    }
    cs_progress_end(&prog);
    fclose(csv);
    double wall = now_s() - t0;
    printf("# %zu cases (%zu already recorded), %zu failed, %.1f s; results: %s\n", ncases,
           skipped, failed_cases, wall, csv_path);
    if (!rc) {
        /* the best-algorithm table covers the whole file, resumed rows included */
        cs_result *rows;
        size_t n;
        if (!cs_results_read(csv_path, &rows, &n, err)) {
            cs_print_best(stdout, rows, n);
            /* a selection (--only, --case) leaves points unmeasured: skipped, not failed */
            expect_failed = cs_expect_check(stdout, s, rows, n, o->only || o->pick_case) > 0;
            free(rows);
        }
    }
    free(slots);
    cs_caselist_free(&list);
    free(old);
    return rc ? -1 : failed_cases || expect_failed ? 1 : 0;
}
