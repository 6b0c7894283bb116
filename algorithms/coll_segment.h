/* The segment size of the segmented (pipelined) algorithms, e.g.
 * bcast/pipelined_chain: how many bytes one message of the pipeline carries.
 * A process-wide setting like the region level of coll_locality.h: every
 * process of a job sets the same value, before the first collective that
 * reads it (collsim's driver from --segment, the PMPI layer from
 * COLLSIM_SEGMENT). Plain MPI. */
#ifndef COLLSIM_COLL_SEGMENT_H
#define COLLSIM_COLL_SEGMENT_H

#include <stddef.h>

/* The default: 64 KiB, one of the pipeline segment sizes of Open MPI's fixed
 * broadcast decision (8, 16, 64 and 128 KiB). */
#define COLL_SEGMENT_DEFAULT 65536L

/* bytes >= 1; 0 restores the default. */
void coll_set_segment_bytes(long bytes);
long coll_segment_bytes(void);

/* Elements of `elem` bytes per segment: the segment size rounded down to
 * whole elements, at least one. */
static inline long coll_segment_elems(size_t elem)
{
    const long n = coll_segment_bytes() / (long)(elem ? elem : 1);
    return n > 0 ? n : 1;
}

#endif
