/* The topology-aware scatter of Kandalla et al. 2010 (Section 4.2: "since
 * MPI_Gather and MPI_Scatter are symmetric", the reverse of gather/topo_aware;
 * the general case of docs/papers.md, "Kandalla: the topology-aware
 * algorithms"): the root packs its blocks by region of
 * the region level (--region; the paper's leaf switch) and, when it is not
 * its switch's leader (lowest rank), sends all p blocks to it; a binomial
 * scatter among the R switch leaders hands each the vectors of its subtree of
 * switches; each leader scatters its switch's blocks with a binomial tree.
 *
 * Cost: Kandalla's K4 between switches plus the binomial scatter of the
 * largest switch (analysis/cost_model.c). Memory: a leader keeps its
 * subtree's blocks; the root packs all p in region order. Restrictions:
 * none; any root, region sizes and placement; contiguous types; MPI_IN_PLACE
 * at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_scatter_topo_aware(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_region(0);
    return rooted_hier_scatter(collsim_scatter_topo_aware, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, collsim_scatter_topo_aware_msg_blocks);
}
