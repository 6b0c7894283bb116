/* `collsim calibrate PLATFORM`: per locality level the platform declares, a
 * simulated ping-pong between the level's two hosts (postal.c's machinery),
 * a Hockney fit per level and regime, and the comparison with the published
 * values the platform declares. The properties are described in
 * platforms/README.md, "Calibration properties". */
#ifndef COLLSIM_CALIBRATE_H
#define COLLSIM_CALIBRATE_H

#include <stddef.h>

#include "cost_model.h"
#include "cs_error.h"
#include "numlist.h"
#include "platform.h"

/* Sizes measured when none are given: 4 B .. 512 KiB, doubling. */
#define CS_CALIBRATE_SIZES "4:512K"

typedef struct {
    char name[64];
    char host_a[128], host_b[128];
    long line; /* of its <prop> */
    /* the full model's o_s + o_r of a 0-byte message between the two hosts
     * (collsim.overhead.*, the locality level they share); -1: none given */
    double overhead_s;
    char overhead_level[32]; /* that locality level, or "system" */
} cs_cal_level;

typedef struct {
    char name[64];
    long lo, hi; /* inclusive byte range; hi < 0: unbounded */
} cs_cal_regime;

typedef struct {
    cs_cal_level *levels;
    int nlevels;
    cs_cal_regime *regimes; /* the declared regimes, or one "all" */
    int nregimes;
    long regimes_line; /* 0: not declared */
    /* [level * nregimes + regime]: published alpha (s), beta (s/B); 0 = none */
    double *pub_alpha, *pub_beta;
} cs_calibration;

/* Reads the calibration properties of pf's file (its top-level zone).
 * Errors name the file, the line and the property. A file that declares no
 * level is an error too. */
int cs_calibration_load(const cs_platform *pf, cs_calibration *cal, cs_err *err);
void cs_calibration_free(cs_calibration *cal);

typedef struct {
    int level, regime;
    size_t npoints;         /* sizes that fell into the regime */
    long min_bytes, max_bytes;
    cs_hockney fit;         /* alpha (s), beta (s/B) */
    double max_rel_residual;
    int published;          /* 1 when pub_* and err_* are set */
    double pub_alpha, pub_beta, err_alpha, err_beta; /* errors relative to published */
} cs_cal_row;

/* Checks that every regime holds at least two of `sizes` (NULL:
 * CS_CALIBRATE_SIZES), before anything is simulated. */
int cs_calibration_check_sizes(const cs_platform *pf, const cs_calibration *cal,
                               const cs_numlist *sizes, cs_err *err);

/* Runs the ping-pongs (sizes NULL: CS_CALIBRATE_SIZES) and fits: one row per
 * level and regime, level-major (malloc'ed). */
int cs_calibrate(const cs_platform *pf, const cs_calibration *cal, const cs_numlist *sizes,
                 cs_cal_row **rows, int *nrows, cs_err *err);

/* The command: argument handling and the table. */
int cs_cmd_calibrate(int argc, char **argv);

#endif
