// Sequential and cyclic rank mappings, generated from a platform's hosts.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "wrapper.h"

namespace {

std::vector<int> map(const char *platform, const char *mapping, int np, bool over = false)
{
    std::vector<int> v(np);
    char err[2048];
    EXPECT_EQ(tw_map(platform, mapping, np, over, v.data(), err, sizeof err), 0) << err;
    return v;
}

std::string map_error(const char *platform, const char *mapping, int np, bool over = false)
{
    std::vector<int> v(np > 0 ? np : 1);
    char err[2048] = "";
    EXPECT_EQ(tw_map(platform, mapping, np, over, v.data(), err, sizeof err), -1);
    return err;
}

const std::string data = COLLSIM_TEST_DATA_DIR;

TEST(Platform, ShapesOfTheShippedPlatforms)
{
    struct { const char *name; int nodes; long cores; } want[] = {
        {"yahoo", 16, 128}, {"cervino", 5, 160}, {"fattree-32k", 1024, 32768}};
    for (auto &w : want) {
        int nodes;
        long cores;
        char err[2048];
        ASSERT_EQ(tw_platform_shape(w.name, &nodes, &cores, err, sizeof err), 0) << err;
        EXPECT_EQ(nodes, w.nodes) << w.name;
        EXPECT_EQ(cores, w.cores) << w.name;
    }
}

TEST(Platform, BadPlatformsAreRejectedWithFileAndLine)
{
    int nodes;
    long cores;
    char err[2048];
    ASSERT_EQ(tw_platform_shape("yahooo", &nodes, &cores, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("unknown platform 'yahooo'"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("valid: cervino, fattree-32k, yahoo"), std::string::npos) << err;
    std::string f = data + "/malformed-platform.xml";
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("malformed-platform.xml:"), std::string::npos) << err;
    f = data + "/bad-cores.xml";
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("bad-cores.xml:4"), std::string::npos) << err;
    EXPECT_NE(std::string(err).find("core=\"two\""), std::string::npos) << err;
}

TEST(Mapping, SequentialFillsEachNode)
{
    auto v = map("yahoo", "sequential", 13);
    for (int r = 0; r < 13; r++)
        EXPECT_EQ(v[r], r / 8) << "rank " << r;
}

TEST(Mapping, CyclicDealsRoundRobin)
{
    auto v = map("yahoo", "cyclic", 37);
    for (int r = 0; r < 37; r++)
        EXPECT_EQ(v[r], r % 16) << "rank " << r;
}

TEST(Mapping, EveryMappingRespectsNodeCapacity)
{
    for (const char *m : {"sequential", "cyclic"})
        for (int np : {1, 2, 7, 8, 9, 64, 127, 128}) {
            auto v = map("yahoo", m, np);
            std::map<int, int> count;
            for (int node : v)
                count[node]++;
            for (auto &c : count)
                EXPECT_LE(c.second, 8) << m << " np=" << np << " node " << c.first;
            if (std::string(m) == "cyclic") { // balanced: node loads differ by at most one
                for (int node = 0; node < 16; node++)
                    EXPECT_LE(std::abs(count[node] - count[0]), 1) << "np=" << np;
            }
        }
}

TEST(Mapping, OversubscriptionIsAnErrorUnlessAllowed)
{
    std::string e = map_error("yahoo", "sequential", 129);
    EXPECT_NE(e.find("129 processes do not fit"), std::string::npos) << e;
    EXPECT_NE(e.find("at most 128"), std::string::npos) << e;
    // the Sparbit paper's 2 processes per core: 16 per node
    auto seq = map("yahoo", "sequential", 256, true);
    for (int r = 0; r < 256; r++)
        ASSERT_EQ(seq[r], r / 16) << r;
    auto cyc = map("yahoo", "cyclic", 256, true);
    for (int r = 0; r < 256; r++)
        ASSERT_EQ(cyc[r], r % 16) << r;
    auto odd = map("yahoo", "sequential", 133, true); // first load above one per core
    EXPECT_EQ(odd[127], 7);
    EXPECT_EQ(odd[128], 8);
    EXPECT_EQ(odd[132], 8);
}

TEST(Mapping, HeterogeneousNodesInDocumentOrder)
{
    std::string f = data + "/hetero.xml"; // a:2 cores, b:4, c0 c1 c5: 1 each
    int nodes;
    long cores;
    char err[2048];
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), 0) << err;
    EXPECT_EQ(nodes, 5);
    EXPECT_EQ(cores, 9);
    EXPECT_EQ(map(f.c_str(), "sequential", 9), (std::vector<int>{0, 0, 1, 1, 1, 1, 2, 3, 4}));
    EXPECT_EQ(map(f.c_str(), "cyclic", 9), (std::vector<int>{0, 1, 2, 3, 4, 0, 1, 1, 1}));
}

TEST(Mapping, UnknownMappingAndBadCounts)
{
    EXPECT_NE(map_error("yahoo", "round-robin", 4).find("valid: sequential, cyclic"),
              std::string::npos);
    EXPECT_NE(map_error("yahoo", "sequential", 0).find("not positive"), std::string::npos);
}

} // namespace
