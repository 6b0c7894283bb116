/* The broadcast, allreduce, reduce and reduce-scatter models (cost_model_reduce.c), named by
 * algorithms.def's cost column: for cost_model.c's table only (callers use
 * cost_model.h). */
#ifndef COLLSIM_COST_MODEL_REDUCE_H
#define COLLSIM_COST_MODEL_REDUCE_H

#include "cost_model.h"

double bcast_binomial(int p, long m, const cs_cost_params *c);
double bcast_scatter_ring(int p, long m, const cs_cost_params *c);
double bcast_scatter_rd(int p, long m, const cs_cost_params *c);
double bcast_chain(int p, long m, const cs_cost_params *c);
double allreduce_rd(int p, long m, const cs_cost_params *c);
double allreduce_ring(int p, long m, const cs_cost_params *c);
double allreduce_rabenseifner(int p, long m, const cs_cost_params *c);
double allreduce_hierarchical(int p, long m, const cs_cost_params *c);
double allreduce_reduce_bcast(int p, long m, const cs_cost_params *c);
double reduce_binomial(int p, long m, const cs_cost_params *c);
double reduce_rabenseifner(int p, long m, const cs_cost_params *c);
/* reduce_scatter_block (m the block), reduce_scatter (m the largest block) */
double rs_halving(int p, long m, const cs_cost_params *c);
double rs_pairwise(int p, long m, const cs_cost_params *c);
double rs_ring(int p, long m, const cs_cost_params *c);
double rs_reduce_scatterv(int p, long m, const cs_cost_params *c);
double rsv_halving(int p, long m, const cs_cost_params *c);
double rsv_pairwise(int p, long m, const cs_cost_params *c);
double rsv_ring(int p, long m, const cs_cost_params *c);
double rsv_reduce_scatterv(int p, long m, const cs_cost_params *c);

#endif
