#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[2048], pf_dir[2100], file[2300];
/* linked into pf_dir under their platform names */
static const char *const small_platforms[][2] = {
    {"yahoo", "platforms/yahoo.xml"},
    {"cervino", "platforms/cervino.xml"},
    {"sockets", "tests/data/sockets.xml"},
};
#define NSMALL (sizeof small_platforms / sizeof small_platforms[0])

static void link_name(size_t i, char *out, size_t len)
{
    snprintf(out, len, "%s/%s.xml", pf_dir, small_platforms[i][0]);
}

static void cleanup(void)
{
    char p[2200];
    for (size_t i = 0; i < NSMALL; i++) {
        link_name(i, p, sizeof p);
        unlink(p);
    }
    if (file[0])
        unlink(file);
    rmdir(pf_dir);
    rmdir(dir);
}

static void setup(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/collsim-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("collsim fuzz: mkdtemp");
        abort();
    }
    snprintf(pf_dir, sizeof pf_dir, "%s/platforms", dir);
    if (mkdir(pf_dir, 0700)) {
        perror("collsim fuzz: mkdir");
        abort();
    }
    for (size_t i = 0; i < NSMALL; i++) {
        char target[2200], p[2200];
        snprintf(target, sizeof target, "%s/%s", COLLSIM_SOURCE_DIR, small_platforms[i][1]);
        link_name(i, p, sizeof p);
        if (symlink(target, p)) {
            perror("collsim fuzz: symlink");
            abort();
        }
    }
    setenv("COLLSIM_PLATFORMS_DIR", pf_dir, 1);
    atexit(cleanup);
}

const char *cs_fuzz_file(const uint8_t *data, size_t size, const char *name)
{
    if (!dir[0])
        setup();
    snprintf(file, sizeof file, "%s/%s", dir, name);
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
        perror("collsim fuzz: writing the input");
        abort();
    }
    return file;
}

void cs_fuzz_outcome(int rc, const cs_err *err, const char *path)
{
    if (rc == 0)
        return;
    const char *problem = rc != -1                    ? "returned neither 0 nor -1"
                          : !err->msg[0]              ? "failed without a message"
                          : strchr(err->msg, '\n')    ? "gave a message of several lines"
                          : !strstr(err->msg, path)   ? "gave a message that does not name the file"
                                                      : NULL;
    if (problem) {
        fprintf(stderr, "collsim fuzz: the loader %s (rc %d): '%s'\n", problem, rc, err->msg);
        abort();
    }
}

void cs_fuzz_require(int cond, const char *what, const char *path)
{
    if (!cond) {
        fprintf(stderr, "collsim fuzz: %s loaded, but %s\n", path, what);
        abort();
    }
}
