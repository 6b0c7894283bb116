/* Rank-to-node mappings, as MPI launchers define them (Sparbit paper, III-C):
 *   sequential: fill each node's slots with consecutive ranks, node by node;
 *   cyclic:     deal ranks round-robin over the nodes, one per node per round.
 * A node's slots are its cores; with oversubscription allowed and more ranks
 * than cores, every node gets ceil(np / total cores) times its cores (the
 * paper's runs with 2 processes per core). */
#ifndef COLLSIM_MAPPING_H
#define COLLSIM_MAPPING_H

#include "cs_error.h"
#include "platform.h"

typedef enum { CS_MAP_SEQUENTIAL, CS_MAP_CYCLIC } cs_mapping;

int cs_mapping_parse(const char *text, cs_mapping *out, cs_err *err);
const char *cs_mapping_name(cs_mapping m);

/* Fills node_of_rank[0..np-1] with node indices of pf. */
int cs_map_ranks(const cs_platform *pf, cs_mapping m, int np, int oversubscribe,
                 int *node_of_rank, cs_err *err);

/* The SMPI hostfile: line r names the host of rank r. */
int cs_write_hostfile(const cs_platform *pf, const int *node_of_rank, int np, const char *path,
                      cs_err *err);

#endif
