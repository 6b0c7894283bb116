/* Recursive-doubling allreduce (MPICH's short-message allreduce; Thakur,
 * Rabenseifner, Gropp 2005, Section 4, "Allreduce"). On pof2 = the largest
 * power of two <= p processes (the others folded in first and served last,
 * coll_fold_of): in step k a process exchanges its whole vector with the
 * process 2^k away and combines the two, the lower ranks' data on the left,
 * so that non-commutative operations get rank order. log2(pof2) steps.
 *
 * Cost: log2(p) (α + m β + m γ); other p: two more steps of α + m β (and
 * one m γ). Memory: one vector of scratch. Restrictions: none; any p,
 * counts >= 0, any operation (a non-commutative one costs a copy of the
 * vector in the steps whose partner is the higher rank); MPI_IN_PLACE;
 * contiguous types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

int collsim_allreduce_recursive_doubling(const void *sendbuf, void *recvbuf, int count,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rank, p, err, commutative = 1;
    size_t elem;
    if ((err = coll_allreduce_begin(sendbuf, recvbuf, count, datatype, op, 0, comm, &rank, &p,
                                    &elem)) != MPI_SUCCESS || !elem)
        return err;
    MPI_Op_commutative(op, &commutative);
    void *tmp = coll_scratch_alloc((size_t)count * elem);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    const coll_fold f = coll_fold_of(rank, p);
    err = coll_fold_in(&f, rank, recvbuf, tmp, count, datatype, op, comm);
    for (int mask = 1; err == MPI_SUCCESS && f.newrank >= 0 && mask < f.pof2; mask <<= 1) {
        const int dst = coll_fold_real(&f, f.newrank ^ mask);
        err = MPI_Sendrecv(recvbuf, count, datatype, dst, COLL_TAG_ALLREDUCE, tmp, count, datatype,
                           dst, COLL_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            break;
        if (commutative || dst < rank) {
            err = coll_reduce_local(tmp, recvbuf, count, datatype, op);
        } else { /* mine on the left: combine into tmp, then keep it */
            err = coll_reduce_local(recvbuf, tmp, count, datatype, op);
            coll_copy_data(recvbuf, tmp, (size_t)count * elem);
        }
    }
    if (err == MPI_SUCCESS)
        err = coll_fold_out(&f, rank, recvbuf, count, datatype, comm);
    coll_scratch_free(tmp);
    return err;
}
