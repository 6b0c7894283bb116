// CI regression of predicted times: the small fixed scenario must reproduce
// the committed baseline, and must do so bit for bit whatever the number of
// workers (determinism). The comparison is `collsim check`'s own
// (analysis/regression.c), so CI and users judge results the same way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wrapper.h"

namespace {

std::string run_scenario(int jobs, const std::string &dir)
{
    char err[4096];
    std::string scenario = std::string(COLLSIM_SOURCE_DIR) + "/scenarios/regression-small.xml";
    int rc = tw_run_scenario(scenario.c_str(), dir.c_str(), jobs, (dir + ".log").c_str(), err,
                             sizeof err);
    EXPECT_EQ(rc, 0) << err << " (log: " << dir << ".log)";
    return dir + "/results.csv";
}

TEST(Regression, PredictedTimesMatchTheBaselineAndAreDeterministic)
{
    char tmp[256];
    ASSERT_EQ(tw_tempdir(tmp, sizeof tmp), 0);
    std::string two = run_scenario(2, std::string(tmp) + "/j2");
    std::string one = run_scenario(1, std::string(tmp) + "/j1");
    std::string base = std::string(COLLSIM_SOURCE_DIR) + "/scenarios/baselines/regression-small.csv";
    std::vector<char> report(1 << 20);
    // rtol 1e-9: the text round trip only (the simulation is deterministic);
    // strict: a case added to the scenario without a baseline fails too
    EXPECT_EQ(tw_check(two.c_str(), base.c_str(), 1e-9, 1, report.data(), report.size()), 0)
        << report.data();
    EXPECT_NE(std::string(report.data()).find("PASS: 288 rows"), std::string::npos) << report.data();
    // -j 1 and -j 2 give identical doubles, under both models
    EXPECT_EQ(tw_check(one.c_str(), two.c_str(), 0.0, 1, report.data(), report.size()), 0)
        << report.data();
    tw_rmtree(tmp);
}

} // namespace
