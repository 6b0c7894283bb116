/* What the host side needs to know of a SimGrid platform file: its hosts in
 * document order with their core counts, how hosts form nodes, the locality
 * levels the file declares (platforms/README.md, "Locality levels"), and its
 * description. Read with libxml2; SimGrid itself parses the file again inside
 * smpirun; the driver gets the levels from the host (mapping.h, the locality file). */
#ifndef COLLSIM_PLATFORM_H
#define COLLSIM_PLATFORM_H

#include "cs_error.h"
#include "platform_name.h" /* cs_platform_name_of */

/* declared levels, finest first; the accounting adds "system" (everything)
 * and "nonlocal" on top (sim/driver/account.h) */
#define CS_MAX_LEVELS 6
/* hosts in a platform: 64 times the largest shipped one (quartz, 2,064); a
 * cluster radical of millions is refused rather than filling the memory */
#define CS_MAX_HOSTS (1 << 17)

/* A node: what a rank mapping fills ("ranks per node"). Usually one SimGrid
 * host; on platforms whose hosts are sockets (lassen, quartz) the hosts of one
 * "node" region (a zone declaring collsim.level = node). nhosts == 0 means the
 * node is the single host called `name` (so a cs_node literal {name, cores}
 * still describes a one-host node). */
typedef struct {
    char *name;     /* the host's name, or the id of the zone that is the node */
    int cores;      /* sum over its hosts */
    int first_host; /* its hosts are hosts[first_host .. first_host + nhosts - 1] */
    int nhosts;
} cs_node;

typedef struct {
    char *name;
    int cores;
    int node;                  /* index in nodes[] */
    int region[CS_MAX_LEVELS]; /* per level: region number, by first appearance in document order */
} cs_host;

typedef struct {
    char *path;        /* the file */
    char *name;        /* file name without directory and .xml */
    char *description; /* <prop id="collsim/description"> of the top zone, or "" */
    /* the top zone's collsim.local.copy-call, collsim.local.copy-bw and
     * collsim.local.reduce-bw as written ("" when absent): the full model's
     * cost of local work */
    char *copy_call, *copy_bw, *reduce_bw;
    /* the load's warnings (valid but implausible values), one a line, "" when none;
     * cs_platform_load prints each to stderr once per process */
    char *warnings;
    cs_node *nodes;
    int nnodes;
    long total_cores;
    cs_host *hosts; /* every SimGrid host, in document order */
    int nhosts;
    /* locality levels (collsim.levels of the top zone; default: "node"),
     * finest first; level 0 is the SimGrid host itself */
    int nlevels;
    char levels[CS_MAX_LEVELS][32];
    int node_level; /* the index of "node" */
} cs_platform;

/* NAME (a file platforms/NAME.xml of the project) or a path to an XML file.
 * Errors list the valid names. */
int cs_platform_find(const char *name_or_file, char **path_out, cs_err *err);
int cs_platform_load(const char *path, cs_platform *pf, cs_err *err);
void cs_platform_free(cs_platform *pf);
/* cs_platform_find then cs_platform_load. */
int cs_platform_open(const char *name_or_file, cs_platform *pf, cs_err *err);
/* The same for a command: prints "collsim: MISSING" when name_or_file is
 * NULL, or the error, to stderr; 0 when pf was loaded. */
int cs_platform_open_for(const char *name_or_file, const char *missing, cs_platform *pf);

/* Names of the project's platforms (sorted); returns the count; free with
 * cs_platform_names_free. */
int cs_platform_names(char ***names);
void cs_platform_names_free(char **names, int n);

/* The project's platforms directory (set at build time, overridable with
 * COLLSIM_PLATFORMS_DIR). */
const char *cs_platforms_dir(void);

#endif
