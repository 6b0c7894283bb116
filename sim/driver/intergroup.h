/* The intergroup collectives in the benchmark (inter_allgather,
 * inter_allgatherv; Kang, Traff et al. 2019): the group descriptor built once
 * per communicator before timing, each process's block and the remote
 * group's counts for one size, and check mode's data definition (the call:
 * bench_sig.c).
 *
 * Sizes: group A (group 0, the first of --groups P:Q) has blocks of `bytes`
 * (a size of --sizes), group B of bytes x B / A (--block-ratio A:B). With
 * --counts arithmetic (inter_allgatherv), local rank i of a group of n has
 * ceil(x (i + 1) / n) elements, x = its group's block in elements (the
 * largest of the sequence; Kang et al. 2019 Sec. 5 settings 6 and 8 as
 * docs/papers.md, "Kang: the experiments", reads them). Data: the block of the process of rank r (in the benchmark's
 * communicator) is pattern_block(r) (datacheck.h); every process receives the
 * remote group's blocks in the remote group's rank order, packed (displs =
 * prefix sums), followed by IG_GUARD bytes the call must leave alone. */
#ifndef COLLSIM_DRIVER_INTERGROUP_H
#define COLLSIM_DRIVER_INTERGROUP_H

#include <mpi.h>

#include "coll_intergroup.h"
#include "datacheck.h"
#include "driver.h"

#define IG_GUARD 64 /* bytes after the received blocks, poisoned and checked */

/* One size as this process sees it. */
typedef struct {
    long mine;              /* bytes of this process's block */
    int *rcounts, *rdispls; /* [remote size]: the remote blocks, in elements */
    long remote_total;      /* bytes of all remote blocks */
    long long data_bytes;   /* bytes delivered over all processes (the row's data_bytes) */
} ig_size;

/* Reads --layout and --counts into o and checks group B's block of every
 * size (after cs_fields_resolve parsed the groups into o->ig_groups); 0, or
 * -1 after saying why on stderr. */
int ig_parse(driver_opts *o);

/* Bytes of the largest block for group A's `bytes` (the buffers' unit). */
long ig_max_block(const driver_opts *o, long bytes);

/* Collective over comm (of P + Q ranks, checked; MPI_Abort otherwise): the
 * descriptor for o's groups and layout. */
collsim_intergroup *ig_prepare(const driver_opts *o, MPI_Comm comm);

/* This process's view of one size (arrays allocated once, for remote size). */
void ig_size_build(const driver_opts *o, const collsim_intergroup *ig, long bytes, int tsize,
                   ig_size *s);
void ig_size_free(ig_size *s);

/* Check mode: the send block, the poison (each remote block's complement,
 * then the guard), the check of both buffers (first difference: block = the
 * remote block's index; block -1: the guard), COLLSIM_FAULT's flipped byte
 * (block = remote block index). */
void ig_fill_send(const ig_size *s, unsigned char *sendbuf, int rank);
void ig_poison(const collsim_intergroup *ig, const ig_size *s, unsigned char *recvbuf, int tsize);
check_result ig_verify(const collsim_intergroup *ig, const ig_size *s, const unsigned char *recvbuf,
                       const unsigned char *sendbuf, int rank, int tsize);
void ig_inject_fault(const driver_opts *o, const collsim_intergroup *ig, const ig_size *s,
                     unsigned char *recvbuf, int rank, int tsize);

#endif
