/* What the fuzz targets (tests/fuzz/fuzz_*.c) share. The loaders take paths, so
 * an input is written to a file in a private temporary directory; there,
 * COLLSIM_PLATFORMS_DIR names a directory holding only small shipped platforms
 * (yahoo, cervino, sockets), so a scenario naming a platform never loads a
 * generated one of megabytes. */
#ifndef COLLSIM_FUZZ_COMMON_H
#define COLLSIM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "cs_error.h"

/* Writes data to NAME in the private directory; returns its path. */
const char *cs_fuzz_file(const uint8_t *data, size_t size, const char *name);

/* A loader's outcome must be 0, or -1 with a one-line message naming the file
 * (path); anything else aborts, which the fuzzer and the replay report. */
void cs_fuzz_outcome(int rc, const cs_err *err, const char *path);

/* Aborts with what when cond is false: an invariant of a loaded file. */
void cs_fuzz_require(int cond, const char *what, const char *path);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
