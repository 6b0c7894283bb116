/* Check counters of the SMPI test programs (locality_unit.c,
 * intergroup_unit.c): per world rank, since without privatization all
 * simulated ranks share a program's globals. fail() prints the first five
 * failures of a rank as "FAIL (world rank W) ..."; mix(), a hash. */
#ifndef COLLSIM_TEST_SMPI_UNIT_H
#define COLLSIM_TEST_SMPI_UNIT_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

#define MAX_RANKS 1024
static long checks[MAX_RANKS], failures[MAX_RANKS];

static int world_rank(void)
{
    int w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    return w;
}

static void check(void) { checks[world_rank()]++; }

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
    const int w = world_rank();
    if (failures[w]++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL (world rank %d) ", w);
        vprintf(fmt, ap);
        printf("\n");
        fflush(stdout);
        va_end(ap);
    }
}

/* An integer hash (for synthetic shapes and counts). */
static inline unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

#endif
