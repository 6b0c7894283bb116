/* Binomial-tree reduce (MPICH's short-message reduce; Thakur, Rabenseifner,
 * Gropp 2005, Section 4, "Reduce"). Relative rank vr = (rank - top) mod p:
 * in step k a process whose bit k is set sends its partial result to vr - 2^k
 * and stops; one whose bit is clear receives the partial result of vr + 2^k
 * (if there is one) and combines it, its own (lower ranks') data on the left.
 * For a commutative operation the tree's top is the root; for a
 * non-commutative one it is rank 0, so that every partial result covers
 * consecutive ranks in order, and rank 0 sends the result to the root last.
 * The combination writes into the buffer just received, so no partial result
 * is copied; the root copies the result into its receive buffer once.
 *
 * Cost: ceil(log2 p) (α + m β + m γ) on the root's path; a non-commutative
 * operation with a root other than 0 one more α + m β. Memory: up to two
 * vectors of scratch (none on a leaf). Restrictions: none; any root, any p,
 * counts >= 0, any operation; MPI_IN_PLACE at the root; contiguous types. */
#include "../collsim_algorithms.h"
#include "reduce_common.h"

int collsim_reduce_binomial(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm)
{
    int rank, p, err, commutative = 1;
    size_t elem;
    if ((err = reduce_begin(sendbuf, recvbuf, count, datatype, op, root, 0, comm, &rank, &p,
                            &elem)) != MPI_SUCCESS || !elem)
        return err;
    MPI_Op_commutative(op, &commutative);
    const int top = commutative ? root : 0, vr = coll_mod(rank - top, p);
    const void *cur = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    void *scratch[2] = {NULL, NULL};
    for (int mask = 1; err == MPI_SUCCESS && mask < p; mask <<= 1) {
        if (vr & mask) {
            err = MPI_Send(cur, count, datatype, (vr - mask + top) % p, COLL_TAG_REDUCE, comm);
            break;
        }
        if (vr + mask >= p)
            continue;
        const int k = cur == scratch[0]; /* the scratch vector not holding cur */
        if (!scratch[k] && !(scratch[k] = coll_scratch_alloc((size_t)count * elem))) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        err = MPI_Recv(scratch[k], count, datatype, (vr + mask + top) % p, COLL_TAG_REDUCE, comm,
                       MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = coll_reduce_local(cur, scratch[k], count, datatype, op);
        cur = scratch[k];
    }
    if (err == MPI_SUCCESS && vr == 0) {
        if (rank == root) {
            if (cur != recvbuf)
                coll_copy_data(recvbuf, cur, (size_t)count * elem);
        } else {
            err = MPI_Send(cur, count, datatype, root, COLL_TAG_REDUCE, comm);
        }
    } else if (err == MPI_SUCCESS && rank == root) {
        err = MPI_Recv(recvbuf, count, datatype, top, COLL_TAG_REDUCE, comm, MPI_STATUS_IGNORE);
    }
    coll_scratch_free(scratch[0]);
    coll_scratch_free(scratch[1]);
    return err;
}
