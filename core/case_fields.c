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
    case CS_SCOPE_OP: return p && p->op;
    case CS_SCOPE_SEGMENTED: return p && p->rooted == CS_ROOT_one_from;
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

int cs_field_in_scope(const cs_field *f, const char *collective)
{
    return in_scope(f->scope, collective);
}

const char *cs_field_scope_collectives(const cs_field *f, char *out, size_t len)
{
    return scope_collectives(f->scope, out, len);
}

int cs_background_canonical(const char *v, char *out, size_t len, cs_err *err)
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
            cs_background_canonical(v, canon, sizeof canon, &e))
            return snprintf(want, len, "%s", e.msg), -1;
        /* the intergroup pairs, groups P:Q and block_ratio A:B */
        cs_groups pair;
        if (full && f->scope == CS_SCOPE_GROUPS && cs_groups_parse(v, NULL, &pair, &e))
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

/* Every field's arg, in CS_F_ order: the valid words of WORD and CHOICE fields. */
static const struct {
    cs_field_kind kind;
    const char *arg;
} field_words[CS_NFIELDS] = {
#define CS_CASE_FIELD(m, kind, arg, ...) [CS_F_##m] = {CS_FK_##kind, CS_ARG_##kind(arg)},
#include "case_fields.def"
#undef CS_CASE_FIELD
};

int cs_case_word(int field, const char *w, char *valid, size_t len)
{
    if (field < 0 || field >= CS_NFIELDS ||
        (field_words[field].kind != CS_FK_WORD && field_words[field].kind != CS_FK_CHOICE)) {
        if (valid && len)
            valid[0] = 0;
        return -1;
    }
    if (valid && len)
        words_list(field_words[field].arg, valid, len);
    return w ? word_index(field_words[field].arg, w) : -1;
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
    }
    const cs_coll_props *p = cs_coll_find(collective);
    const char *op = *AT_C(&t[CS_F_op], obj, char *), *dtype = *AT_C(&t[CS_F_dtype], obj, char *);
    const char *op_types = p && p->op ? cs_op_dtypes(op, dtype) : NULL;
    if (op_types && !(given >> CS_F_dtype & 1) && (!dtype || !strcmp(dtype, "byte")))
        return cs_fail(err, "--op %s does not take the default datatype, byte: give --dtype %.*s "
                            "(valid: %s)", op ? op : "sum", (int)strcspn(op_types, ","),
                       op_types, op_types);
    if (op_types)
        return cs_fail(err, "--op %s does not take --dtype %s (valid: %s)", op ? op : "sum",
                       dtype ? dtype : "byte", op_types);
    char with[256];
    if (*AT_C(&t[CS_F_in_place], obj, int) && p && !p->in_place)
        return cs_fail(err, "--in-place is not supported for %s (only for %s%s%s)", collective,
                       cs_coll_join(", ", with, sizeof with, cs_coll_takes_in_place),
                       p->in_place_note[0] ? "; " : "", p->in_place_note);
    return 0;
}

int cs_fields_resolve(const cs_field *t, const void *obj, const char *collective,
                      cs_case_parts *parts, cs_err *err)
{
    memset(parts, 0, sizeof *parts);
    if (cs_background_parse(*AT_C(&t[CS_F_background], obj, char *), &parts->bg, err))
        return -1;
    const cs_coll_props *p = cs_coll_find(collective);
    if (!p || !p->groups)
        return 0;
    /* the two groups are the case: required and well formed */
    const char *g = *AT_C(&t[CS_F_groups], obj, char *);
    if (!g || !g[0])
        return cs_fail(err, "%s needs --groups P:Q, the sizes of groups A and B (P + Q = --np)",
                       collective);
    return cs_groups_parse(g, *AT_C(&t[CS_F_block_ratio], obj, char *), &parts->groups, err);
}

int cs_op_commutative(const char *op) { return !op || strcmp(op, "matmul"); }

const char *cs_op_dtypes(const char *op, const char *dtype)
{
    const char *o = op ? op : "sum", *d = dtype ? dtype : "byte";
    const char *valid = !strcmp(o, "bxor")     ? "int, byte"
                        : !strcmp(o, "matmul") ? "int"
                                               : "int, double";
    return strstr(valid, d) ? NULL : valid;
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

void cs_fields_row(const cs_field *t, const void *obj, const char *collective,
                   const cs_case_parts *parts, cs_result *r)
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
            text[0] = 0;
            if (parts)
                cs_background_text(&parts->bg, text, sizeof text);
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
