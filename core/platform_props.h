/* The collsim properties of a platform file (platform_props.def): their table, the lookup of an
 * id, the nearest known name of an unknown one, the check of a value, and the table as text. */
#ifndef COLLSIM_PLATFORM_PROPS_H
#define COLLSIM_PLATFORM_PROPS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the check column of platform_props.def, as CS_PROP_<check> */
typedef enum {
    CS_PROP_TEXT,
    CS_PROP_LEVELS,
    CS_PROP_LEVEL_NAME,
    CS_PROP_REGION_NAME,
    CS_PROP_COUNT,
    CS_PROP_SECONDS,
    CS_PROP_BW_PIECES,
    CS_PROP_OVERHEAD,
    CS_PROP_FACTOR,
    CS_PROP_LATER
} cs_prop_check;

typedef struct {
    const char *name; /* upper-case parts are placeholders (LEVEL, PATH, REGIME) */
    cs_prop_check check;
    const char *where, *unit, *range, *absent, *meaning;
} cs_prop_info;

extern const cs_prop_info cs_props[];
extern const int cs_nprops;

/* Whether id is a collsim property id (it starts with "collsim." or "collsim/"). */
int cs_prop_is_collsim(const char *id);

/* The row id is an instance of (a placeholder matches one part of letters, digits, - and _), or
 * NULL. */
const cs_prop_info *cs_prop_find(const char *id);

/* The part of id that the placeholder word (e.g. "LEVEL") of its row stands for, into buf; ""
 * when the row has none. */
const char *cs_prop_part(const cs_prop_info *p, const char *id, const char *word, char *buf,
                         size_t size);

/* The known name nearest to id by edit distance (placeholders filled from id where the parts
 * line up), into buf. */
const char *cs_prop_nearest(const char *id, char *buf, size_t size);

/* Checks value as p's check says: 0, or -1 with what is wrong and what is valid in problem.
 * warning (may be NULL) gets a plausibility note ("" when none) of a valid value. */
int cs_prop_check_value(const cs_prop_info *p, const char *value, char *problem, size_t psize,
                        char *warning, size_t wsize);

/* The table: markdown (platforms/README.md's) or aligned text (`./collsim list properties`). */
void cs_props_print(FILE *out, int markdown);

#ifdef __cplusplus
}
#endif

#endif
