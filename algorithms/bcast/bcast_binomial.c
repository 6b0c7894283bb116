/* Binomial-tree broadcast (MPICH's short-message broadcast; Thakur,
 * Rabenseifner, Gropp 2005, Section 4, "Broadcast"). Relative rank vr =
 * (rank - root) mod p; a process receives the whole buffer from vr minus its
 * lowest set bit, then sends it to vr + mask for the masks below that bit,
 * largest first. ceil(log2 p) steps.
 *
 * Cost: ceil(log2 p) (α + m β) on the deepest path. Memory: none beyond the
 * buffer. Restrictions: none; any root, any p, counts >= 0; contiguous
 * types. */
#include "../coll_reduce.h"
#include "../collsim_algorithms.h"

int collsim_bcast_binomial(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    int rank, p, err;
    size_t elem;
    if ((err = coll_bcast_begin(count, datatype, root, comm, &rank, &p, &elem)) != MPI_SUCCESS || !elem)
        return err;
    const int vr = coll_mod(rank - root, p);
    int mask = 1;
    while (mask < p) {
        if (vr & mask) {
            err = MPI_Recv(buffer, count, datatype, (vr - mask + root) % p, COLL_TAG_BCAST, comm,
                           MPI_STATUS_IGNORE);
            if (err != MPI_SUCCESS)
                return err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < p &&
            (err = MPI_Send(buffer, count, datatype, (vr + mask + root) % p, COLL_TAG_BCAST,
                            comm)) != MPI_SUCCESS)
            return err;
    return MPI_SUCCESS;
}
