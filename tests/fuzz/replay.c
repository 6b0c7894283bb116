/* Runs one fuzz target's LLVMFuzzerTestOneInput once on each input, without
 * libFuzzer: the normal suite's replay of the seed corpus (seeds.txt) and of
 * the inputs that once broke a loader (regressions/TARGET/). With arguments,
 * replays those files instead. A broken outcome aborts (fuzz_common.c). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static int replay(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", file);
        return -1;
    }
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            buf = realloc(buf, cap *= 2);
    fclose(f);
    printf("replay %s (%zu bytes)\n", file, n);
    fflush(stdout); /* a crash then names the input */
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int replay_pattern(const char *pattern, int *count)
{
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == GLOB_NOMATCH)
        return 0;
    if (rc)
        return -1;
    for (size_t i = 0; i < g.gl_pathc && !rc; i++, ++*count)
        rc = replay(g.gl_pathv[i]);
    globfree(&g);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (replay(argv[i]))
                return 1;
        return 0;
    }
    char seeds[4096], line[1024], name[64], pattern[4096];
    snprintf(seeds, sizeof seeds, "%s/tests/fuzz/seeds.txt", COLLSIM_SOURCE_DIR);
    FILE *f = fopen(seeds, "r");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", seeds);
        return 1;
    }
    int rc = 0, nseeds;
    while (!rc && fgets(line, sizeof line, f)) {
        char rel[900];
        if (line[0] == '#' || sscanf(line, "%63s %899s", name, rel) != 2 ||
            strcmp(name, COLLSIM_FUZZ_TARGET))
            continue;
        snprintf(pattern, sizeof pattern, "%s/%s", COLLSIM_SOURCE_DIR, rel);
        rc = replay_pattern(pattern, &count);
    }
    fclose(f);
    nseeds = count;
    snprintf(pattern, sizeof pattern, "%s/tests/fuzz/regressions/%s/*", COLLSIM_SOURCE_DIR,
             COLLSIM_FUZZ_TARGET);
    if (!rc)
        rc = replay_pattern(pattern, &count);
    if (rc || !nseeds) {
        fprintf(stderr, "replay: %s\n", rc ? "a pattern of seeds.txt failed" : "no seed found");
        return 1;
    }
    printf("replayed %d seeds and %d regression inputs through the %s fuzz target\n", nseeds,
           count - nseeds, COLLSIM_FUZZ_TARGET);
    return 0;
}
