/* realpath() is an XSI function in glibc */
#define _XOPEN_SOURCE 700
#include "emit.h"

#include "smpirun.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int cs_emit_kind_parse(const char *text, cs_emit_kind *out, cs_err *err)
{
    if (!strcmp(text, "slurm"))
        *out = CS_EMIT_SLURM;
    else if (!strcmp(text, "parallel"))
        *out = CS_EMIT_PARALLEL;
    else
        return cs_fail(err, "--emit %s: unknown target (valid: slurm, parallel)", text);
    return 0;
}

static int absolute(const char *path, const char *what, char *out, size_t len, cs_err *err)
{
    char buf[PATH_MAX];
    if (!realpath(path, buf))
        return cs_fail(err, "%s '%s': %s", what, path, strerror(errno));
    snprintf(out, len, "%s", buf);
    return 0;
}

/* Stale task directories would be merged with the new ones. */
static int tasks_empty(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int empty = 1;
    while (d && empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return empty;
}

int cs_emit(FILE *f, const cs_scenario *s, const cs_run_opts *o, cs_emit_kind kind,
            const char *entry, cs_err *err)
{
    cs_caselist list;
    if (o->pick_case)
        return cs_fail(err, "--emit writes one task per case; --case K is what each task runs "
                            "(use one or the other)");
    if (cs_expand_cases(s, o, &list, err))
        return -1;
    size_t n = list.n;
    cs_caselist_free(&list);

    char dir[PATH_MAX], tasks[PATH_MAX + 8], scen[PATH_MAX], ent[PATH_MAX];
    if (cs_mkdirs(o->out_dir, err) || absolute(o->out_dir, "output directory", dir, sizeof dir, err) ||
        absolute(s->path, "scenario", scen, sizeof scen, err))
        return -1;
    if (kind == CS_EMIT_SLURM && strpbrk(dir, " \t\n%\"'"))
        return cs_fail(err, "--emit slurm: the output directory '%s' has a space, quote or %% "
                            "that #SBATCH lines cannot carry; choose another --out",
                       dir);
    snprintf(tasks, sizeof tasks, "%s/tasks", dir);
    if (!tasks_empty(tasks))
        return cs_fail(err, "%s already holds task results (of an earlier --emit?): remove it, or "
                            "choose another --out",
                       tasks);
    if (cs_mkdirs(tasks, err))
        return -1;
    if (!entry)
        entry = COLLSIM_SOURCE_DIR "/collsim";
    if (!strchr(entry, '/') || absolute(entry, "entry", ent, sizeof ent, err))
        snprintf(ent, sizeof ent, "%s", entry); /* a command found on PATH */

    /* every task: the same command, its own case and directory */
    char q_ent[2 * PATH_MAX], q_scen[2 * PATH_MAX], q_tasks[2 * PATH_MAX], q_only[4096] = "";
    char q_dir[2 * PATH_MAX];
    cs_shell_quote(ent, q_ent, sizeof q_ent);
    cs_shell_quote(scen, q_scen, sizeof q_scen);
    cs_shell_quote(tasks, q_tasks, sizeof q_tasks);
    cs_shell_quote(dir, q_dir, sizeof q_dir);
    if (o->only) {
        char q[4000];
        cs_shell_quote(o->only, q, sizeof q);
        snprintf(q_only, sizeof q_only, " --only %s", q);
    }
    char merge[4 * PATH_MAX], check[4 * PATH_MAX] = "";
    snprintf(merge, sizeof merge, "%s merge %s/*/results.csv --out %s/results.csv", q_ent, q_tasks,
             q_dir);
    if (s->nexpects)
        snprintf(check, sizeof check, "%s check %s/results.csv --scenario %s", q_ent, q_dir, q_scen);

    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, kind == CS_EMIT_SLURM ? "collsim.sbatch" : "jobs.txt");
    FILE *out = fopen(path, "w");
    if (!out)
        return cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    if (kind == CS_EMIT_SLURM) {
        /* sbatch reads #SBATCH lines only before the first command */
        fprintf(out, "#!/bin/bash\n");
        fprintf(out, "#SBATCH --job-name=collsim-%s\n", s->name);
        fprintf(out, "#SBATCH --array=0-%zu\n", n - 1);
        fprintf(out, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
        fprintf(out, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", tasks);
        if (s->timeout_s > 0) /* the case's own limit, and a margin to record it */
            fprintf(out, "#SBATCH --time=%d\n", (s->timeout_s + 59) / 60 + 5);
        fprintf(out, "# Written by `collsim run --emit slurm`: scenario %s, %zu cases, one per "
                     "array task.\n# Submit: sbatch %s\n# When every task has ended: %s\n",
                s->name, n, path, merge);
        fprintf(out, "set -euo pipefail\n");
        fprintf(out, "k=\"${SLURM_ARRAY_TASK_ID:?run this job array with sbatch}\"\n");
        fprintf(out, "exec %s run %s --case \"$k\" --out %s/\"$k\" --force%s\n", q_ent, q_scen,
                q_tasks, q_only);
    } else {
        for (size_t k = 0; k < n; k++)
            fprintf(out, "%s run %s --case %zu --out %s/%zu --force%s\n", q_ent, q_scen, k, q_tasks,
                    k, q_only);
    }
    if (fclose(out))
        return cs_fail(err, "cannot write %s: %s", path, strerror(errno));

    fprintf(f, "# %s: %zu cases of scenario %s, one task each\n", path, n, s->name);
    if (kind == CS_EMIT_SLURM)
        fprintf(f, "# submit it:\nsbatch %s\n", path);
    else
        fprintf(f, "# run it:\nparallel -j %d < %s/jobs.txt\n", o->jobs > 0 ? o->jobs : 1, q_dir);
    fprintf(f, "# then merge the tasks' results:\n%s\n", merge);
    if (check[0])
        fprintf(f, "# and check the scenario's expectations:\n%s\n", check);
    return 0;
}
