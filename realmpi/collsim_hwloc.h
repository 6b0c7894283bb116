/* The PMPI layer's default regions on a real machine: two locality levels,
 * `socket` (finest) and `node`. node: the processes sharing memory
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)). socket: the processes of a node
 * bound inside the same package, read with hwloc (libhwloc-dev) when the
 * library was built with it; when any process of a node is not bound inside
 * one package (no binding, a binding across packages, or no hwloc), that node
 * counts as one socket, so the socket level then equals the node level. */
#ifndef COLLSIM_REALMPI_HWLOC_H
#define COLLSIM_REALMPI_HWLOC_H

/* Collective over MPI_COMM_WORLD: installs the two levels as the locality
 * provider (coll_locality.h). *sockets_known (if not NULL): 1 when this
 * process's node has real sockets. */
int collsim_hwloc_regions(int *sockets_known);

#endif
