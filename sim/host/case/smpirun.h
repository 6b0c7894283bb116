/* Launching SMPI. Every SMPI 3.32 option collsim sets is chosen here, in one
 * place (option names changed in SimGrid 3.34+: surf/precision became
 * precision/timing, smpi/bw-factor became network/bandwidth-factor, ...). */
#ifndef COLLSIM_SMPIRUN_H
#define COLLSIM_SMPIRUN_H

#include <sys/types.h>

#include "cs_error.h"

#define CS_MAX_CFG 32

typedef struct {
    /* smpirun runs in this directory (NULL: the current one). SimGrid 3.32's
     * smpirun splits its hostfile, temporary directory and program arguments
     * at spaces, so the files of a case are named relative to it there */
    const char *workdir;
    const char *platform_path;
    const char *hostfile;
    int np;
    const char *cfg[CS_MAX_CFG]; /* extra --cfg values: a native selector, user overrides */
    int ncfg;
    const char *const *driver_args; /* NULL-terminated, after the driver path */
    const char *stdout_path;        /* NULL: inherit */
    const char *stderr_path;        /* NULL: inherit */
    /* > 0: the simulation's CPU seconds (RLIMIT_CPU); over it, it dies of
     * SIGXCPU and cs_exit_over_cpu_limit() says so. CPU time, unlike wall
     * time, does not depend on what else the machine runs. */
    int cpu_limit_s;
} cs_launch;

/* Whether an exit code (smpirun's: 128 + the signal its simulation died of)
 * says the CPU limit was reached. */
int cs_exit_over_cpu_limit(int code);

/* The wall-clock limit that backs a CPU limit up (a hung or starved run):
 * 4 times it plus a minute; 0 when there is none. */
int cs_wall_backstop(int cpu_limit_s);

/* Up to this many ranks actors get 256 KiB stacks, 64 KiB above (and then
 * glibc maps them from fresh pages: GLIBC_TUNABLES, smpirun.c). */
#define CS_BIG_STACKS_NP 4096

/* The options collsim always passes for `np` ranks (fills out[], returns the
 * count). Exposed so that README, tests and a re-run by hand agree. */
int cs_smpi_default_cfg(int np, char out[][96], int max);

/* Whether a user may add the SMPI option NAME:VALUE (bench --smpi-cfg, a
 * scenario's <smpi>): not one collsim sets for every case itself (privatization,
 * simulated computation, the fold block size, smpi/coll-selector of the
 * native: algorithms), and short enough for the launcher. 0, or -1 (err). */
/* 0 when `name` is an option of SimGrid 3.32 (smpi_options.def) and `value` of its type, else
 * -1 and one line: the nearest known name, or what the value must be. A platform's <config>
 * props are checked with it; cs_smpi_option_refused adds collsim's own options. */
int cs_smpi_option_known(const char *name, const char *value, cs_err *err);
int cs_smpi_option_refused(const char *name, const char *value, cs_err *err);
/* An option smpi/COLL:VALUE (option as NAME:VALUE) with the algorithm
 * native:NAME of COLL: it would run another algorithm than the row names.
 * 0, or -1 (err). */
int cs_smpi_option_conflicts(const char *option, const char *coll, const char *alg, cs_err *err);

/* Path of the simulation driver (build-time default, COLLSIM_DRIVER overrides). */
const char *cs_driver_path(void);

/* Starts smpirun; returns the child's pid or -1. */
pid_t cs_smpirun_start(const cs_launch *l, cs_err *err);

/* Waits for a child started above. timeout_s > 0 kills the whole process
 * group when it expires and sets *timed_out. Returns the exit code, or 128 +
 * signal number for a killed run. */
int cs_smpirun_wait(pid_t pid, int timeout_s, int *timed_out);

/* s as one shell word into out: as is when plain, else single-quoted. */
void cs_shell_quote(const char *s, char *out, size_t len);

/* The full command line, for error messages and "re-run by hand" hints: a
 * shell command (cd WORKDIR && smpirun ...), every word quoted as needed. */
char *cs_smpirun_cmdline(const cs_launch *l);

#endif
