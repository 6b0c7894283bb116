// What-if studies: platform variants are real files with exactly the chosen
// attributes changed, bad <vary> elements are rejected with the line, and the
// predicted time follows the varied parameter.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "wrapper.h"

namespace {

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string write_scenario(const std::string &dir, const std::string &vary, const char *mapping = "sequential")
{
    std::string path = dir + "/whatif.xml";
    std::ofstream f(path);
    f << "<?xml version=\"1.0\"?>\n<scenario name=\"w\">\n  <platform name=\"yahoo\"/>\n  "
      << vary << "\n  <mappings>" << mapping << "</mappings>\n  <processes>48</processes>\n"
      << "  <collective name=\"allgather\"><algorithms>bruck</algorithms></collective>\n"
      << "  <sizes>64K</sizes>\n  <iterations warmup=\"0\" timed=\"1\"/>\n"
      << "  <buffers mode=\"fold\"/>\n</scenario>\n";
    return path;
}

TEST(WhatIf, BadVaryElementsNameTheLine)
{
    char dir[256], err[4096];
    long n;
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    struct { const char *vary, *want; } cases[] = {
        {"<vary level=\"spine\" factors=\"2\"/>", "unknown level 'spine' (valid: node-links, uplinks"},
        {"<vary level=\"uplinks\" quantity=\"jitter\" factors=\"2\"/>", "quantity 'jitter' (valid: bandwidth, latency)"},
        {"<vary level=\"uplinks\"/>", "needs exactly one of factors="},
        {"<vary level=\"uplinks\" factors=\"2 -1\"/>", "expected finite positive numbers"},
        {"<vary level=\"uplinks\" factors=\"2 inf\"/>", "factors=\"2 inf\">: expected finite positive"},
        {"<vary level=\"uplinks\" values=\"1e400\"/>", "values=\"1e400\">: expected finite positive"},
        {"<vary level=\"uplinks\" factors=\"2\" colour=\"red\"/>", "unknown attribute 'colour'"},
    };
    for (auto &c : cases) {
        std::string path = write_scenario(dir, c.vary);
        ASSERT_EQ(tw_scenario(path.c_str(), &n, err, sizeof err), -1) << c.vary;
        EXPECT_NE(std::string(err).find("whatif.xml:4:"), std::string::npos) << err;
        EXPECT_NE(std::string(err).find(c.want), std::string::npos) << err;
    }
    tw_rmtree(dir);
}

TEST(WhatIf, VariantsAreRealPlatformsAndTimesFollowTheParameter)
{
    char dir[256], err[4096];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = write_scenario(dir, "<vary level=\"uplinks\" factors=\"0.01 1 10\"/>");
    std::string out = std::string(dir) + "/out";
    ASSERT_EQ(tw_run_scenario(path.c_str(), out.c_str(), 2, nullptr, err, sizeof err), 0) << err;
    // the files exist, with both uplinks scaled and the unit kept
    std::string slow = slurp(out + "/platforms/yahoo@uplinks.bandwidth=x0.01.xml");
    EXPECT_NE(slow.find("id=\"yahoo-leafA-core\" bandwidth=\"0.094148Gbps\""), std::string::npos);
    EXPECT_NE(slow.find("id=\"yahoo-leafB-core\" bandwidth=\"0.094148Gbps\""), std::string::npos);
    EXPECT_NE(slow.find("bw=\"941.48Mbps\""), std::string::npos); // node links untouched
    std::string fast = slurp(out + "/platforms/yahoo@uplinks.bandwidth=x10.xml");
    EXPECT_NE(fast.find("bandwidth=\"94.148Gbps\""), std::string::npos);

    cs_result *rows;
    size_t n;
    ASSERT_EQ(tw_read_results((out + "/results.csv").c_str(), &rows, &n, err, sizeof err), 0) << err;
    std::map<std::string, double> t;
    for (size_t i = 0; i < n; i++)
        t[rows[i].platform] = rows[i].avg_us;
    tw_free_rows(rows);
    ASSERT_EQ(t.size(), 3u);
    // 48 ranks in sequence fill nodes 0-4 (leaf A) and node 5 (leaf B): Bruck's
    // messages cross the uplinks, so a 100x slower uplink (a tenth of a node link) must cost time, and a
    // faster one must not hurt
    EXPECT_GT(t["yahoo@uplinks.bandwidth=x0.01"], 2 * t["yahoo@uplinks.bandwidth=x1"]);
    EXPECT_LE(t["yahoo@uplinks.bandwidth=x10"], t["yahoo@uplinks.bandwidth=x1"]);
    tw_rmtree(dir);
}

TEST(WhatIf, CoresPerNodeTakeValues)
{
    char dir[256], err[4096];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = write_scenario(dir, "<vary level=\"cores\" values=\"4 16\"/>", "cyclic");
    std::string out = std::string(dir) + "/out";
    ASSERT_EQ(tw_run_scenario(path.c_str(), out.c_str(), 2, nullptr, err, sizeof err), 0) << err;
    int nodes;
    long cores;
    ASSERT_EQ(tw_platform_shape((out + "/platforms/yahoo@cores=4.xml").c_str(), &nodes, &cores, err,
                                sizeof err), 0) << err;
    EXPECT_EQ(nodes, 16);
    EXPECT_EQ(cores, 64);
    ASSERT_EQ(tw_platform_shape((out + "/platforms/yahoo@cores=16.xml").c_str(), &nodes, &cores,
                                err, sizeof err), 0) << err;
    EXPECT_EQ(cores, 256);
    tw_rmtree(dir);
}

} // namespace
