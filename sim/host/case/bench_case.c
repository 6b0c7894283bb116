#define _XOPEN_SOURCE 700 /* realpath */
#include "bench_case.h"

#include "hostspec.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "distributions.h"

const cs_field cs_case_fields[CS_NFIELDS] = {
#define CS_CASE_FIELD(...) CS_FIELD_ENTRY(cs_case, __VA_ARGS__)
#include "case_fields.def"
#undef CS_CASE_FIELD
};

void cs_case_init(cs_case *c)
{
    memset(c, 0, sizeof *c);
    cs_fields_defaults(cs_case_fields, c);
}

int cs_case_resolve(cs_case *c, cs_err *err)
{
    c->resolved = !cs_fields_resolve(cs_case_fields, c, c->alg.collective, &c->parts, err);
    return c->resolved ? 0 : -1;
}

void cs_case_place_free(cs_case_place *pl)
{
    free(pl->node_of_rank);
    memset(pl, 0, sizeof *pl);
}

/* The driver's command line: the SPECIAL fields by hand, the others from
 * the table. */
static void driver_args_fmt(const cs_case *c, char buf[][CS_FIELD_TEXT_MAX], char **sizes,
                            char **nps, const char *csv, const char *locality, const char **argv)
{
    int n = 0;
    argv[n++] = "--coll";
    argv[n++] = c->alg.collective;
    argv[n++] = "--alg";
    argv[n++] = c->alg.driver_alg;
    argv[n++] = "--sizes";
    argv[n++] = *sizes = cs_numlist_join(c->sizes);
    argv[n++] = "--csv";
    argv[n++] = csv;
    argv[n++] = "--locality";
    argv[n++] = locality;
    n = cs_fields_argv(cs_case_fields, c, c->alg.collective, buf, argv, n);
    *nps = NULL;
    if (c->np_list) {
        argv[n++] = "--np-list";
        argv[n++] = *nps = cs_numlist_join(c->np_list);
    }
    argv[n] = NULL;
}

/* paths: hostfile, rows.csv, stdout.txt, stderr.txt, a --cfg, locality, the
 * platform's absolute path. smpirun runs in workdir and is given the case's
 * files by name (RUN_*): a path with spaces would not survive it. */
#define RUN_HOSTFILE "hostfile"
#define RUN_ROWS "rows.csv"
#define RUN_LOCALITY "locality"
static void fill_launch(const cs_case *c, const char *workdir, cs_launch *l, char paths[][1024])
{
    memset(l, 0, sizeof *l);
    snprintf(paths[0], 1024, "%s/" RUN_HOSTFILE, workdir);
    snprintf(paths[1], 1024, "%s/" RUN_ROWS, workdir);
    snprintf(paths[2], 1024, "%s/stdout.txt", workdir);
    snprintf(paths[3], 1024, "%s/stderr.txt", workdir);
    snprintf(paths[5], 1024, "%s/" RUN_LOCALITY, workdir);
    char abs[PATH_MAX];
    snprintf(paths[6], 1024, "%s", realpath(c->platform->path, abs) ? abs : c->platform->path);
    l->workdir = workdir;
    l->platform_path = paths[6];
    l->cpu_limit_s = c->timeout_s;
    l->hostfile = RUN_HOSTFILE;
    l->np = c->np + c->parts.bg.procs; /* the background's ranks come last */
    if (c->alg.cfg[0])
        l->cfg[l->ncfg++] = c->alg.cfg;
    if (c->fold) {
        /* SMPI maps a folded allocation in chunks of this size (default 1 MiB);
         * keep the chunk count near 1024 so that huge folded buffers do not
         * exhaust the kernel's memory maps */
        double total = (double)cs_case_largest_block(c) * (c->np + 1.0);
        long block = 1L << 20;
        while (block < total / 1024)
            block <<= 1;
        if (block > 1L << 20) {
            snprintf(paths[4], 1024, "smpi/shared-malloc-blocksize:%ld", block);
            l->cfg[l->ncfg++] = paths[4];
        }
    }
    for (int i = 0; i < c->nextra && l->ncfg < CS_MAX_CFG; i++)
        l->cfg[l->ncfg++] = c->extra_cfg[i];
}

char *cs_case_cmdline(const cs_case *c, const char *workdir)
{
    cs_launch l;
    char paths[7][1024], nums[CS_NFIELDS][CS_FIELD_TEXT_MAX], *sizes, *nps;
    const char *argv[2 * CS_NFIELDS + 14];
    fill_launch(c, workdir, &l, paths);
    driver_args_fmt(c, nums, &sizes, &nps, RUN_ROWS, RUN_LOCALITY, argv);
    l.driver_args = argv;
    char *s = cs_smpirun_cmdline(&l);
    free(sizes);
    free(nps);
    return s;
}

int cs_region_check(const cs_platform *pf, const char *level, const char *where, cs_err *err)
{
    char valid[CS_MAX_LEVELS * 34] = "";
    for (int l = 0; l < pf->nlevels; l++) {
        if (!strcmp(level, pf->levels[l]))
            return 0;
        size_t u = strlen(valid);
        snprintf(valid + u, sizeof valid - u, "%s%s", u ? ", " : "", pf->levels[l]);
    }
    return cs_fail(err, "%sregion level '%s' is not declared by platform '%s' (valid: %s)", where,
                   level, pf->name, valid);
}

int cs_groups_case_check(const char *coll, const char *alg, const cs_groups *gp,
                         const char *counts, const char *dtype, int np, const long *sizes,
                         size_t nsizes, cs_err *err)
{
    const cs_groups g = *gp;
    if (g.p + g.q != np)
        return cs_fail(err, "--groups %d:%d makes %d processes, but --np is %d (--np must be "
                            "P + Q)", g.p, g.q, g.p + g.q, np);
    const int tsize = cs_dtype_size(dtype), arith = counts && !strcmp(counts, "arithmetic");
    long b;
    for (size_t k = 0; k < nsizes; k++) {
        if (cs_groups_b_bytes(&g, sizes[k], tsize, &b, err))
            return -1;
        /* the root-gathering algorithms send a group's whole data in one
         * MPI_BYTE message (algorithms.def's p x block bound counts both
         * groups: the case's own bound is tighter) */
        for (int grp = 0; grp < 2; grp++) {
            long long total = cs_groups_total_bytes(&g, grp, sizes[k], tsize, arith);
            if (total > INT_MAX)
                return cs_fail(err, "%s/%s with --groups %d:%d and size %ld: group %c's data "
                                    "(%lld bytes) travels in one MPI_BYTE message: more than an "
                                    "MPI count (an int, at most %d) can express",
                               coll, alg, g.p, g.q, sizes[k], grp ? 'B' : 'A', total, INT_MAX);
        }
    }
    return 0;
}

int cs_case_map(const cs_case *c, int *map, char *spread, size_t spread_len, cs_err *err)
{
    int *list = NULL, nlist = 0, rc = 0;
    const int given = c->hosts && c->hosts[0];
    if (given && cs_hostspec_select(c->platform, c->hosts, "--hosts", &list, &nlist, err))
        return -1;
    rc = cs_map_ranks(c->platform, list, nlist, c->mapping, c->np, c->oversubscribe, c->ppn, map,
                      err);
    const cs_background bg = c->parts.bg;
    if (!rc && bg.procs) {
        int level = -1;
        for (int l = 0; l < c->platform->nlevels; l++)
            if (!strcmp(c->platform->levels[l], bg.level))
                level = l;
        char where[CS_FIELD_TEXT_MAX + 32];
        cs_err why;
        snprintf(where, sizeof where, "--background %s: ", c->background);
        if (level < 0)
            rc = cs_region_check(c->platform, bg.level, where, err);
        else if (cs_map_background(c->platform, map, c->np, list, nlist, level, bg.procs, bg.hosts,
                                   map + c->np, spread, spread_len, &why))
            rc = cs_fail(err, "%s%s", where, why.msg);
    }
    free(list);
    return rc;
}

int cs_case_check(const cs_case *c, cs_case_place *pl, cs_err *err)
{
    if (pl)
        memset(pl, 0, sizeof *pl);
    if (!c->resolved) /* a case built without cs_case_resolve: a bug of its caller */
        return cs_fail(err, "internal: the case of %s/%s was not resolved (cs_case_resolve) "
                            "before its check", c->alg.collective, c->alg.name);
    if (c->region && c->region[0] && cs_region_check(c->platform, c->region, "", err))
        return -1;
    if (cs_fields_check(cs_case_fields, c, c->alg.collective, 0, err) ||
        cs_fields_check_sizes(c->dtype, c->sizes->v, c->sizes->n, err))
        return -1;
    for (size_t i = 0; i < (c->np_list ? c->np_list->n : 1); i++)
        if ((c->np_list ? c->np_list->v[i] : c->np) < cs_coll_min_np(c->alg.collective))
            return cs_fail(err, "np %ld: %s", c->np_list ? c->np_list->v[i] : c->np,
                           cs_coll_min_np_why(c->alg.collective));
    for (size_t i = 0; c->np_list && i < c->np_list->n; i++)
        if (c->np_list->v[i] > c->np)
            return cs_fail(err, "process count %ld exceeds the %d simulated ranks",
                           c->np_list->v[i], c->np);
    const cs_coll_props *cp = cs_coll_find(c->alg.collective);
    for (size_t i = 0; cp && cp->rooted && i < (c->np_list ? c->np_list->n : 1); i++) {
        const long np = c->np_list ? c->np_list->v[i] : c->np;
        if (c->root >= np)
            return cs_fail(err, "--root %d at %ld processes: the root must be a rank, 0..%ld",
                           c->root, np, np - 1);
    }
    if (cp && cp->groups &&
        cs_groups_case_check(c->alg.collective, c->alg.name, &c->parts.groups, c->counts,
                             c->dtype, c->np, c->sizes->v, c->sizes->n, err))
        return -1;
    for (size_t i = 0; cp && cp->groups && c->np_list && i < c->np_list->n; i++)
        if (c->np_list->v[i] != c->np)
            return cs_fail(err, "process count %ld: with --groups %s every process count must "
                                "be P + Q = %d", c->np_list->v[i], c->groups, c->np);
    if (cs_alg_op_check(c->alg.collective, c->alg.name, c->op, err))
        return -1;
    /* every np and size against what the algorithm's MPI counts can express
     * (intergroup: cs_groups_case_check's own bound) */
    for (size_t i = 0; !(cp && cp->groups) && i < (c->np_list ? c->np_list->n : 1); i++)
        for (size_t k = 0; k < c->sizes->n; k++)
            if (cs_alg_count_check(c->alg.collective, c->alg.name,
                                   c->np_list ? (int)c->np_list->v[i] : c->np, c->sizes->v[k],
                                   c->dtype, err))
                return -1;
    cs_case_place place = {cs_xmalloc((size_t)(c->np + c->parts.bg.procs) * sizeof(int)),
                           c->np + c->parts.bg.procs, ""};
    if (cs_case_map(c, place.node_of_rank, place.spread, sizeof place.spread, err)) {
        cs_case_place_free(&place);
        return -1;
    }
    const double need = cs_case_memory_bytes(c), have = cs_mem_available();
    const double limit = c->mem_budget > 0 ? c->mem_budget : 0.9 * have;
    if (limit > 0 && need > limit) {
        char why[160], h[32], msg[1024];
        /* the limit is 90% of what is available, not all of it: say both */
        if (c->mem_budget > 0)
            snprintf(why, sizeof why, "--memory");
        else
            snprintf(why, sizeof why, "90%% of the %s available now; --memory SIZE sets another",
                     cs_fmt_bytes(have, h, sizeof h));
        cs_mem_refusal(c, cs_case_largest_block(c), limit, why, msg, sizeof msg);
        cs_case_place_free(&place);
        return cs_fail(err, "%s", msg);
    }
    if (pl)
        *pl = place;
    else
        cs_case_place_free(&place);
    return 0;
}

pid_t cs_case_start(const cs_case *c, const cs_case_place *pl, const char *workdir,
                    int show_table, cs_err *err)
{
    /* both files of the case from the check's placement (the background's
     * ranks after the measured ones) */
    cs_launch l;
    char paths[7][1024], nums[CS_NFIELDS][CS_FIELD_TEXT_MAX], *sizes, *nps;
    const char *argv[2 * CS_NFIELDS + 14];
    fill_launch(c, workdir, &l, paths);
    if (!pl->node_of_rank)
        return cs_fail(err, "internal: the case of %s/%s started without its placement "
                            "(cs_case_check)", c->alg.collective, c->alg.name);
    if (mkdir(workdir, 0755) && errno != EEXIST)
        return cs_fail(err, "cannot create %s: %s", workdir, strerror(errno));
    if (cs_write_case_files(c->platform, pl->node_of_rank, pl->n, paths[0], paths[5], err))
        return -1;
    remove(paths[1]);
    driver_args_fmt(c, nums, &sizes, &nps, RUN_ROWS, RUN_LOCALITY, argv);
    l.driver_args = argv;
    l.stdout_path = show_table ? NULL : paths[2];
    l.stderr_path = paths[3];
    pid_t pid = cs_smpirun_start(&l, err);
    free(sizes);
    free(nps);
    return pid;
}

/* Whether a line of SimGrid's or smpirun's error output says nothing of the
 * cause: configuration chatter, backtrace frames, smpirun's echo of its
 * command and exit code. */
static int noise(const char *line)
{
    /* "Backtrace (displayed in actor maestro):" heads the frames of an xbt_die */
    static const char *const marks[] = {"Configuration change", "Backtrace:", "backtrace:",
                                        "Backtrace (displayed in actor",
                                        "Execution failed with code", " --cfg="};
    if (!line[0] || !strncmp(line + strspn(line, " \t"), "->", 2))
        return 1;
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (strstr(line, marks[i]))
            return 1;
    return 0;
}

/* The error output in one line: SimGrid's fatal message first when there is
 * one (an uncaught exception or failed assertion, "[.../CRITICAL] TEXT": TEXT),
 * then the last lines that say something. */
static void error_tail(const char *path, char *out, size_t len)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024], fatal[1024] = "";
    char keep[6][1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (noise(line))
            continue;
        const char *c = strstr(line, "/CRITICAL] ");
        if (c && !fatal[0]) {
            snprintf(fatal, sizeof fatal, "%s", c + strlen("/CRITICAL] "));
            continue;
        }
        snprintf(keep[n % 6], sizeof keep[0], "%s", line);
        n++;
    }
    fclose(f);
    /* SimGrid 3.32's max-min solver gives up on a rounding error in large
     * shared-link systems; what avoided it where measured comes first */
    const char *hint = strstr(fatal, "Cannot saturate more a constraint")
                           ? "SimGrid's flow solver stopped on a rounding error (SMPI option "
                             "maxmin/precision:1e-2 avoided it where measured, moving no "
                             "predicted time: docs/simulation-cost.md): "
                           : "";
    snprintf(out, len, "%s%s", hint, fatal);
    for (int i = n > 6 ? n - 6 : 0; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", used ? " | " : "", keep[i % 6]);
    }
    if (strlen(out) == len - 1 && len > 4) /* cut: say so */
        memcpy(out + len - 4, "...", 4);
}

/* The first line of the driver's error output that starts with `prefix` and
 * holds `key` ("" for any): the text after the key (after the prefix for
 * ""), into out; 0 when there is none. */
static int driver_line(const char *path, const char *prefix, const char *key, char *out,
                       size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        const char *k = key[0] ? strstr(line, key) : line + strlen(prefix);
        if (k && !strncmp(line, prefix, strlen(prefix))) {
            snprintf(out, len, "%s", k + strlen(key));
            found = 1;
        }
    }
    fclose(f);
    return found;
}

/* The driver's own diagnosis of one size, from its error output: the text
 * after "collsim: ALG np=N size=S: " of the first such line (the data check
 * names rank, block and offset there); 0 when there is none. */
static int driver_diagnosis(const char *path, int np, long bytes, char *out, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, " np=%d size=%ld: ", np, bytes);
    return driver_line(path, "collsim: ", key, out, len);
}

/* The driver's message before it stopped the run ("collsim-driver: ...", e.g. a
 * malformed platform property), into out: 1, or 0 when there is none. SMPI 3.32
 * may exit 0 after MPI_Abort, so it is read whatever the exit status. */
static int driver_stopped(const char *path, char *out, size_t len)
{
    return driver_line(path, "collsim-driver: ", "", out, len);
}

void cs_case_row(const cs_case *c, int np, long bytes, cs_result *r)
{
    cs_result_init(r);
    cs_fields_row(cs_case_fields, c, c->alg.collective, &c->parts, r);
    snprintf(r->platform, sizeof r->platform, "%s", c->platform->name);
    snprintf(r->mapping, sizeof r->mapping, "%s", cs_mapping_name(c->mapping));
    snprintf(r->collective, sizeof r->collective, "%s", c->alg.collective);
    snprintf(r->algorithm, sizeof r->algorithm, "%s", c->alg.name);
    r->np = np;
    r->bytes = bytes;
    for (int k = 0; k < c->nextra; k++) {
        size_t u = strlen(r->smpi_cfg);
        snprintf(r->smpi_cfg + u, sizeof r->smpi_cfg - u, "%s%s", k ? " " : "", c->extra_cfg[k]);
    }
}

int cs_case_timed_out(const cs_case *c, int exit_code, int signaled, double wall_s)
{
    if (c->timeout_s <= 0)
        return CS_IN_TIME;
    if (cs_exit_over_cpu_limit(exit_code))
        return CS_OVER_CPU;
    return signaled && wall_s >= cs_wall_backstop(c->timeout_s) ? CS_OVER_WALL : CS_IN_TIME;
}

void cs_case_collect(const cs_case *c, const cs_case_place *pl, const char *workdir,
                     int exit_code, int timed_out, cs_result **rows, size_t *nrows)
{
    char path[1024], tail[512];
    snprintf(path, sizeof path, "%s/rows.csv", workdir);
    cs_result *got = NULL;
    size_t ngot = 0;
    cs_err rerr; /* the driver's rows unreadable: said in the notes, not lost */
    int unread = cs_results_read(path, &got, &ngot, &rerr) != 0;
    if (unread)
        ngot = 0;
    snprintf(path, sizeof path, "%s/stderr.txt", workdir);
    error_tail(path, tail, sizeof tail);
    /* the case's directory (or the hostfile written into it) removed while it ran, e.g. by a
     * user's clean-up of TMPDIR/collsim-bench-*: what failed then is said as that */
    char vanished[1400] = "", hostfile[1100];
    snprintf(hostfile, sizeof hostfile, "%s/hostfile", workdir);
    if (access(workdir, F_OK) || access(hostfile, F_OK))
        snprintf(vanished, sizeof vanished, "the case's work directory %s (or its files) "
                 "vanished while the case ran: removed by another process?", workdir);

    /* where the ranks were: the placement the case started with */
    const int *map = pl ? pl->node_of_rank : NULL;
    const int placed = map != NULL;
    size_t nnp = c->np_list ? c->np_list->n : 1;
    *nrows = nnp * c->sizes->n;
    *rows = cs_xmalloc(*nrows * sizeof(cs_result));
    for (size_t q = 0; q < nnp; q++)
        for (size_t i = 0; i < c->sizes->n; i++) {
            int np = c->np_list ? (int)c->np_list->v[q] : c->np;
            cs_result *r = &(*rows)[q * c->sizes->n + i];
            const cs_result *g = NULL;
            for (size_t k = 0; k < ngot && !g; k++)
                if (got[k].bytes == c->sizes->v[i] && got[k].np == np)
                    g = &got[k];
            cs_case_row(c, np, c->sizes->v[i], r);
            if (placed && i == 0)
                cs_placement_text(c->platform, map, np, r->placement, sizeof r->placement);
            else if (placed) /* the same ranks at every size */
                memcpy(r->placement, r[-1].placement, sizeof r->placement);
            if (vanished[0] && (!g || strcmp(g->status, "ok"))) {
                snprintf(r->status, sizeof r->status, "error");
                snprintf(r->note, sizeof r->note, "%s", vanished);
            } else if (g) {
                /* the case defines the key; the driver's row brings what it measured */
                r->data_bytes = g->data_bytes;
                r->avg_us = g->avg_us;
                r->min_us = g->min_us;
                r->max_us = g->max_us;
                r->call_max_us = g->call_max_us;
                r->root_us = g->root_us;
                r->iterations = g->iterations;
                snprintf(r->status, sizeof r->status, "%s", g->status);
                r->nonlocal_max_msgs = g->nonlocal_max_msgs;
                r->nonlocal_max_bytes = g->nonlocal_max_bytes;
                r->nonlocal_total_msgs = g->nonlocal_total_msgs;
                r->nonlocal_total_bytes = g->nonlocal_total_bytes;
                snprintf(r->account, sizeof r->account, "%s", g->account);
            } else {
                snprintf(r->status, sizeof r->status, "%s", timed_out ? "timeout" : "error");
                if (timed_out == CS_OVER_WALL)
                    snprintf(r->note, sizeof r->note,
                             "killed after %d s of wall time, 4 x its %d CPU s + 60 (a starved or hung "
                             "run); %s",
                             cs_wall_backstop(c->timeout_s), c->timeout_s, tail);
                else if (timed_out)
                    snprintf(r->note, sizeof r->note, "over its limit of %d CPU s; %s",
                             c->timeout_s, tail);
                else if (driver_stopped(path, r->note, sizeof r->note))
                    ; /* the driver's own reason */
                else if (unread && exit_code == 0)
                    snprintf(r->note, sizeof r->note, "smpirun exited with 0, but its rows could "
                             "not be read: %s", rerr.msg);
                else
                    snprintf(r->note, sizeof r->note, "smpirun exited with %d: %s", exit_code,
                             tail[0] ? tail : "no error output");
            }
            /* a row the driver wrote as fail or error: its own diagnosis */
            if (g && strcmp(r->status, "ok") &&
                !driver_diagnosis(path, np, c->sizes->v[i], r->note, sizeof r->note))
                snprintf(r->note, sizeof r->note, "%s", tail);
        }
    free(got);
}

void cs_case_wait(const cs_case *c, const cs_case_place *pl, const char *workdir, pid_t pid,
                  cs_result **rows, size_t *nrows)
{
    int signaled;
    int code = cs_smpirun_wait(pid, cs_wall_backstop(c->timeout_s), &signaled);
    int timed_out = cs_exit_over_cpu_limit(code) ? CS_OVER_CPU : signaled ? CS_OVER_WALL : CS_IN_TIME;
    cs_case_collect(c, pl, workdir, code, timed_out, rows, nrows);
}
