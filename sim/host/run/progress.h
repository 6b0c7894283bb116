/* Progress of a sweep: one line per finished case, and on a terminal a bar
 * with cases done/total, failures and the estimated time left, redrawn in
 * place under those lines. Plain lines (with the ETA) when not a terminal. */
#ifndef COLLSIM_PROGRESS_H
#define COLLSIM_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *out;
    int tty;
    size_t total, done, skipped, failed;
    double t0;
    /* optional: the cases' relative costs (the runner gives np^2), so that a
     * sweep whose cases differ a thousandfold gets a usable ETA; 0: count cases */
    double work_total, work_run, work_skipped;
    /* optional: the cases' own run times summed (busy_s), and how many run at
     * once (workers, default 1): the ETA then divides the work left by the
     * rate per worker times the workers, instead of by the elapsed time, which
     * counts nothing of the cases still running beside the finished ones */
    double busy_s;
    int workers;
} cs_progress;

void cs_progress_start(cs_progress *p, FILE *out, size_t total, size_t already_done);
/* A case ended: `line` says which and how (no newline); `work`: its relative
 * cost (0 when the sweep gives none). */
void cs_progress_case(cs_progress *p, int failed, double work, const char *line);
/* Seconds left, estimated from the cases run so far (-1 before the first):
 * elapsed time scaled by the work left over the work done. */
double cs_progress_eta(const cs_progress *p);
void cs_progress_end(cs_progress *p);

#endif
