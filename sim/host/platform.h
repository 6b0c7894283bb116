/* What the host side needs to know of a SimGrid platform file: its nodes (hosts)
 * in document order with their core counts, and its description. Read with
 * libxml2; SimGrid itself parses the file again inside smpirun. */
#ifndef COLLSIM_PLATFORM_H
#define COLLSIM_PLATFORM_H

#include "cs_error.h"

typedef struct {
    char *name;
    int cores;
} cs_node;

typedef struct {
    char *path;        /* the file */
    char *name;        /* file name without directory and .xml */
    char *description; /* <prop id="collsim/description"> of the top zone, or "" */
    cs_node *nodes;
    int nnodes;
    long total_cores;
} cs_platform;

/* NAME (a file platforms/NAME.xml of the project) or a path to an XML file.
 * Errors list the valid names. */
int cs_platform_find(const char *name_or_file, char **path_out, cs_err *err);
int cs_platform_load(const char *path, cs_platform *pf, cs_err *err);
/* The name results use for a platform file: its file name without .xml
 * (malloc'ed). */
char *cs_platform_name_of(const char *path);
void cs_platform_free(cs_platform *pf);

/* Names of the project's platforms (sorted); returns the count; free with
 * cs_platform_names_free. */
int cs_platform_names(char ***names);
void cs_platform_names_free(char **names, int n);

/* The project's platforms directory (set at build time, overridable with
 * COLLSIM_PLATFORMS_DIR). */
const char *cs_platforms_dir(void);

#endif
