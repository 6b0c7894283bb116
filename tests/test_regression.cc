// CI regression of predicted times: the small fixed scenario must reproduce
// the committed baseline, and must do so bit for bit whatever the number of
// workers (determinism).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "wrapper.h"

namespace {

using Key = std::tuple<std::string, std::string, int, std::string, long>;

std::map<Key, cs_result> load(const std::string &path)
{
    cs_result *rows;
    size_t n;
    char err[2048];
    std::map<Key, cs_result> m;
    EXPECT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), 0) << err;
    for (size_t i = 0; i < n; i++)
        m[Key(rows[i].platform, rows[i].mapping, rows[i].np, rows[i].algorithm, rows[i].bytes)] =
            rows[i];
    if (n)
        tw_free_rows(rows);
    return m;
}

std::string describe(const Key &k)
{
    return std::get<0>(k) + " " + std::get<1>(k) + " np=" + std::to_string(std::get<2>(k)) + " " +
           std::get<3>(k) + " " + std::to_string(std::get<4>(k)) + " B";
}

std::map<Key, cs_result> run_scenario(int jobs, const std::string &dir)
{
    char err[4096];
    std::string scenario = std::string(COLLSIM_SOURCE_DIR) + "/scenarios/regression-small.xml";
    int rc = tw_run_scenario(scenario.c_str(), dir.c_str(), jobs, (dir + ".log").c_str(), err,
                             sizeof err);
    EXPECT_EQ(rc, 0) << err << " (log: " << dir << ".log)";
    return load(dir + "/results.csv");
}

TEST(Regression, PredictedTimesMatchTheBaselineAndAreDeterministic)
{
    char tmp[256];
    ASSERT_EQ(tw_tempdir(tmp, sizeof tmp), 0);
    auto two = run_scenario(2, std::string(tmp) + "/j2");
    auto one = run_scenario(1, std::string(tmp) + "/j1");
    auto base = load(std::string(COLLSIM_SOURCE_DIR) + "/scenarios/baselines/regression-small.csv");
    ASSERT_FALSE(base.empty());
    ASSERT_EQ(two.size(), base.size()) << "cases added or missing against the baseline";
    const double rtol = 1e-9; // text round trip only: the simulation is deterministic
    for (auto &[k, b] : base) {
        auto it = two.find(k);
        ASSERT_NE(it, two.end()) << "missing: " << describe(k);
        const cs_result &r = it->second;
        EXPECT_STREQ(r.status, "ok") << describe(k) << ": " << r.note;
        for (auto [name, now, then] : {std::tuple{"avg", r.avg_us, b.avg_us},
                                       std::tuple{"min", r.min_us, b.min_us},
                                       std::tuple{"max", r.max_us, b.max_us}})
            EXPECT_LE(std::fabs(now - then), rtol * std::fabs(then))
                << describe(k) << " " << name << ": baseline " << then << " us, now " << now
                << " us (ratio " << now / then << ")";
        // -j 1 and -j 2 give identical doubles
        EXPECT_EQ(one.at(k).avg_us, r.avg_us) << describe(k);
        EXPECT_EQ(one.at(k).max_us, r.max_us) << describe(k);
    }
    tw_rmtree(tmp);
}

} // namespace
