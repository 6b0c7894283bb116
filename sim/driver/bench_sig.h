/* What each signature kind (core/collectives.def, sig) does in the timing
 * loop of bench.c: one table of hooks per kind, named drv_sig_<kind>, which
 * the driver's table of collectives points to. bench.c calls them and never
 * asks which collective it runs; a new collective of an existing kind needs
 * no code here, a new kind one table. */
#ifndef COLLSIM_DRIVER_BENCH_SIG_H
#define COLLSIM_DRIVER_BENCH_SIG_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "datacheck.h"
#include "driver.h"
#include "intergroup.h"
#include "vlayout.h"

/* What every step of one communicator's run needs. */
typedef struct {
    const driver_opts *o;
    MPI_Comm comm;
    int rank, p, tsize;
    int counted; /* one call per size goes through the accounting */
    unsigned char *sendbuf, *recvbuf;
    v_layout L; /* v-collectives: this rank's counts and displacements */
    collsim_intergroup *ig; /* intergroup collectives: the descriptor, built before timing */
    ig_size I;              /* and this process's view of the current size */
    MPI_Op op;              /* reductions: the operation of --op (bench_reduce.c) */
} bench_ctx;

/* A NULL hook does nothing (or, for buffers, keeps the block kind's sizes). */
struct drv_sig {
    /* the whole benchmark of one communicator (bench_comm, or pingpong_comm) */
    int (*run)(const driver_opts *o, MPI_Comm comm, unsigned char *sendbuf,
               unsigned char *recvbuf, FILE *csv);
    /* the buffers for wsize ranks and blocks of up to *maxbytes (which it
     * may raise): 0, or -1 after rank 0 said why they cannot be addressed */
    int (*buffers)(const driver_opts *o, int wrank, int wsize, long *maxbytes,
                   size_t *sendbytes, size_t *recvbytes);
    /* " dist=... seed=...": the header line's words after the datatype */
    void (*info)(const driver_opts *o, char *out, size_t len);
    /* lines of the header after the first, before the columns */
    void (*legend)(const driver_opts *o);
    /* once per communicator, after its regions, before the first size */
    void (*prepare)(bench_ctx *b);
    void (*release)(bench_ctx *b);
    /* each size: counts, layouts (count elements of tsize per block) */
    void (*size)(bench_ctx *b, long bytes, int count);
    /* check mode: the send buffer, once per size */
    void (*fill)(const bench_ctx *b, long bytes);
    /* before each call: the receive buffer's poison (check mode), then what
     * MPI_IN_PLACE expects there (in_place: this rank passes it) */
    void (*poison)(const bench_ctx *b, long bytes, int in_place);
    int (*call)(const bench_ctx *b, int count, int in_place);
    /* COLLSIM_FAULT's test hook: flip one received byte after the call */
    void (*fault)(const bench_ctx *b, long bytes);
    check_result (*verify)(const bench_ctx *b, long bytes, int in_place);
    /* bytes delivered over all processes (the row's data_bytes) */
    long long (*data_bytes)(const bench_ctx *b, long bytes, int count);
};

/* drv_sig_block, ...: one per kind of core/signatures.h */
#define DRV_SIG_EXTERN(kind) extern const drv_sig drv_sig_##kind;
CS_SIGNATURES(DRV_SIG_EXTERN)
#undef DRV_SIG_EXTERN

#endif
