#include "case_fields.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "distributions.h"

#define AT(f, obj, type) ((type *)((char *)(obj) + (f)->offset))
#define AT_C(f, obj, type) ((const type *)((const char *)(obj) + (f)->offset))

static int is_variable(const char *coll)
{
    const cs_coll_props *p = cs_coll_find(coll);
    return p && p->variable;
}

/* Whether a field of this scope means something for the collective. */
static int in_scope(int scope, const char *coll)
{
    const cs_coll_props *p = cs_coll_find(coll);
    switch (scope) {
    case CS_SCOPE_VAR: return p && p->variable;
    case CS_SCOPE_GROUPS: return p && p->groups;
    case CS_SCOPE_GROUPSV: return p && p->groups == 2;
    case CS_SCOPE_ROOTED: return p && p->rooted;
    default: return 1;
    }
}

/* The collectives of a scope: "alltoallv", "inter_allgather, inter_allgatherv" */
static const char *scope_collectives(int scope, char *out, size_t len)
{
    out[0] = 0;
    for (size_t i = 0; i < CS_NCOLL; i++)
        if (in_scope(scope, cs_colls()[i].name)) {
            size_t u = strlen(out);
            snprintf(out + u, len - u, "%s%s", u ? ", " : "", cs_colls()[i].name);
        }
    return out;
}

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
    "alltoall:inter-LEVEL:SIZE:PROCS[@HOSTS] (e.g. alltoall:inter-switch:4M:96), or none"

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
    if (len[0] != 8 || strncmp(part[0], "alltoall", 8))
        return cs_fail(err, "--background '%s': unknown pattern '%.*s' (valid: alltoall)", text,
                       (int)len[0], part[0]);
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
    snprintf(out, len, "alltoall:inter-%s:%ld%.*s:%d%s%s", bg->level, x, u > 0, suffix + u,
             bg->procs, bg->hosts[0] ? "@" : "", bg->hosts);
}

/* background: its canonical spelling ("" for none), or -1 with the error */
static int background_canonical(const char *v, char *out, size_t len, cs_err *err)
{
    cs_background bg;
    if (cs_background_parse(v, &bg, err))
        return -1;
    cs_background_text(&bg, out, len);
    return 0;
}

/* ---- words: "byte|int|double" ---- */

/* The index of w among the '|'-separated words, or -1. */
static int word_index(const char *words, const char *w)
{
    size_t len = strlen(w);
    int k = 0;
    for (const char *p = words; *p; k++) {
        size_t n = strcspn(p, "|");
        if (n == len && !strncmp(p, w, len))
            return k;
        p += n + (p[n] == '|');
    }
    return -1;
}

static void word_at(const char *words, int k, char *out, size_t len)
{
    const char *p = words;
    for (; k > 0 && *p; k--)
        p += strcspn(p, "|") + (p[strcspn(p, "|")] == '|');
    snprintf(out, len, "%.*s", (int)strcspn(p, "|"), p);
}

/* "byte|int|double" as "byte, int, double" */
static void words_list(const char *words, char *out, size_t len)
{
    out[0] = 0;
    for (int k = 0;; k++) {
        char w[64];
        word_at(words, k, w, sizeof w);
        if (!w[0])
            break;
        size_t u = strlen(out);
        snprintf(out + u, len - u, "%s%s", k ? ", " : "", w);
    }
}

int cs_dtype_size(const char *dtype)
{
    static const int sizes[] = {1, 4, 8}; /* in the order case_fields.def lists them */
    int k = dtype ? word_index("byte|int|double", dtype) : -1;
    return k < 0 ? 0 : sizes[k];
}

void cs_fields_defaults(const cs_field *t, void *obj)
{
    for (int i = 0; i < CS_NFIELDS; i++) {
        const cs_field *f = &t[i];
        switch (f->kind) {
        case CS_FK_INT:
        case CS_FK_FLAG: *AT(f, obj, int) = (int)f->dflt_n; break;
        case CS_FK_ULONG: *AT(f, obj, unsigned long) = (unsigned long)f->dflt_n; break;
        case CS_FK_WORD: *AT(f, obj, const char *) = f->dflt_s; break;
        case CS_FK_CHOICE: *AT(f, obj, int) = word_index(f->arg, f->dflt_s); break;
        case CS_FK_TEXT: *AT(f, obj, const char *) = NULL; break;
        case CS_FK_SPECIAL: break;
        }
    }
}

void cs_fields_copy(const cs_field *dt, void *dst, const cs_field *st, const void *src)
{
    static const size_t size_of[] = {[CS_FK_INT] = sizeof(int), [CS_FK_ULONG] = sizeof(unsigned long),
                                     [CS_FK_FLAG] = sizeof(int), [CS_FK_WORD] = sizeof(const char *),
                                     [CS_FK_CHOICE] = sizeof(int), [CS_FK_TEXT] = sizeof(const char *),
                                     [CS_FK_SPECIAL] = 0};
    for (int k = 0; k < CS_NFIELDS; k++)
        memcpy((char *)dst + dt[k].offset, (const char *)src + st[k].offset, size_of[dt[k].kind]);
}

/* dist: cs_dist_parse is its check and gives its canonical spelling */
static int dist_canonical(const char *v, char *out, size_t len, cs_err *err)
{
    cs_dist d;
    char derr[512];
    if (cs_dist_parse(v && v[0] ? v : "uniform", &d, derr, sizeof derr))
        return cs_fail(err, "%s", derr);
    snprintf(out, len, "%s", d.name);
    return 0;
}

/* The one conversion of a value's text: v into f's member of obj, or -1
 * with what f accepts in `want` ("an integer >= 1", "one of check, fold";
 * for dist, cs_dist_parse's message). FLAG: yes or no. full: WORD and TEXT
 * values are checked here too (scenarios), not left to cs_fields_check. */
static int convert(const cs_field *f, void *obj, const char *v, int full, char *want, size_t len)
{
    char *end, valid[256], canon[CS_FIELD_TEXT_MAX];
    cs_err e;
    errno = 0;
    switch (f->kind) {
    case CS_FK_INT: {
        long x = strtol(v, &end, 10);
        if (end == v || *end || (errno && errno != ERANGE) || x < f->min)
            return snprintf(want, len, "an integer >= %ld", f->min), -1;
        if (errno || x > 1 << 30) /* a number, and too large: say the bound */
            return snprintf(want, len, "an integer from %ld to %d", f->min, 1 << 30), -1;
        *AT(f, obj, int) = (int)x;
        return 0;
    }
    case CS_FK_ULONG: {
        unsigned long x = strtoul(v, &end, 10);
        if (end == v || *end || errno || v[0] == '-')
            return snprintf(want, len, "an integer >= 0"), -1;
        *AT(f, obj, unsigned long) = x;
        return 0;
    }
    case CS_FK_FLAG:
        if (strcmp(v, "yes") && strcmp(v, "no"))
            return snprintf(want, len, "yes or no"), -1;
        *AT(f, obj, int) = !strcmp(v, "yes");
        return 0;
    case CS_FK_WORD:
    case CS_FK_CHOICE:
        if ((full || f->kind == CS_FK_CHOICE) && word_index(f->arg, v) < 0) {
            words_list(f->arg, valid, sizeof valid);
            return snprintf(want, len, "one of %s", valid), -1;
        }
        if (f->kind == CS_FK_CHOICE)
            *AT(f, obj, int) = word_index(f->arg, v);
        else
            *AT(f, obj, const char *) = v;
        return 0;
    case CS_FK_TEXT:
        /* dist is the TEXT field with a check of its own (region's needs the
         * platform: scenario.c, bench_case.c) */
        if (full && !strcmp(f->name, "dist") && dist_canonical(v, canon, sizeof canon, &e))
            return snprintf(want, len, "%s", e.msg), -1;
        if (full && !strcmp(f->name, "background") &&
            background_canonical(v, canon, sizeof canon, &e))
            return snprintf(want, len, "%s", e.msg), -1;
        /* the intergroup pairs, groups P:Q and block_ratio A:B */
        int x, y;
        if (full && f->scope == CS_SCOPE_GROUPS && parse_pair(v, &x, &y))
            return snprintf(want, len, "expected %s, two integers >= 1", f->arg), -1;
        *AT(f, obj, const char *) = v;
        return 0;
    case CS_FK_SPECIAL: break;
    }
    return snprintf(want, len, "no value"), -1;
}

/* A flag's value (bench, driver): WORD and TEXT are checked by
 * cs_fields_check, with the rest of the case. */
static int parse_value(const cs_field *f, void *obj, const char *flag, const char *v, cs_err *err)
{
    char want[512];
    if (!convert(f, obj, v, 0, want, sizeof want))
        return 0;
    if (f->kind != CS_FK_CHOICE)
        return cs_fail(err, "%s needs %s (got '%s')", flag, want, v);
    words_list(f->arg, want, sizeof want);
    return cs_fail(err, "%s: unknown value '%s' (valid: %s)", flag, v, want);
}

int cs_field_set(const cs_field *f, void *obj, const char *v, const char *what, cs_err *err)
{
    char want[512];
    if (!convert(f, obj, v, 1, want, sizeof want))
        return 0;
    if (f->kind == CS_FK_TEXT) /* the text's own check says what is wrong */
        return cs_fail(err, "%s: %s", what, want);
    return cs_fail(err, "%s: expected %s", what, want);
}

int cs_fields_parse(const cs_field *t, void *obj, int driver, int argc, char **argv, int *i,
                    const char **raw, unsigned long *given, cs_err *err)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &t[k];
        const char *flag = driver ? f->driver : f->bench;
        if (!driver && f->kind == CS_FK_CHOICE && !strncmp(a, "--", 2) &&
            word_index(f->arg, a + 2) >= 0) { /* bench --fold: --mode fold */
            *AT(f, obj, int) = word_index(f->arg, a + 2);
            *given |= 1UL << k;
            return 1;
        }
        if (!flag || strcmp(a, flag) || (f->kind == CS_FK_SPECIAL && !raw))
            continue;
        *given |= 1UL << k;
        if (f->kind == CS_FK_FLAG) {
            *AT(f, obj, int) = 1;
            return 1;
        }
        if (!v)
            return cs_fail(err, "%s needs a value (%s)", a, f->arg ? f->arg : "an integer");
        ++*i;
        if (f->kind == CS_FK_SPECIAL) {
            raw[k] = v;
            return 1;
        }
        return parse_value(f, obj, a, v, err) ? -1 : 1;
    }
    return 0;
}

int cs_fields_check(const cs_field *t, const void *obj, const char *collective,
                    unsigned long given, cs_err *err)
{
    int variable = is_variable(collective);
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &t[k];
        const char *s = f->kind == CS_FK_WORD || f->kind == CS_FK_TEXT
                            ? *AT_C(f, obj, char *) : NULL;
        int set = (given >> k & 1) || (f->kind == CS_FK_TEXT && s && s[0]);
        char valid[256], canon[CS_FIELD_TEXT_MAX];
        if (f->kind == CS_FK_INT && *AT_C(f, obj, int) < f->min && *AT_C(f, obj, int) != f->dflt_n)
            return cs_fail(err, "%s must be >= %ld (got %d)", f->bench ? f->bench : f->name,
                           f->min, *AT_C(f, obj, int));
        /* a word of another collective's scope is neither passed nor checked
         * (cases built field by field leave it NULL); within its scope NULL
         * is the default, except for fields of every collective */
        const int word_bad =
            s ? word_index(f->arg, s) < 0 : f->scope == CS_SCOPE_ALL && k != CS_F_model;
        if (f->kind == CS_FK_WORD && word_bad && (in_scope(f->scope, collective) || set)) {
            words_list(f->arg, valid, sizeof valid);
            return cs_fail(err, "unknown %s '%s' (valid: %s)",
                           k == CS_F_dtype ? "datatype" : f->name, s ? s : "", valid);
        }
        if (f->scope != CS_SCOPE_ALL && set && !in_scope(f->scope, collective))
            return cs_fail(err, "%s applies to %s only, not %s",
                           k == CS_F_dist ? "a block-size distribution" : f->bench,
                           scope_collectives(f->scope, valid, sizeof valid), collective);
        if (k == CS_F_dist && variable && dist_canonical(s, canon, sizeof canon, err))
            return -1;
        if (k == CS_F_background && set && background_canonical(s, canon, sizeof canon, err))
            return -1;
    }
    const cs_coll_props *p = cs_coll_find(collective);
    if (p && p->groups) { /* the two groups are the case: required and well formed */
        const char *g = *AT_C(&t[CS_F_groups], obj, char *);
        cs_groups gs;
        if (!g || !g[0])
            return cs_fail(err, "%s needs --groups P:Q, the sizes of groups A and B (P + Q = "
                                "--np)", collective);
        if (cs_groups_parse(g, *AT_C(&t[CS_F_block_ratio], obj, char *), &gs, err))
            return -1;
    }
    char with[256];
    if (*AT_C(&t[CS_F_in_place], obj, int) && p && !p->in_place)
        return cs_fail(err, "--in-place is not supported for %s (only for %s%s%s)", collective,
                       cs_coll_in_place_names(", ", with, sizeof with),
                       p->in_place_note[0] ? "; " : "", p->in_place_note);
    return 0;
}

int cs_fields_check_sizes(const char *dtype, const long *sizes, size_t n, cs_err *err)
{
    int tsize = cs_dtype_size(dtype);
    for (size_t i = 0; tsize && i < n; i++) {
        if (sizes[i] % tsize)
            return cs_fail(err, "size %ld is not a multiple of the %s size (%d bytes)", sizes[i],
                           dtype, tsize);
        /* the collectives' count arguments are int */
        if (sizes[i] / tsize > INT_MAX)
            return cs_fail(err, "size %ld is %ld %s elements: more than an MPI count (an int, at "
                                "most %d) can express",
                           sizes[i], sizes[i] / tsize, dtype, INT_MAX);
    }
    return 0;
}

void cs_field_text(const cs_field *f, const void *obj, char *out, size_t len)
{
    out[0] = 0;
    switch (f->kind) {
    case CS_FK_INT:
    case CS_FK_FLAG: snprintf(out, len, "%d", *AT_C(f, obj, int)); break;
    case CS_FK_ULONG: snprintf(out, len, "%lu", *AT_C(f, obj, unsigned long)); break;
    case CS_FK_CHOICE: word_at(f->arg, *AT_C(f, obj, int), out, len); break;
    case CS_FK_WORD:
    case CS_FK_TEXT: {
        const char *s = *AT_C(f, obj, char *);
        if (!s && !strcmp(f->name, "model")) /* a case built field by field: the default */
            s = f->dflt_s;
        snprintf(out, len, "%s", s ? s : "");
        break;
    }
    case CS_FK_SPECIAL: break;
    }
}

/* Whether the field is passed on / recorded for this collective. */
static int applies(const cs_field *f, const char *collective)
{
    return f->kind != CS_FK_SPECIAL && in_scope(f->scope, collective);
}

int cs_fields_argv(const cs_field *t, const void *obj, const char *collective,
                   char buf[][CS_FIELD_TEXT_MAX], const char **argv, int n)
{
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &t[k];
        if (!f->driver || !applies(f, collective))
            continue;
        cs_field_text(f, obj, buf[k], CS_FIELD_TEXT_MAX);
        if (f->kind == CS_FK_FLAG) {
            if (*AT_C(f, obj, int))
                argv[n++] = f->driver;
        } else if (buf[k][0]) {
            argv[n++] = f->driver;
            argv[n++] = buf[k];
        }
    }
    return n;
}

void cs_fields_row(const cs_field *t, const void *obj, const char *collective, cs_result *r)
{
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &t[k];
        if (!f->csv || !applies(f, collective))
            continue;
        char text[CS_FIELD_TEXT_MAX];
        cs_err ignored;
        if (k == CS_F_dist) {
            if (dist_canonical(*AT_C(f, obj, char *), text, sizeof text, &ignored))
                continue;
        } else if (k == CS_F_background) {
            if (background_canonical(*AT_C(f, obj, char *), text, sizeof text, &ignored))
                continue;
        } else {
            cs_field_text(f, obj, text, sizeof text);
            if (k == CS_F_hosts && !strcmp(text, "all")) /* the default, said in words */
                text[0] = 0;
        }
        if (cs_result_set(r, f->csv, text) && cs_result_column_index(f->csv) < 0) {
            /* a typo in case_fields.def would otherwise lose the column */
            fprintf(stderr, "collsim: case_fields.def: %s: no results column '%s'\n", f->name,
                    f->csv);
            abort();
        }
    }
}

void cs_fields_scope(const cs_field *t, void *obj, const char *collective)
{
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &t[k];
        if (in_scope(f->scope, collective))
            continue;
        if (f->kind == CS_FK_ULONG)
            *AT(f, obj, unsigned long) = (unsigned long)f->dflt_n;
        else if (f->kind == CS_FK_TEXT || f->kind == CS_FK_WORD)
            *AT(f, obj, const char *) = f->kind == CS_FK_WORD ? f->dflt_s : NULL;
        else if (f->kind != CS_FK_SPECIAL)
            *AT(f, obj, int) = (int)f->dflt_n;
    }
}

void cs_fields_label(const cs_field *t, const void *obj, char sep, char *out, size_t len)
{
    out[0] = 0;
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *f = &t[k];
        char v[CS_FIELD_TEXT_MAX];
        if (!f->only || k == CS_F_np || f->kind == CS_FK_SPECIAL)
            continue;
        cs_field_text(f, obj, v, sizeof v);
        int dflt = f->kind == CS_FK_INT    ? *AT_C(f, obj, int) == f->dflt_n
                   : f->kind == CS_FK_WORD ? !v[0] || (f->dflt_s && !strcmp(v, f->dflt_s))
                                           : !v[0];
        if (dflt)
            continue;
        size_t u = strlen(out);
        if (sep == '-')
            snprintf(out + u, len - u, "-%s%s", f->kind == CS_FK_INT ? f->only : "", v);
        else
            snprintf(out + u, len - u, "%c%s=%.*s", sep, f->only, k == CS_F_background || k == CS_F_hosts ? 40 : 12,
                     v);
    }
}

void cs_fields_usage(const cs_field *t, FILE *f, int driver)
{
    for (int k = 0; k < CS_NFIELDS; k++) {
        const cs_field *x = &t[k];
        const char *flag = driver ? x->driver : x->bench;
        char opt[160], dflt[64] = "", only[128] = "", colls[112];
        if (!flag)
            continue;
        if (x->kind == CS_FK_FLAG)
            snprintf(opt, sizeof opt, "%s", flag);
        else if (x->kind == CS_FK_CHOICE && !driver) { /* --check|--fold */
            opt[0] = 0;
            char w[64];
            for (int i = 0; word_at(x->arg, i, w, sizeof w), w[0]; i++) {
                size_t u = strlen(opt);
                snprintf(opt + u, sizeof opt - u, "%s--%s", i ? "|" : "", w);
            }
        } else
            snprintf(opt, sizeof opt, "%s %s", flag,
                     k == CS_F_collective ? cs_coll_names("|") : x->arg ? x->arg : "N");
        if (x->dflt_s)
            snprintf(dflt, sizeof dflt, " (default %s)", x->dflt_s);
        else if (x->kind == CS_FK_INT && x->dflt_n)
            snprintf(dflt, sizeof dflt, " (default %ld)", x->dflt_n);
        else if (x->kind == CS_FK_ULONG)
            snprintf(dflt, sizeof dflt, " (default %ld)", x->dflt_n);
        if (x->scope != CS_SCOPE_ALL)
            snprintf(only, sizeof only, "; %s only", scope_collectives(x->scope, colls, sizeof colls));
        /* a long option takes a line of its own */
        fprintf(f, "    %-36s%s%s%s%s\n", opt, strlen(opt) > 36 ? "\n                                         " : " ",
                x->help, dflt, only);
    }
}
