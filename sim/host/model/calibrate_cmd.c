/* `collsim calibrate PLATFORM`: the command line, the table and the verdict against the
 * published values (calibrate.h: cs_cmd_calibrate); the measuring and fitting are calibrate.c's. */
#include "calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fmt_size(char *buf, size_t len, long b)
{
    if (b >= (1L << 20) && b % (1L << 20) == 0)
        snprintf(buf, len, "%ldM", b >> 20);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, len, "%ldK", b >> 10);
    else
        snprintf(buf, len, "%ld", b);
}

/* A row's text columns: level, hosts, regime, sizes. */
static void row_texts(const cs_calibration *cal, const cs_cal_row *r, char text[4][300])
{
    const cs_cal_level *lv = &cal->levels[r->level];
    char lo[24], hi[24];
    snprintf(text[0], 300, "%s", lv->name);
    snprintf(text[1], 300, "%s,%s", lv->host_a, lv->host_b);
    snprintf(text[2], 300, "%s", cal->regimes[r->regime].name);
    fmt_size(lo, sizeof lo, r->min_bytes);
    fmt_size(hi, sizeof hi, r->max_bytes);
    snprintf(text[3], 300, "%s..%s", lo, hi);
}

int cs_cmd_calibrate(int argc, char **argv)
{
    const char *platform = NULL, *sizes = NULL;
    double max_error = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sizes") && v) {
            sizes = v;
            i++;
        } else if (!strcmp(a, "--max-error") && v) {
            char *end;
            errno = 0;
            max_error = strtod(v, &end);
            if (end == v || *end || errno || !(max_error >= 0)) {
                fprintf(stderr, "collsim: calibrate: --max-error needs a percentage >= 0 (got '%s')\n", v);
                return 2;
            }
            i++;
        } else if (a[0] != '-' && !platform) {
            platform = a;
        } else {
            fprintf(stderr, "collsim: calibrate: %s '%s' (usage: calibrate PLATFORM [--sizes LIST] "
                            "[--max-error PCT])\n",
                    (!strcmp(a, "--sizes") || !strcmp(a, "--max-error")) ? "no value after"
                                                                           : "unexpected argument",
                    a);
            return 2;
        }
    }
    cs_err e;
    cs_platform pf;
    if (cs_platform_open_for(platform, "calibrate needs a platform (a name or a SimGrid XML file)", &pf))
        return 2;
    cs_calibration cal;
    cs_numlist sl = {NULL, 0};
    cs_cal_row *rows = NULL;
    int nrows = 0;
    if ((sizes && cs_numlist_parse(sizes, "size list", 1, 0, &sl, &e)) ||
        cs_calibration_load(&pf, &cal, &e)) {
        fprintf(stderr, "collsim: %s\n", e.msg);
        cs_numlist_free(&sl);
        cs_platform_free(&pf);
        return 2;
    }
    if (cs_calibration_check_sizes(&pf, &cal, sizes ? &sl : NULL, &e)) {
        fprintf(stderr, "collsim: %s\n", e.msg);
        cs_calibration_free(&cal);
        cs_numlist_free(&sl);
        cs_platform_free(&pf);
        return 2;
    }
    /* --max-error bounds the error against published values: without any, it would pass
     * having compared nothing */
    int npublished = 0;
    for (int c = 0; c < cal.nlevels * cal.nregimes; c++)
        npublished += cal.pub_alpha[c] > 0 && cal.pub_beta[c] > 0;
    if (max_error >= 0 && !npublished) {
        fprintf(stderr, "collsim: calibrate %s --max-error: %s publishes no alpha/beta to compare "
                        "with (a <prop id=\"collsim.published.LEVEL.REGIME\" value=\"ALPHA BETA\"/> "
                        "per level and regime); run without --max-error to see the fits\n",
                platform, pf.path);
        cs_calibration_free(&cal);
        cs_numlist_free(&sl);
        cs_platform_free(&pf);
        return 2;
    }
    printf("# calibrate %s (%s): simulated ping-pong per level, one-way time = round trip / 2;\n"
           "# fit t = alpha + beta * bytes per regime (least squares on relative residuals; alpha "
           "includes SMPI's 16 bytes per message);\n"
           "# err = |fitted - published| / published\n",
           pf.name, pf.path);
    fflush(stdout);
    int rc = cs_calibrate(&pf, &cal, sizes ? &sl : NULL, &rows, &nrows, &e);
    if (rc) {
        fprintf(stderr, "collsim: %s\n", e.msg);
    } else {
        /* the text columns as wide as their longest entry (at least the headings') */
        int w[4] = {14, 24, 10, 11};
        for (int i = 0; i < nrows; i++) {
            char text[4][300];
            row_texts(&cal, &rows[i], text);
            for (int k = 0; k < 4; k++)
                if ((int)strlen(text[k]) >= w[k])
                    w[k] = (int)strlen(text[k]) + (k < 3);
        }
        printf("%-*s %-*s %-*s %-*s %10s %10s %7s %11s %11s %7s %9s\n", w[0], "# level", w[1],
               "hosts", w[2], "regime", w[3], "sizes", "alpha(us)", "published", "err(%)",
               "beta(ns/B)", "published", "err(%)", "resid(%)");
        double worst = 0;
        int nparam = 0;
        for (int i = 0; i < nrows; i++) {
            const cs_cal_row *r = &rows[i];
            char text[4][300], pa[24] = "-", ea[24] = "-", pb[24] = "-", eb[24] = "-";
            row_texts(&cal, r, text);
            if (r->published) {
                snprintf(pa, sizeof pa, "%.4f", r->pub_alpha * 1e6);
                snprintf(ea, sizeof ea, "%.2f", 100 * r->err_alpha);
                snprintf(pb, sizeof pb, "%.5f", r->pub_beta * 1e9);
                snprintf(eb, sizeof eb, "%.2f", 100 * r->err_beta);
                nparam += 2;
                worst = fmax(worst, fmax(r->err_alpha, r->err_beta));
            }
            printf("%-*s %-*s %-*s %-*s %10.4f %10s %7s %11.5f %11s %7s %9.3f\n", w[0], text[0],
                   w[1], text[1], w[2], text[2], w[3], text[3], r->fit.alpha * 1e6, pa, ea,
                   r->fit.beta * 1e9, pb, eb, 100 * r->max_rel_residual);
        }
        /* the full model's overheads are part of the end-to-end latency the links
         * hold: o_s + o_r above a level's fitted alpha would have them cost time
         * that a ping-pong does not show */
        int over = 0, shown = 0;
        for (int l = 0; l < cal.nlevels; l++) {
            const cs_cal_level *lv = &cal.levels[l];
            if (lv->overhead_s < 0)
                continue;
            double alpha = -1;
            for (int i = 0; i < nrows; i++)
                if (rows[i].level == l && (alpha < 0 || rows[i].min_bytes < 64))
                    alpha = rows[i].fit.alpha;
            if (!shown++)
                printf("# full model: o_s + o_r of a 0-byte message (collsim.overhead.*) within "
                       "the level's fitted alpha (the first regime's)\n%-14s %-10s %12s %10s  %s\n",
                       "# level", "shares", "o_s+o_r(us)", "alpha(us)", "held");
            const int held = lv->overhead_s <= alpha * (1 + 1e-9);
            over += !held;
            printf("%-14s %-10s %12.4f %10.4f  %s\n", lv->name, lv->overhead_level,
                   lv->overhead_s * 1e6, alpha * 1e6, held ? "yes" : "NO: the overheads exceed the latency that holds them");
        }
        if (over) {
            fprintf(stderr, "collsim: calibrate: %d level(s) with o_s + o_r above the fitted alpha "
                            "(lower collsim.overhead.* or raise the latency)\n", over);
            rc = 1;
        }
        if (nparam)
            printf("calibration: max relative error %.2f%% over %d parameters\n", 100 * worst,
                   nparam);
        else
            printf("calibration: no published value to compare with (the fits above are not "
                   "checked)\n");
        if (max_error >= 0 && 100 * worst > max_error) {
            fprintf(stderr, "collsim: calibrate: max relative error %.2f%% exceeds --max-error %g%%\n",
                    100 * worst, max_error);
            rc = 1;
        }
    }
    free(rows);
    cs_calibration_free(&cal);
    cs_numlist_free(&sl);
    cs_platform_free(&pf);
    return rc < 0 ? 2 : rc;
}
