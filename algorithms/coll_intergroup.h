/* Intergroup collectives without intercommunicators (Kang, Traff et al.,
 * "Scalable algorithms for MPI intergroup Allgather and Allgatherv", Parallel
 * Computing 2019). Plain MPI: it builds against any MPI as well as against SMPI.
 *
 * MPI defines MPI_Allgather(v) on an intercommunicator: two disjoint groups,
 * every process receives the blocks of the *other* group, in that group's rank
 * order. SMPI 3.32 has no intercommunicator (MPI_Intercomm_create aborts), so
 * collsim's intergroup algorithms run on one intracommunicator holding both
 * groups plus a descriptor, collsim_intergroup: which ranks form group 0 and
 * group 1, and the group-local communicators the algorithms' intragroup steps
 * use. The descriptor is built once, before any timed call (algorithms.def,
 * setup `intergroup`), as a program that uses intercommunicators creates them
 * once. Sub-communicators are made with MPI_Comm_create_group from groups
 * (local to their members; SMPI 3.32's MPI_Comm_split gathers every colour on
 * rank 0 instead).
 *
 * The argument lists follow the MPI standard's intercommunicator semantics:
 * sendcount/sendtype describe this process's block (allgather: the same count
 * on every process of a group), recvcount / recvcounts[j], displs[j] describe
 * the blocks of the remote group in its rank order, recvbuf receives the
 * remote group's blocks only. MPI_IN_PLACE is invalid for intercommunicators:
 * the algorithms return MPI_ERR_ARG for it. Datatypes: basic contiguous ones
 * (lb 0, extent = size), send and receive types may differ with equal byte
 * counts; the algorithms move bytes (MPI_BYTE).
 *
 * The same algorithms run on a real intercommunicator of a real MPI through
 * the wrappers of algorithms/intergroup/intergroup_intercomm.c (compiled only
 * outside SMPI). */
#ifndef COLLSIM_COLL_INTERGROUP_H
#define COLLSIM_COLL_INTERGROUP_H

#include <mpi.h>
#include <stddef.h>

typedef struct collsim_intergroup {
    MPI_Comm comm;   /* private MPI_Comm_dup of the intracommunicator: cross-group messages */
    MPI_Comm local;  /* this process's group (member order = group rank order) */
    int group;       /* 0 or 1 */
    int rank;        /* in comm */
    int local_rank, local_size, remote_size;
    int *local_ranks;  /* [local_size]: comm rank of local member i */
    int *remote_ranks; /* [remote_size]: comm rank of remote member j */
    /* Kang et al. EuroMPI 2018 two-step algorithm (inter_allgather/kang_two_step):
     * in the larger group (group 0 on a tie) the column and stack
     * communicators of that algorithm, MPI_COMM_NULL where a process has none
     * (always in the smaller group). */
    MPI_Comm column, stack;
} collsim_intergroup;

/* Collective over comm. group: this process's group (0 or 1); key orders the
 * members of a group (ties by rank in comm). One MPI_Allgather of (group,
 * key) pairs over comm, then local tables and group communicators. Both groups
 * must be non-empty (MPI_ERR_ARG otherwise, on every process). */
int collsim_intergroup_create(MPI_Comm comm, int group, int key, collsim_intergroup **ig);

/* The same without the allgather, for a layout every process can compute:
 * group_of[r] (r = 0..size(comm)-1) is rank r's group, members ordered by
 * rank in comm. Collective over comm. */
int collsim_intergroup_create_from(MPI_Comm comm, const int *group_of, collsim_intergroup **ig);

/* Frees the communicators and tables; collective over comm (MPI_Comm_free). */
int collsim_intergroup_free(collsim_intergroup **ig);

/* Layouts of two groups of p (group 0) and q (group 1) processes over p + q
 * ranks r = 0..p+q-1:
 *   block:       group 0 = ranks 0..p-1 (the paper's code)
 *   interleaved: g = gcd(p, q); each run of (p+q)/g consecutive ranks holds
 *                p/g of group 0 then q/g of group 1 (25:7 on 32 ranks per
 *                node: 25 of group 0 and 7 of group 1 on every node). */
int collsim_group_block(int r, int p, int q);
int collsim_group_interleaved(int r, int p, int q);

/* ---- helpers shared by the intergroup algorithms (algorithms/intergroup/) ---- */

/* Tags on the descriptor's private communicators. */
#define IG_TAG_A2B 26101     /* cross-group data, group 0 (or the larger group) to the other */
#define IG_TAG_B2A 26102     /* the other direction */
#define IG_TAG_LOCAL 26103   /* group-local building blocks */
#define IG_TAG_META 26104    /* sizes (Algorithm 2's scan and total) */

/* Entry checks of an intergroup allgather: MPI_IN_PLACE -> MPI_ERR_ARG, no
 * descriptor -> MPI_ERR_COMM, negative counts -> MPI_ERR_COUNT, non-contiguous
 * types -> MPI_ERR_TYPE; *mine = this process's block in bytes, *remote = a
 * remote block in bytes. */
int ig_allgather_begin(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype, const collsim_intergroup *ig, size_t *mine,
                       size_t *remote);

/* The same for an allgatherv: *mine in bytes, *unit = the receive type's size
 * (recvcounts and displs count units); negative recvcounts or displs ->
 * MPI_ERR_COUNT / MPI_ERR_ARG. */
int ig_allgatherv_begin(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                        const collsim_intergroup *ig, size_t *mine, size_t *unit);

/* The part of n nearly equal consecutive pieces of `total` bytes that piece t
 * gets: the first total mod n pieces one byte larger (Kang et al. Section 4
 * and Algorithm 2, lines 5-11; docs/papers.md, "Kang: Algorithm 1 made
 * exact"). */
static inline size_t ig_piece_len(size_t total, int n, int t)
{
    return total / (size_t)n + ((size_t)t < total % (size_t)n ? 1 : 0);
}
static inline size_t ig_piece_start(size_t total, int n, int t)
{
    size_t r = total % (size_t)n;
    return (size_t)t * (total / (size_t)n) + ((size_t)t < r ? (size_t)t : r);
}

/* Algorithm 2's maps: the bytes of [lo, lo + len) that fall in piece t of
 * `total` cut into n pieces; returns their number, *at their first byte. */
static inline size_t ig_overlap(size_t total, int n, int t, size_t lo, size_t len, size_t *at)
{
    const size_t s = ig_piece_start(total, n, t), e = s + ig_piece_len(total, n, t);
    const size_t a = s > lo ? s : lo, b = e < lo + len ? e : lo + len;
    *at = a;
    return a < b ? b - a : 0;
}

/* Algorithm 1's subgroups: the larger group (size p) cut into q consecutive
 * subgroups, the first p mod q of ceil(p/q) members, the others floor(p/q).
 * Subgroup j's size and first member; the subgroup of member i. */
static inline int ig_sub_size(int p, int q, int j) { return p / q + (j < p % q ? 1 : 0); }
static inline int ig_sub_first(int p, int q, int j)
{
    int r = p % q;
    return j * (p / q) + (j < r ? j : r);
}
static inline int ig_sub_of(int p, int q, int i)
{
    int hi = p / q + 1, r = p % q;
    return i < r * hi ? i / hi : r + (i - r * hi) / (p / q);
}

/* Which group plays the paper's A (the larger; group 0 on a tie). */
static inline int ig_larger_group(const collsim_intergroup *ig)
{
    int p0 = ig->group == 0 ? ig->local_size : ig->remote_size;
    int p1 = ig->group == 1 ? ig->local_size : ig->remote_size;
    return p1 > p0 ? 1 : 0;
}

/* Algorithm 1, line 11 (and the EuroMPI algorithm's last step): in the
 * smaller group (q members), which received the whole blocks (ka bytes) of
 * its subgroup of the larger one (p members) in place in recvbuf, the ring
 * allgatherv of those subgroups' blocks. */
int ig_smaller_allgatherv(void *recvbuf, int p, int q, size_t ka, const collsim_intergroup *ig);

/* The remote stream of an allgatherv: returns its total bytes (recvcounts x
 * unit summed in remote rank order); *packed = 1 when displs are its prefix
 * sums (the stream is recvbuf itself). */
size_t ig_remote_stream(const int *recvcounts, const int *displs, size_t unit,
                        const collsim_intergroup *ig, int *packed);

/* The paper's roles seen from this process (A = the larger group, group 0 on
 * a tie): sizes p >= q, block bytes ka, kb, comm ranks of A's and B's
 * members, in_a = this process is in A. mine / remote: its own and the
 * remote block in bytes (ig_allgather_begin). */
typedef struct {
    int in_a, p, q;
    size_t ka, kb;
    const int *a_rank, *b_rank;
} ig_roles;
ig_roles ig_roles_of(const collsim_intergroup *ig, size_t mine, size_t remote);

/* Bytes must fit an int count of MPI_BYTE. */
int ig_fits(size_t bytes);

/* Ring allgatherv over comm, in place on buf: piece i has counts[i] bytes at
 * buf + displs[i]; every process already holds its own piece. n - 1 steps,
 * each a Sendrecv with the neighbours (zero-byte pieces send nothing). */
int ig_ring_allgatherv(void *buf, const size_t *counts, const size_t *displs, MPI_Comm comm);

/* MPICH's binomial gather to rank 0 of comm (MPIR_Gather_intra_binomial's
 * structure): every rank's `bytes` from mine, in rank order, into out (rank 0
 * only, n x bytes). */
int ig_gather_binomial(const void *mine, size_t bytes, void *out, MPI_Comm comm);

/* MPICH's broadcast from rank 0 of comm as its default selection does it for
 * these sizes: binomial tree below 12,288 bytes or 8 processes, otherwise a
 * binomial scatter and a ring allgather (MPICH's medium-size power-of-two
 * path, scatter + recursive-doubling allgather, moves the same bytes per
 * process; it is not reproduced: the ring is used for every large broadcast). */
int ig_bcast_mpich(void *buf, size_t bytes, MPI_Comm comm);

/* A broadcast near the single-port bound, for the "best" root gathering of
 * Eq. (1): binomial below 12,288 bytes, otherwise a pipelined chain
 * 0 -> 1 -> ... -> n-1 in segments of clamp(bytes / (4n), 8 KiB, 1 MiB)
 * (about (n - 1 + S)(alpha + seg beta), S segments). */
int ig_bcast_pipeline(void *buf, size_t bytes, MPI_Comm comm);

/* Hillis-Steele scan then a binomial broadcast from the last rank, over comm:
 * *before = the sum of `mine` over the ranks below this one, *total = the sum
 * over all (Kang et al. Algorithm 2, lines 1-2, and the text's Exscan);
 * 2 ceil(log2 n) steps of one long long. */
int ig_scan_total(long long mine, MPI_Comm comm, long long *before, long long *total);

/* The root-gathering allgathers (Kang et al. Section 3.1): gather on each
 * group's local rank 0 (ig_gather_binomial), the roots exchange the gathered
 * blocks, each root broadcasts the remote blocks in its group with `bcast`.
 * sequential = 1: MPICH's order (group 0's root sends, group 1 broadcasts,
 * only then group 1's root sends and group 0 broadcasts); 0: one concurrent
 * exchange, then both broadcasts at once. */
typedef int (*ig_bcast_fn)(void *buf, size_t bytes, MPI_Comm comm);
int ig_root_gather(const void *sendbuf, size_t mine, void *recvbuf, size_t remote,
                   const collsim_intergroup *ig, int sequential, ig_bcast_fn bcast);

/* Broadcast from local rank 0 of the remote blocks it holds in recvbuf
 * (recvcounts[j] units at displs[j]) to its group with `bcast`: in place when
 * displs are the packed prefix sums of recvcounts, else packed into scratch
 * on the root and unpacked everywhere. */
int ig_bcast_remote_blocks(void *recvbuf, const int *recvcounts, const int *displs, size_t unit,
                           const collsim_intergroup *ig, ig_bcast_fn bcast);

#endif
