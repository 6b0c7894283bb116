/* Fuzz target: the platform reader (sim/host/platform/platform.c) on arbitrary bytes. */
#include "fuzz_common.h"
#include "platform.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = cs_fuzz_file(data, size, "fuzz.xml");
    cs_platform pf;
    cs_err err = {""};
    int rc = cs_platform_load(path, &pf, &err);
    cs_fuzz_outcome(rc, &err, path);
    if (rc)
        return 0;
    /* what mapping.c relies on: nodes cover the hosts, in order, with their cores */
    cs_fuzz_require(pf.nhosts > 0 && pf.nnodes > 0 && pf.nnodes <= pf.nhosts,
                    "hosts or nodes are missing", path);
    cs_fuzz_require(pf.nlevels >= 1 && pf.nlevels <= CS_MAX_LEVELS && pf.node_level >= 0 &&
                        pf.node_level < pf.nlevels,
                    "the levels are out of range", path);
    long cores = 0;
    for (int n = 0; n < pf.nnodes; n++) {
        const cs_node *x = &pf.nodes[n];
        cs_fuzz_require(x->name && x->cores > 0, "a node has no name or no core", path);
        cs_fuzz_require(x->nhosts == 0 || (x->first_host >= 0 && x->first_host + x->nhosts <= pf.nhosts),
                        "a node's hosts are out of range", path);
        cores += x->cores;
    }
    cs_fuzz_require(cores == pf.total_cores, "the nodes' cores do not add up to the total", path);
    for (int h = 0; h < pf.nhosts; h++) {
        cs_fuzz_require(pf.hosts[h].node >= 0 && pf.hosts[h].node < pf.nnodes,
                        "a host's node is out of range", path);
        for (int l = 0; l < pf.nlevels; l++)
            cs_fuzz_require(pf.hosts[h].region[l] >= 0 && pf.hosts[h].region[l] <= h,
                            "a host's region number is out of range", path);
    }
    /* the warnings: whole lines, none empty */
    size_t nw = strlen(pf.warnings);
    cs_fuzz_require(nw == 0 || (pf.warnings[nw - 1] == '\n' && pf.warnings[0] != '\n' &&
                                !strstr(pf.warnings, "\n\n")),
                    "the warnings are not whole lines", path);
    cs_platform_free(&pf);
    return 0;
}
