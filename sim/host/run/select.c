#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numlist.h"

/* The keys are the case fields that have one (case_fields.def); a term's
 * key is its field's index. */
#define KEY(k) (cs_case_fields[k].only)
#define NUMERIC(k) (cs_case_fields[k].kind == CS_FK_INT)

typedef struct {
    int key;
    const char *value;
    cs_numlist nps; /* numeric keys (np, ppn): the value as a number list */
    int canon_ok;   /* background: the value reads, in canonical spelling in canon */
    char canon[192];
} term;

static const char *only_keys(void)
{
    static char keys[256];
    keys[0] = 0;
    for (int k = 0; k < CS_NFIELDS; k++)
        if (KEY(k)) {
            size_t u = strlen(keys);
            snprintf(keys + u, sizeof keys - u, "%s%s", u ? ", " : "", KEY(k));
        }
    return keys;
}

/* The case's value of field k as text (SPECIAL fields by hand). */
static void text_of(const cs_case *c, int k, char *out, size_t len)
{
    switch (k) {
    case CS_F_platform: snprintf(out, len, "%s", c->platform->name); break;
    case CS_F_mapping: snprintf(out, len, "%s", cs_mapping_name(c->mapping)); break;
    case CS_F_collective: snprintf(out, len, "%s", c->alg.collective); break;
    case CS_F_algorithm: snprintf(out, len, "%s", c->alg.name); break;
    default: cs_field_text(&cs_case_fields[k], c, out, len);
    }
}

/* Whether the case has the term's value (the case's own value only). */
static int has_value(const cs_case *c, const term *t)
{
    char v[160];
    text_of(c, t->key, v, sizeof v);
    if (NUMERIC(t->key)) {
        for (size_t i = 0; i < t->nps.n; i++)
            if (t->nps.v[i] == atol(v))
                return 1;
        return 0;
    }
    if (t->key == CS_F_background && t->canon_ok) { /* the same in other words (4096K: 4M) */
        char cb[sizeof t->canon];
        cs_background_text(&c->parts.bg, cb, sizeof cb);
        return !strcmp(t->canon, cb);
    }
    if (t->key == CS_F_hosts && !strcmp(t->value, "all")) /* every node: the default */
        return !v[0];
    if (t->key == CS_F_algorithm) { /* NAME or COLLECTIVE/NAME */
        char full[160];
        snprintf(full, sizeof full, "%s/%s", c->alg.collective, c->alg.name);
        if (!strcmp(t->value, full))
            return 1;
    }
    return !strcmp(t->value, v);
}

/* Whether the term keeps the case: its value, or for region a case of an
 * algorithm that takes no region (one case stands for every level:
 * region=socket keeps bruck beside loc_bruck@socket, the comparison a sweep
 * of that level is for). */
static int matches(const cs_case *c, const term *t)
{
    if (t->key == CS_F_region && !cs_alg_locality_aware(c->alg.collective, c->alg.name))
        return 1;
    return has_value(c, t);
}

/* The values of `key` among the cases, each once, in case order; an empty
 * value (the default, e.g. no region) is not listed: no term can name it. */
static void values_of(const cs_case *cases, size_t n, int key, char *out, size_t len)
{
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char v[160], w[160];
        text_of(&cases[i], key, v, sizeof v);
        int seen = !v[0];
        for (size_t k = 0; k < i && !seen; k++) {
            text_of(&cases[k], key, w, sizeof w);
            seen = !strcmp(v, w);
        }
        if (seen)
            continue;
        size_t u = strlen(out);
        snprintf(out + u, len - u, "%s%s", u ? ", " : "", v);
    }
}

static int parse_terms(const char *only, char *buf, term **out, int *nterms, cs_err *err)
{
    int cap = 0, last = -1;
    char *save = NULL;
    *out = NULL;
    *nterms = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        int key = last;
        const char *value = tok;
        if (eq) {
            *eq = 0;
            value = eq + 1;
            const char *name = strcmp(tok, "algorithm") ? tok : "alg";
            for (key = 0; key < CS_NFIELDS && !(KEY(key) && !strcmp(name, KEY(key))); key++)
                ;
            if (key == CS_NFIELDS)
                return cs_fail(err, "--only %s: unknown key '%s' (valid keys: %s)", only, tok,
                               only_keys());
        } else if (last < 0) {
            return cs_fail(err, "--only %s: '%s' is not KEY=VALUE (valid keys: %s)", only, tok,
                           only_keys());
        }
        if (!*value)
            return cs_fail(err, "--only %s: %s has no value", only, KEY(key));
        if (*nterms == cap) {
            cap = cap ? 2 * cap : 8;
            *out = cs_xrealloc(*out, (size_t)cap * sizeof **out);
        }
        term *t = &(*out)[(*nterms)++];
        memset(t, 0, sizeof *t);
        t->key = last = key;
        t->value = value;
        cs_err ignored;
        t->canon_ok = key == CS_F_background &&
                      !cs_background_canonical(value, t->canon, sizeof t->canon, &ignored);
        char what[64];
        snprintf(what, sizeof what, "--only %s", KEY(key));
        if (NUMERIC(key) && cs_numlist_parse(value, what, 0, 0, &t->nps, err)) {
            (*nterms)--;
            return -1;
        }
    }
    if (!*nterms)
        return cs_fail(err, "--only needs KEY=VALUE terms, e.g. alg=sparbit,np=128 (valid keys: %s)",
                       only_keys());
    return 0;
}

int cs_select_only(const char *only, cs_case *cases, size_t *n, cs_err *err)
{
    char *buf = cs_xstrdup(only);
    term *t;
    int nt, rc = parse_terms(only, buf, &t, &nt, err);
    /* each value must name something the scenario has: a typo is an error,
     * not an empty run */
    for (int i = 0; i < nt && !rc; i++) {
        size_t k = 0;
        while (k < *n && !has_value(&cases[k], &t[i]))
            k++;
        if (k == *n) {
            char valid[2048];
            values_of(cases, *n, t[i].key, valid, sizeof valid);
            rc = cs_fail(err, "--only %s: no case of the scenario has %s=%s (valid: %s)", only,
                         KEY(t[i].key), t[i].value, valid[0] ? valid : "none: the scenario does "
                                                                     "not set it");
        }
    }
    size_t kept = 0;
    for (size_t k = 0; k < *n && !rc; k++) {
        int all = 1;
        for (int key = 0; key < CS_NFIELDS && all; key++) {
            int given = 0, any = 0;
            for (int i = 0; i < nt; i++)
                if (t[i].key == key) {
                    given = 1;
                    any |= matches(&cases[k], &t[i]);
                }
            all = !given || any;
        }
        if (all)
            cases[kept++] = cases[k];
    }
    if (!rc && !kept)
        rc = cs_fail(err, "--only %s: no case matches all of these terms", only);
    if (!rc)
        *n = kept;
    for (int i = 0; i < nt; i++)
        cs_numlist_free(&t[i].nps);
    free(t);
    free(buf);
    return rc;
}

int cs_select_index(long k, cs_case *cases, size_t *n, cs_err *err)
{
    if (k < 0 || (size_t)k >= *n)
        return cs_fail(err, "--case %ld: there are %zu cases to choose from (valid: 0..%zu)", k, *n,
                       *n - 1);
    cases[0] = cases[k];
    *n = 1;
    return 0;
}
