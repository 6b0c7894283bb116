#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numlist.h"

enum { K_PLATFORM, K_MAPPING, K_NP, K_COLLECTIVE, K_ALG, K_PPN, K_REGION, NKEYS };
static const char *const key_names[NKEYS] = {"platform", "mapping", "np", "collective", "alg",
                                             "ppn", "region"};

typedef struct {
    int key;
    const char *value;
    cs_numlist nps; /* K_NP, K_PPN: the value as a number list */
} term;

static const char *text_of(const cs_case *c, int key)
{
    switch (key) {
    case K_PLATFORM: return c->platform->name;
    case K_MAPPING: return cs_mapping_name(c->mapping);
    case K_COLLECTIVE: return c->alg.collective;
    case K_REGION: return c->region ? c->region : "";
    default: return c->alg.name;
    }
}

static int number_of(const cs_case *c, int key) { return key == K_NP ? c->np : c->ppn; }

static int matches(const cs_case *c, const term *t)
{
    if (t->key == K_NP || t->key == K_PPN) {
        for (size_t i = 0; i < t->nps.n; i++)
            if (t->nps.v[i] == number_of(c, t->key))
                return 1;
        return 0;
    }
    if (t->key == K_ALG) { /* NAME or COLLECTIVE/NAME */
        char full[160];
        snprintf(full, sizeof full, "%s/%s", c->alg.collective, c->alg.name);
        if (!strcmp(t->value, full))
            return 1;
    }
    return !strcmp(t->value, text_of(c, t->key));
}

/* The values of `key` among the cases, each once, in case order. */
static void values_of(const cs_case *cases, size_t n, int key, char *out, size_t len)
{
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        char v[160];
        int num = key == K_NP || key == K_PPN;
        if (num)
            snprintf(v, sizeof v, "%d", number_of(&cases[i], key));
        else
            snprintf(v, sizeof v, "%s", text_of(&cases[i], key));
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = num ? number_of(&cases[k], key) == number_of(&cases[i], key)
                       : !strcmp(text_of(&cases[k], key), v);
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
            for (key = 0; key < NKEYS && strcmp(name, key_names[key]); key++)
                ;
            if (key == NKEYS)
                return cs_fail(err, "--only %s: unknown key '%s' (valid keys: %s)", only, tok,
                               CS_ONLY_KEYS);
        } else if (last < 0) {
            return cs_fail(err, "--only %s: '%s' is not KEY=VALUE (valid keys: %s)", only, tok,
                           CS_ONLY_KEYS);
        }
        if (!*value)
            return cs_fail(err, "--only %s: %s has no value", only, key_names[key]);
        if (*nterms == cap) {
            cap = cap ? 2 * cap : 8;
            *out = cs_xrealloc(*out, (size_t)cap * sizeof **out);
        }
        term *t = &(*out)[(*nterms)++];
        memset(t, 0, sizeof *t);
        t->key = last = key;
        t->value = value;
        if ((key == K_NP && cs_numlist_parse(value, "--only np", 0, 1, &t->nps, err)) ||
            (key == K_PPN && cs_numlist_parse(value, "--only ppn", 0, 0, &t->nps, err))) {
            (*nterms)--;
            return -1;
        }
    }
    if (!*nterms)
        return cs_fail(err, "--only needs KEY=VALUE terms, e.g. alg=sparbit,np=128 (valid keys: %s)",
                       CS_ONLY_KEYS);
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
        while (k < *n && !matches(&cases[k], &t[i]))
            k++;
        if (k == *n) {
            char valid[2048];
            values_of(cases, *n, t[i].key, valid, sizeof valid);
            rc = cs_fail(err, "--only %s: no case of the scenario has %s=%s (valid: %s)", only,
                         key_names[t[i].key], t[i].value, valid);
        }
    }
    size_t kept = 0;
    for (size_t k = 0; k < *n && !rc; k++) {
        int all = 1;
        for (int key = 0; key < NKEYS && all; key++) {
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
