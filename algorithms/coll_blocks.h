/* How many blocks one MPI call of an algorithm carries at most, as a
 * function of p: the helpers of algorithms.def's msg_blocks column. Plain C,
 * no MPI: the host registry (sim/host/registry.c) includes it as well as the
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

#endif
