/* Who owns a sweep's output directory. One sweep at a time writes a
 * directory (a lock held for the sweep's life and released by the kernel when
 * its process ends, however it ends), and the directory records the scenario
 * whose cases its results.csv holds, so that --resume never mixes two
 * scenarios' rows. */
#ifndef COLLSIM_OUTDIR_H
#define COLLSIM_OUTDIR_H

#include "cs_error.h"
#include "scenario.h"

#define CS_OUTDIR_LOCK "sweep.lock"   /* pid, host, start time and command of the owner */
#define CS_OUTDIR_RECORD "scenario.id" /* name, file and content hash of the scenario */

/* The directory of a file's path ("." for a bare name), in dir (len bytes). */
void cs_dir_of(const char *path, char *dir, size_t len);

/* Takes dir's lock (dir must exist). Returns the lock's descriptor (keep it
 * open while writing; close it to release), or -1 with err naming the sweep
 * that holds it (pid, command, start) or why the lock could not be made. */
int cs_outdir_lock(const char *dir, cs_err *err);

/* Whether a sweep holds dir's lock now (1, its owner described in who), or
 * not (0: no lock file, or its sweep ended). Takes nothing: a reader's look. */
int cs_outdir_busy(const char *dir, char *who, size_t len);

/* The scenario file's identity: FNV-1a 64 of its bytes, as 16 hex digits
 * (hex, 17 bytes). */
int cs_scenario_hash(const char *path, char *hex, cs_err *err);

/* A directory's scenario record. */
typedef struct {
    char name[256], file[1024], hash[17];
    char earlier[1024]; /* hashes recorded before accepted changes, space-separated */
} cs_outdir_record;

/* Checks dir's scenario record for a sweep of s and fills rec, what the sweep
 * records once it has opened results.csv (cs_outdir_record_write). A fresh
 * sweep (resume 0) records s. A resumed one refuses a directory recorded for
 * another scenario name, and one recorded for the same name with other file
 * content unless accept_changes (then the earlier hashes stay in the record);
 * a directory with results but no record (an older collsim) takes s's, and
 * says so. */
int cs_outdir_check(const char *dir, const cs_scenario *s, int resume, int accept_changes,
                    cs_outdir_record *rec, cs_err *err);
/* dir's record: 1 read, 0 none, -1 unreadable (err). */
int cs_outdir_record_read(const char *dir, cs_outdir_record *rec, cs_err *err);
int cs_outdir_record_write(const char *dir, const cs_outdir_record *rec, cs_err *err);

#endif
