/* Alltoallv's buffers: blocks of varying sizes at displacements with gaps,
 * and their data check (the blocks' bytes are datacheck.h's). */
#ifndef COLLSIM_DRIVER_VLAYOUT_H
#define COLLSIM_DRIVER_VLAYOUT_H

#include <stddef.h>

#include "datacheck.h"
#include "driver.h"

typedef struct {
    int *scounts, *sdispls, *rcounts, *rdispls; /* p each, in elements */
    int *pristine;                               /* a copy of the four, 4p ints */
    int *own;     /* this rank's own arrays (one allocation); NULL: all shared */
    long send_end, recv_end;                     /* bytes used, gaps included */
} v_layout;

/* Bytes a rank's send or receive buffer needs at most: p blocks of up to
 * `bytes`, each with its gap, and the final gap. */
size_t v_buffer_bytes(int p, long bytes, int tsize);
/* Fold mode's displacements, one array for every rank (see vlayout.c). */
int *v_fold_displs(int p, long max_count);
/* The arrays of a layout for p ranks (none unless a v-collective): in fold mode the
 * counts, with fold_displs as displacements (a named layout's counts are
 * shared too: fold_v_layout_counts, set by v_layout_build), otherwise all four and
 * their pristine copy. 0, or -1 if the allocation failed. */
int v_layout_alloc(const driver_opts *o, int p, int *fold_displs, v_layout *L);
void v_layout_free(v_layout *L);
/* This rank's counts (and, unless folded, displacements) for blocks of up to
 * max_count elements. */
void v_layout_build(const driver_opts *o, v_layout *L, int rank, int p, long max_count,
                    int tsize);
void fill_send_v(const coll_desc *c, const v_layout *L, unsigned char *buf, int rank, int p,
                 int tsize);
void poison_recv_v(const coll_desc *c, const v_layout *L, unsigned char *buf, int rank, int p,
                   int tsize);
/* The caller's counts and displacements must come back untouched, the blocks
 * hold their data and the gaps their guard (check_result: see vlayout.c). */
check_result verify_v(const coll_desc *c, const v_layout *L, const unsigned char *recv,
                      const unsigned char *send, int rank, int p, int tsize);

#endif
