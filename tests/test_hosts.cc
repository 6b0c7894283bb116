// Choosing the nodes a job takes (--hosts, hostspec.h): names, ranges and
// levels, bad specs, the mapping over the chosen nodes, and the background
// job's nodes of its own.

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

std::vector<int> hosts_of(const char *platform, const char *spec)
{
    std::vector<int> v(4096);
    char err[2048] = "";
    int n = tw_hosts(platform, spec, v.data(), (int)v.size(), err, sizeof err);
    EXPECT_GE(n, 0) << spec << ": " << err;
    v.resize(n > 0 ? n : 0);
    return v;
}

std::string hosts_error(const char *platform, const char *spec)
{
    std::vector<int> v(64);
    char err[2048] = "";
    EXPECT_EQ(tw_hosts(platform, spec, v.data(), (int)v.size(), err, sizeof err), -1) << spec;
    return err;
}

std::vector<int> cat(std::vector<int> a, const std::vector<int> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

TEST(Hosts, NamesRangesAndLevelsChooseNodesInOrder)
{
    const char *tb = "kandalla-testbed"; // switch A: node-0..3, 33..36; B: node-4..32, 37..39
    EXPECT_EQ(hosts_of(tb, ""), seq(0, 39));
    EXPECT_EQ(hosts_of(tb, "all"), seq(0, 39));
    EXPECT_EQ(hosts_of(tb, "node-7"), (std::vector<int>{7}));
    EXPECT_EQ(hosts_of(tb, "node-0..3+node-4..32"), seq(0, 32));
    EXPECT_EQ(hosts_of(tb, "node-0..node-3+node-4..node-32"), seq(0, 32));
    EXPECT_EQ(hosts_of(tb, "node-4..32+node-0..3"), cat(seq(4, 32), seq(0, 3)));
    EXPECT_EQ(hosts_of(tb, "node-3..node-0"), seq(3, 0));
    EXPECT_EQ(hosts_of(tb, "node-39+node-0"), (std::vector<int>{39, 0}));
    // N per region of a level: region after region, or dealt over the regions
    EXPECT_EQ(hosts_of(tb, "2-per-switch"), (std::vector<int>{0, 1, 4, 5}));
    EXPECT_EQ(hosts_of(tb, "2-per-switch-cyclic"), (std::vector<int>{0, 4, 1, 5}));
    EXPECT_EQ(hosts_of(tb, "8-per-switch"), cat(cat(seq(0, 3), seq(33, 36)), seq(4, 11)));
    // earlier terms' nodes are skipped
    EXPECT_EQ(hosts_of(tb, "node-0+node-4+2-per-switch"), (std::vector<int>{0, 4, 1, 2, 5, 6}));
    EXPECT_EQ(hosts_of(tb, "1-per-node").size(), 40u);
    // ranger: a rack is 48 nodes, a line card 96
    EXPECT_EQ(hosts_of("ranger", "1-per-rack").size(), 82u);
    EXPECT_EQ(hosts_of("ranger", "2-per-linecard-cyclic"),
              (std::vector<int>{0, 96, 192, 288, 384, 480, 576, 672, 768, 864, 960, 1056, 1152,
                                1248, 1344, 1440, 1536, 1632, 1728, 1824, 1920, 2016, 2112, 2208,
                                2304, 2400, 2496, 2592, 2688, 2784, 2880, 2976, 3072, 3168, 3264,
                                3360, 3456, 3552, 3648, 3744, 3840, 1, 97, 193, 289, 385, 481, 577,
                                673, 769, 865, 961, 1057, 1153, 1249, 1345, 1441, 1537, 1633, 1729,
                                1825, 1921, 2017, 2113, 2209, 2305, 2401, 2497, 2593, 2689, 2785,
                                2881, 2977, 3073, 3169, 3265, 3361, 3457, 3553, 3649, 3745, 3841}));
}

TEST(Hosts, BadSpecsNameTheValueAndWhatIsValid)
{
    const char *tb = "kandalla-testbed";
    struct {
        const char *spec, *want;
    } cases[] = {
        {"node-40", "--hosts 'node-40': 'node-40': platform 'kandalla-testbed' has no node 'node-40' "
                    "(its nodes: node-0 .. node-39)"},
        {"node-0..node-40", "has no node 'node-40'"},
        {"node-0..99", "has no node 'node-99'"},
        {"nod-0..3", "has no node 'nod-0'"},
        {"node-0..3+node-2", "node node-2 is chosen twice (by 'node-0..3' and 'node-2')"},
        {"1-per-node+node-1", "node node-1 is chosen twice (by '1-per-node' and 'node-1')"},
        {"3-per-rack", "'rack' is not a level of platform 'kandalla-testbed' at or above node "
                       "(valid: node, switch)"},
        {"9-per-switch", "'9-per-switch': switch region 0 of platform 'kandalla-testbed' has 8 free "
                         "nodes, fewer than 9"},
        {"node-0..3+6-per-switch", "switch region 0 of platform 'kandalla-testbed' has 4 free nodes, "
                                   "fewer than 6"},
        {"0-per-switch", "'0-per-switch': expected N-per-LEVEL with N >= 1 and a level name"},
        {"2-per-", "'2-per-': expected N-per-LEVEL with N >= 1"},
        {"node-0++node-1", "an empty term (expected NAME, NAME..NAME, N-per-LEVEL or "
                           "N-per-LEVEL-cyclic, joined by '+')"},
        {"node-0+", "an empty term"},
        {"node-0,node-1", "'node-0,node-1': expected NAME, NAME..NAME, N-per-LEVEL or "
                          "N-per-LEVEL-cyclic, joined by '+'"},
    };
    for (auto &c : cases) {
        std::string e = hosts_error(tb, c.spec);
        EXPECT_NE(e.find(c.want), std::string::npos) << c.spec << ": " << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
    std::string longer(200, 'n');
    EXPECT_NE(hosts_error(tb, longer.c_str()).find("longer than 127 characters"), std::string::npos);
    // sockets as hosts: the node is the zone, named as a node
    EXPECT_EQ(hosts_of("lassen", "node-3..5"), seq(3, 5));
    EXPECT_NE(hosts_error("lassen", "node-3-s0").find("has no node 'node-3-s0'"), std::string::npos);
    EXPECT_NE(hosts_error("lassen", "1-per-socket").find("'socket' is not a level of platform "
                                                         "'lassen' at or above node"),
              std::string::npos);
}

std::vector<int> case_map(const char *platform, const char *mapping, int np, int ppn,
                          const char *hosts, const char *bg = nullptr, int nbg = 0)
{
    std::vector<int> v(np + nbg);
    char err[2048] = "";
    EXPECT_EQ(tw_case_map(platform, mapping, np, ppn, hosts, bg, v.data(), err, sizeof err), 0)
        << (hosts ? hosts : "") << ": " << err;
    return v;
}

std::string case_map_error(const char *platform, const char *mapping, int np, int ppn,
                           const char *hosts, const char *bg = nullptr)
{
    std::vector<int> v(np + 512);
    char err[2048] = "";
    EXPECT_EQ(tw_case_map(platform, mapping, np, ppn, hosts, bg, v.data(), err, sizeof err), -1)
        << (hosts ? hosts : "");
    return err;
}

// Kandalla et al.'s placement (iii) (docs/papers.md, "Kandalla: the testbed and what it leaves open"): the 296 ranks dealt node by node over the
// 33 nodes the paper used, which leaves switch A's and B's other nodes to the background job.
TEST(Hosts, TheMappingWorksOverTheChosenNodesOnly)
{
    const char *tb = "kandalla-testbed", *used = "node-0..3+node-4..32";
    auto cyc = case_map(tb, "cyclic", 296, 0, used);
    std::map<int, int> per;
    for (int r = 0; r < 296; r++)
        per[cyc[r]]++;
    ASSERT_EQ(per.size(), 33u);
    for (auto &c : per) {
        EXPECT_LE(c.first, 32);
        EXPECT_EQ(c.second, testbed_on_a(c.first) ? 16 : 8) << "node-" << c.first;
    }
    for (int r = 0; r < 33; r++) // the first round: one rank per node, in the list's order
        EXPECT_EQ(cyc[r], r);
    EXPECT_EQ(cyc[33], 0);
    EXPECT_EQ(cyc[295], 3); // B's nodes are full after 8 rounds: the rest go to A's
    // contiguous, switch B first: rank 0 on node-4, A's ranks last
    auto bfirst = case_map(tb, "sequential", 296, 0, "node-4..32+node-0..3");
    EXPECT_EQ(bfirst[0], 4);
    EXPECT_EQ(bfirst[231], 32);
    EXPECT_EQ(bfirst[232], 0);
    EXPECT_EQ(bfirst[295], 3);
    // ranks per node over the list; the list, not the platform, bounds it
    EXPECT_EQ(case_map(tb, "cyclic", 6, 2, "node-9+node-2+node-30"),
              (std::vector<int>{9, 2, 30, 9, 2, 30}));
    EXPECT_EQ(case_map(tb, "sequential", 5, 2, "node-9+node-2+node-30"),
              (std::vector<int>{9, 9, 2, 2, 30}));
    EXPECT_NE(case_map_error(tb, "cyclic", 8, 2, "node-9+node-2+node-30")
                  .find("8 processes at 2 per node need 4 nodes, but --hosts chooses 3 on "
                        "platform 'kandalla-testbed'"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "sequential", 297, 0, used)
                  .find("297 processes do not fit on the 33 nodes --hosts chooses on platform "
                        "'kandalla-testbed' (296 cores in all); use at most 296"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "sequential", 4, 0, "node-99").find("has no node 'node-99'"),
              std::string::npos);
    // the default is the platform in its order, as without --hosts
    EXPECT_EQ(case_map(tb, "cyclic", 296, 0, nullptr), map(tb, "cyclic", 296));
    EXPECT_EQ(case_map(tb, "cyclic", 296, 0, "all"), map(tb, "cyclic", 296));
}

TEST(Hosts, TheBackgroundRunsOnNodesOfItsOwn)
{
    const char *tb = "kandalla-testbed", *used = "node-0..3+node-4..32";
    // automatic: the free nodes, 48 per switch (B's 24 free cores twice over)
    auto a = case_map(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96", 96);
    std::map<int, int> per;
    for (int i = 296; i < 392; i++)
        per[a[i]]++;
    for (auto &c : per)
        EXPECT_GE(c.first, 33) << "node-" << c.first;
    int on_a = 0;
    for (auto &c : per)
        on_a += testbed_on_a(c.first) ? c.second : 0;
    EXPECT_EQ(on_a, 48);
    // chosen: the same nodes given by name place it the same way
    auto chosen = case_map(tb, "cyclic", 296, 0, used,
                           "alltoall:inter-switch:1M:96@node-33..36+node-37..39", 96);
    EXPECT_EQ(chosen, a);
    // two nodes, 48 ranks each; their order in the list is kept within a switch
    auto two = case_map(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96@node-39+node-36", 96);
    for (int i = 296; i < 392; i++)
        EXPECT_EQ(two[i], (i - 296) % 2 ? 39 : 36) << "background rank " << i - 296;
    // nodes the measured job chose but does not fill stay its own
    auto sparse = case_map(tb, "sequential", 16, 0, "node-0+node-1", "alltoall:inter-switch:64K:4", 4);
    for (int i = 16; i < 20; i++)
        EXPECT_NE(sparse[i], 1) << "background rank " << i - 16;
    EXPECT_NE(case_map_error(tb, "sequential", 16, 0, "node-0+node-1",
                             "alltoall:inter-switch:64K:4@node-1+node-5")
                  .find("--background alltoall:inter-switch:64K:4@node-1+node-5: hosts "
                        "'node-1+node-5': node node-1 belongs to the measured job (its --hosts "
                        "choose it): the background runs on nodes of its own"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "sequential", 16, 0, nullptr, "alltoall:inter-switch:64K:4@node-0+node-5")
                  .find("node node-0 belongs to the measured job (its ranks use it)"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96@node-33..36")
                  .find("hosts 'node-33..36': the background's nodes must lie in two switch "
                        "regions at least"),
              std::string::npos);
    EXPECT_NE(case_map_error(tb, "cyclic", 296, 0, used, "alltoall:inter-switch:1M:96@node-33+node-99")
                  .find("hosts 'node-33+node-99': 'node-99': platform 'kandalla-testbed' has no "
                        "node 'node-99'"),
              std::string::npos);
}

// ---- ranks per node (--ppn K, <ppn>) ----

} // namespace
