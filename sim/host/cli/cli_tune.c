#include "cli_tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* collsim's version: the project's and, in a git checkout, its commit. */
static void version(char *buf, size_t len)
{
    char commit[64] = "";
    FILE *p = popen("git -C '" COLLSIM_SOURCE_DIR "' describe --always --dirty 2>/dev/null", "r");
    if (p) {
        if (!fgets(commit, sizeof commit, p))
            commit[0] = '\0';
        commit[strcspn(commit, "\r\n")] = '\0';
        pclose(p);
    }
    snprintf(buf, len, "%s%s%s%s", COLLSIM_VERSION, commit[0] ? " (git " : "", commit,
             commit[0] ? ")" : "");
}

int cs_cmd_tune(int argc, char **argv)
{
    cs_tune_opts o = {.threshold_pct = 5};
    const char *threshold = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(a, "--out")         ? &o.out_dir
                            : !strcmp(a, "--platform")  ? &o.platform
                            : !strcmp(a, "--mapping")   ? &o.mapping
                            : !strcmp(a, "--model")     ? &o.model
                            : !strcmp(a, "--scenario")  ? &o.scenario
                            : !strcmp(a, "--threshold") ? &threshold
                                                        : NULL;
        if (slot) {
            if (!v) {
                fprintf(stderr, "collsim: tune: %s needs a value\n", a);
                return 2;
            }
            *slot = v;
            i++;
        } else if (a[0] != '-' && !o.results) {
            o.results = a;
        } else {
            fprintf(stderr, "collsim: tune: unexpected argument '%s' (valid: RESULTS.csv "
                            "[--out DIR] [--platform P] [--mapping M] [--model M] "
                            "[--threshold PCT] [--scenario NAME])\n", a);
            return 2;
        }
    }
    if (!o.results) {
        fprintf(stderr, "collsim: tune needs a results file (e.g. results/quickstart/results.csv)\n");
        return 2;
    }
    if (threshold) {
        char *end;
        o.threshold_pct = strtod(threshold, &end);
        if (end == threshold || *end || !(o.threshold_pct >= 0) || o.threshold_pct > 100) {
            fprintf(stderr, "collsim: tune: --threshold '%s': a percentage from 0 to 100\n",
                    threshold);
            return 2;
        }
    }
    char dflt[4200];
    if (!o.out_dir) { /* beside the results: DIR/tune */
        const char *slash = strrchr(o.results, '/');
        snprintf(dflt, sizeof dflt, "%.*s%stune", slash ? (int)(slash - o.results) : 0, o.results,
                 slash ? "/" : "");
        o.out_dir = dflt;
    }
    char v[160];
    version(v, sizeof v);
    o.version = v;
    cs_err e;
    if (cs_tune(&o, stdout, &e)) {
        fprintf(stderr, "collsim: %s\n", e.msg);
        return 2;
    }
    return 0;
}
