/* The intercommunicator wrappers' table for the PMPI layer built under SMPI
 * (MpiColls.SmpiThroughThePmpiLayer): SMPI 3.32 has no intercommunicator, so
 * algorithms/intergroup/intergroup_intercomm.c is a real-MPI file and this
 * SMPI program serves none. */
#include "intergroup_intercomm.h"

const collsim_ic_alg collsim_ic_algs[] = {{NULL, NULL, NULL}};
