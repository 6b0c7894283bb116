/* Block-size distributions of the non-uniform collectives (alltoallv), after
 * Fan et al. 2022, Sections 4.1-4.3. Plain C, no MPI: the simulation driver
 * builds its counts with it, and the host (CLI, scenarios, tests) parses and
 * evaluates the same definitions.
 *
 * The size of the block rank i sends to rank j is a pure function of
 * (distribution, seed, i, j, max): it does not depend on the number of ranks,
 * and every rank computes the counts it receives (i = each source, j = itself)
 * without communication. Randomness comes from a counter-based hash: draw c
 * of (seed, i, j) is splitmix64's finalizer chained over seed, i, j and c
 * (cs_dist_draw), mapped to [0, 1) with its top 53 bits.
 *
 * With m = max (N, the largest block, in elements) and u, u2 uniform draws on
 * [0, 1):
 *   uniform       floor(u * (m + 1)): every integer of [0, m] equally likely
 *                 (paper 4.1, "continuous uniform" between 0 and N)
 *   window:R      lo + floor(u * (m - lo + 1)), lo = floor((100 - R) * m / 100),
 *                 R an integer in 0..100: uniform on [(100-R)% of N, N]
 *                 (paper 4.2; window:100 = uniform, window:0 = always N)
 *   gaussian      round(m/2 + (m/6) z), z standard normal by Box-Muller
 *                 (z = sqrt(-2 ln(1-u)) cos(2 pi u2)), redrawn with the next
 *                 pair of draws while |z| > 3: mean N/2, sigma N/6, windowed
 *                 at +-3 sigma = [0, N] (paper 4.3)
 *   powerlaw:B[:K] floor(m * B^k), k uniform on the integers 0..K-1 (default
 *                 K = 4096), 0 < B < 1. The paper (4.3, Figure 10f) gives
 *                 each process the P sizes N*B^0 .. N*B^(P-1), shuffled over
 *                 its receivers, with bases 0.99 and 0.999; here each block
 *                 draws its exponent independently from a range that does
 *                 not depend on p: the paper's distribution at P = K.
 *
 * Count matrices: each of the above is drawn independently for every pair
 * (i, j) (the default, "iid"). A named layout draws one value per diagonal
 * instead, D one of the above:
 *   toeplitz:D    block (i, j) is D's block (0, j - i): constant along
 *                 diagonals
 *   hankel:D      block (i, j) is D's block (0, i + j): constant along
 *                 anti-diagonals (so i sends j what j sends i)
 * Each row and each column is still P independent draws of D (and per-rank
 * totals still differ), but neighbouring ranks' rows overlap, so every rank's
 * send counts (row i) and receive counts (column j) are windows of arrays of
 * 2P - 1 ints that all ranks can share: what lets fold mode run alltoallv at
 * 32K ranks without 8 P^2 bytes of counts (docs/simulation-cost.md measures
 * how far predicted times move). */
#ifndef COLLSIM_DISTRIBUTIONS_H
#define COLLSIM_DISTRIBUTIONS_H

#include <stddef.h>
#include <stdint.h>

typedef enum { CS_DIST_UNIFORM, CS_DIST_WINDOW, CS_DIST_GAUSSIAN, CS_DIST_POWERLAW } cs_dist_kind;
typedef enum { CS_MATRIX_IID, CS_MATRIX_TOEPLITZ, CS_MATRIX_HANKEL } cs_dist_matrix;

#define CS_DIST_POWERLAW_DEFAULT_K 4096L

typedef struct {
    cs_dist_kind kind;
    int window_pct;  /* window:R */
    double base;     /* powerlaw:B */
    long exponents;  /* powerlaw's K */
    cs_dist_matrix matrix; /* iid, or toeplitz:D / hankel:D */
    char name[32];   /* canonical spelling, as results record it */
} cs_dist;

/* The valid spellings, for error messages. */
#define CS_DIST_VALID                                                                              \
    "uniform, window:R (R an integer 0..100), gaussian, powerlaw:B[:K] (0 < B < 1, K >= 1, "     \
    "e.g. powerlaw:0.99), toeplitz:D and hankel:D (D one of those; block (i, j) is D's block "   \
    "(0, j - i), resp. (0, i + j))"

/* Parses a spelling; 0, or -1 with a one-line message (naming the value and
 * the valid forms) in err. */
int cs_dist_parse(const char *text, cs_dist *out, char *err, size_t errlen);

/* Size, in [0, max], of the block rank src sends to rank dst. */
long cs_dist_block(const cs_dist *d, unsigned long seed, long src, long dst, long max);

/* Draw c of (seed, i, j): the counter-based hash behind every distribution. */
uint64_t cs_dist_draw(unsigned long seed, long i, long j, uint64_t c);

/* Sum over src != dst of cs_dist_block for p ranks: the payload the
 * collective defines (self blocks excluded), in elements (O(p) for the named
 * layouts, O(p^2) for iid). */
long long cs_dist_total(const cs_dist *d, unsigned long seed, int p, long max);

#endif
