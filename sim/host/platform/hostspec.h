/* --hosts SPEC: which nodes of a platform a job takes, and in which order
 * (docs/running.md, "Choosing the hosts"). The rank mapping (--map, --ppn)
 * then works over that list as it works over the whole platform. A SPEC is
 * terms joined by '+', each
 *   NAME                a node (node-5)
 *   NAME..NAME          the nodes from the first to the second in platform
 *                       order (node-4..node-32, or node-4..32: the second
 *                       name's number only); descending when the second
 *                       comes first (node-32..node-4)
 *   N-per-LEVEL         the first N nodes of every LEVEL region (a declared
 *                       level, node or coarser), region after region, in
 *                       region order (4-per-switch)
 *   N-per-LEVEL-cyclic  the same nodes, dealt one region at a time: every
 *                       region's first, then every region's second, ...
 * A node chosen twice is an error; so is a term that names nothing on the
 * platform. Nodes taken by earlier terms are skipped by N-per-LEVEL. */
#ifndef COLLSIM_HOSTSPEC_H
#define COLLSIM_HOSTSPEC_H

#include "cs_error.h"
#include "platform.h"

/* The longest SPEC a case records (results.csv column hosts). */
#define CS_HOSTSPEC_MAX 127

/* The form, for messages. */
#define CS_HOSTSPEC_FORM "NAME, NAME..NAME, N-per-LEVEL or N-per-LEVEL-cyclic, joined by '+'"

/* Syntax only (no platform): 0, or -1 with an error "WHAT 'SPEC': ..."
 * naming the term. NULL, "" and "all": every node. */
int cs_hostspec_check(const char *spec, const char *what, cs_err *err);

/* The nodes spec chooses on pf, in order: a malloc'ed array of *n node
 * indices (distinct), or -1 with an error naming the term, the value and
 * what is valid. NULL, "" or "all": every node in platform order. `what`
 * names the option in messages ("--hosts", "--background ...@"). */
int cs_hostspec_select(const cs_platform *pf, const char *spec, const char *what, int **nodes,
                       int *n, cs_err *err);

/* The region number of node n at level l (the node's first host's region,
 * or n itself where the node is a host pf does not list). */
int cs_node_region(const cs_platform *pf, int n, int l);

#endif
