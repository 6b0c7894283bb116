// CI regression of predicted times: the small fixed scenario must reproduce
// the committed baseline, and must do so bit for bit whatever the number of
// workers (determinism: its np-13 half run again with one worker). The
// comparison is `collsim check`'s own (analysis/regression.c), so CI and
// users judge results the same way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wrapper.h"

namespace {

std::string run_scenario(int jobs, const std::string &dir, const char *only)
{
    char err[4096];
    std::string scenario = std::string(COLLSIM_SOURCE_DIR) + "/scenarios/regression-small.xml";
    int rc = tw_run_scenario_only(scenario.c_str(), dir.c_str(), jobs, (dir + ".log").c_str(), only,
                                  err, sizeof err);
    EXPECT_EQ(rc, 0) << err << " (log: " << dir << ".log)";
    return dir + "/results.csv";
}

TEST(Regression, PredictedTimesMatchTheBaselineAndAreDeterministic)
{
    char tmp[256];
    ASSERT_EQ(tw_tempdir(tmp, sizeof tmp), 0);
    std::string two = run_scenario(2, std::string(tmp) + "/j2", nullptr);
    // both platforms, mappings, models and every algorithm, at np 13: a
    // half of the rows, the cheaper half
    std::string one = run_scenario(1, std::string(tmp) + "/j1", "np=13");
    std::string base = std::string(COLLSIM_SOURCE_DIR) + "/scenarios/baselines/regression-small.csv";
    std::vector<char> report(1 << 20);
    // rtol 1e-9: the text round trip only (the simulation is deterministic);
    // strict: a case added to the scenario without a baseline fails too
    EXPECT_EQ(tw_check(two.c_str(), base.c_str(), 1e-9, 1, report.data(), report.size()), 0)
        << report.data();
    EXPECT_NE(std::string(report.data()).find("PASS: 288 rows"), std::string::npos) << report.data();
    // -j 1 and -j 2 give identical doubles, under both models: every row of
    // the -j 1 half is in the -j 2 run with the same values (the -j 2
    // rows it lacks are "added", allowed without strict)
    EXPECT_EQ(tw_check(two.c_str(), one.c_str(), 0.0, 0, report.data(), report.size()), 0)
        << report.data();
    EXPECT_NE(std::string(report.data()).find("PASS: 144 rows within rtol 0"), std::string::npos)
        << report.data();
    tw_rmtree(tmp);
}

} // namespace
