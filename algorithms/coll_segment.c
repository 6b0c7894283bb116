/* The segment size of the segmented algorithms (coll_segment.h). */
#include <stddef.h>

#include "coll_segment.h"

static long segment = COLL_SEGMENT_DEFAULT;

void coll_set_segment_bytes(long bytes)
{
    segment = bytes > 0 ? bytes : COLL_SEGMENT_DEFAULT;
}

long coll_segment_bytes(void)
{
    return segment;
}
