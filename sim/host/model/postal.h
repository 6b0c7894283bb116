/* Hockney (postal) parameters of a platform, measured by simulation: a
 * ping-pong between two chosen nodes (the driver's --coll pingpong, run
 * through the case machinery of bench_case.c), then a least-squares fit of
 * one-way time = alpha + beta * bytes. These are what the cost models of
 * analysis/cost_model.h take, so a model and a simulation see the same links. */
#ifndef COLLSIM_POSTAL_H
#define COLLSIM_POSTAL_H

#include <stddef.h>

#include "cost_model.h"
#include "cs_error.h"
#include "fits.h"
#include "numlist.h"
#include "platform.h"


/* Sizes used when none are given: 0 and 1, 2, 4, ..., 1 MiB. */
#define CS_POSTAL_SIZES "0,1:1M"

/* Ping-pong between nodes node_a and node_b of pf (indices into pf->nodes;
 * equal for the intra-node pair) over `sizes` (NULL: CS_POSTAL_SIZES), then
 * the fit. */
int cs_postal_measure(const cs_platform *pf, int node_a, int node_b, const cs_numlist *sizes,
                      cs_postal *out, cs_err *err);

/* The ping-pong alone (no fit) between two SimGrid hosts of pf (names; the
 * same name twice: two ranks on one host): one-way times in seconds per size
 * of `sizes` (NULL: CS_POSTAL_SIZES), in two malloc'ed arrays of *n entries. */
int cs_postal_points(const cs_platform *pf, const char *host_a, const char *host_b,
                     const cs_numlist *sizes, long **bytes, double **t_s, size_t *n, cs_err *err);

/* The pairs a report uses: intra-node (node 0 twice) and inter-node (node 0
 * and the last node; *has_inter = 0 on a one-node platform). sizes as above. */
int cs_postal_pairs(const cs_platform *pf, const cs_numlist *sizes, cs_postal *intra,
                    cs_postal *inter, int *has_inter, cs_err *err);

/* The same pairs as a row of platforms.csv (fits.h): a failure is recorded in
 * the row (measured 0, why), not returned. */
void cs_postal_platform_fit(const cs_platform *pf, cs_platform_fit *out);

/* Least squares of t = alpha + beta * bytes over n points, weighted by 1/t^2
 * (relative residuals), so that the small sizes that fix alpha weigh as much
 * as the large ones that fix beta. Needs two distinct sizes and t > 0. */
int cs_postal_fit(const long *bytes, const double *t_s, size_t n, cs_hockney *h, double *max_rel,
                  cs_err *err);

#endif
