#include "progress.h"

#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void fmt_duration(char *buf, size_t len, double s)
{
    if (s < 0)
        snprintf(buf, len, "?");
    else if (s < 60)
        snprintf(buf, len, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(buf, len, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

void cs_progress_start(cs_progress *p, FILE *out, size_t total, size_t already_done)
{
    p->out = out;
    p->tty = isatty(fileno(out));
    p->total = total;
    p->done = p->skipped = already_done;
    p->failed = 0;
    p->t0 = now_s();
    p->work_total = p->work_run = p->work_skipped = 0;
    p->busy_s = 0;
    p->workers = 1;
}

double cs_progress_eta(const cs_progress *p)
{
    size_t run = p->done - p->skipped;
    if (run == 0)
        return -1;
    if (p->work_total > 0 && p->work_run > 0 && p->busy_s > 0) {
        size_t left = p->total - p->done;
        int par = p->workers < 1 ? 1 : (size_t)p->workers < left ? p->workers : (int)left;
        return p->busy_s / p->work_run * (p->work_total - p->work_run - p->work_skipped) /
               (par ? par : 1);
    }
    if (p->work_total > 0 && p->work_run > 0)
        return (now_s() - p->t0) / p->work_run * (p->work_total - p->work_run - p->work_skipped);
    return (now_s() - p->t0) / (double)run * (double)(p->total - p->done);
}

static void bar(cs_progress *p)
{
    const int width = 30;
    int filled = p->total ? (int)(width * p->done / p->total) : width;
    char eta[32];
    fmt_duration(eta, sizeof eta, cs_progress_eta(p));
    fprintf(p->out, "\r\033[K[");
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : '.', p->out);
    fprintf(p->out, "] %zu/%zu cases, %zu failed, ETA %s", p->done, p->total, p->failed, eta);
    fflush(p->out);
}

void cs_progress_case(cs_progress *p, int failed, double work, const char *line)
{
    p->done++;
    p->work_run += work;
    p->failed += failed != 0;
    if (p->tty) {
        fprintf(p->out, "\r\033[K%s\n", line);
        bar(p);
    } else {
        char eta[32];
        fmt_duration(eta, sizeof eta, cs_progress_eta(p));
        fprintf(p->out, "[%zu/%zu] %s [%zu failed, ETA %s]\n", p->done, p->total, line, p->failed,
                eta);
        fflush(p->out);
    }
}

void cs_progress_end(cs_progress *p)
{
    if (p->tty)
        fprintf(p->out, "\r\033[K");
    fflush(p->out);
}
