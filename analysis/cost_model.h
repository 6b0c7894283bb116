/* Closed-form cost models of collective algorithms under the Hockney model
 * (a message of s bytes costs alpha + s * beta), keyed by collective and
 * algorithm. The allgather models follow the Sparbit paper, Section II-A,
 * where m is the data a rank holds at the end (p blocks of `bytes` each, so
 * m / p = bytes); where collsim's code does something else (fallbacks), the
 * model follows the code. Later collectives add rows to the table in
 * cost_model.c; algorithms without a row (native:*) have no model. */
#ifndef COLLSIM_COST_MODEL_H
#define COLLSIM_COST_MODEL_H

#include <stddef.h>

typedef struct {
    double alpha; /* start-up time of one message, seconds */
    double beta;  /* transfer time per byte, seconds (1 / bandwidth) */
} cs_hockney;

/* Predicted seconds for p ranks exchanging `bytes` per rank. */
typedef double (*cs_cost_fn)(int p, long bytes, const cs_hockney *h);

typedef struct {
    const char *collective, *algorithm;
    cs_cost_fn fn;
    const char *formula; /* as a report prints it */
    const char *note;    /* where it comes from, and what differs from the paper */
} cs_cost_model;

const cs_cost_model *cs_cost_models(size_t *n);

/* algorithm is NAME or COLLECTIVE/NAME; NULL when there is no model. */
const cs_cost_model *cs_cost_model_find(const char *collective, const char *algorithm);

/* Predicted seconds, or NaN when the algorithm has no model (native:...). */
double cs_cost_predict(const char *collective, const char *algorithm, int p, long bytes,
                       const cs_hockney *h);

#endif
