/* Error reporting for the host-side tools: every failing call fills a cs_err
 * with one line that names the file, line or value at fault and what would be
 * valid. The CLI prints it as "collsim: <message>". */
#ifndef COLLSIM_CS_ERROR_H
#define COLLSIM_CS_ERROR_H

#include <stddef.h>

typedef struct {
    char msg[2048];
} cs_err;

/* printf-style; always returns -1 so callers can `return cs_fail(err, ...)`. */
int cs_fail(cs_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* malloc/strdup that abort with a message on exhaustion (host side only). */
void *cs_xmalloc(size_t n);
void *cs_xrealloc(void *p, size_t n);
char *cs_xstrdup(const char *s);

/* The Levenshtein distance of s and t: insertions, deletions and substitutions. */
size_t cs_edit_distance(const char *s, const char *t);

/* The word of `words` (n of them) nearest to `s` by edit distance (insertions, deletions,
 * substitutions), for "did you mean" messages; NULL when none is within half of s's length. */
const char *cs_nearest_word(const char *s, const char *const *words, size_t n);

#endif
