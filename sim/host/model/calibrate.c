#include "calibrate.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "postal.h"
#include "xml_error.h"

#define PFX_LEVEL "collsim.calibrate."
#define PFX_PUB "collsim.published."
#define PFX_OVERHEAD "collsim.overhead."
#define ID_REGIMES "collsim.regimes"

static int is_cal_id(const char *id)
{
    return !strncmp(id, PFX_LEVEL, strlen(PFX_LEVEL)) || !strncmp(id, PFX_PUB, strlen(PFX_PUB)) ||
           !strncmp(id, PFX_OVERHEAD, strlen(PFX_OVERHEAD)) || !strcmp(id, ID_REGIMES);
}

static int valid_name(const char *s, size_t n)
{
    if (n == 0 || n >= 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_'))
            return 0;
    return 1;
}

/* One calibration <prop> as read from the file. */
typedef struct {
    char *id, *value;
    long line;
} raw_prop;

typedef struct {
    raw_prop *v;
    int n, cap;
} raw_list;

static void raw_add(raw_list *l, const char *id, const char *value, long line)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = cs_xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n].id = cs_xstrdup(id);
    l->v[l->n].value = cs_xstrdup(value);
    l->v[l->n++].line = line;
}

static void raw_free(raw_list *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->v[i].id);
        free(l->v[i].value);
    }
    free(l->v);
}

/* Collects the calibration props: those of `top` in order; any elsewhere is an
 * error (returns -1). */
static int collect(const char *path, xmlNode *first, xmlNode *top, raw_list *out, cs_err *err)
{
    for (xmlNode *n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (!xmlStrcmp(n->name, (const xmlChar *)"prop")) {
            xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
            xmlChar *v = xmlGetProp(n, (const xmlChar *)"value");
            int rc = 0;
            if (id && is_cal_id((const char *)id)) {
                if (n->parent != top) {
                    xmlChar *pid = xmlGetProp(n->parent, (const xmlChar *)"id");
                    rc = cs_fail(err, "%s:%ld: <prop id=\"%s\">: calibration properties belong "
                                      "directly under the top-level <zone>, not inside <%s%s%s%s>",
                                 path, (long)xmlGetLineNo(n), (const char *)id,
                                 (const char *)n->parent->name, pid ? " id=\"" : "",
                                 pid ? (const char *)pid : "", pid ? "\"" : "");
                    xmlFree(pid);
                } else {
                    raw_add(out, (const char *)id, v ? (const char *)v : "", (long)xmlGetLineNo(n));
                }
            }
            xmlFree(id);
            xmlFree(v);
            if (rc)
                return -1;
        } else if (n->children && collect(path, n->children, top, out, err)) {
            return -1;
        }
    }
    return 0;
}

static int host_known(const cs_platform *pf, const char *name)
{
    for (int i = 0; i < pf->nhosts; i++)
        if (!strcmp(pf->hosts[i].name, name))
            return 1;
    for (int i = 0; i < pf->nnodes; i++)
        if (!strcmp(pf->nodes[i].name, name) && pf->nodes[i].nhosts == 0)
            return 1;
    return 0;
}

static const char *first_host(const cs_platform *pf)
{
    return pf->nhosts ? pf->hosts[0].name : pf->nodes[0].name;
}

static const char *last_host(const cs_platform *pf)
{
    return pf->nhosts ? pf->hosts[pf->nhosts - 1].name : pf->nodes[pf->nnodes - 1].name;
}

static int parse_level(const cs_platform *pf, const raw_prop *p, cs_cal_level *lv, cs_err *err)
{
    const char *name = p->id + strlen(PFX_LEVEL);
    if (!valid_name(name, strlen(name)))
        return cs_fail(err, "%s:%ld: <prop id=\"%s\">: '%s' is not a level name (letters, digits, "
                            "- and _, at most 63)",
                       pf->path, p->line, p->id, name);
    char a[256], b[256], extra[2];
    int k = sscanf(p->value, "%255s %255s %1s", a, b, extra);
    if (k != 2)
        return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: expected two host names "
                            "'HOST_A HOST_B' (the same name twice: two ranks on one host)",
                       pf->path, p->line, p->id, p->value);
    for (const char *h = a; h; h = h == a ? b : NULL)
        if (!host_known(pf, h))
            return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: host '%s' is not in the "
                                "platform (hosts: %s .. %s)",
                           pf->path, p->line, p->id, p->value, h, first_host(pf), last_host(pf));
    if (strlen(a) >= sizeof lv->host_a || strlen(b) >= sizeof lv->host_b)
        return cs_fail(err, "%s:%ld: <prop id=\"%s\">: host name too long", pf->path, p->line, p->id);
    snprintf(lv->name, sizeof lv->name, "%s", name);
    snprintf(lv->host_a, sizeof lv->host_a, "%s", a);
    snprintf(lv->host_b, sizeof lv->host_b, "%s", b);
    lv->line = p->line;
    return 0;
}

static int host_index(const cs_platform *pf, const char *name)
{
    for (int i = 0; i < pf->nhosts; i++)
        if (!strcmp(pf->hosts[i].name, name))
            return i;
    return -1;
}

static const raw_prop *raw_find(const raw_list *l, const char *id)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].id, id))
            return &l->v[i];
    return NULL;
}

/* The OFFSET of the piece from 0 B of "0:OFFSET:PERBYTE;..." (sim/driver/cost.h);
 * -1 when malformed (the driver names it when it runs). */
static double overhead_at_zero(const char *v)
{
    double start, offset;
    return sscanf(v, "%lf:%lf", &start, &offset) == 2 && start == 0 && offset >= 0 ? offset : -1;
}

/* The full model's o_s + o_r at 0 B between a level's two hosts: the finest
 * locality level holding both, then its collsim.overhead.{send,recv}[.LEVEL]. */
static void level_overhead(const cs_platform *pf, const raw_list *raw, cs_cal_level *lv)
{
    lv->overhead_s = -1;
    const int a = host_index(pf, lv->host_a), b = host_index(pf, lv->host_b);
    int l = 0;
    while (a >= 0 && b >= 0 && l < pf->nlevels &&
           pf->hosts[a].region[l] != pf->hosts[b].region[l])
        l++;
    snprintf(lv->overhead_level, sizeof lv->overhead_level, "%s",
             a >= 0 && b >= 0 && l < pf->nlevels ? pf->levels[l] : "system");
    double sum = 0;
    for (const char *dir = "send"; dir; dir = strcmp(dir, "send") ? NULL : "recv") {
        char id[128];
        snprintf(id, sizeof id, PFX_OVERHEAD "%s.%s", dir, lv->overhead_level);
        const raw_prop *p = raw_find(raw, id);
        if (!p) {
            snprintf(id, sizeof id, PFX_OVERHEAD "%s", dir);
            p = raw_find(raw, id);
        }
        const double o = p ? overhead_at_zero(p->value) : -1;
        if (o < 0)
            return;
        sum += o;
    }
    lv->overhead_s = sum;
}

/* A size: digits with an optional K or M (binary). */
static int parse_size(const char *s, const char *end, long *out)
{
    if (s == end)
        return -1;
    long v = 0;
    const char *c = s;
    for (; c < end && *c >= '0' && *c <= '9'; c++) {
        if (v > (1L << 40))
            return -1;
        v = v * 10 + (*c - '0');
    }
    if (c == s)
        return -1;
    if (c < end && (*c == 'K' || *c == 'k')) {
        v <<= 10;
        c++;
    } else if (c < end && (*c == 'M' || *c == 'm')) {
        v <<= 20;
        c++;
    }
    if (c != end)
        return -1;
    *out = v;
    return 0;
}

static int parse_regimes(const cs_platform *pf, const raw_prop *p, cs_calibration *cal, cs_err *err)
{
    const char *c = p->value;
    cal->regimes_line = p->line;
    while (1) {
        while (*c == ' ' || *c == '\t' || *c == '\n')
            c++;
        if (!*c)
            break;
        const char *tok = c;
        while (*c && *c != ' ' && *c != '\t' && *c != '\n')
            c++;
        const char *colon = memchr(tok, ':', (size_t)(c - tok));
        const char *dash = colon ? memchr(colon, '-', (size_t)(c - colon)) : NULL;
        cs_cal_regime r;
        memset(&r, 0, sizeof r);
        int bad = !colon || !dash || !valid_name(tok, (size_t)(colon - tok)) ||
                  parse_size(colon + 1, dash, &r.lo);
        if (!bad) {
            if (dash + 1 == c)
                r.hi = -1;
            else
                bad = parse_size(dash + 1, c, &r.hi) || r.hi < r.lo;
        }
        if (bad)
            return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: cannot read '%.*s': expected "
                                "NAME:LO-HI or NAME:LO- (inclusive byte sizes, K and M allowed, "
                                "e.g. short:0-255 eager:256-8K rendezvous:16K-)",
                           pf->path, p->line, p->id, p->value, (int)(c - tok), tok);
        snprintf(r.name, sizeof r.name, "%.*s", (int)(colon - tok), tok);
        for (int i = 0; i < cal->nregimes; i++) {
            const cs_cal_regime *q = &cal->regimes[i];
            if (!strcmp(q->name, r.name))
                return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: regime '%s' is named "
                                    "twice",
                               pf->path, p->line, p->id, p->value, r.name);
            int apart = (q->hi >= 0 && q->hi < r.lo) || (r.hi >= 0 && r.hi < q->lo);
            if (!apart)
                return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: regimes '%s' and '%s' "
                                    "overlap",
                               pf->path, p->line, p->id, p->value, q->name, r.name);
        }
        cal->regimes = cs_xrealloc(cal->regimes, (size_t)(cal->nregimes + 1) * sizeof r);
        cal->regimes[cal->nregimes++] = r;
    }
    if (cal->nregimes == 0)
        return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: no regime (expected e.g. "
                            "short:0-255 eager:256-8K rendezvous:16K-)",
                       pf->path, p->line, p->id, p->value);
    return 0;
}

static int find_level(const cs_calibration *cal, const char *name, size_t len)
{
    for (int i = 0; i < cal->nlevels; i++)
        if (strlen(cal->levels[i].name) == len && !strncmp(cal->levels[i].name, name, len))
            return i;
    return -1;
}

static int find_regime(const cs_calibration *cal, const char *name)
{
    for (int i = 0; i < cal->nregimes; i++)
        if (!strcmp(cal->regimes[i].name, name))
            return i;
    return -1;
}

static void name_list(char *buf, size_t len, const cs_calibration *cal, int levels)
{
    buf[0] = 0;
    int n = levels ? cal->nlevels : cal->nregimes;
    for (int i = 0; i < n; i++) {
        strncat(buf, i ? ", " : "", len - strlen(buf) - 1);
        strncat(buf, levels ? cal->levels[i].name : cal->regimes[i].name, len - strlen(buf) - 1);
    }
}

static int parse_published(const cs_platform *pf, const raw_prop *p, cs_calibration *cal,
                           cs_err *err)
{
    const char *rest = p->id + strlen(PFX_PUB);
    const char *dot = strchr(rest, '.');
    char list[512];
    if (!dot || !valid_name(rest, (size_t)(dot - rest)) || !valid_name(dot + 1, strlen(dot + 1)))
        return cs_fail(err, "%s:%ld: <prop id=\"%s\">: expected the id collsim.published.LEVEL.REGIME "
                            "(names of letters, digits, - and _)",
                       pf->path, p->line, p->id);
    int lv = find_level(cal, rest, (size_t)(dot - rest));
    if (lv < 0) {
        name_list(list, sizeof list, cal, 1);
        return cs_fail(err, "%s:%ld: <prop id=\"%s\">: level '%.*s' is not declared by a "
                            "collsim.calibrate.LEVEL property (declared: %s)",
                       pf->path, p->line, p->id, (int)(dot - rest), rest, list);
    }
    int rg = find_regime(cal, dot + 1);
    if (rg < 0) {
        name_list(list, sizeof list, cal, 0);
        return cs_fail(err, "%s:%ld: <prop id=\"%s\">: regime '%s' is not declared (%s: %s)",
                       pf->path, p->line, p->id, dot + 1,
                       cal->regimes_line ? "collsim.regimes declares" : "without collsim.regimes the "
                                                                        "only regime is",
                       list);
    }
    double a, b;
    char extra[2];
    if (sscanf(p->value, "%lf %lf %1s", &a, &b, extra) != 2 || !(a > 0) || !(b > 0) || isinf(a) ||
        isinf(b))
        return cs_fail(err, "%s:%ld: <prop id=\"%s\" value=\"%s\">: expected two positive numbers "
                            "'ALPHA_S BETA_S_PER_B' (seconds, seconds per byte), e.g. '1.3e-6 1.25e-10'",
                       pf->path, p->line, p->id, p->value);
    cal->pub_alpha[lv * cal->nregimes + rg] = a;
    cal->pub_beta[lv * cal->nregimes + rg] = b;
    return 0;
}

int cs_calibration_load(const cs_platform *pf, cs_calibration *cal, cs_err *err)
{
    memset(cal, 0, sizeof *cal);
    xmlDoc *doc = cs_xml_read(pf->path, "platform", 0, err);
    if (!doc)
        return -1;
    xmlNode *root = xmlDocGetRootElement(doc), *top = NULL;
    for (xmlNode *n = root ? root->children : NULL; n && !top; n = n->next)
        if (n->type == XML_ELEMENT_NODE && (!xmlStrcmp(n->name, (const xmlChar *)"zone") ||
                                            !xmlStrcmp(n->name, (const xmlChar *)"AS")))
            top = n;
    raw_list raw = {NULL, 0, 0};
    int rc = root ? collect(pf->path, root->children, top, &raw, err) : -1;
    xmlFreeDoc(doc);
    if (!root)
        rc = cs_fail(err, "%s: empty platform file", pf->path);

    /* duplicates */
    for (int i = 0; !rc && i < raw.n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(raw.v[i].id, raw.v[j].id)) {
                rc = cs_fail(err, "%s:%ld: <prop id=\"%s\">: declared twice (first at line %ld)",
                             pf->path, raw.v[i].line, raw.v[i].id, raw.v[j].line);
                break;
            }
    /* levels (document order), then regimes, then published values */
    for (int i = 0; !rc && i < raw.n; i++)
        if (!strncmp(raw.v[i].id, PFX_LEVEL, strlen(PFX_LEVEL))) {
            cal->levels = cs_xrealloc(cal->levels, (size_t)(cal->nlevels + 1) * sizeof *cal->levels);
            rc = parse_level(pf, &raw.v[i], &cal->levels[cal->nlevels], err);
            if (!rc)
                cal->nlevels++;
        }
    for (int l = 0; !rc && l < cal->nlevels; l++)
        level_overhead(pf, &raw, &cal->levels[l]);
    for (int i = 0; !rc && i < raw.n; i++)
        if (!strcmp(raw.v[i].id, ID_REGIMES))
            rc = parse_regimes(pf, &raw.v[i], cal, err);
    if (!rc && cal->nregimes == 0) {
        cal->regimes = cs_xmalloc(sizeof *cal->regimes);
        memset(cal->regimes, 0, sizeof *cal->regimes);
        snprintf(cal->regimes[0].name, sizeof cal->regimes[0].name, "all");
        cal->regimes[0].hi = -1;
        cal->nregimes = 1;
    }
    if (!rc && cal->nlevels == 0)
        rc = cs_fail(err, "%s: declares nothing to calibrate: no <prop id=\"collsim.calibrate.LEVEL\" "
                          "value=\"HOST_A HOST_B\"/> under its top-level <zone> (see "
                          "platforms/README.md, \"Calibration properties\")",
                     pf->path);
    if (!rc) {
        size_t cells = (size_t)cal->nlevels * (size_t)cal->nregimes;
        cal->pub_alpha = calloc(cells, sizeof(double));
        cal->pub_beta = calloc(cells, sizeof(double));
    }
    for (int i = 0; !rc && i < raw.n; i++)
        if (!strncmp(raw.v[i].id, PFX_PUB, strlen(PFX_PUB)))
            rc = parse_published(pf, &raw.v[i], cal, err);
    raw_free(&raw);
    if (rc)
        cs_calibration_free(cal);
    return rc;
}

void cs_calibration_free(cs_calibration *cal)
{
    free(cal->levels);
    free(cal->regimes);
    free(cal->pub_alpha);
    free(cal->pub_beta);
    memset(cal, 0, sizeof *cal);
}

static int in_regime(const cs_cal_regime *r, long bytes)
{
    return bytes >= r->lo && (r->hi < 0 || bytes <= r->hi);
}

int cs_calibration_check_sizes(const cs_platform *pf, const cs_calibration *cal,
                               const cs_numlist *sizes, cs_err *err)
{
    cs_numlist dflt = {NULL, 0};
    if (!sizes) {
        if (cs_numlist_parse(CS_CALIBRATE_SIZES, "calibration sizes", 1, 0, &dflt, err))
            return -1;
        sizes = &dflt;
    }
    int rc = 0;
    for (int r = 0; r < cal->nregimes && !rc; r++) {
        int k = 0;
        for (size_t i = 0; i < sizes->n; i++)
            k += in_regime(&cal->regimes[r], sizes->v[i]);
        if (k < 2 && cal->regimes_line)
            rc = cs_fail(err, "%s:%ld: <prop id=\"%s\">: regime '%s' holds %d of the measured sizes; "
                              "a fit needs at least 2",
                         pf->path, cal->regimes_line, ID_REGIMES, cal->regimes[r].name, k);
        else if (k < 2)
            rc = cs_fail(err, "calibrate: %d size(s) measured; a fit needs at least 2 different sizes", k);
    }
    cs_numlist_free(&dflt);
    return rc;
}

int cs_calibrate(const cs_platform *pf, const cs_calibration *cal, const cs_numlist *sizes,
                 cs_cal_row **rows_out, int *nrows_out, cs_err *err)
{
    /* every regime needs two sizes to fit a line: checked before simulating */
    if (cs_calibration_check_sizes(pf, cal, sizes, err))
        return -1;
    cs_numlist dflt = {NULL, 0};
    if (!sizes) {
        if (cs_numlist_parse(CS_CALIBRATE_SIZES, "calibration sizes", 1, 0, &dflt, err))
            return -1;
        sizes = &dflt;
    }
    int nrows = cal->nlevels * cal->nregimes, rc = 0;
    cs_cal_row *rows = cs_xmalloc((size_t)nrows * sizeof *rows);
    memset(rows, 0, (size_t)nrows * sizeof *rows);
    for (int l = 0; l < cal->nlevels && !rc; l++) {
        const cs_cal_level *lv = &cal->levels[l];
        long *x;
        double *t;
        size_t n;
        if (cs_postal_points(pf, lv->host_a, lv->host_b, sizes, &x, &t, &n, err)) {
            rc = -1;
            break;
        }
        long *rx = cs_xmalloc(n * sizeof *rx);
        double *rt = cs_xmalloc(n * sizeof *rt);
        for (int r = 0; r < cal->nregimes && !rc; r++) {
            cs_cal_row *row = &rows[l * cal->nregimes + r];
            row->level = l;
            row->regime = r;
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (in_regime(&cal->regimes[r], x[i])) {
                    if (!k || x[i] < row->min_bytes)
                        row->min_bytes = x[i];
                    if (!k || x[i] > row->max_bytes)
                        row->max_bytes = x[i];
                    rx[k] = x[i];
                    rt[k++] = t[i];
                }
            row->npoints = k;
            if (cs_postal_fit(rx, rt, k, &row->fit, &row->max_rel_residual, err)) {
                rc = -1;
                break;
            }
            double pa = cal->pub_alpha[l * cal->nregimes + r], pb = cal->pub_beta[l * cal->nregimes + r];
            if (pa > 0 && pb > 0) {
                row->published = 1;
                row->pub_alpha = pa;
                row->pub_beta = pb;
                row->err_alpha = fabs(row->fit.alpha - pa) / pa;
                row->err_beta = fabs(row->fit.beta - pb) / pb;
            }
        }
        free(rx);
        free(rt);
        free(x);
        free(t);
    }
    cs_numlist_free(&dflt);
    if (rc) {
        free(rows);
        return -1;
    }
    *rows_out = rows;
    *nrows_out = nrows;
    return 0;
}
