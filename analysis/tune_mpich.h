/* The parts of an MPICH 4.0 collective selection file (JSON,
 * MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) that do not come from a sweep:
 * MPICH's own choice where collsim keeps the library's decision, one
 * algorithm for each collective collsim does not tune, the algorithms of
 * intercommunicators, and the ch4 device's file that hands every call to
 * the MPIR file (tune_mpich.c). */
#ifndef COLLSIM_TUNE_MPICH_H
#define COLLSIM_TUNE_MPICH_H

#include <stdio.h>

/* MPICH 4.0's own choice on a flat intracommunicator for one of the
 * collectives collsim tunes, as a JSON object; -1 for another. */
int cs_mpich_own(FILE *f, const char *coll);

/* A leaf naming MPICH's algorithm `name` (MPIR_...): behind the test of
 * what it serves when MPICH restricts it, MPICH's own choice otherwise. */
void cs_mpich_leaf(FILE *f, const char *coll, const char *name);

/* The algorithm (less its MPIR_ prefix) of an MPI_IN_PLACE call of an
 * alltoall(v,w), or NULL. */
const char *cs_mpich_inplace(const char *coll);

/* One collective's member "collective=C": {...}: its intracommunicator
 * object written by body(f, arg) (NULL: MPICH's own choice), MPI_IN_PLACE
 * and intercommunicator calls around it. */
void cs_mpich_collective(FILE *f, const char *coll, void (*body)(FILE *, const void *),
                         const void *arg);

/* Every collective MPICH may select but those of done, each after ",\n". */
void cs_mpich_others(FILE *f, const char *const *done, size_t ndone);

/* The ch4 device's file (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE). */
void cs_mpich_ch4(FILE *f);

#endif
