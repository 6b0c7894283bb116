/* Bruck alltoall family (Bruck et al. 1997; variants as reviewed by Fan et al.
 * 2022, Section 2.1). A rank's p blocks are indexed by a relative index i; in
 * step k (distance d = 2^k < p) every block whose i has bit k set travels d
 * ranks in one message, so ceil(log2 p) messages of at most p/2 blocks each.
 * The blocks of a step are packed into a scratch buffer (memcpy, as the
 * paper's non-datatype variants), exchanged with one MPI_Sendrecv and unpacked
 * into the same relative slots. Scratch: 2 * floor(p/2) blocks, through
 * coll_scratch_alloc. MPI_IN_PLACE: MPI_ERR_ARG.
 *
 *  - bruck_basic (Section 2.1 "Basic Bruck"): rotate R[i] = S[(r+i) mod p],
 *    send to r+d and receive from r-d, then the inverse rotation
 *    R[j] = R[(r-j) mod p], done in place as a block reversal and a rotation.
 *  - bruck_modified ("Modified Bruck"): rotate R[t] = S[(2r-t) mod p], relative
 *    index i = t - r, send to r-d and receive from r+d: a block ends in the slot
 *    of its source, so there is no final rotation.
 *  - bruck_zero_rotation ("Zero Rotation Bruck"): the modified schedule without
 *    the initial rotation either: a slot not yet received (no bit of i below k
 *    set) is read straight from S[(2r-t) mod p], the paper's rotation index
 *    I[t], computed on the fly rather than stored (a p-int array per rank is
 *    4 GiB at 32K ranks). Received blocks go to their final slot in R.
 *  - bruck_zero_copy ("Zero-copy Bruck"): the modified schedule, but nothing is
 *    packed or unpacked: each step's blocks travel as one message described by
 *    an hindexed datatype, and a scratch buffer T of p blocks alternates with R
 *    so that a step never receives into a slot it sends from. Our rule (derived
 *    here, the paper states it with its own bit count): with b = number of set
 *    bits of i at positions >= k, a step sends slot t from T and receives it
 *    into R when b is odd, the reverse when b is even; the initial rotation
 *    puts block i in T when popcount(i) is odd. The last receive of every block
 *    (b = 1) lands in R. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const void *sendbuf;
    void *recvbuf;
    size_t bb;
    int rank, p, count;
    MPI_Datatype type;
    unsigned char *pack, *unpack; /* floor(p/2) blocks each */
    int zero_rotation;
} bruck_state;

/* Where the block of slot t (relative index i) is read from before sending. */
static const void *bruck_source(const bruck_state *s, int t, int i, int d)
{
    if (s->zero_rotation && (i & (d - 1)) == 0) /* never received: still in S */
        return coll_cblock(s->sendbuf, coll_mod(2 * s->rank - t, s->p), s->bb);
    return coll_block(s->recvbuf, t, s->bb);
}

/* Step with distance d: slots t = (base + i) mod p for every i with bit d
 * set go to `dest`; the same slots are refilled from `src`. */
static int bruck_step(const bruck_state *s, int base, int d, int dest, int src, MPI_Comm comm)
{
    const size_t bb = s->bb;
    int n = 0;

    for (int lo = d; lo < s->p; lo += 2 * d)
        for (int i = lo; i < lo + d && i < s->p; i++, n++)
            memcpy(s->pack + (size_t)n * bb, bruck_source(s, coll_mod(base + i, s->p), i, d), bb);
    const int err = MPI_Sendrecv(s->pack, n * s->count, s->type, dest, COLL_TAG_ALLTOALL,
                                 s->unpack, n * s->count, s->type, src, COLL_TAG_ALLTOALL, comm,
                                 MPI_STATUS_IGNORE);
    if (err != MPI_SUCCESS)
        return err;
    n = 0;
    for (int lo = d; lo < s->p; lo += 2 * d)
        for (int i = lo; i < lo + d && i < s->p; i++, n++)
            memcpy(coll_block(s->recvbuf, coll_mod(base + i, s->p), bb),
                   s->unpack + (size_t)n * bb, bb);
    return MPI_SUCCESS;
}

enum bruck_variant { BRUCK_BASIC, BRUCK_MODIFIED, BRUCK_ZERO_ROTATION };

static int bruck_alltoall(enum bruck_variant v, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
    int rank, p, err;
    size_t bb;

    err = coll_alltoall_begin(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              comm, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;
    if (p == 1) {
        memcpy(recvbuf, sendbuf, bb);
        return MPI_SUCCESS;
    }

    /* Phase 1 (Section 2.1): local rotation of S into R. */
    if (v == BRUCK_BASIC) {
        memcpy(recvbuf, coll_cblock(sendbuf, rank, bb), (size_t)(p - rank) * bb);
        memcpy(coll_block(recvbuf, p - rank, bb), sendbuf, (size_t)rank * bb);
    } else if (v == BRUCK_MODIFIED) {
        for (int t = 0; t < p; t++)
            memcpy(coll_block(recvbuf, t, bb), coll_cblock(sendbuf, coll_mod(2 * rank - t, p), bb),
                   bb);
    } else { /* zero rotation: only the own block (i = 0) never moves */
        memcpy(coll_block(recvbuf, rank, bb), coll_cblock(sendbuf, rank, bb), bb);
    }

    const size_t half = (size_t)(p / 2) * bb;
    unsigned char *scratch = coll_scratch_alloc(2 * half);
    if (scratch == NULL)
        return MPI_ERR_NO_MEM;
    const bruck_state s = {sendbuf, recvbuf, bb, rank, p, recvcount, recvtype,
                           scratch, scratch + half, v == BRUCK_ZERO_ROTATION};

    /* Phase 2: ceil(log2 p) exchanges. */
    for (int d = 1; d < p && err == MPI_SUCCESS; d *= 2) {
        if (v == BRUCK_BASIC)
            err = bruck_step(&s, 0, d, coll_mod(rank + d, p), coll_mod(rank - d, p), comm);
        else
            err = bruck_step(&s, rank, d, coll_mod(rank - d, p), coll_mod(rank + d, p), comm);
    }
    coll_scratch_free(scratch);
    if (err != MPI_SUCCESS)
        return err;

    /* Phase 3 (basic only): R[i] came from rank r-i; R[j] = R[(r-j) mod p] is
     * a reversal (slot i -> p-1-i) followed by a rotation by r+1. */
    if (v == BRUCK_BASIC) {
        coll_reverse_blocks(recvbuf, 0, p, bb);
        coll_rotate_blocks(recvbuf, p, bb, rank + 1);
    }
    return MPI_SUCCESS;
}

int collsim_alltoall_bruck_basic(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(BRUCK_BASIC, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
}

int collsim_alltoall_bruck_modified(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(BRUCK_MODIFIED, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
}

int collsim_alltoall_bruck_zero_rotation(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(BRUCK_ZERO_ROTATION, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, comm);
}

static int popcount_from(unsigned i, int d) /* set bits of i at positions >= log2 d */
{
    int n = 0;

    for (i /= (unsigned)d; i; i >>= 1)
        n += (int)(i & 1u);
    return n;
}

int collsim_alltoall_bruck_zero_copy(COLLSIM_ALLTOALL_ARGS)
{
    int rank, p, err;
    size_t bb;

    err = coll_alltoall_begin(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              comm, &rank, &p, &bb);
    if (err != MPI_SUCCESS || bb == 0)
        return err;
    if (p == 1) {
        memcpy(recvbuf, sendbuf, bb);
        return MPI_SUCCESS;
    }
    unsigned char *tmp = coll_scratch_alloc((size_t)p * bb);
    /* Displacements (per-rank state, plain malloc): floor(p/2) per side. */
    MPI_Aint *disp = malloc(sizeof *disp * (size_t)(p / 2) * 2);
    if (tmp == NULL || disp == NULL) {
        coll_scratch_free(tmp);
        free(disp);
        return MPI_ERR_NO_MEM;
    }
    MPI_Aint r_base, t_base;
    MPI_Get_address(recvbuf, &r_base);
    MPI_Get_address(tmp, &t_base);
    const MPI_Aint t_off = MPI_Aint_diff(t_base, r_base); /* T relative to R */

    /* Phase 1: the modified rotation, odd-popcount blocks into T. */
    for (int i = 0; i < p; i++) {
        const int t = coll_mod(rank + i, p);
        unsigned char *dst = popcount_from((unsigned)i, 1) % 2 ? tmp : recvbuf;
        memcpy(dst + (size_t)t * bb, coll_cblock(sendbuf, coll_mod(rank - i, p), bb), bb);
    }

    /* Phase 2: one send and one receive datatype per step, both over R. */
    for (int d = 1; d < p && err == MPI_SUCCESS; d *= 2) {
        MPI_Aint *sdisp = disp, *rdisp = disp + p / 2;
        int n = 0;
        for (int lo = d; lo < p; lo += 2 * d)
            for (int i = lo; i < lo + d && i < p; i++, n++) {
                const MPI_Aint slot = (MPI_Aint)coll_mod(rank + i, p) * (MPI_Aint)bb;
                const int odd = popcount_from((unsigned)i, d) % 2;
                sdisp[n] = slot + (odd ? t_off : 0);
                rdisp[n] = slot + (odd ? 0 : t_off);
            }
        MPI_Datatype stype, rtype;
        MPI_Type_create_hindexed_block(n, recvcount, sdisp, recvtype, &stype);
        MPI_Type_create_hindexed_block(n, recvcount, rdisp, recvtype, &rtype);
        MPI_Type_commit(&stype);
        MPI_Type_commit(&rtype);
        err = MPI_Sendrecv(recvbuf, 1, stype, coll_mod(rank - d, p), COLL_TAG_ALLTOALL, recvbuf, 1,
                           rtype, coll_mod(rank + d, p), COLL_TAG_ALLTOALL, comm,
                           MPI_STATUS_IGNORE);
        MPI_Type_free(&stype);
        MPI_Type_free(&rtype);
    }
    free(disp);
    coll_scratch_free(tmp);
    return err;
}
