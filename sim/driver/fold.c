/* Folded memory, in fold mode (fold.h). */
#include "fold.h"

#include <stdlib.h>
#ifdef COLLSIM_REAL_MPI_DRIVER
/* collsim-mpibench (the driver under a real MPI, realmpi/CMakeLists.txt): each
 * process has memory of its own, so fold mode keeps ordinary buffers, one set
 * per process, and skips the data check as under SMPI. */
#define SMPI_SHARED_MALLOC malloc
#define SMPI_SHARED_FREE free
#else
#include <smpi/smpi.h>
#endif

#include "coll_util.h"
#include "vlayout.h"

static int folded_users; /* ranks still using the folded buffer */

/* The user buffers: one SMPI shared allocation serves every rank
 * (privatization is off, so this static is common to all ranks, and ranks run
 * one at a time). All ranks see the same bytes and SMPI skips payload copies.
 * One allocation rather than one per rank: each SMPI_SHARED_MALLOC costs
 * memory maps, and 2 per rank exceed the kernel's 65,530 at 32K ranks. */
static unsigned char *folded;

/* Algorithms' scratch in fold mode holds meaningless bytes like the folded
 * user buffers, so every rank gets the same region: one SMPI shared allocation
 * per rank and call maps its pages again for each rank (2 P maps per call for
 * the alltoallv Bruck variants, against the kernel's 65,530 at 32K ranks).
 * A larger request replaces the region; replaced ones stay mapped (a rank may
 * still use them) until the last rank is done. Ranks run one at a time. */
static unsigned char *fold_scratch;
static int *fold_vdispls; /* v-collectives' shared displacements (v_fold_displs) */
/* The shared counts of the named layouts (fold_v_layout_counts), one array
 * per process count and largest block asked for: a rank may still read one
 * size's counts while another builds the next size's */
typedef struct {
    int p;
    long max_count;
    int *counts;
} fold_counts;
static fold_counts *fold_cnt;
static int fold_ncnt;
static size_t fold_scratch_bytes;
static unsigned char **fold_retired;
static int fold_nretired;

static void *fold_alloc(size_t bytes)
{
    if (!fold_scratch || bytes > fold_scratch_bytes) {
        if (fold_scratch) {
            fold_retired = realloc(fold_retired, sizeof *fold_retired * (size_t)(fold_nretired + 1));
            if (!fold_retired)
                MPI_Abort(MPI_COMM_WORLD, 3);
            fold_retired[fold_nretired++] = fold_scratch;
        }
        fold_scratch = SMPI_SHARED_MALLOC(bytes ? bytes : 1);
        fold_scratch_bytes = bytes;
    }
    return fold_scratch;
}

static void fold_free(void *ptr) { (void)ptr; /* shared; released in fold_release */ }

static void fold_release(void)
{
    for (int i = 0; i < fold_nretired; i++)
        SMPI_SHARED_FREE(fold_retired[i]);
    free(fold_retired);
    fold_retired = NULL;
    fold_nretired = 0;
    if (fold_scratch)
        SMPI_SHARED_FREE(fold_scratch);
    free(fold_vdispls);
    fold_vdispls = NULL;
    for (int i = 0; i < fold_ncnt; i++)
        free(fold_cnt[i].counts);
    free(fold_cnt);
    fold_cnt = NULL;
    fold_ncnt = 0;
    fold_scratch = NULL;
    fold_scratch_bytes = 0;
}

unsigned char *fold_buffers(const driver_opts *o, int wsize, long maxbytes, size_t sendbytes,
                            size_t recvbytes)
{
    if (!folded)
        folded = SMPI_SHARED_MALLOC(sendbytes + recvbytes + 1);
    if (o->desc->props->variable && !fold_vdispls) {
        int tsize;
        MPI_Type_size(o->mpi_dtype, &tsize);
        fold_vdispls = v_fold_displs(wsize, maxbytes / tsize);
    }
    folded_users++;
    coll_set_scratch_allocator(fold_alloc, fold_free);
    coll_set_local_moves(0); /* meaningless bytes; free in simulated time */
    return folded;
}

void fold_buffers_release(void)
{
    if (--folded_users == 0) {
        SMPI_SHARED_FREE(folded);
        fold_release();
    }
}

int *fold_v_displs(void) { return fold_vdispls; }

int *fold_v_layout_counts(const driver_opts *o, int p, long max_count)
{
    for (int i = 0; i < fold_ncnt; i++)
        if (fold_cnt[i].p == p && fold_cnt[i].max_count == max_count)
            return fold_cnt[i].counts;
    const int toeplitz = o->vdist.matrix == CS_MATRIX_TOEPLITZ, n = 2 * p - 1;
    fold_counts *t = realloc(fold_cnt, sizeof *t * (size_t)(fold_ncnt + 1));
    int *c = malloc(sizeof *c * (size_t)(toeplitz ? 2 * n : n));
    if (!t || !c)
        MPI_Abort(MPI_COMM_WORLD, 3);
    fold_cnt = t;
    /* Toeplitz: c[k] = block (0, k - (p - 1)), then the same in reverse
     * order; Hankel: c[s] = block (0, s) */
    for (int k = 0; k < n; k++)
        c[k] = (int)cs_dist_block(&o->vdist, o->seed, 0, toeplitz ? k - (p - 1) : k, max_count);
    for (int k = 0; toeplitz && k < n; k++)
        c[n + k] = c[n - 1 - k];
    fold_cnt[fold_ncnt++] = (fold_counts){p, max_count, c};
    return c;
}
