/* The topology-aware gather of Kandalla et al. 2010 (Section 4.2, the
 * paper's general case; docs/papers.md, "Kandalla: the topology-aware
 * algorithms"): a binomial gather inside
 * every region of the region level (--region; the paper's leaf switch, e.g.
 * `--region switch` on kandalla-testbed, `rack` on ranger) to its switch
 * leader (lowest rank), a binomial gather among the R leaders to the root's
 * leader whose messages carry the aggregated vectors of the sender's subtree
 * of switches (a gatherv-shaped binomial, sizes from the cached region
 * tables), and, when the root is not its switch's leader, one intra-switch
 * message of all p blocks from that leader to the root. The root puts the
 * switch-ordered data in rank order (a local move).
 *
 * Cost: Kandalla's K4, ceil(log2 R) α + (1 - 1/R) p N β between switches, plus
 * the binomial gather of the largest switch (analysis/cost_model.c).
 * Memory: a leader keeps its subtree's blocks in scratch (the root's leader
 * all p). Restrictions: none; any root, region sizes and placement;
 * contiguous types; MPI_IN_PLACE at the root. */
#include "../coll_rooted.h"
#include "../collsim_algorithms.h"

int collsim_gather_topo_aware(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm)
{
    const rooted_hier h = rooted_hier_region(0);
    return rooted_hier_gather(collsim_gather_topo_aware, &h, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, collsim_gather_topo_aware_msg_blocks);
}
