/* Zero-copy Bruck alltoall (Träff et al., as reviewed by Fan et al. 2022,
 * Section 2.1 "Zero-copy Bruck").
 *
 * The modified schedule (alltoall_bruck_modified.c), but nothing is packed or
 * unpacked: each step's blocks travel as one message described by an
 * hindexed datatype, and a scratch buffer T of p blocks alternates with R so
 * that a step never receives into a slot it sends from. Our rule (derived
 * here, the paper states it with its own bit count): with b = number of set
 * bits of i at positions >= k, a step sends slot t from T and receives it
 * into R when b is odd, the reverse when b is even; the initial rotation puts
 * block i in T when popcount(i) is odd. The last receive of every block
 * (b = 1) lands in R.
 *
 * Cost (analysis/cost_model.c, padded_bruck with every block N, Fan Eq. (1)):
 *   ceil(log2 p) (α + ((p+1)/2) N β).
 * Memory: the receive buffer, a scratch T of p blocks (coll_scratch_alloc),
 * and 2 floor(p/2) displacements per rank (plain malloc). The messages are
 * derived datatypes: SMPI packs each into a temporary buffer of its size,
 * which folding does not bound (sim/host/case/registry.h).
 * Restrictions: any p; contiguous types; no MPI_IN_PLACE (MPI_ERR_ARG). */
#include "alltoall_bruck_common.h"

#include "../coll_util.h"

#include <stdlib.h>
#include <string.h>

static int popcount_from(unsigned i, int d) /* set bits of i at positions >= log2 d */
{
    int n = 0;

    for (i /= (unsigned)d; i; i >>= 1)
        n += (int)(i & 1u);
    return n;
}

static int zero_copy(const bruck_alltoall_args *a)
{
    const void *sendbuf = a->sendbuf;
    void *recvbuf = a->recvbuf;
    const int rank = a->rank, p = a->p, recvcount = a->count;
    const MPI_Datatype recvtype = a->type;
    const MPI_Comm comm = a->comm;
    const size_t bb = a->bb;
    int err = MPI_SUCCESS;
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
        coll_copy(dst + (size_t)t * bb, coll_cblock(sendbuf, coll_mod(rank - i, p), bb), bb);
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

int collsim_alltoall_bruck_zero_copy(COLLSIM_ALLTOALL_ARGS)
{
    return bruck_alltoall(collsim_alltoall_bruck_zero_copy, zero_copy, collsim_alltoall_bruck_zero_copy_msg_blocks, sendbuf,
                          sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
