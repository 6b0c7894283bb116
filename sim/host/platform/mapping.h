/* Rank-to-node mappings, as MPI launchers define them (Sparbit paper, III-C):
 *   sequential: fill each node's slots with consecutive ranks, node by node;
 *   cyclic:     deal ranks round-robin over the nodes, one per node per round.
 * Ranks per node (ppn) K > 0: sequential puts ranks kK..kK+K-1 on node k;
 * cyclic deals ranks round-robin over the first ceil(np / K) nodes. K larger
 * than a node's cores needs oversubscription; more nodes than the platform
 * has is an error naming np, K and the node count.
 * K = 0 (the default): a node's slots are its cores; sequential fills them
 * node by node, cyclic deals over every node of the platform; with
 * oversubscription allowed and more ranks than cores, every node gets
 * ceil(np / total cores) times its cores (the paper's runs with 2 processes
 * per core).
 * A node made of several hosts (sockets: platforms/README.md, "Locality
 * levels") takes its ranks host by host, in rank order: its first host's
 * cores first, then the next host's.
 * A job given its nodes (--hosts, hostspec.h) is mapped over that list
 * exactly as over the whole platform: "node" above means "the k-th node of
 * the list", and cyclic deals over the listed nodes only. */
#ifndef COLLSIM_MAPPING_H
#define COLLSIM_MAPPING_H

#include "cs_error.h"
#include "platform.h"

#include <stddef.h>

typedef enum { CS_MAP_SEQUENTIAL, CS_MAP_CYCLIC } cs_mapping;

int cs_mapping_parse(const char *text, cs_mapping *out, cs_err *err);
const char *cs_mapping_name(cs_mapping m);

/* Fills node_of_rank[0..np-1] with node indices of pf, over the nlist
 * nodes of list in their order (cs_hostspec_select), or over every node
 * of pf when list is NULL. */
int cs_map_ranks(const cs_platform *pf, const int *list, int nlist, cs_mapping m, int np,
                 int oversubscribe, int ppn, int *node_of_rank, cs_err *err);

/* The host (index in pf->hosts) of each rank of a node mapping, or -1 where
 * the node is a single host not listed in pf->hosts (a cs_node literal). */
void cs_hosts_of_ranks(const cs_platform *pf, const int *node_of_rank, int np, int *host_of_rank);

/* A background job of k ranks (case_fields.h, cs_background) beside the np
 * measured ones of node_of_rank: its ranks take only nodes of their own
 * (none a measured rank uses, none of the job's --hosts list job[0..njob-1]
 * when it has one): the nodes `hosts` chooses (hostspec.h; a node of the
 * measured job there is an error), or when hosts is NULL or "" every node
 * the measured job leaves free, in platform order. They are dealt
 * round-robin over the regions of `level` (an index in pf->levels, node or
 * coarser) those nodes lie in, in region order: background rank i goes to
 * the (i mod R)-th of the R regions. Within a region they fill its nodes in
 * order, core by core, every node taking up to `f` times its cores, f the
 * smallest factor that holds the region's share (a background rank
 * computes nothing, so sharing a core costs no simulated time; ranks on a
 * node share its network link). Writes node_of_bg[0..k-1]. -1 with err
 * when the nodes lie in fewer than two regions: the pattern needs peers in
 * another region. `spread` (may be NULL) receives "48 on node-33..node-35
 * (switch region 0), ..." */
int cs_map_background(const cs_platform *pf, const int *node_of_rank, int np, const int *job,
                      int njob, int level, int k, const char *hosts, int *node_of_bg,
                      char *spread, size_t spread_len, cs_err *err);

/* The regions of the first np ranks of a mapping, at every level at or
 * above the node, coarsest first, as results.csv records them (column
 * placement, core/results.h): "switch:0x64 1x232; node:0x16 1x16 ..."
 * (per level, each rank's region numbered by first appearance in rank
 * order, the numbering the locality-aware algorithms use, run-length
 * encoded: "RxN" is N consecutive ranks in region R, "R" one). A level
 * whose text does not fit in len is left out (and so are the finer ones). */
void cs_placement_text(const cs_platform *pf, const int *node_of_rank, int np, char *out,
                       size_t len);

/* The two files a case's simulation reads, both from one mapping:
 * - the SMPI hostfile: line r names the host of rank r;
 * - the driver's locality file (its --locality): the line "levels L0 L1 ..."
 *   (the platform's levels, finest first), then line r + 2 holds rank r's
 *   region at each level, space-separated: its host's cs_host.region numbers
 *   (equal for two ranks exactly when they share that region). The driver
 *   takes the levels from it rather than deriving them again inside SimGrid. */
int cs_write_case_files(const cs_platform *pf, const int *node_of_rank, int np,
                        const char *hostfile, const char *locality, cs_err *err);

#endif
