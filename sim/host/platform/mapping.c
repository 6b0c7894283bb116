#include "mapping.h"

#include "hostspec.h"

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

int cs_map_ranks(const cs_platform *pf, const int *list, int nlist, cs_mapping m, int np,
                 int oversubscribe, int ppn, int *node_of_rank, cs_err *err)
{
    if (np < 1)
        return cs_fail(err, "process count %d is not positive", np);
    if (ppn < 0)
        return cs_fail(err, "ranks per node %d is negative", ppn);
    /* the k-th node of the job: list[k], or the platform's k-th */
    const int nn = list ? nlist : pf->nnodes;
#define NODE(k) (list ? list[k] : (k))
    char where[160];
    long cores = 0;
    for (int k = 0; k < nn; k++)
        cores += pf->nodes[NODE(k)].cores;
    if (list)
        snprintf(where, sizeof where, "the %d nodes --hosts chooses on platform '%s'", nn,
                 pf->name);
    if (ppn > 0) {
        /* K consecutive ranks per node (sequential), or ranks dealt over the
         * ceil(np / K) first nodes (cyclic) */
        long need = ((long)np + ppn - 1) / ppn;
        if (need > nn)
            return list ? cs_fail(err,
                                  "%d processes at %d per node need %ld nodes, but --hosts "
                                  "chooses %d on platform '%s'; use at most %ld processes, more "
                                  "per node or more hosts",
                                  np, ppn, need, nn, pf->name, (long)ppn * nn)
                        : cs_fail(err,
                                  "%d processes at %d per node need %ld nodes, but platform '%s' "
                                  "has %d; use at most %ld processes or more per node",
                                  np, ppn, need, pf->name, nn, (long)ppn * nn);
        for (int r = 0; r < np; r++)
            node_of_rank[r] = NODE(m == CS_MAP_SEQUENTIAL ? r / ppn : (int)(r % need));
        int *count = calloc((size_t)pf->nnodes, sizeof(int));
        int rc = 0;
        for (int r = 0; r < np; r++)
            count[node_of_rank[r]]++;
        for (long k = 0; k < need && !oversubscribe && !rc; k++) {
            const cs_node *nd = &pf->nodes[NODE(k)];
            if (count[NODE(k)] > nd->cores)
                rc = cs_fail(err,
                             "%d ranks per node exceed the %d cores of node '%s' on platform "
                             "'%s'; use --ppn %d or less, or allow oversubscription",
                             ppn, nd->cores, nd->name, pf->name, nd->cores);
        }
        free(count);
        return rc;
    }
    long factor = 1;
    if (np > cores) {
        if (!oversubscribe)
            return list ? cs_fail(err,
                                  "%d processes do not fit on %s (%ld cores in all); use at most "
                                  "%ld, more hosts, or allow oversubscription",
                                  np, where, cores, cores)
                        : cs_fail(err,
                                  "%d processes do not fit on platform '%s' (%d nodes, %ld cores "
                                  "in all); use at most %ld or allow oversubscription",
                                  np, pf->name, nn, cores, cores);
        factor = (np + cores - 1) / cores;
    }
    int *used = calloc((size_t)(nn > 0 ? nn : 1), sizeof(int));
    for (int r = 0, k = 0; r < np; r++) {
        /* sequential: the next node once this one is full; cyclic: the
         * next node after every rank, skipping full ones */
        while (used[k] == pf->nodes[NODE(k)].cores * factor)
            k = m == CS_MAP_SEQUENTIAL ? k + 1 : (k + 1) % nn;
        used[k]++;
        node_of_rank[r] = NODE(k);
        if (m == CS_MAP_CYCLIC)
            k = (k + 1) % nn;
    }
#undef NODE
    free(used);
    return 0;
}

void cs_hosts_of_ranks(const cs_platform *pf, const int *node_of_rank, int np, int *host_of_rank)
{
    int *used = calloc((size_t)pf->nnodes, sizeof(int));
    for (int r = 0; r < np; r++)
        used[node_of_rank[r]]++;
    /* per node: how many ranks each of its hosts takes, in rank order */
    int *slot = calloc((size_t)pf->nnodes, sizeof(int));
    for (int r = 0; r < np; r++) {
        const cs_node *n = &pf->nodes[node_of_rank[r]];
        if (n->nhosts == 0) {
            host_of_rank[r] = -1; /* the node is the host n->name */
            continue;
        }
        int total = used[node_of_rank[r]];
        long factor = n->cores > 0 ? ((long)total + n->cores - 1) / n->cores : 1;
        if (factor < 1)
            factor = 1;
        long k = slot[node_of_rank[r]]++, h = n->first_host;
        /* fill the node's hosts in order: host 0's cores (x factor), then host 1's... */
        while (h < n->first_host + n->nhosts - 1 && k >= factor * pf->hosts[h].cores) {
            k -= factor * pf->hosts[h].cores;
            h++;
        }
        host_of_rank[r] = (int)h;
    }
    free(slot);
    free(used);
}

int cs_map_background(const cs_platform *pf, const int *node_of_rank, int np, const int *job,
                      int njob, int level, int k, const char *hosts, int *node_of_bg,
                      char *spread, size_t spread_len, cs_err *err)
{
    if (level < 0 || level >= pf->nlevels || level < pf->node_level)
        return cs_fail(err, "background traffic between %s regions: the background ranks take "
                            "whole nodes, so the level must be node or coarser",
                       level >= 0 && level < pf->nlevels ? pf->levels[level] : "?");
    /* the measured job's nodes: those its ranks use, and all it chose */
    char *used = calloc((size_t)pf->nnodes, 1);
    for (int r = 0; r < np; r++)
        used[node_of_rank[r]] = 1;
    for (int i = 0; job && i < njob; i++)
        used[job[i]] |= 2;
    /* the candidate nodes, in order: the chosen ones (none of the job's), or
     * every node the job leaves free */
    int *cand, ncand = 0;
    if (hosts && hosts[0]) {
        if (cs_hostspec_select(pf, hosts, "hosts", &cand, &ncand, err)) {
            free(used);
            return -1;
        }
        for (int i = 0; i < ncand; i++)
            if (used[cand[i]]) {
                const int n = cand[i], mine = used[n] & 1;
                free(cand);
                free(used);
                return cs_fail(err, "hosts '%s': node %s belongs to the measured job (%s): the "
                                    "background runs on nodes of its own",
                               hosts, pf->nodes[n].name,
                               mine ? "its ranks use it" : "its --hosts choose it");
            }
    } else {
        cand = cs_xmalloc(sizeof(int) * (size_t)(pf->nnodes > 0 ? pf->nnodes : 1));
        for (int n = 0; n < pf->nnodes; n++)
            if (!used[n])
                cand[ncand++] = n;
    }
    /* the regions of the candidates, by region number (document order) */
    int nreg = 0, *reg = cs_xmalloc(sizeof(int) * (size_t)(ncand + 1));
    long *cores = cs_xmalloc(sizeof(long) * (size_t)(ncand + 1));
    int *colour = cs_xmalloc(sizeof(int) * (size_t)(ncand + 1));
    for (int c = 0; c < ncand; c++) {
        colour[c] = cs_node_region(pf, cand[c], level);
        int i = 0;
        while (i < nreg && reg[i] != colour[c])
            i++;
        if (i == nreg)
            cores[nreg] = 0, reg[nreg++] = colour[c];
        cores[i] += pf->nodes[cand[c]].cores;
    }
    /* sorted by number: the order does not depend on node order */
    for (int i = 1; i < nreg; i++)
        for (int j = i; j > 0 && reg[j - 1] > reg[j]; j--) {
            int t = reg[j];
            reg[j] = reg[j - 1], reg[j - 1] = t;
            long x = cores[j];
            cores[j] = cores[j - 1], cores[j - 1] = x;
        }
    int rc = 0;
    if (nreg < 2 && hosts && hosts[0])
        rc = cs_fail(err, "hosts '%s': the background's nodes must lie in two %s regions at "
                          "least (the pattern needs peers in another region); these lie in %d",
                     hosts, pf->levels[level], nreg);
    else if (nreg < 2)
        rc = cs_fail(err, "background traffic between %s regions needs free nodes (used by no "
                          "measured rank) in two %s regions at least; platform '%s' with %d "
                          "measured ranks leaves them in %d",
                     pf->levels[level], pf->levels[level], pf->name, np, nreg);
    if (spread && spread_len)
        spread[0] = 0;
    for (int i = 0; i < nreg && !rc; i++) {
        const int share = k / nreg + (i < k % nreg); /* ranks i, i + R, i + 2R, ... */
        const long factor = cores[i] > 0 ? (share + cores[i] - 1) / cores[i] : 1;
        int c = 0, first = -1, last = -1, taken = 0, j = i;
        for (int slot = 0; j < k; j += nreg) {
            while (colour[c] != reg[i] || slot == factor * pf->nodes[cand[c]].cores) {
                slot = 0; /* another region's candidate, or full: the next */
                c++;
            }
            node_of_bg[j] = cand[c];
            if (first < 0)
                first = cand[c];
            last = cand[c];
            slot++;
            taken++;
        }
        if (spread && spread_len && taken) {
            size_t u = strlen(spread);
            snprintf(spread + u, spread_len - u, "%s%d on %s%s%s (%s region %d%s)", u ? ", " : "",
                     taken, pf->nodes[first].name, first == last ? "" : "..",
                     first == last ? "" : pf->nodes[last].name, pf->levels[level], reg[i],
                     factor > 1 ? "; more ranks than cores" : "");
        }
    }
    free(colour);
    free(cores);
    free(reg);
    free(cand);
    free(used);
    return rc;
}

void cs_placement_text(const cs_platform *pf, const int *node_of_rank, int np, char *out,
                       size_t len)
{
    out[0] = 0;
    /* region number -> first-appearance index; at the node and above there
     * are at most as many regions as nodes (a node with no host of its own
     * is its own index) */
    int *first = cs_xmalloc(sizeof(int) * (size_t)(pf->nnodes + 1));
    for (int l = pf->nlevels - 1; l >= pf->node_level; l--) {
        for (int i = 0; i <= pf->nnodes; i++)
            first[i] = -1;
        char level[4096];
        size_t u = (size_t)snprintf(level, sizeof level, "%s%s:", out[0] ? "; " : "",
                                    pf->levels[l]);
        int next = 0, fits = 1;
        for (int r = 0; r < np && fits;) {
            const int reg = cs_node_region(pf, node_of_rank[r], l);
            if (first[reg] < 0)
                first[reg] = next++;
            int run = 1;
            while (r + run < np && cs_node_region(pf, node_of_rank[r + run], l) == reg)
                run++;
            int w = run > 1 ? snprintf(level + u, sizeof level - u, "%s%dx%d", r ? " " : "",
                                       first[reg], run)
                            : snprintf(level + u, sizeof level - u, "%s%d", r ? " " : "",
                                       first[reg]);
            fits = w > 0 && u + (size_t)w < sizeof level;
            u += fits ? (size_t)w : 0;
            r += run;
        }
        if (!fits || strlen(out) + u >= len)
            break; /* this level and the finer ones: too long to record */
        memcpy(out + strlen(out), level, u + 1);
    }
    free(first);
}

static int close_written(FILE *f, const char *what, const char *path, cs_err *err)
{
    int bad = ferror(f);
    if (fclose(f) || bad)
        return cs_fail(err, "cannot write %s %s: %s", what, path, strerror(errno));
    return 0;
}

/* The host a one-host node (nhosts 0) stands for: its first_host on a loaded
 * platform, else (a cs_node literal, such as postal's view of two hosts) the
 * host of its name; -1 when pf lists none, and the node is then its own
 * region at every level. */
static int host_named(const cs_platform *pf, const cs_node *n)
{
    if (n->first_host < pf->nhosts && !strcmp(pf->hosts[n->first_host].name, n->name))
        return n->first_host;
    for (int h = 0; h < pf->nhosts; h++)
        if (!strcmp(pf->hosts[h].name, n->name))
            return h;
    return -1;
}

int cs_write_case_files(const cs_platform *pf, const int *node_of_rank, int np,
                        const char *hostfile, const char *locality, cs_err *err)
{
    FILE *hf = fopen(hostfile, "w");
    if (!hf)
        return cs_fail(err, "cannot write hostfile %s: %s", hostfile, strerror(errno));
    FILE *lf = fopen(locality, "w");
    if (!lf) {
        fclose(hf);
        return cs_fail(err, "cannot write locality file %s: %s", locality, strerror(errno));
    }
    int *host = cs_xmalloc((size_t)np * sizeof(int));
    cs_hosts_of_ranks(pf, node_of_rank, np, host);
    fprintf(lf, "levels");
    for (int l = 0; l < pf->nlevels; l++)
        fprintf(lf, " %s", pf->levels[l]);
    fprintf(lf, "\n");
    for (int r = 0; r < np; r++) {
        const cs_node *n = &pf->nodes[node_of_rank[r]];
        const int h = host[r] >= 0 ? host[r] : host_named(pf, n);
        fprintf(hf, "%s\n", host[r] < 0 ? n->name : pf->hosts[h].name);
        for (int l = 0; l < pf->nlevels; l++)
            fprintf(lf, l ? " %d" : "%d", h < 0 ? node_of_rank[r] : pf->hosts[h].region[l]);
        fprintf(lf, "\n");
    }
    free(host);
    int rc = close_written(hf, "hostfile", hostfile, err);
    if (close_written(lf, "locality file", locality, rc ? NULL : err))
        rc = -1;
    return rc;
}
