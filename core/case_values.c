/* The values of case_fields.h's intergroup and background-traffic fields:
 * their parsers, canonical spellings and the block sizes they imply. */
#include "case_fields.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* "P:Q": two integers >= 1 */
static int parse_pair(const char *text, int *a, int *b)
{
    char *end;
    errno = 0;
    if (!text || !isdigit((unsigned char)text[0]))
        return -1;
    long x = strtol(text, &end, 10);
    if (*end != ':' || !isdigit((unsigned char)end[1]) || errno || x < 1 || x > 1 << 30)
        return -1;
    long y = strtol(end + 1, &end, 10);
    if (*end || errno || y < 1 || y > 1 << 30)
        return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

int cs_groups_parse(const char *groups, const char *ratio, cs_groups *g, cs_err *err)
{
    if (parse_pair(groups, &g->p, &g->q))
        return cs_fail(err, "--groups '%s': expected P:Q, the sizes of groups A and B, two "
                            "integers >= 1 (e.g. 50:14)", groups ? groups : "");
    g->ra = g->rb = 1;
    if (ratio && ratio[0] && parse_pair(ratio, &g->ra, &g->rb))
        return cs_fail(err, "--block-ratio '%s': expected A:B, the ratio k_A:k_B of the two "
                            "groups' blocks, two integers >= 1 (e.g. 4:1)", ratio);
    return 0;
}

int cs_groups_b_bytes(const cs_groups *g, long bytes, int tsize, long *b_bytes, cs_err *err)
{
    long long num = (long long)bytes * g->rb;
    if (tsize < 1)
        tsize = 1;
    if (num % g->ra || num / g->ra % tsize)
        return cs_fail(err, "size %ld with --block-ratio %d:%d gives group B blocks of %lld/%d "
                            "bytes, not a whole number of %d-byte elements (sizes that are "
                            "multiples of %lld work)",
                       bytes, g->ra, g->rb, num, g->ra, tsize, (long long)g->ra * tsize);
    *b_bytes = (long)(num / g->ra);
    return 0;
}

int cs_groups_scale(const char *ratio, int np, const char **groups, cs_err *err)
{
    /* every distinct text once, for the program's life (cases are moved
     * and copied by value, so they cannot hold it themselves) */
    static struct interned {
        struct interned *next;
        char text[32];
    } *pool;
    int a, b;
    if (parse_pair(ratio, &a, &b))
        return cs_fail(err, "group ratio '%s': expected P:Q, two integers >= 1 (e.g. 25:7)",
                       ratio ? ratio : "");
    if (np % (a + b))
        return cs_fail(err, "group ratio %d:%d at %d processes: %d is not a multiple of %d "
                            "(P + Q)", a, b, np, np, a + b);
    char text[32];
    snprintf(text, sizeof text, "%d:%d", a * (np / (a + b)), b * (np / (a + b)));
    struct interned *i = pool;
    while (i && strcmp(i->text, text))
        i = i->next;
    if (!i) {
        i = malloc(sizeof *i);
        if (!i)
            abort();
        snprintf(i->text, sizeof i->text, "%s", text);
        i->next = pool;
        pool = i;
    }
    *groups = i->text;
    return 0;
}

int cs_size_unit_node(const char *unit) { return unit && !strcmp(unit, "node"); }

int cs_sizes_per_process(const cs_numlist *per_node, int ppn, cs_numlist *out, cs_err *err)
{
    out->v = NULL;
    out->n = 0;
    if (ppn <= 0)
        return cs_fail(err, "--size-unit node (sizes per node) needs the ranks per node: give "
                            "--ppn (a scenario's <ppn>)");
    for (size_t i = 0; i < per_node->n; i++)
        if (per_node->v[i] % ppn)
            return cs_fail(err, "size %ld per node is not a multiple of %d ranks per node "
                                "(--size-unit node divides it among them)",
                           per_node->v[i], ppn);
    out->v = cs_xmalloc((per_node->n ? per_node->n : 1) * sizeof *out->v);
    out->n = per_node->n;
    for (size_t i = 0; i < per_node->n; i++)
        out->v[i] = per_node->v[i] / ppn;
    return 0;
}

long cs_groups_member_bytes(const cs_groups *g, int group, int i, long bytes, int tsize, int arith)
{
    const long base = group == 0 ? bytes : (long)((long long)bytes * g->rb / g->ra);
    const int n = group == 0 ? g->p : g->q;
    if (!arith)
        return base;
    const long long x = base / tsize; /* the sequence's largest block, in elements */
    return (long)((x * (i + 1) + n - 1) / n) * tsize;
}

long long cs_groups_total_bytes(const cs_groups *g, int group, long bytes, int tsize, int arith)
{
    const int n = group == 0 ? g->p : g->q;
    long long total = 0;
    for (int i = 0; i < n; i++)
        total += cs_groups_member_bytes(g, group, i, bytes, tsize, arith);
    return total;
}

/* ---- background traffic ---- */

#define BG_FORM                                                                                   \
    "alltoall:inter-LEVEL:SIZE:PROCS[@HOSTS] (e.g. alltoall:inter-switch:4M:96; alltoall-port:... " \
    "the same bytes as one flow per node), or none"

/* A size with an optional binary suffix K, M or G (1M = 1048576), >= 1. */
static int parse_size(const char *t, size_t len, long *out)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf || !isdigit((unsigned char)t[0]))
        return -1;
    memcpy(buf, t, len);
    buf[len] = 0;
    errno = 0;
    long x = strtol(buf, &end, 10);
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (shift)
        end++;
    if (*end || errno || x < 1 || x > (long)INT_MAX >> shift)
        return -1;
    *out = x << shift;
    return 0;
}

int cs_background_parse(const char *text, cs_background *bg, cs_err *err)
{
    memset(bg, 0, sizeof *bg);
    if (!text || !text[0] || !strcmp(text, "none"))
        return 0;
    const char *at = strchr(text, '@');
    if (at) { /* @HOSTS: its terms are checked against the platform (hostspec.h) */
        size_t n = strlen(at + 1);
        if (!n || n >= sizeof bg->hosts || strspn(at + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
                                                           "NOPQRSTUVWXYZ0123456789.+-_") != n)
            return cs_fail(err, "--background '%s': hosts '%s': expected a --hosts SPEC of at "
                                "most %zu characters (NAME, NAME..NAME, N-per-LEVEL[-cyclic], "
                                "joined by '+')",
                           text, at + 1, sizeof bg->hosts - 1);
        snprintf(bg->hosts, sizeof bg->hosts, "%s", at + 1);
    }
    char head[128];
    snprintf(head, sizeof head, "%.*s", (int)(at ? (size_t)(at - text) : strlen(text)), text);
    const char *part[4], *p = head;
    size_t len[4];
    int n = 0;
    for (; n < 4; n++) {
        part[n] = p;
        len[n] = strcspn(p, ":");
        p += len[n];
        if (!*p)
            break;
        p++;
    }
    if (n != 3 || strlen(text) >= sizeof head + sizeof bg->hosts)
        return cs_fail(err, "--background '%s': expected %s", text, BG_FORM);
    if (len[0] == 13 && !strncmp(part[0], "alltoall-port", 13))
        bg->port = 1;
    else if (len[0] != 8 || strncmp(part[0], "alltoall", 8))
        return cs_fail(err, "--background '%s': unknown pattern '%.*s' (valid: alltoall, "
                            "alltoall-port)",
                       text, (int)len[0], part[0]);
    if (len[1] <= 6 || strncmp(part[1], "inter-", 6) || len[1] - 6 >= sizeof bg->level)
        return cs_fail(err, "--background '%s': '%.*s': expected inter-LEVEL, the pairs between "
                            "regions of a locality level (e.g. inter-switch, inter-node)",
                       text, (int)len[1], part[1]);
    snprintf(bg->level, sizeof bg->level, "%.*s", (int)len[1] - 6, part[1] + 6);
    if (parse_size(part[2], len[2], &bg->bytes))
        return cs_fail(err, "--background '%s': size '%.*s': expected bytes per process, an "
                            "integer >= 1 with an optional K, M or G (1M = 1048576), at most %d",
                       text, (int)len[2], part[2], INT_MAX);
    char *end;
    errno = 0;
    long k = strtol(part[3], &end, 10);
    if (!isdigit((unsigned char)part[3][0]) || *end || errno || k < 2 || k > 1 << 20)
        return cs_fail(err, "--background '%s': processes '%s': expected an integer from 2 to %d",
                       text, part[3], 1 << 20);
    bg->procs = (int)k;
    if (bg->bytes < k)
        return cs_fail(err, "--background '%s': %ld bytes per process cannot be split over the "
                            "peers of %ld processes (a byte each at least): use a size >= %ld",
                       text, bg->bytes, k, k);
    return 0;
}

void cs_background_text(const cs_background *bg, char *out, size_t len)
{
    if (!bg->procs) {
        out[0] = 0;
        return;
    }
    static const char suffix[] = " KMG";
    long x = bg->bytes;
    int u = 0;
    while (u < 3 && x % 1024 == 0) {
        x /= 1024;
        u++;
    }
    snprintf(out, len, "alltoall%s:inter-%s:%ld%.*s:%d%s%s", bg->port ? "-port" : "", bg->level,
             x, u > 0, suffix + u, bg->procs, bg->hosts[0] ? "@" : "", bg->hosts);
}
