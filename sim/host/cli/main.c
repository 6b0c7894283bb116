/* collsim: the command-line entry point (run through ./collsim, which builds
 * it first). Subcommands: list, bench, run, demo. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_case.h"
#include "calibrate.h"
#include "cli_check.h"
#include "cli_report.h"
#include "cli_tune.h"
#include "cs_error.h"
#include "emit.h"
#include "outdir.h"
#include "platform.h"
#include "platform_props.h"
#include "registry.h"
#include "runner.h"
#include "scenario.h"

static int die(const cs_err *e)
{
    fprintf(stderr, "collsim: %s\n", e->msg);
    return 2;
}

/* Each command's usage, printed by `collsim help` (all) and `collsim CMD
 * --help` (one); bench's options come from case_fields.def. */
static const struct {
    const char *cmd, *text;
} usages[] = {
    {"demo", "  demo                          run the default scenario (scenarios/quickstart.xml)\n"},
    {"test", "  test                          build and run the whole test suite (./collsim only)\n"},
    {"list", "  list algorithms|platforms|properties  what can be simulated; properties: the\n"
             "                                collsim.* properties of a platform file (--markdown)\n"},
    {"bench", "  bench --platform NAME|FILE --np N --alg NAME [--sizes LIST] [options]\n"
              "                                one simulated run, OSU-style table; options:\n"},
    {"run", "  run SCENARIO.xml [--out DIR] [-j N] [--resume [--accept-changes]] [--force]\n"
            "        [--memory SIZE] [--only KEY=VALUE,...] [--case K]\n"
            "                                run a sweep; rows go to DIR/results.csv (one\n"
            "                                sweep at a time per DIR; --accept-changes: resume\n"
            "                                although the scenario file changed)\n"
            "  run SCENARIO.xml --emit slurm|parallel [--out DIR] [--only ...] [--entry CMD]\n"
            "                                one task per case: DIR/collsim.sbatch or DIR/jobs.txt\n"},
    {"merge", "  merge DIR/tasks/*/results.csv --out DIR/results.csv [--strict]\n"
              "                                join the tasks' results (--strict: a task\n"
              "                                without rows is an error, nothing written)\n"},
    {"repair", "  repair RESULTS.csv            keep one row per case (a passing one first),\n"
               "                                drop an incomplete last row; the file as it was\n"
               "                                is kept as RESULTS.csv.orig\n"},
    {"check", "  check RESULTS.csv [--baseline BASE.csv [--rtol X] [--strict] [--update]]\n"
              "        [--scenario FILE.xml]   compare with a baseline; check expectations\n"},
    {"compare", "  compare MEASURED.csv PREDICTED.csv\n"
                "                                a real MPI's measurements (collsim-mpibench --csv)\n"
                "                                beside a simulation's predictions of the same cases\n"},
    {"report", "  report RESULTS.csv [--out DIR] [--focus ALG] [--baseline ALG]\n"
               "                                figures and tables in DIR/report.md\n"
               "                                (default DIR: the results' directory + /report)\n"},
    {"tune", "  tune RESULTS.csv [--out DIR] [--platform P] [--mapping M] [--model M]\n"
             "        [--threshold PCT] [--scenario NAME]\n"
             "                                from the best algorithms: collsim's decision table\n"
             "                                (COLLSIM_<COLL>=auto:FILE), Open MPI's rules file\n"
             "                                and MPICH's selection files\n"
             "                                (default DIR: the results' directory + /tune;\n"
             "                                threshold: least gain over the library, default 5)\n"},
    {"postal", "  postal --platform NAME|FILE [--nodes A,B] [--sizes LIST]\n"
               "                                Hockney alpha, beta from a simulated ping-pong\n"},
    {"calibrate", "  calibrate PLATFORM [--sizes LIST] [--max-error PCT]\n"
                  "                                per declared locality level: ping-pong, alpha and beta\n"
                  "                                per regime, against the platform's published values\n"},
};
#define NUSAGES (sizeof usages / sizeof usages[0])

static void usage_of(FILE *f, size_t i)
{
    fputs(usages[i].text, f);
    if (strcmp(usages[i].cmd, "bench"))
        return;
    cs_fields_usage(cs_case_fields, f, 0);
    fprintf(f, "    %-36s %s\n", "--smpi-cfg NAME:VALUE", "an SMPI 3.32 option (repeatable)");
    fprintf(f, "    %-36s %s\n", "--memory SIZE",
            "the host memory the run may take (default: 90% of what is available)");
}

static const char *const numbers_help =
    "Sizes and process counts: 1,2,4 | 1:1048576 (doubling) | 5:253:8 (step) | 64K\n";

static void usage(FILE *f)
{
    fprintf(f, "usage: collsim COMMAND [options]   (collsim COMMAND --help: one command)\n");
    for (size_t i = 0; i < NUSAGES; i++)
        usage_of(f, i);
    fputs(numbers_help, f);
}

/* `collsim CMD --help` (or -h anywhere among its arguments): CMD's usage on
 * stdout. 1 when printed. */
static int command_help(const char *cmd, int argc, char **argv)
{
    int asked = 0;
    for (int i = 0; i < argc; i++)
        asked |= !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
    for (size_t i = 0; asked && i < NUSAGES; i++)
        if (!strcmp(usages[i].cmd, cmd)) {
            printf("usage: collsim %s ...\n", cmd);
            usage_of(stdout, i);
            fputs(numbers_help, stdout);
            return 1;
        }
    return 0;
}

static int cmd_list(int argc, char **argv)
{
    const char *what = argc > 0 ? argv[0] : "";
    if (!strcmp(what, "algorithms")) {
        size_t n;
        const cs_alg_info *r = cs_registry(&n);
        /* the columns as wide as their longest entry (at least the headings') */
        int wname = 32, wsrc = 30;
        for (size_t i = 0; i < n; i++) {
            int l = (int)(strlen(r[i].collective) + 1 + strlen(r[i].name)), m = (int)strlen(r[i].section);
            wname = l >= wname ? l + 1 : wname;
            wsrc = m >= wsrc ? m + 1 : wsrc;
        }
        printf("%-*s %-*s %s\n", wname, "# algorithm", wsrc, "source (section)",
               "restriction / fallback");
        for (size_t i = 0; i < n; i++) {
            char name[128];
            snprintf(name, sizeof name, "%s/%s", r[i].collective, r[i].name);
            printf("%-*s %-*s %s\n    paper: %s\n", wname, name, wsrc, r[i].section,
                   r[i].restriction, r[i].paper);
        }
        printf("%-*s %-*s %s\n    paper: %s\n", wname, "pingpong/" CS_PINGPONG_ALG, wsrc,
               "sim/driver/pingpong.c", "ranks 0 and 1 only; one-way time = round trip / 2",
               "none (a point-to-point benchmark: latencies by location, --hosts)");
        printf("\n# SMPI 3.32 built-in baselines (native:NAME)\n");
        const char *const *sel = cs_native_selectors();
        for (const char *const *coll = cs_collectives(); *coll; coll++) {
            if (!cs_native_algorithms(*coll)[0]) /* intergroup: SMPI has none */
                continue;
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
            cs_platform pf;
            cs_err e;
            if (cs_platform_open(names[i], &pf, &e)) {
                fprintf(stderr, "collsim: %s\n", e.msg);
                rc = 2;
                continue;
            }
            printf("%-16s %7d %9ld  %s\n", pf.name, pf.nnodes, pf.total_cores, pf.description);
            cs_platform_free(&pf);
        }
        cs_platform_names_free(names, n);
        return rc;
    }
    if (!strcmp(what, "properties")) { /* core/platform_props.def; --markdown: platforms/README.md's table */
        int md = argc > 1 && !strcmp(argv[1], "--markdown");
        if (argc > 1 + md) {
            fprintf(stderr, "collsim: list properties takes only --markdown (got '%s')\n", argv[1 + md]);
            return 2;
        }
        if (!md)
            printf("# the collsim properties of a platform file (<prop id=\"NAME\" value=\"...\"/>);"
                   " LEVEL, PATH, REGIME: names\n");
        cs_props_print(stdout, md);
        return 0;
    }
    fprintf(stderr, "collsim: list what? '%s' (valid: algorithms, platforms, properties)\n", what);
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

/* --memory SIZE of bench and run: one size, e.g. 8G, in bytes. */
static int parse_memory(const char *cmd, const char *v, double *out, cs_err *e)
{
    cs_numlist m;
    if (cs_numlist_parse(v, "--memory", 1, 1, &m, e))
        return -1;
    const size_t n = m.n;
    *out = n ? (double)m.v[0] : 0;
    cs_numlist_free(&m);
    if (n != 1)
        return cs_fail(e, "%s: --memory takes one size, e.g. 8G (got '%s')", cmd, v);
    return 0;
}

/* bench's case directory: removed after a passing run, and when bench is
 * interrupted (its simulation goes down with it, sim/host/case/smpirun.c). The
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
    cs_case c;
    cs_case_init(&c);
    /* the SPECIAL fields' text, resolved below */
    const char *raw[CS_NFIELDS];
    for (int k = 0; k < CS_NFIELDS; k++)
        raw[k] = cs_case_fields[k].dflt_s;
    unsigned long given = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int got = cs_fields_parse(cs_case_fields, &c, 0, argc, argv, &i, raw, &given, &e);
        if (got < 0)
            return die(&e);
        if (got)
            continue;
        if (!strcmp(a, "--smpi-cfg") && v) {
            if (c.nextra == CS_MAX_CFG - 2 || !strchr(v, ':')) {
                fprintf(stderr, "collsim: --smpi-cfg takes NAME:VALUE (an SMPI 3.32 option), got '%s'\n", v);
                return 2;
            }
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(strchr(v, ':') - v), v);
            if (cs_smpi_option_refused(name, strchr(v, ':') + 1, &e)) {
                fprintf(stderr, "collsim: --smpi-cfg: %s\n", e.msg);
                return 2;
            }
            c.extra_cfg[c.nextra++] = v;
            i++;
        } else if (!strcmp(a, "--memory") && v) {
            if (parse_memory("bench", v, &c.mem_budget, &e))
                return die(&e);
            i++;
        } else {
            fprintf(stderr, "collsim: bench: unknown option '%s' (collsim bench --help lists them)\n", a);
            return 2;
        }
    }
    const char *platform = raw[CS_F_platform], *alg = raw[CS_F_algorithm], *map = raw[CS_F_mapping];
    if (!platform || !c.np || !alg) {
        fprintf(stderr, "collsim: bench needs --platform, --np and --alg (collsim bench --help)\n");
        return 2;
    }
    cs_platform pf;
    cs_numlist sl;
    if (cs_platform_open(platform, &pf, &e))
        return die(&e);
    if (cs_mapping_parse(map, &c.mapping, &e) ||
        cs_resolve_alg(raw[CS_F_collective], alg, &c.alg, &e) ||
        cs_numlist_parse(raw[CS_F_sizes], "size list", 1, 0, &sl, &e)) {
        cs_platform_free(&pf);
        return die(&e);
    }
    cs_numlist_sort(&sl); /* the order a case runs them in (numlist.h) */
    c.platform = &pf;
    c.sizes = &sl;
    int conflict = 0;
    for (int k = 0; k < c.nextra && !conflict; k++)
        conflict = cs_smpi_option_conflicts(c.extra_cfg[k], c.alg.collective, c.alg.name, &e) != 0;
    cs_numlist per_process = {NULL, 0};
    if (!conflict && !cs_fields_check(cs_case_fields, &c, c.alg.collective, given, &e) &&
        cs_size_unit_node(c.size_unit)) {
        if (cs_sizes_per_process(&sl, c.ppn, &per_process, &e))
            conflict = 1;
        else {
            cs_numlist_free(&sl);
            sl = per_process;
            printf("# sizes given per node, %d ranks per node: each rank's block is the size / %d\n",
                   c.ppn, c.ppn);
        }
    }
    cs_case_place place; /* the case's one placement: checked, written, recorded */
    if (conflict || cs_fields_check(cs_case_fields, &c, c.alg.collective, given, &e) ||
        cs_case_resolve(&c, &e) || cs_case_check(&c, &place, &e)) {
        cs_platform_free(&pf);
        cs_numlist_free(&sl);
        return die(&e);
    }
    char workdir[2048];
    snprintf(workdir, sizeof workdir, "%s/collsim-bench-XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(workdir)) {
        perror("collsim: cannot create a temporary directory");
        cs_case_place_free(&place);
        return 2;
    }
    printf("# platform %s (%d node%s, %ld core%s), %s mapping, %d rank%s", pf.name, pf.nnodes,
           pf.nnodes == 1 ? "" : "s", pf.total_cores, pf.total_cores == 1 ? "" : "s", map, c.np,
           c.np == 1 ? "" : "s");
    if (c.ppn)
        printf(", %d per node", c.ppn);
    if (c.region && c.region[0])
        printf(", region %s", c.region);
    printf("\n");
    cs_mem_parts mp;
    char need[32], parts[256];
    cs_fmt_bytes(cs_case_memory_parts(&c, cs_case_largest_block(&c), &mp), need,
                 sizeof need);
    cs_mem_parts_fmt(&mp, parts, sizeof parts);
    printf("# memory: about %s estimated (%s)\n", need, parts);
    if (place.spread[0])
        printf("# background %s: its own ranks %d.., %s\n", c.background, c.np, place.spread);
    bench_cleanup_on_signal(workdir);
    pid_t pid = cs_case_start(&c, &place, workdir, 1, &e);
    if (pid < 0) {
        rmdir(workdir);
        cs_case_place_free(&place);
        cs_platform_free(&pf);
        cs_numlist_free(&sl);
        return die(&e);
    }
    cs_result *rows;
    size_t n;
    cs_case_wait(&c, &place, workdir, pid, &rows, &n);
    cs_case_place_free(&place);
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].status, "ok")) {
            if (!bad)
                fprintf(stderr, "collsim: %s/%s np=%d size %ld: %s: %s\n", rows[i].collective,
                        rows[i].algorithm, c.np, rows[i].bytes, rows[i].status, rows[i].note);
            bad = 1;
        }
    if (bad && access(workdir, F_OK)) {
        fprintf(stderr, "collsim: %s is gone: run the same bench again\n", workdir);
    } else if (bad) {
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

/* `demo` starts afresh each time: the previous results directory, if any,
 * is kept under the first free name DIR.1, DIR.2, ... and named. */
static int keep_previous(const char *dir)
{
    struct stat st;
    if (stat(dir, &st))
        return 0;
    /* not while a sweep writes it: its lock moves with the directory */
    cs_err e;
    int lock = cs_outdir_lock(dir, &e);
    if (lock < 0) {
        fprintf(stderr, "collsim: demo: %s\n", e.msg);
        return -1;
    }
    char kept[1100];
    for (int k = 1;; k++) {
        snprintf(kept, sizeof kept, "%s.%d", dir, k);
        if (stat(kept, &st))
            break;
    }
    int rc = rename(dir, kept);
    if (rc)
        fprintf(stderr, "collsim: demo: cannot keep the previous %s as %s: %s\n", dir, kept,
                strerror(errno));
    else
        printf("# the previous %s is kept as %s\n", dir, kept);
    close(lock);
    return rc ? -1 : 0;
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
            if (parse_memory("run", v, &o.memory, &e))
                return die(&e);
            i++;
        }
        else if (!strcmp(a, "--resume")) o.resume = 1;
        else if (!strcmp(a, "--force")) o.force = 1;
        else if (!strcmp(a, "--accept-changes")) o.accept_changes = 1;
        else if (a[0] != '-' && !scenario) scenario = a;
        else {
            fprintf(stderr, "collsim: run: unexpected argument '%s' (collsim run --help lists "
                            "the options)\n", a);
            return 2;
        }
    }
    if (!scenario) {
        fprintf(stderr, "collsim: run needs a scenario file (e.g. scenarios/quickstart.xml)\n");
        return 2;
    }
    if (o.accept_changes && !o.resume) {
        fprintf(stderr, "collsim: run: --accept-changes goes with --resume (a fresh sweep "
                        "records the scenario as it is)\n");
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
    printf("# scenario %s%s%s\n", s.name, s.description && s.description[0] ? ": " : "",
           s.description ? s.description : "");
    if (demo && !o.resume && keep_previous(o.out_dir)) {
        cs_scenario_free(&s);
        return 2;
    }
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
    if (command_help(cmd, argc - 2, argv + 2))
        return 0;
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
    if (!strcmp(cmd, "repair"))
        return cs_cmd_repair(argc - 2, argv + 2);
    if (!strcmp(cmd, "report"))
        return cs_cmd_report(argc - 2, argv + 2);
    if (!strcmp(cmd, "compare"))
        return cs_cmd_compare(argc - 2, argv + 2);
    if (!strcmp(cmd, "tune"))
        return cs_cmd_tune(argc - 2, argv + 2);
    if (!strcmp(cmd, "postal"))
        return cs_cmd_postal(argc - 2, argv + 2);
    if (!strcmp(cmd, "calibrate"))
        return cs_cmd_calibrate(argc - 2, argv + 2);
    fprintf(stderr, "collsim: unknown command '%s' (valid: demo, test, list, bench, run, check, "
                    "merge, repair, report, compare, tune, postal, calibrate, help)\n", cmd);
    return 2;
}
