/* The entry and the packed exchange steps of the uniform Bruck alltoalls
 * (alltoall_bruck_common.h). */
#include "alltoall_bruck_common.h"

#include "../coll_util.h"

#include <string.h>

int bruck_alltoall(collsim_block_coll_fn self, bruck_alltoall_body body, coll_msg_blocks_fn msg_blocks, COLLSIM_ALLTOALL_ARGS)
{
    size_t bb;
    int rank, p;

    int err = coll_alltoall_begin(self, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                  msg_blocks, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;
    if (p == 1) {
        coll_copy(recvbuf, sendbuf, bb);
        return MPI_SUCCESS;
    }
    const bruck_alltoall_args a = {sendbuf, recvbuf, bb, rank, p, recvcount, recvtype, comm};
    return body(&a);
}

typedef struct {
    const bruck_alltoall_args *a;
    unsigned char *pack, *unpack; /* floor(p/2) blocks each */
    int from_send;
} bruck_state;

/* Where the block of slot t (relative index i) is read from before sending. */
static const void *bruck_source(const bruck_state *s, int t, int i, int d)
{
    const bruck_alltoall_args *a = s->a;
    if (s->from_send && (i & (d - 1)) == 0) /* never received: still in S */
        return coll_cblock(a->sendbuf, coll_mod(2 * a->rank - t, a->p), a->bb);
    return coll_block(a->recvbuf, t, a->bb);
}

/* Step with distance d: slots t = (base + i) mod p for every i with bit d
 * set go to `dest`; the same slots are refilled from `src`. */
static int bruck_step(const bruck_state *s, int base, int d, int dest, int src)
{
    const bruck_alltoall_args *a = s->a;
    const size_t bb = a->bb;
    int n = 0;

    for (int lo = d; lo < a->p; lo += 2 * d)
        for (int i = lo; i < lo + d && i < a->p; i++, n++)
            coll_copy(s->pack + (size_t)n * bb, bruck_source(s, coll_mod(base + i, a->p), i, d), bb);
    const int err = MPI_Sendrecv(s->pack, n * a->count, a->type, dest, COLL_TAG_ALLTOALL,
                                 s->unpack, n * a->count, a->type, src, COLL_TAG_ALLTOALL, a->comm,
                                 MPI_STATUS_IGNORE);
    if (err != MPI_SUCCESS)
        return err;
    n = 0;
    for (int lo = d; lo < a->p; lo += 2 * d)
        for (int i = lo; i < lo + d && i < a->p; i++, n++)
            coll_copy(coll_block(a->recvbuf, coll_mod(base + i, a->p), bb),
                   s->unpack + (size_t)n * bb, bb);
    return MPI_SUCCESS;
}

int bruck_alltoall_exchange(const bruck_alltoall_args *a, int base, int dir, int from_send)
{
    const int rank = a->rank, p = a->p;
    const size_t half = (size_t)(p / 2) * a->bb;
    unsigned char *scratch = coll_scratch_alloc(2 * half);
    if (scratch == NULL)
        return MPI_ERR_NO_MEM;
    const bruck_state s = {a, scratch, scratch + half, from_send};
    int err = MPI_SUCCESS;

    for (int d = 1; d < p && err == MPI_SUCCESS; d *= 2)
        err = bruck_step(&s, base, d, coll_mod(rank + dir * d, p), coll_mod(rank - dir * d, p));
    coll_scratch_free(scratch);
    return err;
}
