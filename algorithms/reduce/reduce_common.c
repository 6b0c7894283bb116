/* The reduce algorithms' entry (reduce_common.h). */
#include "reduce_common.h"

#include "../coll_util.h"

int reduce_begin(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 int root, int commutative_only, MPI_Comm comm, int *rank, int *size,
                 size_t *elem)
{
    int err = coll_bcast_begin(count, type, root, comm, rank, size, elem), commutative = 1;
    if (err != MPI_SUCCESS)
        return err;
    if (commutative_only && (err = MPI_Op_commutative(op, &commutative)) != MPI_SUCCESS)
        return err;
    if (!commutative)
        return MPI_ERR_OP;
    if (*size == 1 && count > 0 && sendbuf != MPI_IN_PLACE) {
        int bytes;
        MPI_Type_size(type, &bytes);
        coll_copy_data(recvbuf, sendbuf, (size_t)count * (size_t)bytes);
    }
    return MPI_SUCCESS;
}
