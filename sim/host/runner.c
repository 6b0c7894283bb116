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
#include "results.h"

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
        int found = 0;
        for (size_t k = 0; k < n && !found; k++)
            found = rows[k].np == c->np && rows[k].bytes == c->sizes->v[i] &&
                    !strcmp(rows[k].platform, c->platform->name) &&
                    !strcmp(rows[k].mapping, cs_mapping_name(c->mapping)) &&
                    !strcmp(rows[k].collective, c->alg.collective) &&
                    !strcmp(rows[k].algorithm, c->alg.name) && !strcmp(rows[k].dtype, c->dtype) &&
                    !strcmp(rows[k].mode, c->fold ? "fold" : "check");
        if (!found)
            return 0;
    }
    return 1;
}

int cs_run_scenario(const cs_scenario *s, const cs_run_opts *o, cs_err *err)
{
    if (mkdirs(o->out_dir, err))
        return -1;
    char csv_path[2048];
    snprintf(csv_path, sizeof csv_path, "%s/results.csv", o->out_dir);
    cs_result *old = NULL;
    size_t nold = 0;
    struct stat st;
    int exists = !stat(csv_path, &st);
    if (exists && o->resume) {
        if (cs_results_read(csv_path, &old, &nold, err))
            return -1;
    } else if (exists && !o->force) {
        return cs_fail(err, "%s already exists: add --resume to continue that sweep, or --force "
                            "to start a new one (it is overwritten), or choose --out DIR",
                       csv_path);
    }
    FILE *csv = fopen(csv_path, exists && o->resume ? "a" : "w");
    if (!csv)
        return cs_fail(err, "cannot write %s: %s", csv_path, strerror(errno));
    if (!(exists && o->resume))
        cs_results_write_header(csv);
    fflush(csv);

    cs_platform *pfs = cs_xmalloc((size_t)s->nplatforms * sizeof(cs_platform));
    for (int i = 0; i < s->nplatforms; i++)
        if (cs_platform_load(s->platforms[i], &pfs[i], err)) {
            for (int k = 0; k < i; k++)
                cs_platform_free(&pfs[k]);
            free(pfs);
            fclose(csv);
            free(old);
            return -1;
        }

    /* expand: platform x mapping x np x algorithm, in that order */
    size_t ncases = (size_t)s->nplatforms * (size_t)s->nmappings * s->nps.n * (size_t)s->nalgs;
    cs_case *cases = cs_xmalloc(ncases * sizeof(cs_case));
    size_t k = 0;
    for (int p = 0; p < s->nplatforms; p++)
        for (int m = 0; m < s->nmappings; m++)
            for (size_t n = 0; n < s->nps.n; n++)
                for (int a = 0; a < s->nalgs; a++) {
                    cs_case *c = &cases[k++];
                    memset(c, 0, sizeof *c);
                    c->platform = &pfs[p];
                    c->mapping = s->mappings[m];
                    c->np = (int)s->nps.v[n];
                    c->oversubscribe = s->oversubscribe;
                    c->alg = s->algs[a];
                    c->sizes = &s->sizes;
                    c->iters = s->iters;
                    c->warmup = s->warmup;
                    c->fold = s->fold;
                    c->dtype = s->dtype;
                    c->timeout_s = s->timeout_s;
                }

    int jobs = o->jobs > 0 ? o->jobs : 1;
    slot *slots = calloc((size_t)jobs, sizeof(slot));
    size_t next = 0, done = 0, skipped = 0, failed_cases = 0;
    double t0 = now_s();
    int rc = 0;
    for (;;) {
        /* fill free slots */
        for (int j = 0; j < jobs && next < ncases; j++) {
            if (slots[j].pid > 0)
                continue;
            while (next < ncases && o->resume && recorded(&cases[next], old, nold)) {
                next++;
                skipped++;
                done++;
            }
            if (next >= ncases)
                break;
            slot *sl = &slots[j];
            sl->c = cases[next++];
            snprintf(sl->workdir, sizeof sl->workdir, "%s/cases/%s-%s-np%d-%s-%s", o->out_dir,
                     sl->c.platform->name, cs_mapping_name(sl->c.mapping), sl->c.np,
                     sl->c.alg.collective, sl->c.alg.name);
            for (char *q = sl->workdir + strlen(o->out_dir); *q; q++)
                if (*q == ':')
                    *q = '_';
            cs_err e;
            char parent[2100];
            snprintf(parent, sizeof parent, "%s/cases", o->out_dir);
            if (mkdirs(parent, &e) || (sl->pid = cs_case_start(&sl->c, sl->workdir, 0, &e)) < 0) {
                /* a case that cannot even start is recorded, and the sweep goes on */
                cs_result r;
                memset(&r, 0, sizeof r);
                snprintf(r.platform, sizeof r.platform, "%s", sl->c.platform->name);
                snprintf(r.mapping, sizeof r.mapping, "%s", cs_mapping_name(sl->c.mapping));
                r.np = sl->c.np;
                snprintf(r.collective, sizeof r.collective, "%s", sl->c.alg.collective);
                snprintf(r.algorithm, sizeof r.algorithm, "%s", sl->c.alg.name);
                snprintf(r.dtype, sizeof r.dtype, "%s", sl->c.dtype);
                snprintf(r.mode, sizeof r.mode, "%s", sl->c.fold ? "fold" : "check");
                r.iterations = sl->c.iters;
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
                printf("[%zu/%zu] %s %s np=%d %s/%s: error: %s\n", done, ncases,
                       sl->c.platform->name, cs_mapping_name(sl->c.mapping), sl->c.np,
                       sl->c.alg.collective, sl->c.alg.name, e.msg);
                fflush(stdout);
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
            printf("[%zu/%zu] %-8s %-10s np=%-5d %-30s %s (%.1f s)\n", done, ncases,
                   sl->c.platform->name, cs_mapping_name(sl->c.mapping), sl->c.np, sl->c.alg.name,
                   bad ? (timed_out ? "TIMEOUT" : "FAILED") : "ok", wall);
            fflush(stdout);
            sl->pid = 0;
        }
    }
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
            free(rows);
        }
    }
    free(slots);
    free(cases);
    for (int i = 0; i < s->nplatforms; i++)
        cs_platform_free(&pfs[i]);
    free(pfs);
    free(old);
    return rc ? -1 : failed_cases ? 1 : 0;
}
