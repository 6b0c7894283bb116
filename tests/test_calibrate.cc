// The Cray XC40 Aries platforms (cori, cori-knl, theta) and `collsim calibrate`:
// the platforms hold 32K ranks and declare their levels; calibrate fits
// hand-computed values on a tiny platform, prints the summary line, and names
// the file, line and property of every bad calibration property.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <set>
#include <utility>
#include <vector>

#include "cli.h"
#include "wrapper.h"
#include "calibrate_util.h"

namespace {

struct Aries {
    const char *name;
    int nodes, cores;
};
// the adaptive-routing files, then the same machines with minimal routes
const Aries kAries[] = {{"cori", 1152, 32},         {"cori-knl", 768, 68},         {"theta", 768, 64},
                        {"cori-minimal", 1152, 32}, {"cori-knl-minimal", 768, 68}, {"theta-minimal", 768, 64}};
bool minimal(const Aries &a) { return std::string(a.name).find("-minimal") != std::string::npos; }

TEST(AriesPlatforms, HoldAndMap32KRanks)
{
    char err[2048];
    for (const Aries &a : kAries) {
        int nnodes = 0;
        long cores = 0;
        ASSERT_EQ(tw_platform_shape(a.name, &nnodes, &cores, err, sizeof err), 0) << a.name << ": " << err;
        EXPECT_EQ(nnodes, a.nodes) << a.name;
        EXPECT_EQ(cores, (long)a.nodes * a.cores) << a.name;
        EXPECT_GE(cores, 32768) << a.name;
        std::vector<int> node(32768);
        for (const char *map : {"cyclic", "sequential"}) {
            ASSERT_EQ(tw_map(a.name, map, 32768, 0, node.data(), err, sizeof err), 0) << a.name << ": " << err;
            std::vector<int> per(a.nodes, 0);
            for (int n : node) {
                ASSERT_GE(n, 0);
                ASSERT_LT(n, a.nodes);
                per[n]++;
            }
            for (int k : per)
                ASSERT_LE(k, a.cores) << a.name << " " << map;
        }
        // sequential (the last mapping above): node i holds ranks i*cores .. (i+1)*cores - 1
        EXPECT_EQ(node[a.cores], 1) << a.name;
        EXPECT_EQ(node[32767], 32767 / a.cores) << a.name;
    }
}

TEST(AriesPlatforms, DeclareTheirLevelsAndPublishedValues)
{
    char levels[512], regimes[256], err[2048];
    int npub = 0;
    for (const Aries &a : kAries) {
        ASSERT_EQ(tw_calibration(a.name, levels, sizeof levels, regimes, sizeof regimes, &npub, err,
                                 sizeof err), 0) << a.name << ": " << err;
        // one level per route latency class: the minimal routes also tell same-chassis pairs apart
        EXPECT_STREQ(levels, minimal(a) ? "same-node same-router same-chassis same-group other-group"
                                        : "same-node same-router same-group other-group") << a.name;
        EXPECT_STREQ(regimes, "all") << a.name;
        EXPECT_EQ(npub, minimal(a) ? 4 : 3) << a.name; // every network level; same-node has none
    }
    // a platform without calibration properties is an error, not an empty table
    EXPECT_EQ(tw_calibration("yahoo", levels, sizeof levels, regimes, sizeof regimes, &npub, err,
                             sizeof err), -1);
    EXPECT_NE(std::string(err).find("declares nothing to calibrate"), std::string::npos) << err;
}

TEST(Calibrate, FitsHandComputedValues)
{
    // tests/data/calib-flat.xml: 2 x 5 us links at 1 GB/s, loopback 1 us at 4 GB/s; alpha adds
    // SMPI's 16 bytes per message and 5 ns of MPI_Wtime per one-way time (see the file)
    Out o = cli("calibrate " + kData + "/calib-flat.xml");
    ASSERT_EQ(o.code, 0) << o.text;
    struct {
        const char *level, *regime;
        double alpha_us, beta_ns;
    } want[] = {
        {"network", "short", 10.0 + 0.016 + 0.005, 1.0},
        {"network", "long", 10.0 + 0.016 + 0.005, 1.0},
        {"same-node", "short", 1.0 + 0.004 + 0.005, 0.25},
        {"same-node", "long", 1.0 + 0.004 + 0.005, 0.25},
    };
    for (auto &w : want) {
        double a = 0, b = 0;
        ASSERT_TRUE(row(o.text, w.level, w.regime, &a, &b)) << w.level << " " << w.regime << "\n" << o.text;
        EXPECT_NEAR(a, w.alpha_us, 1e-3 * w.alpha_us) << w.level << " " << w.regime;
        EXPECT_NEAR(b, w.beta_ns, 1e-4 * w.beta_ns) << w.level << " " << w.regime;
    }
    // the network's "long" reference is off on purpose: beta 20% (the maximum), alpha 8.90%
    EXPECT_EQ(last_line(o.text), "calibration: max relative error 20.00% over 8 parameters") << o.text;
    EXPECT_NE(o.text.find("8.90"), std::string::npos) << o.text;

    Out strict = cli("calibrate " + kData + "/calib-flat.xml --sizes 4,64,1K,64K --max-error 5");
    EXPECT_EQ(strict.code, 1) << strict.text;
    EXPECT_NE(strict.text.find("exceeds --max-error 5%"), std::string::npos) << strict.text;
}

// The full model's overheads (collsim.overhead.*) are part of the end-to-end latency the links
// hold: calibrate shows o_s + o_r beside each level's fitted alpha and fails where they exceed it.
TEST(Calibrate, OverheadsAreHeldWithinTheLatency)
{
    std::ifstream in(kData + "/calib-flat.xml");
    std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string at = "    <prop id=\"collsim.regimes\"";
    ASSERT_NE(xml.find(at), std::string::npos);
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    auto with = [&](const char *node_o) {
        std::string x = xml;
        x.insert(x.find(at), std::string("    <prop id=\"collsim.overhead.send\" value=\"0:3e-6:0\"/>\n"
                                         "    <prop id=\"collsim.overhead.recv\" value=\"0:3e-6:0\"/>\n"
                                         "    <prop id=\"collsim.overhead.send.node\" value=\"") +
                                 node_o + "\"/>\n");
        const std::string path = std::string(dir) + "/o.xml";
        std::ofstream(path) << x;
        return cli("calibrate " + path);
    };
    Out ok = with("0:2e-7:0"); // node: 0.2 us + the plain recv 3 us = 3.2 us > 1.009: not held
    EXPECT_EQ(ok.code, 1) << ok.text;
    EXPECT_NE(ok.text.find("network        system           6.0000"), std::string::npos) << ok.text;
    EXPECT_NE(ok.text.find("same-node      node             3.2000"), std::string::npos) << ok.text;
    EXPECT_NE(ok.text.find("NO: the overheads exceed the latency that holds them"),
              std::string::npos) << ok.text;
    EXPECT_NE(ok.text.find("1 level(s) with o_s + o_r above the fitted alpha"), std::string::npos)
        << ok.text;
    std::string x = xml;
    x.insert(x.find(at), "    <prop id=\"collsim.overhead.send\" value=\"0:3e-6:0\"/>\n"
                         "    <prop id=\"collsim.overhead.recv\" value=\"0:3e-6:0\"/>\n"
                         "    <prop id=\"collsim.overhead.send.node\" value=\"0:2e-7:0\"/>\n"
                         "    <prop id=\"collsim.overhead.recv.node\" value=\"0:3e-7:0\"/>\n");
    std::ofstream(std::string(dir) + "/o2.xml") << x;
    Out held = cli("calibrate " + std::string(dir) + "/o2.xml");
    EXPECT_EQ(held.code, 0) << held.text;
    EXPECT_NE(held.text.find("same-node      node             0.5000"), std::string::npos) << held.text;
    EXPECT_EQ(held.text.find("NO:"), std::string::npos) << held.text;
    tw_rmtree(dir);
}

TEST(Calibrate, ThetaMatchesTheAriesFigures)
{
    // one simulated ping-pong per level on the real 768-node file: two route latency classes, so
    // the other group's 1.5 us (1.507 fitted) is 16.28% below the published longest minimal route
    // (1.8 us)
    Out o = cli("calibrate theta --max-error 17");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(last_line(o.text).rfind("calibration: max relative error 16.", 0), 0u) << o.text;
    EXPECT_NE(o.text.find("over 6 parameters"), std::string::npos) << o.text; // 3 published levels
    double a = 0, b = 0;
    ASSERT_TRUE(row(o.text, "same-router", "all", &a, &b)) << o.text;
    EXPECT_NEAR(a, 1.3, 0.013);
    EXPECT_NEAR(b, 0.125, 0.00125);
    ASSERT_TRUE(row(o.text, "same-group", "all", &a, &b)) << o.text;
    EXPECT_NEAR(a, 1.5, 0.015);
    ASSERT_TRUE(row(o.text, "other-group", "all", &a, &b)) << o.text;
    EXPECT_NEAR(a, 1.5, 0.015);
    // above 16%, so --max-error 16 would fail (its exit code: Calibrate.FitsHandComputedValues)
    const std::string last = last_line(o.text);
    EXPECT_GT(std::stod(last.substr(std::string("calibration: max relative error ").size())), 16.0)
        << last;

    // the three-class variant (-l 3) matches every published level within 1%
    char dir[512];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string file = std::string(dir) + "/theta-3lat.xml";
    Out g = run_shell("sh " + kData + "/../../platforms/generate-aries.sh -l 3 theta " + file);
    ASSERT_EQ(g.code, 0) << g.text;
    Out t = cli("calibrate " + file + " --max-error 1");
    tw_rmtree(dir);
    ASSERT_EQ(t.code, 0) << t.text;
    ASSERT_TRUE(row(t.text, "same-group", "all", &a, &b)) << t.text;
    EXPECT_NEAR(a, 1.5, 0.015);
    ASSERT_TRUE(row(t.text, "other-group", "all", &a, &b)) << t.text;
    EXPECT_NEAR(a, 1.8, 0.018);
}

// The ring allgather of 1 MiB per rank over 128 nodes (ppn 1, two chassis of cori): each node sends
// and receives 127 blocks, so its 8 GB/s node link bounds the call at 127 x 1 MiB / 8 GB/s =
// 16,646.6 us, and no other link binds on the adaptive model (a router's local link carries one
// flow each way, 157.5 GB/s). The minimal routes put the ring's two chassis-crossing flows on one
// green link (8 GB/s shared: 4 GB/s each), which doubles the call.
double ring_max_us(const std::string &platform)
{
    Out o = cli("bench --platform " + platform + " --np 128 --ppn 1 --alg ring --sizes 1M --fold "
                "--iters 1 --warmup 0");
    EXPECT_EQ(o.code, 0) << o.text;
    std::istringstream in(o.text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        double size = 0, avg = 0, mn = 0, mx = 0;
        if (f >> size >> avg >> mn >> mx && size == 1048576)
            return mx;
    }
    ADD_FAILURE() << "no 1048576 row in:\n" << o.text;
    return 0;
}

TEST(AriesPlatforms, AdaptiveRingWithinFivePercentOfItsBandwidthBound)
{
    const double bound_us = 127 * 1048576.0 / 8e9 * 1e6;
    const double t = ring_max_us("cori");
    EXPECT_GE(t, bound_us);
    EXPECT_LE(t, 1.05 * bound_us) << t << " us against the bound " << bound_us << " us";
}

TEST(AriesPlatforms, MinimalRingSharesOneGreenLink)
{
    // the minimal model's time for this case: about twice the bound
    EXPECT_NEAR(ring_max_us("cori-minimal"), 33615.19, 0.01);
}

// The adaptive files leave the router and group bundles out (they cannot bind) and give each pair
// of routers one link with its route's latency; the same model with the bundles written out
// (-r adaptive-bundles) predicts the same times, with two route latency classes (the default) and
// with three (-l 3). Two groups of theta, 512 ranks one per node (sequential: nodes 0..511, so
// Bruck's steps cross routers and groups), 8 B and 64 KiB.
TEST(AriesPlatforms, PairLinksGiveTheBundlesTimes)
{
    char dir[512];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string gen = "sh " + kData + "/../../platforms/generate-aries.sh ";
    std::string rows[2][2];
    for (int c = 0; c < 2; c++) {
        int i = 0;
        for (const char *r : {"adaptive", "adaptive-bundles"}) {
            const std::string file = std::string(dir) + "/" + r + ".xml";
            Out g = run_shell(gen + "-r " + r + (c ? " -l 3" : "") + " theta " + file + " 2");
            ASSERT_EQ(g.code, 0) << g.text;
            Out o = cli("bench --platform " + file + " --np 512 --ppn 1 --alg bruck --sizes 8,64K "
                        "--fold --iters 1 --warmup 0");
            ASSERT_EQ(o.code, 0) << o.text;
            std::istringstream in(o.text);
            std::string line;
            while (std::getline(in, line))
                if (!line.empty() && line[0] != '#')
                    rows[c][i] += line + "\n";
            i++;
        }
        EXPECT_NE(rows[c][0].find("65536"), std::string::npos) << rows[c][0];
        EXPECT_EQ(rows[c][0], rows[c][1]) << (c ? "three classes" : "two classes");
    }
    tw_rmtree(dir);
    // the third class (0.3 us more between groups) is slower: the 8-byte row's average
    auto avg8 = [](const std::string &r) {
        std::istringstream in(r);
        double size = 0, avg = 0;
        in >> size >> avg;
        EXPECT_EQ(size, 8) << r;
        return avg;
    };
    EXPECT_GT(avg8(rows[1][0]), avg8(rows[0][0]));
}

// ---- Kandalla et al. 2010: ranger (its Table 1) and the paper's testbed (Section 5.1) ----

// Writes calib-flat.xml with one line replaced (or a line inserted after it).
std::string variant(const std::string &dir, const std::string &name, const std::string &from,
                    const std::string &to)
{
    std::ifstream in(kData + "/calib-flat.xml");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        s.replace(at, from.size(), to);
    std::string path = dir + "/" + name + ".xml";
    std::ofstream(path) << s;
    return path;
}

// A level name longer than its column widens the columns: the heading and every row end at one
// column (they shifted by the name's excess).
TEST(Calibrate, LongNamesKeepTheColumnsAligned)
{
    char dir[512];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string lv = "<prop id=\"collsim.calibrate.network\" value=\"node-0 node-1\"/>";
    std::string path = variant(dir, "long-level", lv,
                               lv + "\n    <prop id=\"collsim.calibrate.the-other-way-round-over-"
                                    "the-switch\" value=\"node-1 node-0\"/>");
    Out o = cli("calibrate " + path + " --sizes 4,64,1K,64K");
    EXPECT_EQ(o.code, 0) << o.text;
    std::istringstream in(o.text);
    std::set<size_t> widths;
    int rows = 0;
    bool table = false;
    for (std::string line; std::getline(in, line);) {
        table = table || !line.rfind("# level", 0);
        if (table && line.rfind("calibration:", 0)) {
            widths.insert(line.size());
            rows++;
        }
    }
    EXPECT_EQ(rows, 7) << o.text; // the heading, 3 levels x 2 regimes
    EXPECT_EQ(widths.size(), 1u) << o.text;
    tw_rmtree(dir);
}

TEST(Calibrate, BadPropertiesNameTheFileLineAndProperty)
{
    char dir[512];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string d = dir;
    const std::string lv = "<prop id=\"collsim.calibrate.network\" value=\"node-0 node-1\"/>";
    const std::string rg = "<prop id=\"collsim.regimes\" value=\"short:0-255 long:256-\"/>";
    const std::string pub = "<prop id=\"collsim.published.network.short\" value=\"10.021e-6 1e-9\"/>";
    struct {
        const char *name;
        std::string from, to, want;
    } cases[] = {
        {"unknown-host", lv, "<prop id=\"collsim.calibrate.network\" value=\"node-0 node-9\"/>",
         "<prop id=\"collsim.calibrate.network\" value=\"node-0 node-9\">: host 'node-9' is not in the platform (hosts: node-0 .. node-1)"},
        {"one-host", lv, "<prop id=\"collsim.calibrate.network\" value=\"node-0\"/>",
         "<prop id=\"collsim.calibrate.network\" value=\"node-0\">: expected two host names"},
        {"bad-level-name", lv, "<prop id=\"collsim.calibrate.net.work\" value=\"node-0 node-1\"/>",
         "<prop id=\"collsim.calibrate.net.work\">: unknown collsim property (did you mean "
         "collsim.calibrate.PATH?"},
        {"undeclared-level", pub, "<prop id=\"collsim.published.netwrk.short\" value=\"10.021e-6 1e-9\"/>",
         "<prop id=\"collsim.published.netwrk.short\">: level 'netwrk' is not declared by a collsim.calibrate.LEVEL property (declared: same-node, network)"},
        {"undeclared-regime", pub, "<prop id=\"collsim.published.network.eager\" value=\"10.021e-6 1e-9\"/>",
         "<prop id=\"collsim.published.network.eager\">: regime 'eager' is not declared (collsim.regimes declares: short, long)"},
        {"bad-numbers", pub, "<prop id=\"collsim.published.network.short\" value=\"10.021e-6\"/>",
         "<prop id=\"collsim.published.network.short\" value=\"10.021e-6\">: expected two positive numbers"},
        {"negative", pub, "<prop id=\"collsim.published.network.short\" value=\"-1e-6 1e-9\"/>",
         "expected two positive numbers 'ALPHA_S BETA_S_PER_B'"},
        {"overlap", rg, "<prop id=\"collsim.regimes\" value=\"short:0-300 long:256-\"/>",
         "<prop id=\"collsim.regimes\" value=\"short:0-300 long:256-\">: regimes 'short' and 'long' overlap"},
        {"bad-range", rg, "<prop id=\"collsim.regimes\" value=\"short:0..255 long:256-\"/>",
         "cannot read 'short:0..255': expected NAME:LO-HI or NAME:LO-"},
        {"narrow", rg, "<prop id=\"collsim.regimes\" value=\"short:0-3 long:4-\"/>",
         "<prop id=\"collsim.regimes\">: regime 'short' holds 0 of the measured sizes; a fit needs at least 2"},
        {"duplicate", lv, lv + "\n    " + lv, "<prop id=\"collsim.calibrate.network\">: declared twice (first at line"},
        {"in-cluster", "router_id=\"calib-flat-switch\"/>",
         "router_id=\"calib-flat-switch\">\n      " + pub + "\n    </cluster>",
         "<prop id=\"collsim.published.network.short\"> in <cluster id=\"calib-flat-cluster\">: "
         "collsim reads this property only on the top-level zone"},
    };
    for (auto &c : cases) {
        std::string path = variant(d, c.name, c.from, c.to);
        Out o = cli("calibrate " + path);
        EXPECT_EQ(o.code, 2) << c.name << "\n" << o.text;
        EXPECT_NE(o.text.find(path + ":"), std::string::npos) << c.name << ": no file:line\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.name << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.name << ": not one line:\n" << o.text;
    }
    tw_rmtree(dir);

    Out none = cli("calibrate yahoo");
    EXPECT_EQ(none.code, 2) << none.text;
    EXPECT_NE(none.text.find("yahoo.xml: declares nothing to calibrate"), std::string::npos) << none.text;
    Out usage = cli("calibrate");
    EXPECT_EQ(usage.code, 2) << usage.text;
    EXPECT_NE(usage.text.find("calibrate needs a platform"), std::string::npos) << usage.text;
}

// ---- SMPI's network factors per level (sim/driver/factors.cc; platforms/README.md, "Lassen's regimes") ----

// The largest error of a calibrate run, from its last line.
double max_error(const std::string &text)
{
    double pct = -1;
    std::sscanf(last_line(text).c_str(), "calibration: max relative error %lf%%", &pct);
    return pct;
}

// Under the full model (calibrate's, the default) each level takes its own factors, fitted to
// its published row: the whole table within 10% (one factor per regime reached only 76.41%).
TEST(Calibrate, LassenFullModelWithinTenPercent)
{
    Out o = cli("calibrate lassen --max-error 10");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("over 18 parameters"), std::string::npos) << o.text;
    const double worst = max_error(o.text);
    EXPECT_GE(worst, 0) << o.text;
    EXPECT_LE(worst, 10.0) << o.text;
    double a = 0, b = 0; // the one-factor fit's worst: inter-socket eager beta 0.388 ns/B
    ASSERT_TRUE(row(o.text, "inter-socket", "eager", &a, &b)) << o.text;
    EXPECT_NEAR(b, 0.22, 0.022);
    EXPECT_NEAR(a, 1.17, 0.117);
}

} // namespace
