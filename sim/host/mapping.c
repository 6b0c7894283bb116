#include "mapping.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_mapping_parse(const char *text, cs_mapping *out, cs_err *err)
{
    if (!strcmp(text, "sequential"))
        *out = CS_MAP_SEQUENTIAL;
    else if (!strcmp(text, "cyclic"))
        *out = CS_MAP_CYCLIC;
    else
        return cs_fail(err, "unknown mapping '%s' (valid: sequential, cyclic)", text);
    return 0;
}

const char *cs_mapping_name(cs_mapping m)
{
    return m == CS_MAP_SEQUENTIAL ? "sequential" : "cyclic";
}

int cs_map_ranks(const cs_platform *pf, cs_mapping m, int np, int oversubscribe,
                 int *node_of_rank, cs_err *err)
{
    if (np < 1)
        return cs_fail(err, "process count %d is not positive", np);
    long factor = 1;
    if (np > pf->total_cores) {
        if (!oversubscribe)
            return cs_fail(err,
                           "%d processes do not fit on platform '%s' (%d nodes, %ld cores in all); "
                           "use at most %ld or allow oversubscription",
                           np, pf->name, pf->nnodes, pf->total_cores, pf->total_cores);
        factor = (np + pf->total_cores - 1) / pf->total_cores;
    }
    int *used = calloc((size_t)pf->nnodes, sizeof(int));
    if (m == CS_MAP_SEQUENTIAL) {
        int node = 0;
        for (int r = 0; r < np; r++) {
            while (used[node] == pf->nodes[node].cores * factor)
                node++;
            used[node]++;
            node_of_rank[r] = node;
        }
    } else {
        int node = 0;
        for (int r = 0; r < np; r++) {
            while (used[node] == pf->nodes[node].cores * factor)
                node = (node + 1) % pf->nnodes;
            used[node]++;
            node_of_rank[r] = node;
            node = (node + 1) % pf->nnodes;
        }
    }
    free(used);
    return 0;
}

int cs_write_hostfile(const cs_platform *pf, const int *node_of_rank, int np, const char *path,
                      cs_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cs_fail(err, "cannot write hostfile %s: %s", path, strerror(errno));
    for (int r = 0; r < np; r++)
        fprintf(f, "%s\n", pf->nodes[node_of_rank[r]].name);
    if (fclose(f))
        return cs_fail(err, "cannot write hostfile %s: %s", path, strerror(errno));
    return 0;
}
