/* The topology-aware gather of Kandalla et al. 2010 under the paper's
 * simplifying assumption (Section 4.2, "for simplicity, we assume that the
 * root is a rack leader"; docs/papers.md, "Kandalla: the topology-aware
 * algorithms"): as topo_aware, but
 * the root itself leads its region for this call, so its switch's blocks go
 * straight to it and the final forwarding message disappears.
 *
 * Cost: Kandalla's K4 plus the binomial gather of the largest switch.
 * Memory and restrictions: as topo_aware. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_topo_aware_root_leader(const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                          MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_region(1);
    return rooted_hier_gather(collsim_gather_topo_aware_root_leader, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, collsim_gather_topo_aware_root_leader_msg_blocks);
}
