/* The intergroup collectives in the benchmark (intergroup.h). */
#include "intergroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IG_GUARD_BYTE 0xa5

int ig_parse(driver_opts *o)
{
    cs_err e;
    o->ig_interleaved = o->layout && !strcmp(o->layout, "interleaved");
    o->ig_arith = o->counts && !strcmp(o->counts, "arithmetic");
    int tsize;
    MPI_Type_size(o->mpi_dtype, &tsize);
    long b;
    for (int s = 0; s < o->nsizes; s++)
        if (cs_groups_b_bytes(&o->ig_groups, o->sizes[s], tsize, &b, &e)) {
            fprintf(stderr, "collsim-driver: %s\n", e.msg);
            return -1;
        }
    return 0;
}

long ig_max_block(const driver_opts *o, long bytes)
{
    long b = cs_groups_member_bytes(&o->ig_groups, 1, 0, bytes, 1, 0);
    return b > bytes ? b : bytes;
}

/* Bytes of local rank i of group g. */
static long member_block(const driver_opts *o, int g, int i, long bytes, int tsize)
{
    return cs_groups_member_bytes(&o->ig_groups, g, i, bytes, tsize, o->ig_arith);
}

/* Group of each rank of the P + Q: the same for every process, so one copy
 * serves all of them (privatization is off; ranks run one at a time). */
static int *group_of;
static int group_of_n, group_of_interleaved;

collsim_intergroup *ig_prepare(const driver_opts *o, MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    const int P = o->ig_groups.p, Q = o->ig_groups.q;
    if (n != P + Q) {
        if (rank == 0)
            fprintf(stderr, "collsim-driver: --groups %d:%d needs %d ranks, the communicator has "
                            "%d\n", P, Q, P + Q, n);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (!group_of || group_of_n != n || group_of_interleaved != o->ig_interleaved) {
        free(group_of);
        group_of = malloc(sizeof(int) * (size_t)n);
        if (!group_of)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (int r = 0; r < n; r++)
            group_of[r] = o->ig_interleaved ? collsim_group_interleaved(r, P, Q)
                                            : collsim_group_block(r, P, Q);
        group_of_n = n;
        group_of_interleaved = o->ig_interleaved;
    }
    collsim_intergroup *ig = NULL;
    int e = collsim_intergroup_create_from(comm, group_of, &ig);
    if (e != MPI_SUCCESS) {
        fprintf(stderr, "collsim-driver: rank %d: building the group descriptor failed (MPI "
                        "error %d)\n", rank, e);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return ig;
}

void ig_size_build(const driver_opts *o, const collsim_intergroup *ig, long bytes, int tsize,
                   ig_size *s)
{
    const int nr = ig->remote_size, nl = ig->local_size, remote = 1 - ig->group;
    if (!s->rcounts) {
        s->rcounts = malloc(sizeof(int) * (size_t)nr);
        s->rdispls = malloc(sizeof(int) * (size_t)nr);
        if (!s->rcounts || !s->rdispls) {
            fprintf(stderr, "collsim-driver: rank %d cannot allocate the remote group's %d "
                            "counts\n", ig->rank, nr);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    s->mine = member_block(o, ig->group, ig->local_rank, bytes, tsize);
    long long at = 0, local_total = 0;
    for (int j = 0; j < nr; j++) {
        long b = member_block(o, remote, j, bytes, tsize);
        s->rcounts[j] = (int)(b / tsize);
        s->rdispls[j] = (int)(at / tsize);
        at += b;
    }
    for (int i = 0; i < nl; i++)
        local_total += member_block(o, ig->group, i, bytes, tsize);
    s->remote_total = (long)at;
    /* every process of a group receives the other group's whole data */
    s->data_bytes = local_total * nr + at * nl;
}

void ig_size_free(ig_size *s)
{
    free(s->rcounts);
    free(s->rdispls);
    s->rcounts = s->rdispls = NULL;
}

void ig_fill_send(const ig_size *s, unsigned char *sendbuf, int rank)
{
    memcpy(sendbuf, pattern_block(rank), (size_t)s->mine);
}

void ig_poison(const collsim_intergroup *ig, const ig_size *s, unsigned char *recvbuf, int tsize)
{
    for (int j = 0; j < ig->remote_size; j++)
        memcpy(recvbuf + (size_t)s->rdispls[j] * (size_t)tsize,
               antipattern_block(ig->remote_ranks[j]), (size_t)s->rcounts[j] * (size_t)tsize);
    memset(recvbuf + s->remote_total, IG_GUARD_BYTE, IG_GUARD);
}

check_result ig_verify(const collsim_intergroup *ig, const ig_size *s, const unsigned char *recvbuf,
                       const unsigned char *sendbuf, int rank, int tsize)
{
    check_result none = {0, 0, 0, 0, 0, 0};
    if (memcmp(sendbuf, pattern_block(rank), (size_t)s->mine))
        return first_difference(sendbuf, pattern_block(rank), 0, s->mine, 1);
    for (int j = 0; j < ig->remote_size; j++) {
        const unsigned char *got = recvbuf + (size_t)s->rdispls[j] * (size_t)tsize;
        const unsigned char *want = pattern_block(ig->remote_ranks[j]);
        const long len = (long)s->rcounts[j] * tsize;
        if (memcmp(got, want, (size_t)len))
            return first_difference(got, want, j, len, 0);
    }
    for (long i = 0; i < IG_GUARD; i++)
        if (recvbuf[s->remote_total + i] != IG_GUARD_BYTE) /* block -1: after the last block */
            return (check_result){-1, -(IG_GUARD - i), IG_GUARD_BYTE, recvbuf[s->remote_total + i],
                                  1, 0};
    return none;
}

void ig_inject_fault(const driver_opts *o, const collsim_intergroup *ig, const ig_size *s,
                     unsigned char *recvbuf, int rank, int tsize)
{
    if (rank != o->fault_rank || o->fault_block >= ig->remote_size || o->fault_offset < 0)
        return;
    const long b = o->fault_block;
    if (o->fault_offset < (long)s->rcounts[b] * tsize)
        recvbuf[(long)s->rdispls[b] * tsize + o->fault_offset] ^= 0x5a;
}
