/* The Hockney fits (alpha, beta) of the platforms a sweep ran: `run` measures
 * them by simulated ping-pongs (sim/host/model/postal.c) and writes them beside
 * results.csv as platforms.csv; the report's cost models read them from
 * there, so that analysis never simulates. One row per platform (what-if
 * variants included), CS_FITS_HEADER's columns:
 *   platform      the name results use
 *   status        ok, or error (then `note` says why and the pairs are empty)
 *   intra_node    the intra-node pair: two ranks on that node
 *   intra_alpha_s, intra_beta_s_per_byte, intra_max_rel_residual
 *   inter_node_a, inter_node_b   the inter-node pair (node 0 and the last
 *                 node); empty on a one-node platform, as are its numbers
 *   inter_alpha_s, inter_beta_s_per_byte, inter_max_rel_residual
 *   note
 *   copy_call_s, copy_bw  the platform's collsim.local.copy-call (s per
 *                 call) and collsim.local.copy-bw (piecewise bytes/s by
 *                 bytes per call, as written): the full model's cost of
 *                 local work, which the reduction models charge for the
 *                 copies; empty when the platform gives none. A file of
 *                 the oldest header, without these two, still reads (no
 *                 local-work cost then)
 *   reduce_bw     the platform's collsim.local.reduce-bw (the same form): the
 *                 cost of the reduction arithmetic (the reduction models'
 *                 gamma); empty when the platform gives none (the copy rate
 *                 then). A file without the column still reads
 * Numbers are written with %.17g, so they read back bit for bit. */
#ifndef COLLSIM_FITS_H
#define COLLSIM_FITS_H

#include <stddef.h>

#include "cost_model.h"
#include "cs_error.h"

typedef struct {
    char node_a[128], node_b[128]; /* the pair (equal: two ranks on one node) */
    cs_hockney h;                  /* alpha (s), beta (s/B) */
    double max_rel_residual;       /* worst |fit - measured| / measured over the sizes */
    size_t nsizes;
} cs_postal;

typedef struct {
    char platform[128];
    int measured, has_inter;
    cs_postal intra, inter;
    char why[1024]; /* when not measured */
    char copy_call[64], copy_bw[256]; /* as the platform writes them; "": none */
    char reduce_bw[256];              /* collsim.local.reduce-bw; "": none */
} cs_platform_fit;

#define CS_FITS_FILE "platforms.csv"
#define CS_FITS_HEADER_V1                                                                         \
    "platform,status,intra_node,intra_alpha_s,intra_beta_s_per_byte,intra_max_rel_residual,"      \
    "inter_node_a,inter_node_b,inter_alpha_s,inter_beta_s_per_byte,inter_max_rel_residual,note"
#define CS_FITS_HEADER_V2 CS_FITS_HEADER_V1 ",copy_call_s,copy_bw"
#define CS_FITS_HEADER CS_FITS_HEADER_V2 ",reduce_bw"

/* Writes the whole file through a temporary one renamed over it. */
int cs_fits_write(const char *path, const cs_platform_fit *f, size_t n, cs_err *err);

/* Reads a fits file: 0, or 1 when there is none (*n = 0), or -1 (err). */
int cs_fits_read(const char *path, cs_platform_fit **f, size_t *n, cs_err *err);

/* The fits file beside a results file (same directory). */
void cs_fits_path_beside(const char *results, char *buf, size_t len);

/* The local-work cost of a fit's platform into c (cost_model.h,
 * cs_cost_params_local_work), the arithmetic at its reduction rate, or at the
 * copy rate when arith_copy is set (the full-arith-copy model) or the
 * platform gives none: 0, or -1 when the platform gives no copy cost or it
 * does not read (c unchanged). */
int cs_fits_local_work(const cs_platform_fit *f, int arith_copy, cs_cost_params *c);

/* The row of `platform`, or NULL. */
const cs_platform_fit *cs_fits_find(const cs_platform_fit *f, size_t n, const char *platform);

#endif
