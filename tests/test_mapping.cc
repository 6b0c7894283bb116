// Sequential and cyclic rank mappings, generated from a platform's hosts.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "wrapper.h"
#include "mapping_util.h"

namespace {

std::string map_error(const char *platform, const char *mapping, int np, bool over = false)
{
    std::vector<int> v(np > 0 ? np : 1);
    char err[2048] = "";
    EXPECT_EQ(tw_map(platform, mapping, np, over, v.data(), err, sizeof err), -1);
    return err;
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

TEST(Mapping, KandallaTestbedHoldsThePapersRunOnHeterogeneousNodes)
{
    const char *tb = "kandalla-testbed";
    auto seq = map(tb, "sequential", 296);
    std::map<int, int> count;
    int on_a = 0;
    for (int r = 0; r < 296; r++) {
        count[seq[r]]++;
        on_a += testbed_on_a(seq[r]);
        ASSERT_EQ(seq[r], r < 64 ? r / 16 : 4 + (r - 64) / 8) << "rank " << r;
    }
    EXPECT_EQ(on_a, 64);
    EXPECT_EQ(count.size(), 33u); // 4 + 29 nodes, each full
    for (auto &c : count)
        EXPECT_EQ(c.second, testbed_on_a(c.first) ? 16 : 8) << "node-" << c.first;
    // every core once; one more needs oversubscription
    auto all = map(tb, "cyclic", 384);
    std::map<int, int> per;
    for (int n : all)
        per[n]++;
    ASSERT_EQ(per.size(), 40u);
    for (auto &c : per)
        EXPECT_EQ(c.second, testbed_on_a(c.first) ? 16 : 8) << "node-" << c.first;
    EXPECT_NE(map_error(tb, "sequential", 385).find("at most 384"), std::string::npos);
}

TEST(Mapping, UnknownMappingAndBadCounts)
{
    EXPECT_NE(map_error("yahoo", "round-robin", 4).find("valid: sequential, cyclic"),
              std::string::npos);
    EXPECT_NE(map_error("yahoo", "sequential", 0).find("not positive"), std::string::npos);
}

// ---- the nodes a job takes (--hosts SPEC, <hosts>; sim/host/platform/hostspec.h) ----

std::vector<int> map_ppn(const char *platform, const char *mapping, int np, int ppn,
                         bool over = false, std::vector<int> *hosts = nullptr)
{
    std::vector<int> v(np), h(np);
    char err[2048];
    EXPECT_EQ(tw_map_ppn(platform, mapping, np, over, ppn, v.data(), h.data(), err, sizeof err), 0)
        << err;
    if (hosts)
        *hosts = h;
    return v;
}

std::string map_ppn_error(const char *platform, const char *mapping, int np, int ppn,
                          bool over = false)
{
    std::vector<int> v(np > 0 ? np : 1);
    char err[2048] = "";
    EXPECT_EQ(tw_map_ppn(platform, mapping, np, over, ppn, v.data(), nullptr, err, sizeof err), -1);
    return err;
}

TEST(Ppn, SequentialPutsKConsecutiveRanksOnEachNode)
{
    for (int k : {1, 3, 4, 8})
        for (int np : {1, 5, 16, 37}) {
            if ((np + k - 1) / k > 16)
                continue;
            auto v = map_ppn("yahoo", "sequential", np, k);
            for (int r = 0; r < np; r++)
                ASSERT_EQ(v[r], r / k) << "k=" << k << " np=" << np << " rank " << r;
        }
}

TEST(Ppn, CyclicDealsRanksOverCeilNpOverKNodes)
{
    auto v = map_ppn("yahoo", "cyclic", 10, 4); // 3 nodes: 4, 3 and 3 ranks
    EXPECT_EQ(v, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
    for (int k : {2, 4, 8}) {
        auto w = map_ppn("yahoo", "cyclic", 32, k);
        int nodes = (32 + k - 1) / k;
        for (int r = 0; r < 32; r++)
            ASSERT_EQ(w[r], r % nodes) << "k=" << k << " rank " << r;
    }
}

TEST(Ppn, ZeroIsTheDefaultAndKEqualToTheCoresFillsLikeIt)
{
    EXPECT_EQ(map_ppn("yahoo", "sequential", 37, 0), map("yahoo", "sequential", 37));
    EXPECT_EQ(map_ppn("yahoo", "cyclic", 37, 0), map("yahoo", "cyclic", 37));
    EXPECT_EQ(map_ppn("yahoo", "sequential", 37, 8), map("yahoo", "sequential", 37));
    // the default cyclic deals over every node; with K given, over ceil(np/K) nodes
    auto d = map_ppn("yahoo", "cyclic", 20, 0), k = map_ppn("yahoo", "cyclic", 20, 8);
    EXPECT_EQ(d[16], 0);
    EXPECT_EQ(k[3], 0);
}

TEST(Ppn, MoreThanTheCoresNeedsOversubscription)
{
    std::string e = map_ppn_error("yahoo", "sequential", 18, 9);
    EXPECT_NE(e.find("9 ranks per node exceed the 8 cores of node 'node-0' on platform 'yahoo'"),
              std::string::npos) << e;
    EXPECT_NE(e.find("--ppn 8 or less"), std::string::npos) << e;
    auto v = map_ppn("yahoo", "sequential", 32, 16, true); // 2 per core on 2 nodes
    for (int r = 0; r < 32; r++)
        ASSERT_EQ(v[r], r / 16);
    // the last node may hold fewer: 3 x 8 + 1, fine without oversubscription
    EXPECT_EQ(map_ppn("yahoo", "sequential", 25, 8)[24], 3);
}

TEST(Ppn, ImpossibleCombinationsNameTheValues)
{
    std::string e = map_ppn_error("yahoo", "sequential", 65, 4);
    EXPECT_NE(e.find("65 processes at 4 per node need 17 nodes, but platform 'yahoo' has 16"),
              std::string::npos) << e;
    e = map_ppn_error("fattree-32k", "cyclic", 32768, 16);
    EXPECT_NE(e.find("32768 processes at 16 per node need 2048 nodes, but platform 'fattree-32k' "
                     "has 1024"), std::string::npos) << e;
    e = map_ppn_error("yahoo", "sequential", 4, -1);
    EXPECT_NE(e.find("negative"), std::string::npos) << e;
}

TEST(Ppn, NodesOfSocketHostsFillSocketZeroThenSocketOne)
{
    std::string f = data + "/sockets.xml"; // 3 nodes x 2 sockets x 2 cores
    int nodes;
    long cores;
    char err[2048];
    ASSERT_EQ(tw_platform_shape(f.c_str(), &nodes, &cores, err, sizeof err), 0) << err;
    EXPECT_EQ(nodes, 3); // nodes are the zones, not the 6 socket hosts
    EXPECT_EQ(cores, 12);
    std::vector<int> hosts;
    auto v = map_ppn(f.c_str(), "sequential", 12, 4, false, &hosts);
    EXPECT_EQ(v, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}));
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
    v = map_ppn(f.c_str(), "sequential", 6, 3, false, &hosts); // 2 on socket 0, 1 on socket 1
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 1, 2, 2, 3}));
    v = map_ppn(f.c_str(), "cyclic", 7, 3, false, &hosts); // nodes 0 1 2 0 1 2 0
    EXPECT_EQ(v, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
    EXPECT_EQ(hosts, (std::vector<int>{0, 2, 4, 0, 2, 4, 1}));
    // the default (no K) fills each node's 4 cores
    v = map_ppn(f.c_str(), "sequential", 9, 0, false, &hosts);
    EXPECT_EQ(v, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2}));
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 4}));
    EXPECT_NE(map_ppn_error(f.c_str(), "sequential", 10, 5).find("5 ranks per node exceed the 4 "
                                                                 "cores of node 'node-0'"),
              std::string::npos);
    v = map_ppn(f.c_str(), "sequential", 8, 8, true, &hosts); // 2 per core: 4 per socket
    EXPECT_EQ(hosts, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
}

// ---- locality levels (platforms/README.md, "Locality levels") ----

struct Levels {
    std::string names;
    std::vector<std::vector<int>> region; // [host][level]
};

Levels levels(const char *platform)
{
    Levels l;
    char names[256], err[2048];
    std::vector<int> reg(8 * 4096);
    int n = tw_platform_levels(platform, names, sizeof names, reg.data(), 4096, err, sizeof err);
    EXPECT_GE(n, 0) << err;
    l.names = names;
    for (int h = 0; h < n; h++)
        l.region.emplace_back(reg.begin() + h * 6, reg.begin() + h * 6 + 6);
    return l;
}

std::string levels_error(const std::string &platform)
{
    char names[256], err[2048] = "";
    std::vector<int> reg(8 * 64);
    EXPECT_EQ(tw_platform_levels(platform.c_str(), names, sizeof names, reg.data(), 64, err,
                                 sizeof err), -1);
    return err;
}

TEST(Levels, ShippedPlatformsDeclareTheirLevels)
{
    auto y = levels("yahoo");
    EXPECT_EQ(y.names, "node switch");
    ASSERT_EQ(y.region.size(), 16u);
    for (int h = 0; h < 16; h++) {
        EXPECT_EQ(y.region[h][0], h);
        EXPECT_EQ(y.region[h][1], h < 5 ? 0 : 1) << "node-" << h; // leaf A: node-0..4
    }
    auto c = levels("cervino");
    EXPECT_EQ(c.names, "node");
    auto f = levels("fattree-32k");
    EXPECT_EQ(f.names, "node switch");
    ASSERT_EQ(f.region.size(), 1024u);
    for (int h = 0; h < 1024; h++)
        ASSERT_EQ(f.region[h][1], h / 32) << "node-" << h;
    auto s = levels((data + "/sockets.xml").c_str());
    EXPECT_EQ(s.names, "socket node switch");
    ASSERT_EQ(s.region.size(), 6u);
    for (int h = 0; h < 6; h++) {
        EXPECT_EQ(s.region[h][0], h);
        EXPECT_EQ(s.region[h][1], h / 2);
        EXPECT_EQ(s.region[h][2], h < 4 ? 0 : 1); // uneven: 2 nodes, then 1
    }
    auto r = levels("ranger"); // chassis of 12 blades, racks of 4 chassis, line cards of 2 racks
    EXPECT_EQ(r.names, "node chassis rack linecard");
    ASSERT_EQ(r.region.size(), 3936u);
    for (int n = 0; n < 3936; n++)
        ASSERT_EQ(std::vector<int>(r.region[n].begin(), r.region[n].begin() + 4),
                  (std::vector<int>{n, n / 12, n / 48, n / 96})) << "node-" << n;
    auto t = levels("kandalla-testbed"); // switch A (region 0: node-0 comes first), B (1)
    EXPECT_EQ(t.names, "node switch");
    ASSERT_EQ(t.region.size(), 40u);
    for (int n = 0; n < 40; n++) {
        EXPECT_EQ(t.region[n][0], n);
        EXPECT_EQ(t.region[n][1], testbed_on_a(n) ? 0 : 1) << "node-" << n;
    }
    auto h = levels((data + "/hetero.xml").c_str()); // no declaration: one level, the host
    EXPECT_EQ(h.names, "node");
}

// collsim.region.LEVEL = NAME: every element naming a region shares it, so a
// platform whose routing is flat (platforms/generate-sockets.sh) still has switches.
TEST(Levels, RegionsCanBeGivenByName)
{
    auto n = levels((data + "/levels-named.xml").c_str());
    EXPECT_EQ(n.names, "node switch");
    ASSERT_EQ(n.region.size(), 6u);
    const int sw[] = {0, 0, 1, 1, 0, 1}; // a0 a1 (left) b2 b3 (right) c4 (left) d5 (right)
    for (int h = 0; h < 6; h++) {
        EXPECT_EQ(n.region[h][0], h);
        EXPECT_EQ(n.region[h][1], sw[h]) << "host " << h;
    }
}

// The locality file the host writes next to each case's hostfile is all the
// driver knows of the levels: for every mapping and ranks per node, line r
// must give rank r the regions of the host the hostfile puts it on, each
// derived here from the host's name (the platforms' documented layouts).
struct Placement {
    const char *mapping;
    int np, ppn;
};

void expect_case_files(const std::string &platform, const std::string &levels,
                       const std::function<std::vector<int>(int node, int socket)> &regions,
                       const std::vector<Placement> &placements)
{
    char dir[256], err[2048];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string hf = std::string(dir) + "/hostfile", lf = std::string(dir) + "/locality";
    for (const Placement &p : placements) {
        const std::string what = platform + " " + p.mapping + " np " + std::to_string(p.np) +
                                 " ppn " + std::to_string(p.ppn);
        ASSERT_EQ(tw_case_files(platform.c_str(), p.mapping, p.np, p.ppn, nullptr, hf.c_str(),
                                lf.c_str(), err, sizeof err), 0) << what << ": " << err;
        std::ifstream hosts(hf), loc(lf);
        std::string host, line;
        ASSERT_TRUE(std::getline(loc, line)) << what;
        EXPECT_EQ(line, "levels " + levels) << what;
        int r = 0;
        for (; std::getline(hosts, host); r++) {
            int node = -1, socket = 0;
            ASSERT_GE(sscanf(host.c_str(), "node-%d-s%d", &node, &socket), 1) << what << host;
            ASSERT_TRUE(std::getline(loc, line)) << what << ": no line for rank " << r;
            std::istringstream in(line);
            std::vector<int> got;
            for (int c; in >> c;)
                got.push_back(c);
            ASSERT_EQ(got, regions(node, socket)) << what << ": rank " << r << " on " << host;
        }
        EXPECT_EQ(r, p.np) << what;
        EXPECT_FALSE(std::getline(loc, line)) << what << ": more lines than ranks";
    }
    tw_rmtree(dir);
}

TEST(Levels, TheLocalityFileGivesEachRankItsHostsRegions)
{
    expect_case_files("yahoo", "node switch",
                      [](int n, int) { return std::vector<int>{n, n < 5 ? 0 : 1}; },
                      {{"sequential", 128, 0}, {"cyclic", 128, 0}, {"sequential", 60, 4},
                       {"cyclic", 60, 4}, {"cyclic", 13, 1}, {"sequential", 21, 3}});
    expect_case_files("cervino", "node", [](int n, int) { return std::vector<int>{n}; },
                      {{"sequential", 100, 0}, {"cyclic", 100, 0}, {"cyclic", 9, 2}});
    expect_case_files("fattree-32k", "node switch",
                      [](int n, int) { return std::vector<int>{n, n / 32}; },
                      {{"sequential", 4096, 32}, {"cyclic", 4096, 32}, {"cyclic", 1000, 7},
                       {"sequential", 1000, 0}});
    expect_case_files(data + "/sockets.xml", "socket node switch",
                      [](int n, int s) { return std::vector<int>{2 * n + s, n, n < 2 ? 0 : 1}; },
                      {{"sequential", 12, 4}, {"cyclic", 12, 4}, {"cyclic", 7, 3},
                       {"sequential", 9, 3}, {"sequential", 12, 0}, {"cyclic", 5, 0}});
    for (const auto &sw : std::map<std::string, int>{{"lassen", 18}, {"quartz", 24}})
        expect_case_files(sw.first, "socket node switch",
                          [&](int n, int s) { return std::vector<int>{2 * n + s, n, n / sw.second}; },
                          {{"sequential", 4096, 32}, {"cyclic", 4096, 32}, {"cyclic", 999, 20},
                           {"sequential", 1500, 0}});
    expect_case_files("ranger", "node chassis rack linecard",
                      [](int n, int) { return std::vector<int>{n, n / 12, n / 48, n / 96}; },
                      {{"sequential", 4096, 16}, {"cyclic", 4096, 0}, {"cyclic", 1000, 3}});
    expect_case_files("kandalla-testbed", "node switch",
                      [](int n, int) { return std::vector<int>{n, testbed_on_a(n) ? 0 : 1}; },
                      {{"sequential", 296, 0}, {"cyclic", 296, 0}, {"cyclic", 40, 1},
                       {"sequential", 384, 0}});
    expect_case_files("theta", "node router chassis group",
                      [](int n, int) { return std::vector<int>{n, n / 4, n / 64, n / 384}; },
                      {{"sequential", 8192, 64}, {"cyclic", 8192, 64}, {"cyclic", 3000, 5}});
}

TEST(Levels, BadDeclarationsAreErrors)
{
    std::string e = levels_error(data + "/levels-undeclared.xml");
    EXPECT_NE(e.find("host 'c2' has no 'switch' region"), std::string::npos) << e;
    e = levels_error(data + "/levels-nonesting.xml");
    EXPECT_NE(e.find("levels do not nest"), std::string::npos) << e;
    EXPECT_NE(e.find("'switch' region but not a 'rack' region"), std::string::npos) << e;
    e = levels_error(data + "/levels-unlisted.xml");
    EXPECT_NE(e.find("declares level 'rack', which collsim.levels does not list"),
              std::string::npos) << e;
    e = levels_error(data + "/levels-nonode.xml");
    EXPECT_NE(e.find("must include 'node'"), std::string::npos) << e;
    e = levels_error(data + "/levels-undeclared.xml");
    EXPECT_NE(e.find("<prop id=\"collsim.region.switch\" value=\"NAME\"/>"), std::string::npos) << e;
}

} // namespace
