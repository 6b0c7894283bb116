/* How results name platforms (a platform file's name, a what-if variant's
 * parts): shared by the host, which names them, and analysis, which reads
 * them without the host's platform and what-if machinery. */
#ifndef COLLSIM_PLATFORM_NAME_H
#define COLLSIM_PLATFORM_NAME_H

/* The parts of a variant's platform name (what cs_vary_write names the file):
 * BASE@NAME=xF (absolute 0, value F) or BASE@NAME=V (absolute 1, value V). */
typedef struct {
    char base[128], name[64];
    int absolute;
    double value;
} cs_variant;

/* 0 with the parts when `platform` is a variant name, -1 when it is not. */
int cs_variant_parse(const char *platform, cs_variant *v);

/* The name results use for a platform file: its file name without .xml
 * (malloc'ed). */
char *cs_platform_name_of(const char *path);

#endif
