/* The SMPI locality provider (locality.h), over the host's locality file:
 *   levels L0 L1 ...         (finest first; one of them is "node")
 *   c0 c1 ...                (rank 0's region at each level)
 *   ...                      (one line per rank of MPI_COMM_WORLD) */
#include "locality.h"

#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_locality.h"

/* Shared by every simulated rank (no privatization): read once. */
static int nlevels = -1, node_level, read_failed;
static char names[DRV_LOC_MAX_LEVELS][32];
static const char *name_ptrs[DRV_LOC_MAX_LEVELS];
static long *rank_colour; /* [world size][nlevels] */

static int read_levels(FILE *f, const char *path)
{
    char line[512], *save = NULL;
    if (!fgets(line, sizeof line, f) || strncmp(line, "levels ", 7)) {
        fprintf(stderr, "collsim-driver: %s: the first line is not 'levels L0 L1 ...'\n", path);
        return -1;
    }
    nlevels = 0;
    node_level = -1;
    for (char *t = strtok_r(line + 7, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        if (nlevels == DRV_LOC_MAX_LEVELS) {
            fprintf(stderr, "collsim-driver: %s: at most %d levels\n", path, DRV_LOC_MAX_LEVELS);
            return -1;
        }
        if (!strcmp(t, "node"))
            node_level = nlevels;
        snprintf(names[nlevels], sizeof names[0], "%s", t);
        name_ptrs[nlevels] = names[nlevels];
        nlevels++;
    }
    if (node_level < 0) {
        fprintf(stderr, "collsim-driver: %s: the levels have no 'node'\n", path);
        return -1;
    }
    return 0;
}

static int read_file(const char *path, int wsize)
{
    if (!path) {
        fprintf(stderr, "collsim-driver: --locality FILE is missing (collsim writes it next to "
                        "the hostfile)\n");
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "collsim-driver: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = read_levels(f, path);
    if (!rc)
        rank_colour = malloc((size_t)wsize * (size_t)nlevels * sizeof(long));
    for (size_t i = 0; !rc && i < (size_t)wsize * (size_t)nlevels; i++)
        if (fscanf(f, "%ld", &rank_colour[i]) != 1) {
            fprintf(stderr, "collsim-driver: %s: rank %zu has no region at level '%s' (the "
                            "file is for fewer than the %d ranks)\n",
                    path, i / (size_t)nlevels, names[i % (size_t)nlevels], wsize);
            rc = -1;
        }
    char extra;
    if (!rc && fscanf(f, " %c", &extra) == 1) {
        fprintf(stderr, "collsim-driver: %s: more than the %d ranks simulated\n", path, wsize);
        rc = -1;
    }
    fclose(f);
    return rc;
}

/* Every rank's colours are known (the file is the placement), so the
 * regions are installed as a rank map: their set-up sends no message over the
 * communicator (coll_locality.h). */
static int rank_map(int level, int wrank, long *colour)
{
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (level < 0 || level >= nlevels || wrank < 0 || wrank >= wsize)
        return MPI_ERR_ARG;
    *colour = rank_colour[(size_t)wrank * (size_t)nlevels + (size_t)level];
    return MPI_SUCCESS;
}

int drv_loc_init(const char *path)
{
    if (!rank_colour && !read_failed) {
        int wsize;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        read_failed = read_file(path, wsize) != 0;
    }
    if (read_failed)
        return -1;
    return coll_loc_set_rank_map(nlevels, name_ptrs, rank_map) == MPI_SUCCESS ? 0 : -1;
}

int drv_loc_nlevels(void) { return nlevels; }

const char *drv_loc_level_name(int level)
{
    return level >= 0 && level < nlevels ? names[level] : NULL;
}

int drv_loc_node_level(void) { return node_level; }

long drv_loc_colour(int level, int wrank)
{
    return rank_colour[(size_t)wrank * (size_t)nlevels + (size_t)level];
}
