/* Check mode's data: the definition of every block's bytes, filling the send
 * buffer, poisoning the receive buffer and comparing both afterwards (blocks
 * of equal size; alltoallv's are in vlayout.h). */
#ifndef COLLSIM_DRIVER_DATACHECK_H
#define COLLSIM_DRIVER_DATACHECK_H

#include "driver.h"

/* Once, before any other call, with the largest block in bytes. */
void pattern_init(long maxbytes);
/* The bytes of the block with id `id` (coll_desc.block_id), and the poison
 * that stands for them before a call: their complement. */
const unsigned char *pattern_block(long id);
const unsigned char *antipattern_block(long id);

typedef struct {
    long block, offset;
    int expected, got;
    int bad;
    int in_send; /* the send buffer was modified (block: its send block) */
} check_result;

/* Send block t of `rank` is what it sends to rank t (to everyone if only one). */
void fill_send(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes);
void poison_recv(const coll_desc *c, unsigned char *buf, int rank, int p, long bytes);
/* The first of `bytes` bytes where got differs from want (bad = 0 if none). */
check_result first_difference(const unsigned char *got, const unsigned char *want, long block,
                              long bytes, int in_send);
/* Receive slot j must hold what rank j sends to `rank`; the send buffer must
 * be as filled. The first difference is reported by block and offset. */
check_result verify(const coll_desc *c, const unsigned char *recv, const unsigned char *send,
                    int rank, int p, long bytes);

/* Rooted collectives (c->rooted): what receive slot j of `rank` must hold
 * after the call, the data's id, or -1 when the slot must stay as poisoned
 * (a gather's non-root, a scatter's slots after the first, an in-place
 * scatter root's). */
long rooted_expected(const coll_desc *c, int rank, int root, int p, int in_place, int j);
/* Poison every slot with the complement of what it must hold (of the block
 * it would hold at the root for a slot that must stay untouched). */
void poison_recv_rooted(const coll_desc *c, unsigned char *buf, int rank, int root, int p,
                        long bytes);
/* The send buffer as filled, and every slot as rooted_expected says. */
check_result verify_rooted(const coll_desc *c, const unsigned char *recv,
                           const unsigned char *send, int rank, int root, int p, long bytes,
                           int in_place);

#endif
