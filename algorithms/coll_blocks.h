/* How many blocks one MPI call of an algorithm carries at most, as a
 * function of p: the helpers of algorithms.def's msg_blocks column. Plain C,
 * no MPI: the host registry (sim/host/case/registry.c) includes it as well as the
 * algorithms, which check the same value before their first message
 * (coll_allgather_begin, coll_alltoall_begin, coll_alltoallv_max_block). */
#ifndef COLLSIM_COLL_BLOCKS_H
#define COLLSIM_COLL_BLOCKS_H

/* A message-size rule of algorithms.def (msg_blocks), evaluated for p ranks. */
typedef long long (*coll_msg_blocks_fn)(int p);

/* Largest power of two below p (p >= 2). */
static inline long long coll_pow2_below(long long p)
{
    long long h = 1;
    while (2 * h < p)
        h *= 2;
    return h;
}

/* Bruck allgather: step d (1, 2, 4, ... < p) sends min(d, p - d) blocks; the
 * largest is the last step's p - h or the one before it, h/2 (h the largest
 * power of two below p). 1 for p <= 2. */
static inline long long coll_bruck_allgather_blocks(long long p)
{
    if (p <= 2)
        return 1;
    const long long h = coll_pow2_below(p);
    return p - h > h / 2 ? p - h : h / 2;
}

/* floor(p/2) blocks, at least 1 (the count itself is an argument of every
 * collective): the Bruck alltoalls (step k moves every relative index with
 * bit k set, floor(p/2) of them for k = 0) and Sparbit's steps (at most
 * floor(p/2) blocks, checked for every p up to 5000). */
static inline long long coll_half_blocks(long long p) { return p / 2 > 1 ? p / 2 : 1; }

/* The bytes that store one block size of at most n bytes: 1, 2 or 4 (what
 * two-phase Bruck keeps per waiting block; its memory estimate too). */
static inline int coll_v_size_width(long long n) { return n < 256 ? 1 : n < 65536 ? 2 : 4; }

/* For the memory estimate (algorithms.def, state_bytes): SMPI 3.32 sends a
 * message below smpi/send-is-detached-thresh (64 KiB) eagerly, copying it into
 * a buffer of its own that lives until the receiver has it; every rank's
 * messages of one step are in flight together. The copy of a message of
 * `bytes`, 0 above the threshold. */
static inline double coll_smpi_eager(double bytes) { return bytes < 65536 ? bytes : 0; }

/* The largest such copy of a doubling schedule (Bruck's and Sparbit's
 * allgathers, recursive doubling): step d = 1, 2, 4, ... < p moves min(d, p - d)
 * blocks of n bytes, one step's messages in flight at a time. */
static inline double coll_smpi_eager_doubling(long long p, double n)
{
    double peak = 0;
    for (long long d = 1; d < p; d *= 2) {
        const double b = coll_smpi_eager((double)(d < p - d ? d : p - d) * n);
        if (b > peak)
            peak = b;
    }
    return peak;
}

#endif
