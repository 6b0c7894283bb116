/* Two-phase Bruck alltoallv (Fan et al. 2022, Section 3.2, Algorithm 1).
 *
 * The schedule is the Zero Rotation Bruck's (Section 2.1;
 * alltoall/alltoall_bruck_zero_rotation.c): rank r's blocks are indexed by a
 * relative index i, the block at i being the
 * one for rank (r - i) mod p (the paper's rotation index I, computed on the
 * fly, never stored or applied to data). In step k (distance d = 2^k < p)
 * every block whose i has bit k set travels to rank r - d, which files it
 * under the same i; after its highest bit's step a block is at its
 * destination, under i = (its source - r) mod p. Each step is two exchanges
 * with the same partners (send to r - d, receive from r + d):
 *
 *  1. metadata (Algorithm 1, lines 8-16): the byte sizes of the blocks the
 *     step moves, one int each, so the receiver knows what comes;
 *  2. data (lines 17-33): the blocks, packed in index order into one message
 *     (none when they are all empty). A block is read from the send buffer
 *     if it has not moved yet (no bit of i below k set: the paper's status
 *     0), else from the working buffer. A received block whose i has no bit
 *     above k is home: it is copied straight to its final place in the
 *     receive buffer (rdispls of its source), so there is no final rotation
 *     or scan; the others are kept in the working buffer for later steps.
 *
 * The monolithic working buffer (line 2) is one allocation sized from N, the
 * largest block (one MPI_Allreduce, line 1): p slots of N bytes, slot i for
 * the block currently under index i, then room for one step's outgoing and
 * incoming blocks (floor(p/2) slots each), through coll_scratch_alloc. Unlike
 * the paper's pseudocode (line 32) and its public code, the caller's
 * sendcounts are never written: a block that has not moved yet takes its
 * size from them, and the sizes of the blocks waiting in the working buffer
 * live in a private array (plain malloc: metadata must stay per rank even
 * when buffers are folded), each in the fewest bytes that hold N (1, 2 or 4:
 * they never exceed N). The own block is a local copy. MPI_IN_PLACE:
 * MPI_ERR_ARG.
 *
 * Cost (analysis/cost_model.c, two_phase_bruck; the paper's Eq. (2)):
 * 2 α log p + 4 β log p (p+1)/2 + n̄ β log p (p+1)/2, n̄ the mean block (N/2
 * uniform), log rounded up; the Allreduce of N is not counted. Memory: the
 * buffers, the working buffer of (p + 2 floor(p/2)) N bytes, and per rank the
 * metadata: one step's sizes out and in, 2 floor(p/2) ints (the size
 * messages), and p sizes of 1, 2 or 4 bytes (coll_v_size_width): 5p bytes
 * for N < 256, where p + 2 floor(p/2) ints took 8p (measured in
 * docs/simulation-cost.md). Restrictions: any p; contiguous types; no
 * MPI_IN_PLACE. */
#include "../coll_util.h"
#include "../collsim_algorithms.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Size i of an array of sizes stored w bytes each (coll_v_size_width). */
static size_t held_get(const unsigned char *held, int w, int i)
{
    return w == 1 ? held[i] : w == 2 ? ((const uint16_t *)held)[i] : ((const uint32_t *)held)[i];
}

static void held_set(unsigned char *held, int w, int i, size_t v)
{
    if (w == 1)
        held[i] = (unsigned char)v;
    else if (w == 2)
        ((uint16_t *)held)[i] = (uint16_t)v;
    else
        ((uint32_t *)held)[i] = (uint32_t)v;
}

int collsim_alltoallv_two_phase_bruck(COLLSIM_ALLTOALLV_ARGS)
{
    coll_v_args a;
    size_t n;
    int err = coll_alltoallv_begin(collsim_alltoallv_two_phase_bruck, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, &a);
    if (err != MPI_SUCCESS || a.done)
        return err;
    err = coll_alltoallv_max_block(&a, comm, collsim_alltoallv_two_phase_bruck_msg_blocks, &n);
    if (err != MPI_SUCCESS || n == 0)
        return err; /* every block empty, on every rank */

    const int p = a.size, r = a.rank, half = p / 2, w = coll_v_size_width((long long)n);
    int truncated = 0;
    /* one step's sizes out and in (the size messages), then held: the sizes
     * of the blocks in the working buffer, by index */
    int *meta_out = malloc(sizeof *meta_out * (size_t)(2 * half) + (size_t)p * (size_t)w);
    unsigned char *work = coll_scratch_alloc((size_t)(p + 2 * half) * n);
    if (meta_out == NULL || work == NULL) {
        free(meta_out);
        coll_scratch_free(work);
        return MPI_ERR_NO_MEM;
    }
    int *meta_in = meta_out + half;
    unsigned char *held = (unsigned char *)(meta_in + half);
    unsigned char *out = work + (size_t)p * n, *in = out + (size_t)half * n;

    for (int d = 1; d < p && err == MPI_SUCCESS; d *= 2) {
        const int dest = coll_mod(r - d, p), src = coll_mod(r + d, p);
        int m = 0;
        /* a block with no bit of i below d set has not moved: its size is the caller's */
        COLL_FOR_BRUCK_STEP(i, d, p) meta_out[m++] =
            (i & (d - 1)) ? (int)held_get(held, w, i) : (int)coll_v_send_bytes(&a, coll_mod(r - i, p));
        err = MPI_Sendrecv(meta_out, m, MPI_INT, dest, COLL_TAG_ALLTOALLV_META, meta_in, m, MPI_INT,
                           src, COLL_TAG_ALLTOALLV_META, comm, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            break;

        size_t out_bytes = 0, in_bytes = 0;
        m = 0;
        COLL_FOR_BRUCK_STEP(i, d, p) {
            const void *from = (i & (d - 1)) ? coll_block(work, i, n)
                                             : coll_v_send_block(&a, coll_mod(r - i, p));
            coll_copy(out + out_bytes, from, (size_t)meta_out[m]);
            out_bytes += (size_t)meta_out[m++];
        }
        for (int k = 0; k < m; k++) {
            if (meta_in[k] < 0 || (size_t)meta_in[k] > n)
                err = MPI_ERR_INTERN; /* a block larger than the agreed maximum */
            in_bytes += (size_t)meta_in[k];
        }
        if (err != MPI_SUCCESS)
            break;
        MPI_Request req[2];
        int nreq = 0;
        if (in_bytes > 0 && (err = MPI_Irecv(in, (int)in_bytes, MPI_BYTE, src, COLL_TAG_ALLTOALLV,
                                             comm, &req[nreq])) == MPI_SUCCESS)
            nreq++;
        if (out_bytes > 0 && err == MPI_SUCCESS &&
            (err = MPI_Isend(out, (int)out_bytes, MPI_BYTE, dest, COLL_TAG_ALLTOALLV, comm,
                             &req[nreq])) == MPI_SUCCESS)
            nreq++;
        const int werr = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (err == MPI_SUCCESS)
            err = werr;

        size_t off = 0;
        m = 0;
        COLL_FOR_BRUCK_STEP(i, d, p) {
            const size_t bytes = (size_t)meta_in[m++];
            if (i < 2 * d) { /* no higher bit: home, from rank r + i */
                const int from = coll_mod(r + i, p);
                if (bytes > coll_v_recv_bytes(&a, from))
                    truncated = 1; /* the signatures differ; the steps go on */
                else
                    coll_copy(coll_v_recv_block(&a, from), in + off, bytes);
            } else { /* travels on in a later step */
                coll_copy(coll_block(work, i, n), in + off, bytes);
                held_set(held, w, i, bytes);
            }
            off += bytes;
        }
    }
    coll_scratch_free(work);
    free(meta_out);
    return err == MPI_SUCCESS && truncated ? MPI_ERR_TRUNCATE : err;
}
