// Per-level message accounting (sim/driver/account.h) and the SMPI locality
// provider it classifies with (algorithms/coll_locality_file.h): the paper's Example 2.1
// and Section 4 counts, and, for any mapping, counts equal to what Bruck's
// schedule and the platform's regions (read independently by the host) imply.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "wrapper.h"

namespace {

const std::string data = COLLSIM_TEST_DATA_DIR;

struct Level {
    long long max_msgs = -1, max_bytes = -1, total_msgs = -1, total_bytes = -1;
};

// results.h's account column: LEVEL:max_msgs:max_bytes:total_msgs:total_bytes;...
std::map<std::string, Level> parse_account(const std::string &s, std::vector<std::string> *order)
{
    std::map<std::string, Level> m;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ';')) {
        std::stringstream f(item);
        std::string name, v;
        std::getline(f, name, ':');
        Level l;
        long long *dst[] = {&l.max_msgs, &l.max_bytes, &l.total_msgs, &l.total_bytes};
        for (auto *d : dst) {
            std::getline(f, v, ':');
            *d = std::stoll(v);
        }
        m[name] = l;
        if (order)
            order->push_back(name);
    }
    return m;
}

std::vector<cs_result> run(tw_run_spec s)
{
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096];
    EXPECT_EQ(tw_run(&s, &rows, &n, err, sizeof err), 0) << err;
    std::vector<cs_result> v(rows, rows + n);
    tw_free_rows(rows);
    for (auto &r : v)
        EXPECT_STREQ(r.status, "ok") << "np=" << r.np << " " << r.note;
    return v;
}

tw_run_spec spec(const char *platform, const char *alg, int np, int ppn, const char *mapping)
{
    tw_run_spec s{};
    s.platform = platform;
    s.mapping = mapping;
    s.coll = "allgather";
    s.alg = alg;
    s.np = np;
    s.ppn = ppn;
    s.sizes = "4";
    s.dtype = "int"; // one 4-byte value per process, as in Example 2.1
    s.iters = 1;
    s.warmup = 1;
    s.timeout_s = 300;
    return s;
}

const cs_result &row_for(const std::vector<cs_result> &rows, int np)
{
    for (auto &r : rows)
        if (r.np == np)
            return r;
    ADD_FAILURE() << "no row for np=" << np;
    return rows.at(0);
}

// Example 2.1: 16 processes, 4 per node (a region), one 4-byte value each.
// Bruck: process 0 sends 4 non-local messages carrying 15 values.
TEST(Account, Example21BruckBusiestProcessSendsFourNonLocalMessagesOfFifteenValues)
{
    auto rows = run(spec("yahoo", "bruck", 16, 4, "sequential"));
    ASSERT_EQ(rows.size(), 1u);
    const cs_result &r = rows[0];
    EXPECT_EQ(r.ppn, 4);
    EXPECT_EQ(r.nonlocal_max_msgs, 4);
    EXPECT_EQ(r.nonlocal_max_bytes, 15 * 4);
    // every process sends log2(16) = 4 messages of 1+2+4+8 values; per node, the
    // first steps (distance 1 and 2) stay on the node for 3 and 2 of its 4 ranks
    EXPECT_EQ(r.nonlocal_total_msgs, 16 * 4 - 4 * (3 + 2));
    std::vector<std::string> order;
    auto acc = parse_account(r.account, &order);
    EXPECT_EQ(order, (std::vector<std::string>{"node", "switch", "system"}));
    EXPECT_EQ(acc["node"].total_msgs + acc["switch"].total_msgs + acc["system"].total_msgs, 64);
    EXPECT_EQ(acc["node"].total_bytes + acc["switch"].total_bytes, 16 * 15 * 4);
    EXPECT_EQ(acc["switch"].max_msgs, 4); // nodes 0..3 are all on Yahoo's leaf A
    EXPECT_EQ(acc["system"].total_msgs, 0);
}

// ... and the locality-aware Bruck: 1 non-local message carrying 4 values.
TEST(Account, Example21LocBruckBusiestProcessSendsOneNonLocalMessageOfFourValues)
{
    auto rows = run(spec("yahoo", "loc_bruck", 16, 4, "sequential"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].nonlocal_max_msgs, 1);
    EXPECT_EQ(rows[0].nonlocal_max_bytes, 4 * 4);
}

// The regions are built before the timing loop (algorithms.def, `setup`), as
// the paper's code builds them with its communicator: without a warm-up, the
// one timed call is the collective alone, with the counts and (up to the
// barrier's skew) the time of a call after a warm-up. Before, it carried the
// set-up: 10 non-local messages instead of 1 and 27.60 against 8.27 us at
// np 1024 on Quartz.
TEST(Account, LocalityAwareFirstCallCarriesNoSetUp)
{
    for (const char *alg : {"loc_bruck", "loc_bruck_multilevel", "hierarchical", "multilane"}) {
        tw_run_spec s = spec("quartz", alg, 128, 32, "sequential"); // 4 nodes, 8 sockets
        s.np_list = "64,128";
        auto warm = run(s);
        s.warmup = 0;
        auto cold = run(s);
        for (int p : {64, 128}) {
            const cs_result &w = row_for(warm, p), &c = row_for(cold, p);
            EXPECT_STREQ(c.status, "ok") << alg << " p=" << p << " " << c.note;
            EXPECT_EQ(c.nonlocal_max_msgs, w.nonlocal_max_msgs) << alg << " p=" << p;
            EXPECT_EQ(c.nonlocal_total_msgs, w.nonlocal_total_msgs) << alg << " p=" << p;
            EXPECT_EQ(c.nonlocal_total_bytes, w.nonlocal_total_bytes) << alg << " p=" << p;
            EXPECT_STREQ(c.account, w.account) << alg << " p=" << p;
            EXPECT_NEAR(c.avg_us, w.avg_us, 0.15 * w.avg_us) << alg << " p=" << p;
        }
    }
}

// Section 4: Bruck sends log2(p) non-local messages (m - 1 values) from its
// busiest process; loc_bruck log_{p_l}(r) when r is a power of p_l.
TEST(Account, Section4NonLocalMessageCounts)
{
    tw_run_spec s = spec("yahoo", "bruck", 64, 4, "sequential");
    s.np_list = "16,64"; // the first 16 ranks: 4 nodes; all 64: 16 nodes (sub-communicators)
    auto b4 = run(s);
    s.alg = "loc_bruck";
    auto l4 = run(s);
    s = spec("yahoo", "bruck", 16, 2, "sequential");
    s.np_list = "4,8,16"; // 2 per region: r = 2, 4, 8
    auto b2 = run(s);
    s.alg = "loc_bruck";
    auto l2 = run(s);
    for (int p : {16, 64}) {
        int lg = p == 16 ? 4 : 6;
        EXPECT_EQ(row_for(b4, p).nonlocal_max_msgs, lg) << "bruck p=" << p;
        EXPECT_EQ(row_for(b4, p).nonlocal_max_bytes, (p - 1) * 4) << "bruck p=" << p;
        EXPECT_EQ(row_for(l4, p).nonlocal_max_msgs, p == 16 ? 1 : 2) << "loc_bruck p=" << p;
    }
    for (int p : {4, 8, 16}) {
        int lg = p == 4 ? 2 : p == 8 ? 3 : 4, r_log = lg - 1; // log2(p), log2(p / 2)
        EXPECT_EQ(row_for(b2, p).nonlocal_max_msgs, lg) << "bruck p=" << p;
        EXPECT_EQ(row_for(l2, p).nonlocal_max_msgs, r_log) << "loc_bruck p=" << p;
    }
}

TEST(Account, BuiltInsAreNotMeasured)
{
    auto rows = run(spec("yahoo", "native:bruck", 16, 4, "sequential"));
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].nonlocal_max_msgs, -1);
    EXPECT_EQ(rows[0].nonlocal_total_bytes, -1);
    EXPECT_STREQ(rows[0].account, "");
}

// What Bruck's schedule (algorithms/allgather/allgather_bruck.c: distance
// d = 1, 2, 4, ..., min(d, p - d) blocks to rank - d) and the host's view of
// the platform imply, level by level.
std::map<std::string, Level> expected_bruck(const char *platform, const char *mapping, int np,
                                            int ppn, long bytes, std::vector<std::string> *order)
{
    std::vector<int> node(np), host(np);
    char err[2048], names[256];
    EXPECT_EQ(tw_map_ppn(platform, mapping, np, 0, ppn, node.data(), host.data(), err, sizeof err),
              0)
        << err;
    std::vector<int> reg(6 * 4096);
    int nh = tw_platform_levels(platform, names, sizeof names, reg.data(), 4096, err, sizeof err);
    EXPECT_GT(nh, 0) << err;
    std::vector<std::string> levels;
    std::stringstream in(names);
    std::string w;
    while (in >> w)
        levels.push_back(w);
    int node_level = int(std::find(levels.begin(), levels.end(), "node") - levels.begin());
    levels.push_back("system");
    std::vector<std::vector<long long>> msgs(levels.size() + 1, std::vector<long long>(np)),
        byts = msgs;
    for (int r = 0; r < np; r++)
        for (int d = 1; d < np; d *= 2) {
            int to = ((r - d) % np + np) % np, n = std::min(d, np - d);
            size_t l = 0;
            while (l + 1 < levels.size() && reg[host[r] * 6 + l] != reg[host[to] * 6 + l])
                l++;
            msgs[l][r]++;
            byts[l][r] += n * bytes;
            if (reg[host[r] * 6 + node_level] != reg[host[to] * 6 + node_level]) {
                msgs[levels.size()][r]++;
                byts[levels.size()][r] += n * bytes;
            }
        }
    std::map<std::string, Level> m;
    for (size_t l = 0; l <= levels.size(); l++) {
        std::string name = l < levels.size() ? levels[l] : "nonlocal";
        Level v;
        v.max_msgs = *std::max_element(msgs[l].begin(), msgs[l].end());
        v.max_bytes = *std::max_element(byts[l].begin(), byts[l].end());
        v.total_msgs = v.total_bytes = 0;
        for (int r = 0; r < np; r++) {
            v.total_msgs += msgs[l][r];
            v.total_bytes += byts[l][r];
        }
        m[name] = v;
    }
    *order = levels;
    return m;
}

void expect_bruck_counts(const char *platform, const char *mapping, int np, int ppn)
{
    SCOPED_TRACE(std::string(platform) + " " + mapping + " np=" + std::to_string(np) +
                 " ppn=" + std::to_string(ppn));
    tw_run_spec s = spec(platform, "bruck", np, ppn, mapping);
    s.sizes = "8";
    s.dtype = "double";
    auto rows = run(s);
    ASSERT_EQ(rows.size(), 1u);
    std::vector<std::string> want_order, got_order;
    auto want = expected_bruck(platform, mapping, np, ppn, 8, &want_order);
    auto got = parse_account(rows[0].account, &got_order);
    EXPECT_EQ(got_order, want_order);
    for (auto &name : want_order) {
        EXPECT_EQ(got[name].max_msgs, want[name].max_msgs) << name;
        EXPECT_EQ(got[name].max_bytes, want[name].max_bytes) << name;
        EXPECT_EQ(got[name].total_msgs, want[name].total_msgs) << name;
        EXPECT_EQ(got[name].total_bytes, want[name].total_bytes) << name;
    }
    EXPECT_EQ(rows[0].nonlocal_max_msgs, want["nonlocal"].max_msgs);
    EXPECT_EQ(rows[0].nonlocal_max_bytes, want["nonlocal"].max_bytes);
    EXPECT_EQ(rows[0].nonlocal_total_msgs, want["nonlocal"].total_msgs);
    EXPECT_EQ(rows[0].nonlocal_total_bytes, want["nonlocal"].total_bytes);
}

// Yahoo: uneven switches (5 and 11 nodes); both mappings, with and without --ppn.
TEST(Account, EveryLevelMatchesTheScheduleOnYahoo)
{
    expect_bruck_counts("yahoo", "sequential", 40, 0);
    expect_bruck_counts("yahoo", "cyclic", 40, 0);
    expect_bruck_counts("yahoo", "cyclic", 37, 3);
    expect_bruck_counts("yahoo", "sequential", 37, 3);
}

// Socket hosts grouped into nodes under uneven leaf switches: socket, node
// (between the sockets of a node), switch, system.
TEST(Account, EveryLevelMatchesTheScheduleOnSocketHosts)
{
    std::string f = data + "/sockets.xml";
    expect_bruck_counts(f.c_str(), "sequential", 12, 0);
    expect_bruck_counts(f.c_str(), "cyclic", 12, 4);
    expect_bruck_counts(f.c_str(), "cyclic", 7, 3);
    expect_bruck_counts(f.c_str(), "sequential", 9, 3);
}

// The generated fat tree: leaf switches by host-number arithmetic.
TEST(Account, EveryLevelMatchesTheScheduleOnTheFatTree)
{
    expect_bruck_counts("fattree-32k", "sequential", 256, 4);
    expect_bruck_counts("fattree-32k", "cyclic", 256, 4);
}

// The provider seen by the locality-aware algorithms: the driver installs the
// platform's levels (socket, node, switch on socket hosts), so --region takes
// each of them, the algorithms pass their data check on uneven switches, and an
// unknown level is refused with the platform's list.
std::string run_driver(const std::string &args)
{
    std::string f = data + "/sockets.xml", hf = "/tmp/collsim-test-sockets-hf",
                loc = "/tmp/collsim-test-sockets-loc";
    // 4 ranks per node, 2 per socket: node-N-s0 twice, then node-N-s1 twice
    const int node_of_rank[12] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    char err[1024];
    if (tw_case_files(f.c_str(), nullptr, 12, 0, node_of_rank, hf.c_str(), loc.c_str(), err,
                      sizeof err))
        return err;
    std::string cmd = "smpirun -np 12 -platform " + f + " -hostfile " + hf +
                      " --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no"
                      " --log=root.thresh:warning " + COLLSIM_DRIVER_PATH + " --coll allgather" +
                      " --locality " + loc + " " + args + " 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    pclose(p);
    remove(hf.c_str());
    remove(loc.c_str());
    return out;
}

TEST(Provider, LocalityAwareAlgorithmsGetEveryLevelOfTheSocketPlatform)
{
    for (const char *region : {"socket", "node", "switch"}) {
        std::string out = run_driver(std::string("--alg loc_bruck_multilevel --sizes 4,1000 "
                                                 "--dtype int --account --region ") + region);
        EXPECT_EQ(out.find("FAIL"), std::string::npos) << region << ": " << out;
        EXPECT_NE(out.find("Pass"), std::string::npos) << region << ": " << out;
        EXPECT_NE(out.find("# account socket max_msgs"), std::string::npos) << out;
        EXPECT_NE(out.find("# account nonlocal max_msgs"), std::string::npos) << out;
    }
    std::string out = run_driver("--alg loc_bruck --sizes 4 --region rack");
    EXPECT_NE(out.find("unknown --region 'rack'"), std::string::npos) << out;
    EXPECT_NE(out.find("socket"), std::string::npos) << out;
    EXPECT_NE(out.find("switch"), std::string::npos) << out;
}

// <ppn> in a scenario: a sweep over ranks per node, the ppn column, and an
// impossible combination recorded as an error that names the values.
TEST(PpnScenario, SweepsRanksPerNodeIntoThePpnColumn)
{
    std::string f = data + "/ppn-sweep.xml";
    long n;
    char err[4096];
    ASSERT_EQ(tw_scenario(f.c_str(), &n, err, sizeof err), 0) << err;
    EXPECT_EQ(n, 3 * 2); // ppn {1, 4, 8} x np {8, 16}
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    EXPECT_EQ(tw_run_scenario(f.c_str(), dir, 2, nullptr, err, sizeof err), 0) << err;
    cs_result *rows = nullptr;
    size_t nrows = 0;
    ASSERT_EQ(tw_read_results((std::string(dir) + "/results.csv").c_str(), &rows, &nrows, err,
                              sizeof err), 0) << err;
    std::map<std::pair<int, int>, cs_result> by;
    for (size_t i = 0; i < nrows; i++)
        by[std::make_pair(rows[i].ppn, rows[i].np)] = rows[i];
    auto at = [&](int ppn, int np) { return by[std::make_pair(ppn, np)]; };
    tw_free_rows(rows);
    // the report's accounting section: one table per case
    char md[1024];
    std::string out = std::string(dir) + "/report";
    ASSERT_EQ(tw_report((std::string(dir) + "/results.csv").c_str(), out.c_str(), nullptr, nullptr,
                        md, sizeof md, err, sizeof err), 0) << err;
    std::ifstream in(md);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("## Non-local messages"), std::string::npos);
    EXPECT_NE(text.find("### yahoo, sequential, 4 per node, np 8, allgather\n"), std::string::npos);
    EXPECT_NE(text.find("| bruck | 8 | 3 | 56 | 14 | 336 |"), std::string::npos);
    tw_rmtree(dir);
    ASSERT_EQ(by.size(), 6u);
    for (auto &k : {std::make_pair(1, 8), std::make_pair(4, 8), std::make_pair(8, 8),
                    std::make_pair(1, 16), std::make_pair(4, 16), std::make_pair(8, 16)})
        EXPECT_STREQ(at(k.first, k.second).status, "ok") << k.first << " " << k.second;
    // bruck at np 8 (3 steps, 24 messages): all leave the node at 1 per node, none
    // at 8; at 4 per node, 3 + 2 + 1 + 1 from each node's ranks
    EXPECT_EQ(at(1, 8).nonlocal_total_msgs, 24);
    EXPECT_EQ(at(4, 8).nonlocal_total_msgs, 14);
    EXPECT_EQ(at(8, 8).nonlocal_total_msgs, 0);
}

} // namespace
