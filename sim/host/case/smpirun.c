#include "smpirun.h"

#include "registry.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *cs_driver_path(void)
{
    const char *env = getenv("COLLSIM_DRIVER");
    return env && *env ? env : COLLSIM_DRIVER_PATH;
}

int cs_smpi_default_cfg(int np, char out[][96], int max)
{
    int n = 0;
#define ADD(...) (n < max ? snprintf(out[n++], 96, __VA_ARGS__) : 0)
    /* the driver and algorithms keep no mutable per-rank globals */
    ADD("smpi/privatization:no");
    /* predicted times depend on the network alone, and are deterministic */
    ADD("smpi/simulate-computation:no");
    /* actors need little stack; 8 MiB each would not fit 32K ranks */
    ADD("contexts/stack-size:%d", np > CS_BIG_STACKS_NP ? 64 : 256);
    /* above ~16K ranks, one guard mapping per stack exceeds the kernel's
     * 65,530 memory maps ("Failed to protect stack") */
    if (np > 8192)
        ADD("contexts/guard-size:0");
#undef ADD
    return n;
}

#define CS_CFG_SLOT 160 /* bytes of one --cfg=NAME:VALUE argument (build_argv) */

/* SimGrid 3.32's options (smpi_options.def) */
enum { OPT_BOOLEAN, OPT_INT, OPT_DOUBLE, OPT_STRING };
static const struct {
    const char *name;
    int type;
    const char *words;
} smpi_options[] = {
#define CS_SMPI_OPTION(name, type, words) {name, OPT_##type, words},
#include "smpi_options.def"
#undef CS_SMPI_OPTION
};
#define N_SMPI_OPTIONS (sizeof smpi_options / sizeof smpi_options[0])

/* Whether SimGrid 3.32 takes `value` for an option of this type (its parsers: booleans
 * yes/no/on/off/true/false/1/0, integers, finite numbers, or a listed word) */
static int value_taken(int type, const char *words, const char *value)
{
    char *end;
    errno = 0;
    switch (type) {
    case OPT_BOOLEAN: {
        static const char *const b[] = {"yes", "no", "on", "off", "true", "false", "1", "0"};
        for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
            if (!strcmp(value, b[i]))
                return 1;
        return 0;
    }
    case OPT_INT: (void)strtol(value, &end, 10); return end != value && !*end && !errno;
    case OPT_DOUBLE: {
        double d = strtod(value, &end);
        return end != value && !*end && !errno && d - d == 0;
    }
    default: {
        if (!words[0])
            return 1;
        size_t len = strlen(value);
        for (const char *w = words; *w; w += strcspn(w, "|"), w += *w == '|')
            if (strcspn(w, "|") == len && !strncmp(w, value, len))
                return 1;
        return 0;
    }
    }
}

/* An option's name and value against SimGrid 3.32's list: unknown names (with the nearest
 * known one) and values its parser would abort on */
int cs_smpi_option_known(const char *name, const char *value, cs_err *err)
{
    static const char *const what[] = {"a boolean (yes, no, on, off, true, false, 1 or 0)",
                                       "an integer", "a finite number", "one of"};
    for (size_t i = 0; i < N_SMPI_OPTIONS; i++) {
        if (strcmp(smpi_options[i].name, name))
            continue;
        if (value_taken(smpi_options[i].type, smpi_options[i].words, value))
            return 0;
        char words[512] = "";
        for (const char *w = smpi_options[i].words; *w; w += strcspn(w, "|"), w += *w == '|') {
            size_t u = strlen(words);
            snprintf(words + u, sizeof words - u, "%s%.*s", u ? ", " : "", (int)strcspn(w, "|"),
                     w);
        }
        return cs_fail(err, "option %s takes %s%s%s, not '%s'", name,
                       what[smpi_options[i].type], words[0] ? " " : "", words, value);
    }
    const char *names[N_SMPI_OPTIONS];
    for (size_t i = 0; i < N_SMPI_OPTIONS; i++)
        names[i] = smpi_options[i].name;
    const char *near = cs_nearest_word(name, names, N_SMPI_OPTIONS);
    return cs_fail(err, "unknown option '%s': not one of SimGrid 3.32's%s%s%s", name,
                   near ? " (nearest: " : "", near ? near : "", near ? ")" : "");
}

int cs_smpi_option_refused(const char *name, const char *value, cs_err *err)
{
    static const char *const own[] = {"smpi/privatization", "smpi/simulate-computation",
                                      "smpi/shared-malloc-blocksize", "smpi/coll-selector",
                                      NULL};
    for (const char *const *o = own; *o; o++)
        if (!strcmp(name, *o))
            return cs_fail(err, "option %s is set by collsim for every case (docs/running.md)%s",
                           name, strcmp(name, "smpi/coll-selector")
                                     ? ""
                                     : "; choose SMPI's collectives with native:NAME");
    if (strlen("--cfg=") + strlen(name) + 1 + strlen(value) >= CS_CFG_SLOT)
        return cs_fail(err, "option %s:%s is longer than %d characters", name, value,
                       CS_CFG_SLOT - 7);
    return cs_smpi_option_known(name, value, err);
}

int cs_smpi_option_conflicts(const char *option, const char *coll, const char *alg, cs_err *err)
{
    size_t len = strcspn(option, ":");
    char own[64];
    cs_native_option(coll, own, sizeof own);
    if (strncmp(alg, "native:", 7) || strncmp(option, "smpi/", 5) || len != 5 + strlen(own) ||
        strncmp(option + 5, own, len - 5))
        return 0;
    return cs_fail(err, "option %.*s would replace the algorithm of %s/%s (the row would name an "
                        "algorithm SMPI did not run); it selects what a collsim algorithm's inner "
                        "MPI_%s call runs, e.g. padded_alltoall's",
                   (int)len, option, coll, alg, coll);
}

/* argv for smpirun; `store` holds the --cfg=... strings (caller frees). */
static int build_argv(const cs_launch *l, char ***argv_out, char (**store)[CS_CFG_SLOT])
{
    int n = 0, nstore = 0;
    char **argv = cs_xmalloc((size_t)(40 + 2 * CS_MAX_CFG) * sizeof(char *));
    char(*st)[CS_CFG_SLOT] = cs_xmalloc((size_t)(2 + 16 + CS_MAX_CFG) * sizeof *st);
    char defaults[16][96];
    int ndef = cs_smpi_default_cfg(l->np, defaults, 16);
    snprintf(st[nstore], sizeof st[0], "%d", l->np);
    argv[n++] = "smpirun";
    argv[n++] = "-np";
    argv[n++] = st[nstore++];
    argv[n++] = "-platform";
    argv[n++] = (char *)l->platform_path;
    argv[n++] = "-hostfile";
    argv[n++] = (char *)l->hostfile;
    for (int i = 0; i < ndef + l->ncfg; i++) {
        snprintf(st[nstore], sizeof st[0], "--cfg=%s", i < ndef ? defaults[i] : l->cfg[i - ndef]);
        argv[n++] = st[nstore++];
    }
    /* SimGrid's informational chatter goes; warnings and errors stay */
    argv[n++] = "--log=root.thresh:warning";
    argv[n++] = (char *)cs_driver_path();
    for (const char *const *a = l->driver_args; a && *a && n < 38 + 2 * CS_MAX_CFG; a++)
        argv[n++] = (char *)*a;
    argv[n] = NULL;
    *argv_out = argv;
    *store = st;
    return n;
}

/* One shell word: as is when plain, else single-quoted. */
void cs_shell_quote(const char *s, char *out, size_t len)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+-@%") ==
                  strlen(s)) {
        snprintf(out, len, "%s", s);
        return;
    }
    size_t u = 0;
    out[u++] = '\'';
    for (; *s && u + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + u, "'\\''", 4);
            u += 4;
        } else {
            out[u++] = *s;
        }
    }
    out[u++] = '\'';
    out[u] = 0;
}

char *cs_smpirun_cmdline(const cs_launch *l)
{
    char **argv;
    char(*st)[CS_CFG_SLOT];
    int n = build_argv(l, &argv, &st);
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    for (int i = l->workdir ? -1 : 0; i < n; i++) {
        const char *w = i < 0 ? l->workdir : argv[i];
        size_t cap = 4 * strlen(w) + 8;
        char *q = cs_xmalloc(cap);
        cs_shell_quote(w, q, cap);
        fprintf(f, "%s%s%s", i < 0 ? "cd " : "", q, i < 0 ? " && " : i + 1 < n ? " " : "");
        free(q);
    }
    fclose(f);
    free(argv);
    free(st);
    return s;
}

static int redirect(const char *path, int fd)
{
    if (!path)
        return 0;
    int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (f < 0)
        return -1;
    dup2(f, fd);
    close(f);
    return 0;
}

/* In the child, before exec: preload sim/shim (SMPI 3.32 bookkeeping
 * shortcut; identical predicted times) unless COLLSIM_SMPI_SHIM=off. */
static void preload_shim(void)
{
    const char *mode = getenv("COLLSIM_SMPI_SHIM");
    if (mode && !strcmp(mode, "off"))
        return;
    const char *old = getenv("LD_PRELOAD");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s%s", COLLSIM_SHIM_PATH, old && *old ? ":" : "",
             old ? old : "");
    setenv("LD_PRELOAD", buf, 1);
}

/* In the child, before exec, when stacks are 64 KiB (np > CS_BIG_STACKS_NP):
 * SimGrid 3.32 allocates each actor's stack with calloc. Below glibc's mmap
 * threshold (128 KiB) it comes from the heap, and calloc clears, so touches,
 * every page of a reused chunk: at 32K ranks 2 GB that no actor uses. From
 * 64 KiB up glibc maps fresh zero pages instead, resident once touched (an
 * empty program of 16,384 ranks: 1.23 -> 0.43 GB peak RSS; docs/
 * simulation-cost.md). Memory only: the same predicted times. */
static void stacks_untouched(int np)
{
    if (np <= CS_BIG_STACKS_NP)
        return;
    const char *old = getenv("GLIBC_TUNABLES");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%sglibc.malloc.mmap_threshold=65536", old && *old ? old : "",
             old && *old ? ":" : "");
    setenv("GLIBC_TUNABLES", buf, 1);
}

static void kill_own_group(int sig)
{
    (void)sig;
    kill(0, SIGKILL);
}

/* The forked child: it leads a process group holding smpirun (a shell
 * script) and the simulation it starts, so that a timeout kills them
 * together; and it takes that group down when collsim itself dies (killed,
 * interrupted, terminal closed), so that no orphaned simulation runs on and
 * writes into a case directory that a resumed sweep uses again. Its exit
 * status is the simulation's. */
static _Noreturn void supervise(const cs_launch *l, char **argv, pid_t runner)
{
    setpgid(0, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = kill_own_group;
    sigaction(SIGHUP, &sa, NULL);
    prctl(PR_SET_PDEATHSIG, SIGHUP);
    if (getppid() != runner) /* collsim died before the line above */
        kill_own_group(0);
    if (redirect(l->stdout_path, 1) || redirect(l->stderr_path, 2))
        _exit(126);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    pid_t sim = fork();
    if (sim == 0) {
        if (l->cpu_limit_s > 0) { /* no core file of a many-GB simulation */
            struct rlimit cpu = {(rlim_t)l->cpu_limit_s, (rlim_t)l->cpu_limit_s + 60}, core = {0, 0};
            setrlimit(RLIMIT_CPU, &cpu);
            setrlimit(RLIMIT_CORE, &core);
        }
        preload_shim();
        stacks_untouched(l->np);
        /* smpirun passes the directory of mktemp, $TMPDIR, split at spaces: the case's
         * directory (the current one) serves then */
        const char *tmp = getenv("TMPDIR");
        if (tmp && strpbrk(tmp, " \t\n"))
            setenv("TMPDIR", ".", 1);
        if (l->workdir && chdir(l->workdir)) {
            fprintf(stderr, "collsim: cannot enter %s: %s\n", l->workdir, strerror(errno));
            _exit(127);
        }
        execvp("smpirun", argv);
        fprintf(stderr, "collsim: cannot run smpirun: %s (is libsimgrid-dev installed?)\n",
                strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (sim < 0)
        _exit(126);
    while (waitpid(sim, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status)) { /* die the same way, so that the caller sees the signal */
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 126);
}

int cs_exit_over_cpu_limit(int code) { return code == 128 + SIGXCPU; }

int cs_wall_backstop(int cpu_limit_s) { return cpu_limit_s > 0 ? 4 * cpu_limit_s + 60 : 0; }

pid_t cs_smpirun_start(const cs_launch *l, cs_err *err)
{
    char **argv;
    char(*cfg)[CS_CFG_SLOT];
    build_argv(l, &argv, &cfg);
    fflush(stdout);
    fflush(stderr);
    pid_t runner = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        free(argv);
        free(cfg);
        return (pid_t)cs_fail(err, "cannot start smpirun: %s", strerror(errno));
    }
    if (pid == 0)
        supervise(l, argv, runner);
    setpgid(pid, pid);
    free(argv);
    free(cfg);
    return pid;
}

int cs_smpirun_wait(pid_t pid, int timeout_s, int *timed_out)
{
    int status = 0;
    if (timed_out)
        *timed_out = 0;
    if (timeout_s <= 0) {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    } else {
        struct timespec start, now, nap = {0, 50 * 1000 * 1000};
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (;;) {
            pid_t r = waitpid(pid, &status, WNOHANG);
            if (r == pid)
                break;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec >= timeout_s) {
                kill(-pid, SIGKILL);
                waitpid(pid, &status, 0);
                if (timed_out)
                    *timed_out = 1;
                break;
            }
            nanosleep(&nap, NULL);
        }
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 255;
}
