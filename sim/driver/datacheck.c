/* The data definition for check mode (datacheck.h).
 * The block with id b (block_id(src, dst, p): src for allgather, src*p + dst
 * for alltoall) is the window of a fixed pseudo-random byte sequence that
 * starts at offset (b * STRIDE) mod PRIME. Different blocks are therefore
 * different shifts of one sequence, so a block landing in the wrong slot,
 * shifted or truncated is caught while ids stay below PRIME (p < PRIME for
 * allgather, p*p < PRIME, i.e. p <= 1000, for alltoall); and filling,
 * poisoning and checking are memcpy/memcmp, fast enough to check every p in
 * 1..64 at 64 KiB in seconds. The poison written
 * before each call is the complement, so a slot never written cannot pass. */
#include "datacheck.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PATTERN_PRIME 1000003L
#define PATTERN_STRIDE 7919L

/* Shared by all ranks (privatization is off): built once, read-only after. */
static unsigned char *pattern, *antipattern;
static long pattern_len;

void pattern_init(long maxbytes)
{
    if (pattern)
        return;
    pattern_len = PATTERN_PRIME + maxbytes;
    pattern = malloc((size_t)pattern_len + 1);
    antipattern = malloc((size_t)pattern_len + 1);
    uint32_t x = 2463534242u; /* xorshift32: deterministic, no libc state */
    for (long i = 0; i < pattern_len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        pattern[i] = (unsigned char)(x >> 24);
        antipattern[i] = (unsigned char)~pattern[i];
    }
}

static inline long pattern_offset(long id) { return (id * PATTERN_STRIDE) % PATTERN_PRIME; }

const unsigned char *pattern_block(long id) { return pattern + pattern_offset(id); }

const unsigned char *antipattern_block(long id) { return antipattern + pattern_offset(id); }

void fill_send(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes)
{
    for (int t = 0; t < send_blocks(c, p); t++)
        memcpy(buf + (size_t)t * (size_t)bytes, pattern_block(c->block_id(rank, t, p)),
               (size_t)bytes);
}

void poison_recv(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes)
{
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)j * (size_t)bytes, antipattern_block(c->block_id(j, rank, p)),
               (size_t)bytes);
}

check_result first_difference(const unsigned char *got, const unsigned char *want, long block,
                              long bytes, int in_send)
{
    for (long i = 0; i < bytes; i++)
        if (got[i] != want[i])
            return (check_result){block, i, want[i], got[i], 1, in_send};
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* The send buffer as fill_send filled it. */
static check_result verify_send(const coll_desc *c, const unsigned char *send, int rank, int p,
                                long bytes)
{
    for (int t = 0; t < send_blocks(c, p); t++) {
        const unsigned char *got = send + (size_t)t * (size_t)bytes;
        const unsigned char *want = pattern_block(c->block_id(rank, t, p));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, t, bytes, 1);
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}

check_result verify(const coll_desc *c, const unsigned char *recv, const unsigned char *send,
                    int rank, int p, long bytes)
{
    check_result r = verify_send(c, send, rank, p, bytes);
    if (r.bad)
        return r;
    for (int j = 0; j < p; j++) {
        const unsigned char *got = recv + (size_t)j * (size_t)bytes;
        const unsigned char *want = pattern_block(c->block_id(j, rank, p));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, j, bytes, 0);
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}

/* A gather's slot j at the root comes from rank j; a scatter's slot 0 of
 * every rank from the root. */
static long rooted_id(const coll_desc *c, int rank, int root, int p, int j)
{
    return c->props->rooted == CS_ROOT_to ? c->block_id(j, root, p) : c->block_id(root, rank, p);
}

long rooted_expected(const coll_desc *c, int rank, int root, int p, int in_place, int j)
{
    if (c->props->rooted == CS_ROOT_to)
        return rank == root ? rooted_id(c, rank, root, p, j) : -1;
    return j == 0 && !(in_place && rank == root) ? rooted_id(c, rank, root, p, j) : -1;
}

void poison_recv_rooted(const coll_desc *c, unsigned char *buf, int rank, int root, int p,
                        long bytes)
{
    for (int j = 0; j < p; j++)
        memcpy(buf + (size_t)j * (size_t)bytes, antipattern_block(rooted_id(c, rank, root, p, j)),
               (size_t)bytes);
}

check_result verify_rooted(const coll_desc *c, const unsigned char *recv,
                           const unsigned char *send, int rank, int root, int p, long bytes,
                           int in_place)
{
    check_result r = verify_send(c, send, rank, p, bytes);
    if (r.bad)
        return r;
    for (int j = 0; j < p; j++) {
        const long id = rooted_expected(c, rank, root, p, in_place, j);
        const unsigned char *got = recv + (size_t)j * (size_t)bytes;
        const unsigned char *want = id >= 0 ? pattern_block(id)
                                            : antipattern_block(rooted_id(c, rank, root, p, j));
        if (memcmp(got, want, (size_t)bytes))
            return first_difference(got, want, j, bytes, 0);
    }
    return (check_result){0, 0, 0, 0, 0, 0};
}
