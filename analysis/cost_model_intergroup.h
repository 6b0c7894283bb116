/* The intergroup collectives' models (cost_model_intergroup.c), named by
 * algorithms.def's cost column: for cost_model.c's table only (callers use
 * cost_model.h). */
#ifndef COLLSIM_COST_MODEL_INTERGROUP_H
#define COLLSIM_COST_MODEL_INTERGROUP_H

#include "cost_model.h"

double kang_eq2_root_gather(int np, long bytes, const cs_cost_params *c);
double root_gather_concurrent(int np, long bytes, const cs_cost_params *c);
double kang_eq1_root_gather(int np, long bytes, const cs_cost_params *c);
double kang_eq3_segmented(int np, long bytes, const cs_cost_params *c);
double kang_two_step(int np, long bytes, const cs_cost_params *c);
double root_gather_v_linear(int np, long bytes, const cs_cost_params *c);
double root_gather_v_ring(int np, long bytes, const cs_cost_params *c);
double kang_eq4_stream(int np, long bytes, const cs_cost_params *c);

#endif
