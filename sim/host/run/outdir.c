/* A sweep's output directory: its lock and its scenario record (outdir.h). */
/* realpath() and flock() are outside strict POSIX in glibc */
#define _DEFAULT_SOURCE
#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results.h"

/* The running command line, for the lock's text ("" if /proc is missing). */
static void own_command(char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!buf[i])
            buf[i] = ' ';
}

/* "pid P on HOST, started T (CMD)" from a lock file's lines "KEY VALUE". */
static void describe_owner(int fd, char *out, size_t len)
{
    char text[2048] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    char pid[32] = "?", host[256] = "?", started[64] = "?", cmd[1024] = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *v = strchr(line, ' ');
        if (!v)
            continue;
        *v++ = 0;
        if (!strcmp(line, "pid")) snprintf(pid, sizeof pid, "%s", v);
        else if (!strcmp(line, "host")) snprintf(host, sizeof host, "%s", v);
        else if (!strcmp(line, "started")) snprintf(started, sizeof started, "%s", v);
        else if (!strcmp(line, "command")) snprintf(cmd, sizeof cmd, "%s", v);
    }
    if (n <= 0)
        snprintf(out, len, "a process that has not written its details yet");
    else
        snprintf(out, len, "pid %s on %s, started %s%s%s%s", pid, host, started,
                 cmd[0] ? " (" : "", cmd, cmd[0] ? ")" : "");
}

void cs_dir_of(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, len, ".");
}

int cs_outdir_lock(const char *dir, cs_err *err)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/" CS_OUTDIR_LOCK, dir);
    /* close-on-exec: smpirun and the simulations do not hold it (the runner's
     * forked supervisor of a case does, until the case ends: harmless) */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return cs_fail(err, "cannot create %s: %s", path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        int busy = errno == EWOULDBLOCK;
        char who[1400];
        describe_owner(fd, who, sizeof who);
        close(fd);
        if (busy)
            return cs_fail(err, "%s is being written by another sweep: %s. One sweep at a time "
                                "writes a directory: wait for that one to end (or stop it), then "
                                "continue with --resume, or choose another --out",
                           dir, who);
        return cs_fail(err, "cannot lock %s: %s", path, strerror(errno));
    }
    char cmd[1024], host[256] = "?", started[64];
    own_command(cmd, sizeof cmd);
    gethostname(host, sizeof host - 1);
    time_t t = time(NULL);
    strftime(started, sizeof started, "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
    char text[1500];
    int n = snprintf(text, sizeof text, "pid %ld\nhost %s\nstarted %s\ncommand %s\n",
                     (long)getpid(), host, started, cmd);
    if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)n, 0) != n) {
        int e = errno;
        close(fd);
        return cs_fail(err, "cannot write %s: %s", path, strerror(e));
    }
    return fd;
}

int cs_outdir_busy(const char *dir, char *who, size_t len)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/" CS_OUTDIR_LOCK, dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    /* a shared lock, released at once: granted unless a sweep holds it */
    int busy = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
    if (busy)
        describe_owner(fd, who, len);
    close(fd);
    return busy;
}

int cs_scenario_hash(const char *path, char *hex, cs_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    unsigned long long h = 14695981039346656037ULL; /* FNV-1a 64 */
    int c;
    while ((c = getc(f)) != EOF) {
        h ^= (unsigned char)c;
        h *= 1099511628211ULL;
    }
    fclose(f);
    snprintf(hex, 17, "%016llx", h);
    return 0;
}

typedef cs_outdir_record record;

/* 1: read, 0: no record, -1: unreadable (err). */
static int read_record(const char *path, record *r, cs_err *err)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : cs_fail(err, "cannot read %s: %s", path, strerror(errno));
    char line[1400];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *v = strchr(line, ' ');
        if (line[0] == '#' || !v)
            continue;
        *v++ = 0;
        if (!strcmp(line, "name")) snprintf(r->name, sizeof r->name, "%s", v);
        else if (!strcmp(line, "file")) snprintf(r->file, sizeof r->file, "%s", v);
        else if (!strcmp(line, "hash")) snprintf(r->hash, sizeof r->hash, "%s", v);
        else if (!strcmp(line, "earlier")) snprintf(r->earlier, sizeof r->earlier, "%s", v);
    }
    fclose(f);
    if (!r->name[0] || !r->hash[0])
        return cs_fail(err, "%s: not a scenario record (expected lines 'name NAME' and 'hash "
                            "HEX'); remove it if the directory's results are yours",
                       path);
    return 1;
}

static void write_record(FILE *f, const void *arg)
{
    const record *r = arg;
    fprintf(f, "# the scenario whose cases results.csv holds (collsim run; --resume checks it)\n"
               "name %s\nfile %s\nhash %s\n",
            r->name, r->file, r->hash);
    if (r->earlier[0])
        fprintf(f, "earlier %s\n", r->earlier);
}

int cs_outdir_check(const char *dir, const cs_scenario *s, int resume, int accept_changes,
                    cs_outdir_record *rec, cs_err *err)
{
    char path[2200], csv[2200];
    snprintf(path, sizeof path, "%s/" CS_OUTDIR_RECORD, dir);
    snprintf(csv, sizeof csv, "%s/results.csv", dir);
    record now = {0}, old;
    snprintf(now.name, sizeof now.name, "%s", s->name);
    char *abs = realpath(s->path, NULL);
    snprintf(now.file, sizeof now.file, "%s", abs ? abs : s->path);
    free(abs);
    if (cs_scenario_hash(s->path, now.hash, err))
        return -1;
    int have = read_record(path, &old, err);
    if (have < 0)
        return -1;
    struct stat st;
    int results = !stat(csv, &st) && st.st_size > 0;
    if (resume && have && results && strcmp(old.name, now.name))
        return cs_fail(err, "%s holds the results of scenario '%s' (%s), not of '%s' (%s): "
                            "--resume would mix the two sweeps' rows. Choose another --out, or "
                            "start this one afresh there with --force (without --resume)",
                       dir, old.name, old.file, now.name, now.file);
    if (resume && have && results && strcmp(old.hash, now.hash)) {
        if (!accept_changes)
            return cs_fail(err, "%s changed since %s's results were written (content hash %s, "
                                "now %s): resumed, the rows of the cases it changed or dropped "
                                "would stay beside the new ones. Add --accept-changes to resume "
                                "anyway (recorded in %s), or choose another --out",
                           now.file, dir, old.hash, now.hash, path);
        snprintf(now.earlier, sizeof now.earlier, "%s%s%s", old.earlier,
                 old.earlier[0] ? " " : "", old.hash);
        printf("# %s: scenario %s changed since its results were written (hash %s, now %s); "
               "resuming as asked (--accept-changes)\n",
               dir, now.name, old.hash, now.hash);
    } else if (resume && have && !strcmp(old.name, now.name)) {
        snprintf(now.earlier, sizeof now.earlier, "%s", old.earlier);
    } else if (resume && results) {
        printf("# %s: no scenario record (results written by an earlier collsim); recording "
               "scenario %s\n", dir, now.name);
    }
    *rec = now;
    return 0;
}

int cs_outdir_record_read(const char *dir, cs_outdir_record *rec, cs_err *err)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/" CS_OUTDIR_RECORD, dir);
    return read_record(path, rec, err);
}

int cs_outdir_record_write(const char *dir, const cs_outdir_record *rec, cs_err *err)
{
    char path[2200];
    snprintf(path, sizeof path, "%s/" CS_OUTDIR_RECORD, dir);
    return cs_write_replacing(path, write_record, rec, err);
}
