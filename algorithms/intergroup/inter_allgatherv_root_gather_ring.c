/* Intergroup allgatherv by root gathering with ring gathers: a HYPOTHESIS, the
 * structure Kang, Traff et al. 2019 (Section 5, discussion of Fig. 5)
 * attribute to Cray MPICH's intercommunicator allgatherv to explain its slow
 * times on 256 Cori nodes ("the gathering operations of messages to roots are
 * implemented using a ring algorithm", each step paced by the slowest pair of
 * adjacent ranks). Cray's code is closed and public MPICH uses a linear
 * gatherv (root_gather_mpich): this variant exists to test the paper's
 * explanation, not as a model of a known library.
 *
 * 1. Each group gathers its blocks on its local rank 0 along a ring, in n - 1
 *    synchronous steps: in step s member i sends to i - 1 the block of member
 *    i + s (its own at s = 0, afterwards the one it received in step s - 1),
 *    and receives the block of member i + 1 + s from i + 1. A member does not
 *    know its group's other counts, so each receive is sized by MPI_Probe;
 *    zero-byte blocks travel as empty messages.
 * 2. The roots exchange the gathered streams in MPICH's order (group 1's to
 *    group 0's root first, then group 0's to group 1's root).
 * 3. Each root broadcasts the remote blocks in its group (MPICH's broadcast of
 *    coll_intergroup.h), both groups at once.
 *
 * Cost: (n - 1)(alpha + largest block beta) per ring (both at once), then
 * K_B + K_A in sequence, then the broadcasts: about max(n_G max k) + K_A + K_B
 * + 2M on a homogeneous network. Memory: two blocks of scratch per member,
 * the root's gathered stream (scratch, grown as blocks arrive). Any p, q >= 1,
 * any counts >= 0. */
#include <stdlib.h>
#include <string.h>

#include "coll_intergroup.h"
#include "coll_util.h"
#include "collsim_algorithms.h"

/* Grows *buf to hold `need` bytes, keeping its first `keep` bytes. */
static int grow(char **buf, size_t *cap, size_t need, size_t keep)
{
    if (need <= *cap)
        return MPI_SUCCESS;
    size_t ncap = *cap * 2 > need ? *cap * 2 : need;
    char *nb = coll_scratch_alloc(ncap);
    if (!nb)
        return MPI_ERR_NO_MEM;
    if (keep)
        coll_copy(nb, *buf, keep);
    if (*buf)
        coll_scratch_free(*buf);
    *buf = nb;
    *cap = ncap;
    return MPI_SUCCESS;
}

/* The ring gather; on the root, *stream holds the group's blocks in order. */
static int ring_gather(const void *sendbuf, size_t mine, const collsim_intergroup *ig, char **stream,
                       size_t *len)
{
    const int i = ig->local_rank, n = ig->local_size;
    char *buf[2] = {NULL, NULL};
    size_t cap[2] = {0, 0}, have = mine; /* bytes of the block I forward next */
    int cur = 0, e = MPI_SUCCESS;
    *stream = NULL;
    *len = 0;
    if (i == 0 && (e = grow(&buf[0], &cap[0], mine ? mine : 1, 0)) == MPI_SUCCESS) {
        coll_copy(buf[0], sendbuf, mine);
        *len = mine;
    }
    for (int s = 0; s < n - 1 && e == MPI_SUCCESS; s++) {
        MPI_Request sr = MPI_REQUEST_NULL;
        if (i > 0 && i + s <= n - 1)
            e = MPI_Isend(s == 0 ? sendbuf : buf[cur], (int)have, MPI_BYTE, i - 1, IG_TAG_LOCAL,
                          ig->local, &sr);
        if (e == MPI_SUCCESS && i + 1 + s <= n - 1) {
            MPI_Status st;
            int count = 0;
            e = MPI_Probe(i + 1, IG_TAG_LOCAL, ig->local, &st);
            if (e == MPI_SUCCESS)
                e = MPI_Get_count(&st, MPI_BYTE, &count);
            const int into = i == 0 ? 0 : 1 - cur;
            const size_t at = i == 0 ? *len : 0;
            if (e == MPI_SUCCESS)
                e = grow(&buf[into], &cap[into], at + (size_t)count + 1, at);
            if (e == MPI_SUCCESS)
                e = MPI_Recv(buf[into] + at, count, MPI_BYTE, i + 1, IG_TAG_LOCAL, ig->local,
                             MPI_STATUS_IGNORE);
            if (i == 0)
                *len += (size_t)count;
            else
                have = (size_t)count;
        }
        int e2 = MPI_Wait(&sr, MPI_STATUS_IGNORE);
        if (e == MPI_SUCCESS)
            e = e2;
        if (i > 0)
            cur = 1 - cur;
    }
    if (i == 0)
        *stream = buf[0];
    else if (buf[0])
        coll_scratch_free(buf[0]);
    if (buf[1])
        coll_scratch_free(buf[1]);
    return e;
}

int collsim_inter_allgatherv_root_gather_ring(COLLSIM_INTER_ALLGATHERV_ARGS)
{
    size_t mine, unit;
    int e = ig_allgatherv_begin(sendbuf, sendcount, sendtype, recvcounts, displs, recvtype, ig,
                                &mine, &unit);
    if (e != MPI_SUCCESS)
        return e;
    char *own = NULL;
    size_t own_len = 0;
    e = ring_gather(sendbuf, mine, ig, &own, &own_len);
    if (e == MPI_SUCCESS && ig->local_rank == 0) {
        int packed;
        const size_t K = ig_remote_stream(recvcounts, displs, unit, ig, &packed);
        char *in = packed ? recvbuf : coll_scratch_alloc(K ? K : 1);
        if (!in)
            e = MPI_ERR_NO_MEM;
        for (int step = 0; step < 2 && e == MPI_SUCCESS; step++) {
            /* step 0: group 1's stream to group 0's root; step 1: the reverse */
            const int tag = step == 0 ? IG_TAG_B2A : IG_TAG_A2B;
            if (ig->group == step && K)
                e = MPI_Recv(in, (int)K, MPI_BYTE, ig->remote_ranks[0], tag, ig->comm,
                             MPI_STATUS_IGNORE);
            else if (ig->group != step && own_len)
                e = MPI_Send(own, (int)own_len, MPI_BYTE, ig->remote_ranks[0], tag, ig->comm);
        }
        if (in && !packed) {
            size_t at = 0;
            for (int j = 0; j < ig->remote_size && e == MPI_SUCCESS; j++) {
                coll_copy((char *)recvbuf + (size_t)displs[j] * unit, in + at,
                       (size_t)recvcounts[j] * unit);
                at += (size_t)recvcounts[j] * unit;
            }
            coll_scratch_free(in);
        }
    }
    if (own)
        coll_scratch_free(own);
    if (e != MPI_SUCCESS)
        return e;
    return ig_bcast_remote_blocks(recvbuf, recvcounts, displs, unit, ig, ig_bcast_mpich);
}
