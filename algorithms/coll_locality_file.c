/* A locality file installed as the rank map of coll_locality.h
 * (coll_locality_file.h). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "coll_locality_file.h"

#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_locality.h"

/* Shared by every simulated rank (no privatization): read once. */
static int nlevels = -1, node_level, read_failed;
static char read_error[512];
static char names[COLL_LOC_FILE_MAX_LEVELS][32];
static const char *name_ptrs[COLL_LOC_FILE_MAX_LEVELS];
static long *rank_colour; /* [world size][nlevels] */

static int read_levels(FILE *f, const char *path, char *err, size_t errsize)
{
    char line[512], *save = NULL;
    if (!fgets(line, sizeof line, f) || strncmp(line, "levels ", 7)) {
        snprintf(err, errsize, "%s: the first line is not 'levels L0 L1 ...'", path);
        return -1;
    }
    nlevels = 0;
    node_level = -1;
    for (char *t = strtok_r(line + 7, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        if (nlevels == COLL_LOC_FILE_MAX_LEVELS) {
            snprintf(err, errsize, "%s: at most %d levels", path, COLL_LOC_FILE_MAX_LEVELS);
            return -1;
        }
        if (!strcmp(t, "node"))
            node_level = nlevels;
        snprintf(names[nlevels], sizeof names[0], "%s", t);
        name_ptrs[nlevels] = names[nlevels];
        nlevels++;
    }
    if (node_level < 0) {
        snprintf(err, errsize, "%s: the levels have no 'node'", path);
        return -1;
    }
    return 0;
}

static int read_file(const char *path, int wsize, char *err, size_t errsize)
{
    if (!path) {
        snprintf(err, errsize, "no locality file given (the driver's --locality, which "
                               "collsim writes next to the hostfile)");
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsize, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    int rc = read_levels(f, path, err, errsize);
    if (!rc && !(rank_colour = malloc((size_t)wsize * (size_t)nlevels * sizeof(long)))) {
        snprintf(err, errsize, "%s: no memory for %d ranks' regions", path, wsize);
        rc = -1;
    }
    for (size_t i = 0; !rc && i < (size_t)wsize * (size_t)nlevels; i++)
        if (fscanf(f, "%ld", &rank_colour[i]) != 1) {
            snprintf(err, errsize, "%s: rank %zu has no integer region at level '%s' (a "
                                   "file for fewer than the %d ranks of MPI_COMM_WORLD?)",
                     path, i / (size_t)nlevels, names[i % (size_t)nlevels], wsize);
            rc = -1;
        }
    char extra;
    if (!rc && fscanf(f, " %c", &extra) == 1) {
        snprintf(err, errsize, "%s: more lines than the %d ranks of MPI_COMM_WORLD", path,
                 wsize);
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

int coll_loc_file_init(const char *path, char *err, size_t errsize)
{
    if (!rank_colour && !read_failed) {
        int wsize;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        read_failed = read_file(path, wsize, read_error, sizeof read_error) != 0;
    }
    if (read_failed) {
        snprintf(err, errsize, "%s", read_error);
        return -1;
    }
    if (coll_loc_set_rank_map(nlevels, name_ptrs, rank_map) != MPI_SUCCESS) {
        snprintf(err, errsize, "%s: the levels could not be installed", path);
        return -1;
    }
    return 0;
}

int coll_loc_file_nlevels(void) { return nlevels; }

const char *coll_loc_file_level_name(int level)
{
    return level >= 0 && level < nlevels ? names[level] : NULL;
}

int coll_loc_file_node_level(void) { return node_level; }

long coll_loc_file_colour(int level, int wrank)
{
    return rank_colour[(size_t)wrank * (size_t)nlevels + (size_t)level];
}
