// Progress lines of a sweep when the output is not a terminal.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

extern "C" {
#include "progress.h"
}

namespace {

TEST(Progress, PlainLinesCountFailuresAndSkipResumedCases)
{
    FILE *f = tmpfile();
    cs_progress p;
    cs_progress_start(&p, f, 5, 0);
    p.done += 2; // two cases already recorded (a resumed sweep)
    p.skipped += 2;
    EXPECT_LT(cs_progress_eta(&p), 0); // nothing run yet: no estimate
    cs_progress_case(&p, 0, 0, "case A ok");
    cs_progress_case(&p, 1, 0, "case B FAILED");
    EXPECT_GE(cs_progress_eta(&p), 0);
    cs_progress_end(&p);
    rewind(f);
    char buf[4096] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    std::string out(buf);
    EXPECT_NE(out.find("[3/5] case A ok [0 failed, ETA "), std::string::npos) << out;
    EXPECT_NE(out.find("[4/5] case B FAILED [1 failed, ETA "), std::string::npos) << out;
    EXPECT_EQ(out.find('\r'), std::string::npos) << "no terminal codes in a file";
}

// Cases weighted by cost: the time left scales with the work left, not the
// number of cases (one big case left after many small ones).
TEST(Progress, WeightedEtaScalesWithTheWorkLeft)
{
    FILE *f = tmpfile();
    cs_progress p;
    cs_progress_start(&p, f, 4, 0);
    p.work_total = 1 + 1 + 1 + 97;
    p.t0 -= 30; // 30 s spent on the three small cases
    cs_progress_case(&p, 0, 1, "a");
    cs_progress_case(&p, 0, 1, "b");
    cs_progress_case(&p, 0, 1, "c");
    EXPECT_NEAR(cs_progress_eta(&p), 30.0 / 3 * 97, 1.0); // unweighted would say 10 s
    cs_progress_end(&p);
    fclose(f);
}

// Two workers: when the first case ends, the other has run as long; the elapsed time alone
// counts half the work done (the demo's first ETA was 17 minutes for a 3-minute run).
TEST(Progress, EtaCountsTheCasesRunningSideBySide)
{
    FILE *f = tmpfile();
    cs_progress p;
    cs_progress_start(&p, f, 5, 0);
    p.workers = 2;
    p.work_total = 5 * 10;
    p.t0 -= 4; // 4 s since the start; the first case took those 4 s
    p.busy_s += 4;
    cs_progress_case(&p, 0, 10, "a");
    EXPECT_NEAR(cs_progress_eta(&p), 4.0 / 10 * 40 / 2, 0.5); // the elapsed time says 16 s
    p.busy_s += 4; // four left: both workers busy; one left: one
    cs_progress_case(&p, 0, 10, "b");
    p.busy_s += 4;
    cs_progress_case(&p, 0, 10, "c");
    p.busy_s += 4;
    cs_progress_case(&p, 0, 10, "d");
    EXPECT_NEAR(cs_progress_eta(&p), 4.0, 0.5);
    cs_progress_end(&p);
    fclose(f);
}

} // namespace
