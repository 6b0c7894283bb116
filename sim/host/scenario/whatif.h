/* What-if studies: platform variants with one parameter changed, written as
 * real SimGrid files (so any case can be re-run by hand with smpirun).
 *
 * A parameter is a set of XML attributes, named by a level of the hierarchy
 * or by an XPath expression:
 *   node-links  <cluster bw|lat>                 the links from nodes to their switch
 *   uplinks     <link bandwidth|latency>         explicit links between switches/zones
 *   backbone    <cluster bb_bw|bb_lat>           a cluster's switch backplane
 *   loopback    <cluster loopback_bw|loopback_lat> intra-node communication
 *   cores       <cluster core>, <host core>      cores per node (values, not factors)
 * Values keep their unit: 941.48Mbps x 2 = 1882.96Mbps. */
#ifndef COLLSIM_WHATIF_H
#define COLLSIM_WHATIF_H

#include "cs_error.h"
#include "platform_name.h" /* the names cs_vary_write gives variants */

typedef struct {
    char name[64];      /* e.g. uplinks.bandwidth, cores, or the given name */
    char xpath[512];    /* attributes to change */
    int absolute;       /* 1: values replace the attribute; 0: factors multiply it */
    double *values;
    int nvalues;
    long line; /* of <vary> in its scenario */
} cs_vary;

/* Reads a scenario's <vary level=".." [quantity="bandwidth|latency"] | xpath=".." name=".."
 *                       factors="0.5 1 2" | values="4 8 16"/>
 * (node is an xmlNode*; path and its line are named in errors). */
int cs_vary_parse(void *node, const char *path, cs_vary *v, cs_err *err);
void cs_vary_free(cs_vary *v);

/* Resolves level + quantity ("bandwidth" or "latency") to an XPath; -1 with
 * the valid levels listed. */
int cs_vary_level(const char *level, const char *quantity, cs_vary *v, cs_err *err);

/* 0 when v can vary `platform_path`: its XPath valid, selecting attributes there, each of which
 * takes every value; else -1 and one line in err (the scenario's reader names its line). */
int cs_vary_check(const cs_vary *v, const char *platform_path, cs_err *err);

/* Writes the variant of `platform_path` for value index k into dir; the file is
 * named BASE@NAME=xF.xml (factor) or BASE@NAME=V.xml (value), and that name
 * (without .xml) is the platform's name in results. Returns the path (malloc). */
char *cs_vary_write(const cs_vary *v, int k, const char *platform_path, const char *dir,
                    cs_err *err);

#endif
