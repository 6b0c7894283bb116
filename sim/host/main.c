/* collsim: the command-line entry point (run through ./collsim, which builds
 * it first). Subcommands: list, bench, run, demo. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_case.h"
#include "calibrate.h"
#include "cli_check.h"
#include "cli_report.h"
#include "cs_error.h"
#include "emit.h"
#include "platform.h"
#include "registry.h"
#include "runner.h"
#include "scenario.h"

static int die(const cs_err *e)
{
    fprintf(stderr, "collsim: %s\n", e->msg);
    return 2;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: collsim COMMAND [options]\n"
            "  demo                          run the default scenario (scenarios/quickstart.xml)\n"
            "  test                          build and run the whole test suite (./collsim only)\n"
            "  list algorithms|platforms     what can be simulated\n"
            "  bench --platform NAME|FILE --np N --alg NAME --sizes LIST\n"
            "        [--coll allgather|alltoall|alltoallv] [--map sequential|cyclic] [--check|--fold] [--iters K]\n"
            "        [--warmup W] [--dtype byte|int|double] [--oversubscribe] [--in-place]\n"
            "        [--ppn K] [--account]     K ranks per node; per-level message counts\n"
            "        [--region LEVEL]          the locality-aware algorithms' region: a level\n"
            "                                the platform declares (default node)\n"
            "        [--timeout S] [--dist uniform|window:R|gaussian|powerlaw:B[:K]] [--seed S]\n"
            "                                (alltoallv: block sizes; --sizes then gives N, the largest)\n"
            "        [--smpi-cfg NAME:VALUE]...  one simulated run, OSU-style table\n"
            "  run SCENARIO.xml [--out DIR] [-j N] [--resume] [--force] [--memory SIZE]\n"
            "        [--only KEY=VALUE,...] [--case K]\n"
            "                                run a sweep; rows go to DIR/results.csv\n"
            "  run SCENARIO.xml --emit slurm|parallel [--out DIR] [--only ...] [--entry CMD]\n"
            "                                one task per case: DIR/collsim.sbatch or DIR/jobs.txt\n"
            "  merge DIR/tasks/*/results.csv --out DIR/results.csv\n"
            "                                join the tasks' results\n"
            "  check RESULTS.csv [--baseline BASE.csv [--rtol X] [--strict] [--update]]\n"
            "        [--scenario FILE.xml]   compare with a baseline; check expectations\n"
            "  report RESULTS.csv [--out DIR] [--focus ALG] [--baseline ALG]\n"
            "                                figures and tables in DIR/report.md\n"
            "                                (default DIR: the results' directory + /report)\n"
            "  postal --platform NAME|FILE [--nodes A,B] [--sizes LIST]\n"
            "                                Hockney alpha, beta from a simulated ping-pong\n"
            "  calibrate PLATFORM [--sizes LIST] [--max-error PCT]\n"
            "                                per declared locality level: ping-pong, alpha and beta\n"
            "                                per regime, against the platform's published values\n"
            "Sizes and process counts: 1,2,4 | 1:1048576 (doubling) | 5:253:8 (step) | 64K\n");
}

static int cmd_list(int argc, char **argv)
{
    const char *what = argc > 0 ? argv[0] : "";
    if (!strcmp(what, "algorithms")) {
        size_t n;
        const cs_alg_info *r = cs_registry(&n);
        printf("%-32s %-30s %s\n", "# algorithm", "source (section)", "restriction / fallback");
        for (size_t i = 0; i < n; i++) {
            char name[128], src[256];
            snprintf(name, sizeof name, "%s/%s", r[i].collective, r[i].name);
            snprintf(src, sizeof src, "%s", r[i].section);
            printf("%-32s %-30s %s\n    paper: %s\n", name, src, r[i].restriction, r[i].paper);
        }
        printf("\n# SMPI 3.32 built-in baselines (native:NAME)\n");
        const char *const *sel = cs_native_selectors();
        for (const char *const *coll = cs_collectives(); *coll; coll++) {
            printf("%s/native:{", *coll);
            for (int i = 0; sel[i]; i++)
                printf("%s%s", i ? "," : "", sel[i]);
            printf("}  library decision logic (--cfg=smpi/coll-selector)\n");
            const char *const *nat = cs_native_algorithms(*coll);
            printf("%s/native:{", *coll);
            for (int i = 0; nat[i]; i++)
                printf("%s%s", i ? "," : "", nat[i]);
            printf("}  one SMPI algorithm (--cfg=smpi/%s)\n", *coll);
        }
        return 0;
    }
    if (!strcmp(what, "platforms")) {
        char **names;
        int n = cs_platform_names(&names);
        printf("%-16s %7s %9s  %s\n", "# platform", "nodes", "cores", "description");
        int rc = 0;
        for (int i = 0; i < n; i++) {
            char *path;
            cs_platform pf;
            cs_err e;
            if (cs_platform_find(names[i], &path, &e) || cs_platform_load(path, &pf, &e)) {
                fprintf(stderr, "collsim: %s\n", e.msg);
                rc = 2;
                continue;
            }
            printf("%-16s %7d %9ld  %s\n", pf.name, pf.nnodes, pf.total_cores, pf.description);
            cs_platform_free(&pf);
            free(path);
        }
        cs_platform_names_free(names, n);
        return rc;
    }
    fprintf(stderr, "collsim: list what? '%s' (valid: algorithms, platforms)\n", what);
    return 2;
}

static int parse_int(const char *opt, const char *v, int min, int *out, cs_err *e)
{
    char *end;
    errno = 0;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || end == v || *end || errno || x < min || x > 1 << 30)
        return cs_fail(e, "%s needs an integer >= %d (got '%s')", opt, min, v ? v : "nothing");
    *out = (int)x;
    return 0;
}

/* bench's case directory: removed after a passing run, and when bench is
 * interrupted (its simulation goes down with it, sim/host/smpirun.c). The
 * paths are built beforehand: the signal handler only unlinks. */
static char bench_files[6][2100];

static void bench_remove_workdir(int sig)
{
    for (int i = 0; i < 5; i++)
        unlink(bench_files[i]);
    rmdir(bench_files[5]);
    if (sig) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

static void bench_cleanup_on_signal(const char *workdir)
{
    const char *files[] = {"hostfile", "locality", "rows.csv", "stderr.txt", "stdout.txt"};
    for (int i = 0; i < 5; i++)
        snprintf(bench_files[i], sizeof bench_files[i], "%s/%s", workdir, files[i]);
    snprintf(bench_files[5], sizeof bench_files[5], "%s", workdir);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = bench_remove_workdir;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, NULL);
}

static int cmd_bench(int argc, char **argv)
{
    cs_err e;
    const char *platform = NULL, *coll = "allgather", *alg = NULL, *sizes = "1:1048576",
               *map = "sequential";
    cs_case c;
    memset(&c, 0, sizeof c);
    c.iters = 3;
    c.warmup = 1;
    c.dtype = "byte";
    c.seed = 1;
    int np = 0, seed_given = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE()                                                                                    \
    do {                                                                                           \
        if (!v) {                                                                                  \
            fprintf(stderr, "collsim: %s needs a value\n", a);                                    \
            return 2;                                                                              \
        }                                                                                          \
        i++;                                                                                       \
    } while (0)
        if (!strcmp(a, "--platform")) { VALUE(); platform = v; }
        else if (!strcmp(a, "--np")) { VALUE(); if (parse_int(a, v, 1, &np, &e)) return die(&e); }
        else if (!strcmp(a, "--map")) { VALUE(); map = v; }
        else if (!strcmp(a, "--coll")) { VALUE(); coll = v; }
        else if (!strcmp(a, "--alg")) { VALUE(); alg = v; }
        else if (!strcmp(a, "--sizes")) { VALUE(); sizes = v; }
        else if (!strcmp(a, "--iters")) { VALUE(); if (parse_int(a, v, 1, &c.iters, &e)) return die(&e); }
        else if (!strcmp(a, "--warmup")) { VALUE(); if (parse_int(a, v, 0, &c.warmup, &e)) return die(&e); }
        else if (!strcmp(a, "--timeout")) { VALUE(); if (parse_int(a, v, 1, &c.timeout_s, &e)) return die(&e); }
        else if (!strcmp(a, "--ppn")) { VALUE(); if (parse_int(a, v, 1, &c.ppn, &e)) return die(&e); }
        else if (!strcmp(a, "--dtype")) { VALUE(); c.dtype = v; }
        else if (!strcmp(a, "--dist")) { VALUE(); c.dist = v; }
        else if (!strcmp(a, "--region")) { VALUE(); c.region = v; }
        else if (!strcmp(a, "--seed")) {
            VALUE();
            char *end;
            errno = 0;
            c.seed = strtoul(v, &end, 10);
            if (end == v || *end || errno || v[0] == '-') {
                fprintf(stderr, "collsim: --seed needs an integer >= 0 (got '%s')\n", v);
                return 2;
            }
            seed_given = 1;
        }
        else if (!strcmp(a, "--smpi-cfg")) {
            VALUE();
            if (c.nextra == CS_MAX_CFG - 2 || !strchr(v, ':')) {
                fprintf(stderr, "collsim: --smpi-cfg takes NAME:VALUE (an SMPI 3.32 option), got '%s'\n", v);
                return 2;
            }
            c.extra_cfg[c.nextra++] = v;
        }
        else if (!strcmp(a, "--check")) c.fold = 0;
        else if (!strcmp(a, "--fold")) c.fold = 1;
        else if (!strcmp(a, "--oversubscribe")) c.oversubscribe = 1;
        else if (!strcmp(a, "--in-place")) c.in_place = 1;
        else if (!strcmp(a, "--account")) c.account = 1;
        else {
            fprintf(stderr, "collsim: bench: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
#undef VALUE
    }
    if (!platform || !np || !alg) {
        fprintf(stderr, "collsim: bench needs --platform, --np and --alg\n");
        usage(stderr);
        return 2;
    }
    char *path;
    cs_platform pf;
    cs_numlist sl;
    if (cs_platform_find(platform, &path, &e) || cs_platform_load(path, &pf, &e))
        return die(&e);
    free(path);
    if (cs_mapping_parse(map, &c.mapping, &e) || cs_resolve_alg(coll, alg, &c.alg, &e) ||
        cs_numlist_parse(sizes, "size list", 1, 0, &sl, &e)) {
        cs_platform_free(&pf);
        return die(&e);
    }
    c.platform = &pf;
    c.np = np;
    c.sizes = &sl;
    if (seed_given && !cs_collective_variable(c.alg.collective))
        cs_fail(&e, "--seed applies to alltoallv only, not %s", c.alg.collective);

    if ((seed_given && !cs_collective_variable(c.alg.collective)) || cs_case_check(&c, &e)) {
        cs_platform_free(&pf);
        cs_numlist_free(&sl);
        return die(&e);
    }
    char workdir[2048];
    snprintf(workdir, sizeof workdir, "%s/collsim-bench-XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(workdir)) {
        perror("collsim: cannot create a temporary directory");
        return 2;
    }
    printf("# platform %s (%d nodes, %ld cores), %s mapping, %d ranks", pf.name, pf.nnodes,
           pf.total_cores, map, np);
    if (c.ppn)
        printf(", %d per node", c.ppn);
    if (c.region && c.region[0])
        printf(", region %s", c.region);
    printf("\n");
    bench_cleanup_on_signal(workdir);
    pid_t pid = cs_case_start(&c, workdir, 1, &e);
    if (pid < 0) {
        rmdir(workdir);
        cs_platform_free(&pf);
        cs_numlist_free(&sl);
        return die(&e);
    }
    int timed_out;
    int code = cs_smpirun_wait(pid, cs_wall_backstop(c.timeout_s), &timed_out);
    timed_out = cs_exit_over_cpu_limit(code) ? CS_OVER_CPU : timed_out ? CS_OVER_WALL : CS_IN_TIME;
    cs_result *rows;
    size_t n;
    cs_case_collect(&c, workdir, code, timed_out, &rows, &n);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].status, "ok")) {
            if (!bad)
                fprintf(stderr, "collsim: %s/%s np=%d size %ld: %s: %s\n", rows[i].collective,
                        rows[i].algorithm, np, rows[i].bytes, rows[i].status, rows[i].note);
            bad = 1;
        }
    if (bad) {
        char *cmd = cs_case_cmdline(&c, workdir);
        fprintf(stderr, "collsim: files kept in %s; re-run by hand with:\n  %s\n", workdir, cmd);
        free(cmd);
    } else {
        bench_remove_workdir(0);
    }
    free(rows);
    cs_platform_free(&pf);
    cs_numlist_free(&sl);
    return bad ? 1 : 0;
}

static int cmd_run(int argc, char **argv, int demo)
{
    cs_err e;
    const char *scenario = demo ? COLLSIM_SOURCE_DIR "/scenarios/quickstart.xml" : NULL, *out = NULL;
    cs_run_opts o = {.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), .force = demo};
    const char *emit = NULL, *entry = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--out") && v) { out = v; i++; }
        else if (!strcmp(a, "--only") && v) { o.only = v; i++; }
        else if (!strcmp(a, "--case") && v) {
            int k = 0;
            if (parse_int(a, v, 0, &k, &e))
                return die(&e);
            o.pick_case = 1;
            o.case_index = k;
            i++;
        }
        else if (!strcmp(a, "--emit") && v) { emit = v; i++; }
        else if (!strcmp(a, "--entry") && v) { entry = v; i++; }
        else if (!strcmp(a, "-j") && v) { if (parse_int(a, v, 1, &o.jobs, &e)) return die(&e); i++; }
        else if (!strcmp(a, "--memory") && v) {
            cs_numlist m;
            if (cs_numlist_parse(v, "--memory", 1, 1, &m, &e))
                return die(&e);
            if (m.n != 1) {
                cs_numlist_free(&m);
                fprintf(stderr, "collsim: run: --memory takes one size, e.g. 8G (got '%s')\n", v);
                return 2;
            }
            o.memory = (double)m.v[0];
            cs_numlist_free(&m);
            i++;
        }
        else if (!strcmp(a, "--resume")) o.resume = 1;
        else if (!strcmp(a, "--force")) o.force = 1;
        else if (a[0] != '-' && !scenario) scenario = a;
        else {
            fprintf(stderr, "collsim: run: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!scenario) {
        fprintf(stderr, "collsim: run needs a scenario file (e.g. scenarios/quickstart.xml)\n");
        return 2;
    }
    cs_emit_kind kind = CS_EMIT_PARALLEL;
    if (entry && !emit) {
        fprintf(stderr, "collsim: run: --entry names the command of emitted tasks; it needs "
                        "--emit slurm|parallel\n");
        return 2;
    }
    if (emit && cs_emit_kind_parse(emit, &kind, &e))
        return die(&e);
    cs_scenario s;
    if (cs_scenario_load(scenario, &s, &e))
        return die(&e);
    char dflt[1024];
    snprintf(dflt, sizeof dflt, "results/%s", s.name);
    o.out_dir = out ? out : dflt;
    if (emit) {
        int erc = cs_emit(stdout, &s, &o, kind, entry, &e);
        cs_scenario_free(&s);
        return erc ? die(&e) : 0;
    }
    cs_caselist sel;
    if ((o.only || o.pick_case) && cs_expand_cases(&s, &o, &sel, &e)) {
        /* a bad selection is reported before anything else is printed */
        cs_scenario_free(&s);
        return die(&e);
    }
    if (o.only || o.pick_case)
        cs_caselist_free(&sel);
    printf("# scenario %s: %s\n", s.name, s.description);
    int rc = cs_run_scenario(&s, &o, &e);
    cs_scenario_free(&s);
    if (rc < 0)
        return die(&e);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "list"))
        return cmd_list(argc - 2, argv + 2);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 2, argv + 2, 0);
    if (!strcmp(cmd, "demo"))
        return cmd_run(argc - 2, argv + 2, 1);
    if (!strcmp(cmd, "check"))
        return cs_cmd_check(argc - 2, argv + 2);
    if (!strcmp(cmd, "merge"))
        return cs_cmd_merge(argc - 2, argv + 2);
    if (!strcmp(cmd, "report"))
        return cs_cmd_report(argc - 2, argv + 2);
    if (!strcmp(cmd, "postal"))
        return cs_cmd_postal(argc - 2, argv + 2);
    if (!strcmp(cmd, "calibrate"))
        return cs_cmd_calibrate(argc - 2, argv + 2);
    fprintf(stderr, "collsim: unknown command '%s' (valid: demo, test, list, bench, run, check, "
                    "merge, report, postal, calibrate, help)\n", cmd);
    return 2;
}
