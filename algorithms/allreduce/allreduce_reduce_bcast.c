/* Reduce then broadcast (the textbook allreduce; Thakur, Rabenseifner, Gropp
 * 2005, Section 4, "Allreduce", as the baseline the others improve on):
 * collsim's binomial reduce to rank 0, then its binomial broadcast from
 * rank 0.
 *
 * Cost: 2 ceil(log2 p) α + 2 ceil(log2 p) m β + ceil(log2 p) m γ. Memory:
 * the binomial reduce's. Restrictions: none; any p, counts >= 0, any
 * operation (the reduce keeps rank order); MPI_IN_PLACE; contiguous types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

int collsim_allreduce_reduce_bcast(const void *sendbuf, void *recvbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rank, err;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    MPI_Comm_rank(comm, &rank);
    /* in place: rank 0 reduces into its receive buffer, the others send from theirs */
    const void *in = sendbuf != MPI_IN_PLACE ? sendbuf : rank == 0 ? MPI_IN_PLACE : recvbuf;
    err = collsim_reduce_binomial(in, recvbuf, count, datatype, op, 0, comm);
    return err != MPI_SUCCESS ? err : collsim_bcast_binomial(recvbuf, count, datatype, 0, comm);
}
