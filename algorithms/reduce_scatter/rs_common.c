/* The reduce-scatter algorithms' entry (rs_common.h). */
#include "rs_common.h"

#include <limits.h>
#include <stdlib.h>

#include "../coll_util.h"

int coll_rs_begin(const void *sendbuf, void *recvbuf, const int *counts, int each,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, int commutative_only,
                  int *rank, int *p, size_t *elem, coll_rs_layout *L)
{
    int err, commutative = 1;
    L->start = NULL;
    if (each == COLL_RS_COUNTS && !counts)
        return MPI_ERR_ARG;
    if ((err = coll_check_intracomm(comm)) != MPI_SUCCESS)
        return err;
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, p);
    if ((err = coll_block_bytes(datatype, 1, elem)) != MPI_SUCCESS)
        return err;
    L->p = *p;
    L->each = each;
    long total = 0;
    if (counts) {
        for (int j = 0; j < *p; j++) {
            if (counts[j] < 0)
                return MPI_ERR_COUNT;
            total += counts[j];
        }
    } else if (each < 0) {
        return MPI_ERR_COUNT;
    } else {
        total = (long)each * *p;
    }
    if (total > INT_MAX)
        return MPI_ERR_COUNT;
    if (commutative_only && (err = MPI_Op_commutative(op, &commutative)) != MPI_SUCCESS)
        return err;
    if (!commutative)
        return MPI_ERR_OP;
    if (counts) {
        if (!(L->start = malloc(sizeof(long) * ((size_t)*p + 1))))
            return MPI_ERR_NO_MEM;
        L->start[0] = 0;
        for (int j = 0; j < *p; j++)
            L->start[j + 1] = L->start[j] + counts[j];
    }
    if (*p == 1 || total == 0) {
        if (sendbuf != MPI_IN_PLACE)
            coll_copy_data(recvbuf, coll_elems((void *)sendbuf, coll_rs_start(L, *rank), *elem),
                           (size_t)coll_rs_count(L, *rank) * *elem);
        *elem = 0;
    }
    return MPI_SUCCESS;
}

int coll_rs_scratch(size_t a, size_t b, void **x, void **y)
{
    *x = a ? coll_scratch_alloc(a) : NULL;
    *y = b ? coll_scratch_alloc(b) : NULL;
    if ((a && !*x) || (b && !*y)) {
        coll_scratch_free(*x);
        coll_scratch_free(*y);
        *x = *y = NULL;
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

int coll_rs_end(int err, int rank, void *recvbuf, const void *vec, size_t elem,
                coll_rs_layout *L, void *s1, void *s2)
{
    if (err == MPI_SUCCESS && vec && elem)
        coll_copy_data(recvbuf, coll_elems((void *)vec, coll_rs_start(L, rank), elem),
                       (size_t)coll_rs_count(L, rank) * elem);
    coll_scratch_free(s1);
    coll_scratch_free(s2);
    free(L->start);
    L->start = NULL;
    return err;
}
