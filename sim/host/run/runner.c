#include "runner.h"

#include <errno.h>
#include <fcntl.h>
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
#include "expect_points.h"
#include "outdir.h"
#include "progress.h"
#include "resume.h"
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
    cs_case_place place; /* the case's placement while it runs (cs_case_check) */
    char workdir[2048];
    pid_t pid;
    double started;
    cs_numlist fit;    /* the case's sizes that fit in memory: what it runs */
    size_t refused;    /* sizes recorded as errors because they do not fit */
    double need;       /* its memory estimate, held while it runs */
} slot;

/* A case's relative cost for the ETA: SMPI's work grows with the messages
 * in flight, about np^2 for the allgather and alltoall families. */
/* A case's relative cost for the ETA: np^2 (messages of an allgather) plus
 * smpirun's start, as much as np 14 (measured: bench on yahoo, 1 B..64 KiB,
 * 0.27 s at np 5, 1.1 s at 32, 4.1 s at 64). With np^2 alone the demo's
 * first ETA was 5 times the run. */
static double case_work(const cs_case *c) { return (double)c->np * c->np + 200.0; }

void cs_caselist_free(cs_caselist *l)
{
    for (int i = 0; l->owns_pfs && i < l->npfs; i++)
        cs_platform_free(&l->pfs[i]);
    if (l->owns_pfs)
        free(l->pfs);
    for (size_t i = 0; i < l->nper_process; i++)
        cs_numlist_free(&l->per_process[i]);
    free(l->per_process);
    if (l->all != l->v)
        free(l->all);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* The <groups> elements an intergroup collective runs under (its index k:
 * into *which, the i-th that applies), else 1 (the scenario's own fields:
 * every other collective, or an intergroup one without <groups>, which the
 * load refused). */
static int groupsets_of(const cs_scenario *s, const char *collective, int *which)
{
    const cs_coll_props *cp = cs_coll_find(collective);
    int n = 0;
    for (int k = 0; cp && cp->groups && k < s->ngsets; k++)
        if (cs_groupset_applies(&s->gsets[k], collective)) {
            if (which)
                which[n] = k;
            n++;
        }
    return n ? n : 1;
}

int cs_expand_cases(const cs_scenario *s, const cs_run_opts *o, cs_caselist *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    /* with <vary>: each platform becomes one generated file per value, kept
     * in OUT/platforms so that any case can be re-run by hand */
    int nvalues = s->has_vary ? s->vary.nvalues : 1, npfs = s->nplatforms * nvalues;
    /* without <vary> the cases use the platforms the scenario read */
    cs_platform *pfs = s->has_vary ? cs_xmalloc((size_t)npfs * sizeof(cs_platform)) : s->pfs;
    char dir[2100];
    snprintf(dir, sizeof dir, "%s/platforms", o->out_dir);
    if (s->has_vary && cs_mkdirs(dir, err)) {
        free(pfs);
        return -1;
    }
    for (int i = 0; i < npfs && s->has_vary; i++) {
        char *variant = cs_vary_write(&s->vary, i % nvalues, s->platforms[i / nvalues], dir, err);
        if (!variant || cs_platform_load(variant, &pfs[i], err)) {
            for (int k = 0; k < i; k++)
                cs_platform_free(&pfs[k]);
            free(pfs);
            free(variant);
            return -1;
        }
        free(variant);
    }

    /* expand: platform x mapping x ppn x hosts x background x np x region
     * x algorithm, in that order (no <ppn>: one value, 0 = the default; no
     * <hosts>: one, every node; no <region>: one, ""; no <background>: one,
     * quiet).
     * An algorithm that takes no region (algorithms.def: no_regions; every
     * native:) runs once, at the first level's place, with no region (what
     * bench gives it without --region): the level would change nothing. */
    size_t nppn = s->ppns.n ? s->ppns.n : 1;
    size_t nreg = s->nregions ? (size_t)s->nregions : 1;
    size_t per_np = 0; /* cases per (platform, mapping, ppn, np) */
    for (size_t g = 0; g < nreg; g++)
        for (int a = 0; a < s->nalgs; a++)
            per_np += (g == 0 || cs_alg_locality_aware(s->algs[a].collective, s->algs[a].name)) *
                      (size_t)groupsets_of(s, s->algs[a].collective, NULL);
    size_t nbg = s->nbackgrounds ? (size_t)s->nbackgrounds : 1;
    size_t nhs = s->nhost_specs ? (size_t)s->nhost_specs : 1;
    size_t nmd = s->nmodels ? (size_t)s->nmodels : 1;
    size_t ncases =
        (size_t)npfs * (size_t)s->nmappings * nmd * nppn * nhs * nbg * s->nps.n * per_np;
    /* <sizes unit="node">: the intergroup cases' sizes per process, one list
     * per ranks-per-node value (checked at load) */
    cs_numlist *per_process = NULL;
    if (cs_size_unit_node(s->size_unit)) {
        per_process = cs_xmalloc(nppn * sizeof *per_process);
        for (size_t q = 0; q < nppn; q++)
            if (cs_sizes_per_process(&s->sizes, s->ppns.n ? (int)s->ppns.v[q] : 0, &per_process[q],
                                     err)) {
                for (size_t i = 0; i < q; i++)
                    cs_numlist_free(&per_process[i]);
                free(per_process);
                for (int i = 0; s->has_vary && i < npfs; i++)
                    cs_platform_free(&pfs[i]);
                if (s->has_vary)
                    free(pfs);
                return -1;
            }
    }
    cs_case *cases = cs_xmalloc((ncases ? ncases : 1) * sizeof(cs_case));
    size_t k = 0;
    for (int p = 0; p < npfs; p++)
        for (int m = 0; m < s->nmappings; m++)
            for (size_t md = 0; md < nmd; md++)
            for (size_t q = 0; q < nppn; q++)
                for (size_t h = 0; h < nhs; h++)
                for (size_t b = 0; b < nbg; b++)
                for (size_t n = 0; n < s->nps.n; n++)
                    for (size_t g = 0; g < nreg; g++)
                    for (int a = 0; a < s->nalgs; a++) {
                        int takes_region =
                            cs_alg_locality_aware(s->algs[a].collective, s->algs[a].name);
                        if (g > 0 && !takes_region)
                            continue;
                        int which[CS_MAX_GROUPSETS], nw = groupsets_of(s, s->algs[a].collective, which);
                        for (int w = 0; w < nw; w++) {
                        cs_case *c = &cases[k++];
                        memset(c, 0, sizeof *c);
                        /* the scalar fields (with the w-th <groups> that
                         * applies), then the swept ones */
                        cs_scenario sg = *s;
                        if (s->ngsets && cs_coll_find(s->algs[a].collective)->groups)
                            cs_scenario_groups(s, which[w], &sg);
                        cs_fields_copy(cs_case_fields, c, cs_scenario_fields, &sg);
                        c->platform = &pfs[p];
                        c->mapping = s->mappings[m];
                        c->ppn = s->ppns.n ? (int)s->ppns.v[q] : 0;
                        c->np = (int)s->nps.v[n];
                        c->alg = s->algs[a];
                        for (int o = 0; o < s->nsmpi; o++)
                            c->extra_cfg[c->nextra++] = s->smpi[o];
                        c->sizes = &s->sizes;
                        c->region = s->nregions && takes_region ? s->regions[g] : NULL;
                        c->background = s->nbackgrounds ? s->backgrounds[b] : NULL;
                        c->hosts = s->nhost_specs ? s->host_specs[h] : NULL;
                        c->model = s->nmodels ? s->models[md] : NULL; /* NULL: full */
                        cs_fields_scope(cs_case_fields, c, c->alg.collective);
                        if (cs_size_unit_node(c->size_unit))
                            c->sizes = &per_process[q];
                        /* <groups ratio>: checked against every np at
                         * load; then the case's background and groups
                         * parsed, once (read at load: no error here) */
                        if ((c->group_ratio && c->group_ratio[0] &&
                             cs_groups_scale(c->group_ratio, c->np, &c->groups, err)) ||
                            cs_case_resolve(c, err)) {
                            *out = (cs_caselist){cases, 0, pfs, npfs, per_process,
                                                 per_process ? nppn : 0, cases, 0, s->has_vary};
                            cs_caselist_free(out);
                            return -1;
                        }
                        }
                    }
    *out = (cs_caselist){cases, ncases, pfs, npfs, per_process, per_process ? nppn : 0, cases,
                         ncases, s->has_vary};
    if (o->only || o->pick_case) { /* the selection below narrows v in place */
        out->all = cs_xmalloc((ncases ? ncases : 1) * sizeof *cases);
        memcpy(out->all, cases, ncases * sizeof *cases);
    }
    if ((o->only && cs_select_only(o->only, out->v, &out->n, err)) ||
        (o->pick_case && cs_select_index(o->case_index, out->v, &out->n, err))) {
        cs_caselist_free(out);
        return -1;
    }
    return 0;
}

/* The sizes the case runs go to sl->fit; sizes the resumed file holds are
 * counted in *have_out, the sizes left to run that do not fit in the memory
 * budget alone (refused) in sl->refused. A size's predicted time depends on
 * the sizes run before it in the same simulation (each leaves the ranks at
 * the next size's first barrier in another order), so a case whose file
 * misses some sizes runs again every size up to the last missing one that
 * fits: its new rows are then what an uninterrupted sweep gives, bit for bit
 * (the recorded ones are not written twice). Returns the memory the case
 * needs while it runs. */
static double fit_sizes(slot *sl, cs_case c, double budget, const cs_result *old, size_t nold,
                        size_t *have_out)
{
    const size_t n = c.sizes->n;
    sl->fit.v = cs_xrealloc(sl->fit.v, (n ? n : 1) * sizeof(long));
    sl->fit.n = 0;
    sl->refused = 0;
    size_t have = 0, last = n; /* the last missing size that fits; n: none */
    char *fits = cs_xmalloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        cs_result probe;
        cs_case_row(&c, c.np, c.sizes->v[i], &probe);
        fits[i] = budget <= 0 || cs_case_memory_at(&c, c.sizes->v[i]) <= budget;
        if (have_row(&probe, old, nold))
            have++;
        else if (!fits[i])
            sl->refused++;
        else
            last = i;
    }
    long maxfit = 0;
    for (size_t i = 0; last < n && i <= last; i++)
        if (fits[i]) {
            sl->fit.v[sl->fit.n++] = c.sizes->v[i];
            if (c.sizes->v[i] > maxfit)
                maxfit = c.sizes->v[i];
        }
    free(fits);
    *have_out = have;
    return sl->fit.n ? cs_case_memory_at(&c, maxfit) : 0;
}

/* The sizes refused for memory, recorded as errors that say why. */
static void record_refused(int csv, const char *csv_path, const slot *sl, cs_case c, double budget,
                           const cs_run_opts *o, const cs_result *old, size_t nold)
{
    cs_result *rows = cs_xmalloc(sl->refused * sizeof *rows);
    size_t k = 0;
    for (size_t i = 0; i < c.sizes->n; i++) {
        long b = c.sizes->v[i];
        size_t f = 0;
        while (f < sl->fit.n && sl->fit.v[f] != b)
            f++;
        cs_result row;
        cs_case_row(&c, c.np, b, &row);
        if (f < sl->fit.n || have_row(&row, old, nold))
            continue;
        rows[k] = row;
        snprintf(rows[k].status, sizeof rows[k].status, "error");
        cs_mem_refusal(&c, b, budget,
                       o->memory > 0 ? "this sweep's, run --memory"
                                     : "this sweep's, 90% of the memory available when it "
                                       "started; run --memory SIZE sets another",
                       rows[k].note, sizeof rows[k].note);
        k++;
    }
    cs_err we;
    if (append_rows(csv, csv_path, rows, k, old, nold, &we))
        fprintf(stderr, "collsim: %s\n", we.msg);
    free(rows);
}

/* Kills the cases past their wall-clock backstop, then naps before the next poll. */
static void kill_overdue(slot *slots, int jobs)
{
    for (int j = 0; j < jobs; j++) {
        slot *sl = &slots[j];
        if (sl->pid > 0 && sl->c.timeout_s > 0 &&
            now_s() - sl->started > cs_wall_backstop(sl->c.timeout_s))
            kill(-sl->pid, SIGKILL);
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
}

/* After the sweep: the best-algorithm table and the scenario's expectations.
 * Returns whether an expectation failed. */
static int print_outcome(const cs_scenario *s, const cs_run_opts *o, const char *csv_path,
                         cs_err *err)
{
    int expect_failed = 0;
    /* the best-algorithm table covers the whole file, resumed rows included */
    cs_result *rows;
    size_t n;
    if (!cs_results_read(csv_path, &rows, &n, err)) {
        cs_print_best(stdout, rows, n);
        /* a selection (--only, --case) leaves points unmeasured: skipped, not failed */
        expect_failed = cs_scenario_expect_check(stdout, s, rows, n, o->only || o->pick_case) > 0;
        free(rows);
    }
    return expect_failed;
}

/* A sweep in progress: the cases, the results file, the worker slots and
 * the counts its progress lines and summary report. */
typedef struct {
    const cs_run_opts *o;
    cs_case *cases;
    size_t ncases, next, done, skipped, failed;
    int csv;
    char csv_path[2048];
    cs_result *old; /* what a resumed file already holds */
    size_t nold;
    slot *slots;
    int jobs;
    double budget; /* what the running cases may hold together; 0: unknown, no limit */
    cs_progress prog;
} sweep;

/* Counts a case that ends before it runs (refused, or cannot start). */
static void end_unrun(sweep *w, const cs_case *c, const char *line)
{
    w->done++;
    w->failed++;
    cs_progress_case(&w->prog, 1, case_work(c), line);
}

/* cases/PLATFORM-MAPPING[-ppn4-socket...]-npN-COLL-ALG, ':' made '_'. */
static void case_workdir(const sweep *w, slot *sl)
{
    char label[160]; /* the fields a sweep varies besides these, e.g. -ppn4-socket */
    cs_fields_label(cs_case_fields, &sl->c, '-', label, sizeof label);
    snprintf(sl->workdir, sizeof sl->workdir, "%s/cases/%s-%s%s-np%d-%s-%s", w->o->out_dir,
             sl->c.platform->name, cs_mapping_name(sl->c.mapping), label, sl->c.np,
             sl->c.alg.collective, sl->c.alg.name);
    for (char *q = sl->workdir + strlen(w->o->out_dir); *q; q++)
        if (*q == ':')
            *q = '_';
}

/* A case that cannot even start is recorded as an error for each of its
 * sizes, and the sweep goes on. */
static void record_start_error(sweep *w, slot *sl, const cs_err *e)
{
    cs_result r;
    cs_case_row(&sl->c, sl->c.np, 0, &r);
    snprintf(r.status, sizeof r.status, "error");
    snprintf(r.note, sizeof r.note, "%s", e->msg);
    cs_result *rows = cs_xmalloc(sl->c.sizes->n * sizeof *rows);
    for (size_t i = 0; i < sl->c.sizes->n; i++) {
        rows[i] = r;
        rows[i].bytes = sl->c.sizes->v[i];
    }
    cs_err we;
    if (append_rows(w->csv, w->csv_path, rows, sl->c.sizes->n, w->old, w->nold, &we))
        fprintf(stderr, "collsim: %s\n", we.msg);
    free(rows);
    sl->pid = 0;
    char line[2600], label[160];
    cs_fields_label(cs_case_fields, &sl->c, ' ', label, sizeof label);
    snprintf(line, sizeof line, "%s %s%s np=%d %s/%s: error: %s", sl->c.platform->name,
             cs_mapping_name(sl->c.mapping), label, sl->c.np, sl->c.alg.collective,
             sl->c.alg.name, e->msg);
    end_unrun(w, &sl->c, line);
}

/* Skips the cases a resumed file already holds. */
static void skip_recorded(sweep *w)
{
    while (w->next < w->ncases && w->o->resume && recorded(&w->cases[w->next], w->old, w->nold)) {
        w->prog.work_skipped += case_work(&w->cases[w->next]);
        w->next++;
        w->skipped++;
        w->done++;
        w->prog.done++; /* already recorded: no time spent, not in the ETA */
        w->prog.skipped++;
    }
}

/* Puts the next case into the free slot sl. Returns 1 when the slot is
 * busy now, 0 when the case ended at once (the slot is free again), -1
 * when the case must wait for memory. Memory is estimated against the
 * budget rather than read live, so that no outcome depends on -j: sizes
 * that cannot fit even alone are recorded as errors and the case runs the
 * others; a case waits while the running cases hold the memory it needs. */
static int admit(sweep *w, slot *sl)
{
    cs_case c = w->cases[w->next];
    c.mem_budget = w->budget;
    size_t have; /* sizes a resumed file already holds are not run again */
    double need = fit_sizes(sl, c, w->budget, w->old, w->nold, &have), held = 0;
    for (int k = 0; k < w->jobs; k++)
        held += w->slots[k].pid > 0 ? w->slots[k].need : 0;
    if (w->budget > 0 && held > 0 && held + need > w->budget)
        return -1; /* started when a running case ends */
    w->next++;
    if (sl->refused)
        record_refused(w->csv, w->csv_path, sl, c, w->budget, w->o, w->old, w->nold);
    sl->c = c;
    sl->c.sizes = &sl->fit;
    sl->need = need;
    case_workdir(w, sl);
    if (!sl->fit.n) { /* every size left to run was refused above */
        sl->pid = 0;
        char line[2600];
        snprintf(line, sizeof line, "%s %s np=%d %s/%s: error: %zu size%s refused: memory%s",
                 sl->c.platform->name, cs_mapping_name(sl->c.mapping), sl->c.np,
                 sl->c.alg.collective, sl->c.alg.name, sl->refused, sl->refused > 1 ? "s" : "",
                 have ? " (the others were recorded before)" : "");
        end_unrun(w, &sl->c, line);
        return 0;
    }
    cs_err e;
    char parent[2100];
    snprintf(parent, sizeof parent, "%s/cases", w->o->out_dir);
    if (cs_case_check(&sl->c, &sl->place, &e) || mkdirs(parent, &e) ||
        (sl->pid = cs_case_start(&sl->c, &sl->place, sl->workdir, 0, &e)) < 0) {
        cs_case_place_free(&sl->place);
        record_start_error(w, sl, &e);
        return 0;
    }
    sl->started = now_s();
    return 1;
}

/* Starts cases in the free slots, as far as memory allows. */
static void fill_slots(sweep *w)
{
    for (int j = 0; j < w->jobs && w->next < w->ncases; j++) {
        if (w->slots[j].pid > 0)
            continue;
        skip_recorded(w);
        if (w->next >= w->ncases)
            break;
        int r = admit(w, &w->slots[j]);
        if (r < 0)
            break;
        if (r == 0)
            j--; /* reuse this slot */
    }
}

/* The case of slot sl ended with `status`: its rows into the results file,
 * its progress line. Returns -1 when the rows could not be written. */
static int finish_case(sweep *w, slot *sl, int status, cs_err *err)
{
    double wall = now_s() - sl->started;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    int timed_out = cs_case_timed_out(&sl->c, code, WIFSIGNALED(status), wall);
    cs_result *rows;
    size_t nrows;
    cs_case_collect(&sl->c, &sl->place, sl->workdir, code, timed_out, &rows, &nrows);
    cs_case_place_free(&sl->place);
    int run_bad = 0; /* what ran failed; refused sizes make the case failed too */
    for (size_t i = 0; i < nrows; i++)
        run_bad |= strcmp(rows[i].status, "ok") != 0;
    int bad = run_bad || sl->refused;
    int rc = append_rows(w->csv, w->csv_path, rows, nrows, w->old, w->nold, err);
    free(rows);
    w->done++;
    w->failed += bad;
    char line[640], label[160], refused[80] = "";
    if (sl->refused)
        snprintf(refused, sizeof refused, "; %zu size%s refused: memory", sl->refused,
                 sl->refused > 1 ? "s" : "");
    cs_fields_label(cs_case_fields, &sl->c, ' ', label, sizeof label);
    snprintf(line, sizeof line, "%-8s %-10s%s np=%-5d %-30s %s (%.1f s%s)", sl->c.platform->name,
             cs_mapping_name(sl->c.mapping), label, sl->c.np, sl->c.alg.name,
             run_bad ? (timed_out ? "TIMEOUT" : "FAILED") : "ok", wall, refused);
    w->prog.busy_s += wall;
    cs_progress_case(&w->prog, bad, case_work(&sl->c), line);
    sl->pid = 0;
    return rc;
}

/* Runs every case through the slots until all ended. */
static int run_cases(sweep *w, cs_err *err)
{
    int rc = 0;
    for (;;) {
        fill_slots(w);
        int running = 0;
        for (int j = 0; j < w->jobs; j++)
            running += w->slots[j].pid > 0;
        if (!running && w->next >= w->ncases)
            return rc;
        /* reap: poll so that per-case timeouts are honoured */
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid == 0) {
            kill_overdue(w->slots, w->jobs);
            continue;
        }
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            return cs_fail(err, "lost track of running cases: %s", strerror(errno));
        }
        for (int j = 0; j < w->jobs; j++) {
            cs_err we;
            if (w->slots[j].pid == pid && finish_case(w, &w->slots[j], status, &we) && !rc)
                rc = cs_fail(err, "%s", we.msg);
        }
    }
}

int cs_run_scenario(const cs_scenario *s, const cs_run_opts *o, cs_err *err)
{
    /* selection errors (--only, --case) come before anything is written */
    cs_caselist list;
    if (cs_expand_cases(s, o, &list, err))
        return -1;
    sweep w = {.o = o, .cases = list.v, .ncases = list.n, .csv = -1};
    /* the directory is this sweep's until it ends: its lock first, then the
     * scenario record is checked before results.csv is touched */
    cs_outdir_record rec;
    int lock = -1;
    if (mkdirs(o->out_dir, err) || (lock = cs_outdir_lock(o->out_dir, err)) < 0 ||
        cs_outdir_check(o->out_dir, s, o->resume, o->accept_changes, &rec, err) ||
        (w.csv = open_results(o, &list, w.csv_path, &w.old, &w.nold, err)) < 0 ||
        cs_outdir_record_write(o->out_dir, &rec, err)) {
        if (w.csv >= 0)
            close(w.csv);
        if (lock >= 0)
            close(lock);
        free(w.old);
        cs_caselist_free(&list);
        return -1;
    }
    w.jobs = o->jobs > 0 ? o->jobs : 1;
    w.slots = calloc((size_t)w.jobs, sizeof(slot));
    w.budget = o->memory > 0 ? o->memory : 0.9 * cs_mem_available();
    double t0 = now_s();
    cs_progress_start(&w.prog, stdout, w.ncases, 0);
    w.prog.workers = w.jobs;
    for (size_t i = 0; i < w.ncases; i++)
        w.prog.work_total += case_work(&w.cases[i]);
    int rc = run_cases(&w, err), expect_failed = 0;
    cs_progress_end(&w.prog);
    close(w.csv);
    printf("# %zu cases (%zu already recorded), %zu failed, %.1f s; results: %s\n", w.ncases,
           w.skipped, w.failed, now_s() - t0, w.csv_path);
    if (!rc && write_platform_fits(&list, o, err))
        rc = -1;
    if (!rc)
        expect_failed = print_outcome(s, o, w.csv_path, err);
    for (int j = 0; j < w.jobs; j++) {
        free(w.slots[j].fit.v);
        cs_case_place_free(&w.slots[j].place);
    }
    free(w.slots);
    cs_caselist_free(&list);
    free(w.old);
    close(lock);
    return rc ? -1 : w.failed || expect_failed ? 1 : 0;
}
