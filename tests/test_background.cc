// Background traffic (bench --background, <background traffic>): its syntax,
// where its ranks go, and, in simulations (BackgroundSim, label sim), that it
// loads the links it crosses and no others, covers the measured job's calls,
// stops cleanly, repeats bit for bit, and reaches results.csv and --resume.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "wrapper.h"

namespace {

std::string parse_error(const char *text)
{
    cs_background bg;
    cs_err e;
    if (cs_background_parse(text, &bg, &e) == 0)
        return "";
    return e.msg;
}

std::string canonical(const char *text)
{
    cs_background bg;
    cs_err e;
    if (cs_background_parse(text, &bg, &e))
        return std::string("error: ") + e.msg;
    char out[256];
    cs_background_text(&bg, out, sizeof out);
    return out;
}

} // namespace

TEST(Background, ParsesTheFormAndSpellsItOneWay)
{
    cs_background bg;
    cs_err e;
    ASSERT_EQ(cs_background_parse("alltoall:inter-switch:4M:96", &bg, &e), 0) << e.msg;
    EXPECT_STREQ(bg.level, "switch");
    EXPECT_EQ(bg.bytes, 4L << 20);
    EXPECT_EQ(bg.procs, 96);
    // quiet: nothing, or "none"; both record as ""
    EXPECT_EQ(canonical(""), "");
    EXPECT_EQ(canonical("none"), "");
    EXPECT_EQ(canonical("alltoall:inter-switch:4096K:96"), "alltoall:inter-switch:4M:96");
    EXPECT_EQ(canonical("alltoall:inter-node:1048576:8"), "alltoall:inter-node:1M:8");
    EXPECT_EQ(canonical("alltoall:inter-rack:1000:2"), "alltoall:inter-rack:1000:2");
    // @HOSTS: the nodes it runs on, as given (checked against the platform by the host)
    ASSERT_EQ(cs_background_parse("alltoall:inter-switch:4096K:96@node-33..36+node-37..39", &bg, &e), 0)
        << e.msg;
    EXPECT_STREQ(bg.hosts, "node-33..36+node-37..39");
    EXPECT_EQ(bg.procs, 96);
    EXPECT_EQ(canonical("alltoall:inter-switch:4096K:96@node-33..36+node-37..39"),
              "alltoall:inter-switch:4M:96@node-33..36+node-37..39");
    EXPECT_EQ(canonical("alltoall:inter-switch:4M:96@2-per-switch"),
              "alltoall:inter-switch:4M:96@2-per-switch");
    ASSERT_EQ(cs_background_parse("alltoall-port:inter-switch:4096K:96", &bg, &e), 0) << e.msg;
    EXPECT_EQ(bg.port, 1);
    EXPECT_EQ(canonical("alltoall-port:inter-switch:4096K:96"), "alltoall-port:inter-switch:4M:96");
    ASSERT_EQ(cs_background_parse("alltoall:inter-switch:4M:96", &bg, &e), 0) << e.msg;
    EXPECT_EQ(bg.port, 0);
}

TEST(Background, BadValuesAreNamedWithWhatIsValid)
{
    struct {
        const char *text, *want;
    } cases[] = {
        {"alltoall:inter-switch:4M",
         "--background 'alltoall:inter-switch:4M': expected alltoall:inter-LEVEL:SIZE:PROCS"},
        {"ring:inter-switch:4M:96", "unknown pattern 'ring' (valid: alltoall, alltoall-port)"},
        {"alltoall:switch:4M:96", "'switch': expected inter-LEVEL"},
        {"alltoall:inter-switch:4X:96", "size '4X': expected bytes per process"},
        {"alltoall:inter-switch:0:96", "size '0'"},
        {"alltoall:inter-switch:4M:1", "processes '1': expected an integer from 2"},
        {"alltoall:inter-switch:4M:9x", "processes '9x'"},
        {"alltoall:inter-switch:64:96", "use a size >= 96"},
        {"alltoall:inter-switch:4M:96:extra", "expected alltoall:inter-LEVEL:SIZE:PROCS"},
        {"alltoall:inter-switch:4M:96@", "hosts '': expected a --hosts SPEC of at most 127 "
                                         "characters (NAME, NAME..NAME, N-per-LEVEL[-cyclic], "
                                         "joined by '+')"},
        {"alltoall:inter-switch:4M:96@node-1,node-2", "hosts 'node-1,node-2': expected a --hosts SPEC"},
        {"alltoall:inter-switch:4M@node-1", "expected alltoall:inter-LEVEL:SIZE:PROCS[@HOSTS]"},
    };
    for (auto &c : cases)
        EXPECT_NE(parse_error(c.text).find(c.want), std::string::npos)
            << c.text << ": " << parse_error(c.text);
}

// Kandalla et al. 2010, Section 5.1: 296 measured ranks on 4 nodes of switch
// A and 29 of B (sequential); 96 background ranks, 48 per switch, on the
// nodes left free: A's 4 spare 16-core nodes hold 48 at one per core; B's 3
// spare 8-core nodes hold 24 cores, so 16 ranks each (two per core).
TEST(Background, ThePapersJobOnTheTestbedsFreeNodes)
{
    std::vector<int> node(96);
    char spread[512], err[512];
    ASSERT_EQ(tw_map_background("kandalla-testbed", "sequential", 296, "switch", 96, node.data(),
                                spread, sizeof spread, err, sizeof err),
              0)
        << err;
    std::map<int, int> per;
    for (int i = 0; i < 96; i++) {
        per[node[i]]++;
        // round-robin over the regions: even ranks on A (node-33..36), odd on B (node-37..39)
        if (i % 2 == 0)
            EXPECT_TRUE(node[i] >= 33 && node[i] < 37) << "background rank " << i << " on node-"
                                                         << node[i];
        else
            EXPECT_TRUE(node[i] >= 37 && node[i] < 40) << "background rank " << i << " on node-"
                                                         << node[i];
    }
    EXPECT_EQ(per, (std::map<int, int>{{33, 16}, {34, 16}, {35, 16}, {37, 16}, {38, 16}, {39, 16}}));
    EXPECT_NE(std::string(spread).find("48 on node-33..node-35 (switch region 0), 48 on "
                                       "node-37..node-39 (switch region 1; more ranks than cores)"),
              std::string::npos)
        << spread;
}

TEST(Background, NeedsFreeNodesInTwoRegionsAndWholeNodes)
{
    std::vector<int> node(96);
    char spread[512], err[512];
    // cyclic 64 touches all 40 nodes: nothing is free
    ASSERT_NE(tw_map_background("kandalla-testbed", "cyclic", 64, "switch", 8, node.data(), spread,
                                sizeof spread, err, sizeof err),
              0);
    EXPECT_NE(std::string(err).find("needs free nodes (used by no measured rank) in two switch "
                                    "regions at least; platform 'kandalla-testbed' with 64 "
                                    "measured ranks leaves them in 0"),
              std::string::npos)
        << err;
    // sockets are finer than the nodes the background takes
    ASSERT_NE(tw_map_background("quartz", "sequential", 36, "socket", 8, node.data(), spread,
                                sizeof spread, err, sizeof err),
              0);
    EXPECT_NE(std::string(err).find("must be node or coarser"), std::string::npos) << err;
    // inter-node: one rank per free node in turn, never on a measured node
    ASSERT_EQ(tw_map_background("kandalla-testbed", "sequential", 296, "node", 10, node.data(),
                                spread, sizeof spread, err, sizeof err),
              0)
        << err;
    for (int i = 0; i < 10; i++)
        EXPECT_EQ(node[i], 33 + i % 7) << "background rank " << i;
}

// bench: the value, the level against the platform, and the placement, each
// refused before any simulation with the value and what is valid
TEST(Background, BenchRefusesBadValuesBeforeSimulating)
{
    Out o = cli("bench --platform kandalla-testbed --np 16 --alg ring --sizes 8 "
                "--background alltoall:inter-rack:1M:8");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("--background alltoall:inter-rack:1M:8: region level 'rack' is not "
                          "declared by platform 'kandalla-testbed' (valid: node, switch)"),
              std::string::npos)
        << o.text;
    o = cli("bench --platform kandalla-testbed --np 16 --alg ring --sizes 8 --background 1M:96");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("--background '1M:96': expected alltoall:inter-LEVEL:SIZE:PROCS[@HOSTS] (e.g. "
                          "alltoall:inter-switch:4M:96; alltoall-port:... the same bytes as one flow "
                          "per node), or none"),
              std::string::npos)
        << o.text;
    o = cli("bench --platform kandalla-testbed --np 64 --map cyclic --alg ring --sizes 8 "
            "--background alltoall:inter-switch:1M:8");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("leaves them in 0"), std::string::npos) << o.text;
    o = cli("bench --help");
    EXPECT_NE(o.text.find("--background alltoall:inter-LEVEL:SIZE:PROCS"), std::string::npos)
        << o.text;
}

namespace {

// The table's rows of a bench output: "SIZE AVG MIN MAX ITERS STATUS" lines.
std::vector<std::string> rows(const std::string &text)
{
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#')
            v.push_back(line);
    return v;
}

double avg_of(const std::string &row)
{
    std::istringstream in(row);
    double size, avg;
    in >> size >> avg;
    return avg;
}

// The number after `key` in text (a "%.6f s" of the driver's lines), -1 if none.
double after(const std::string &text, const std::string &key)
{
    size_t at = text.find(key);
    return at == std::string::npos ? -1 : std::atof(text.c_str() + at + key.size());
}

} // namespace

// On the testbed, 64 ranks (sequential) fill node-0..3 of switch A: a ring
// allgather never leaves the switch, so a background that saturates the A-C
// and B-C uplinks changes none of its times (bit for bit). 128 ranks span A
// and B: the ring crosses the uplinks twice per step and slows down, more at
// 4 MB than at 1 MB of background per process.
TEST(BackgroundSim, LoadsTheUplinksAndOnlyThem)
{
    // folded buffers but for the 1 MB run, which checks the data under the background (at 128
    // ranks of 64 KiB real buffers take 3 times the host CPU of the simulation)
    const std::string base = "bench --platform kandalla-testbed --alg ring --sizes 1024,65536 "
                             "--iters 2 ",
                      fold = "--fold ";
    Out quiet = cli(base + fold + "--np 64");
    Out busy = cli(base + fold + "--np 64 --background alltoall:inter-switch:4M:96");
    ASSERT_EQ(quiet.code, 0) << quiet.text;
    ASSERT_EQ(busy.code, 0) << busy.text;
    ASSERT_EQ(rows(quiet.text).size(), 2u) << quiet.text;
    EXPECT_EQ(rows(quiet.text), rows(busy.text)) << quiet.text << busy.text;

    Out q = cli(base + fold + "--np 128");
    Out b1 = cli(base + "--np 128 --background alltoall:inter-switch:1M:96");
    Out b4 = cli(base + fold + "--np 128 --background alltoall:inter-switch:4M:96");
    for (const Out *o : {&q, &b1, &b4})
        ASSERT_EQ(o->code, 0) << o->text;
    auto rq = rows(q.text), r1 = rows(b1.text), r4 = rows(b4.text);
    ASSERT_EQ(rq.size(), 2u);
    ASSERT_EQ(r1.size(), 2u);
    ASSERT_EQ(r4.size(), 2u);
    for (size_t i = 0; i < 2; i++) {
        EXPECT_GT(avg_of(r1[i]), 1.5 * avg_of(rq[i])) << rq[i] << " | " << r1[i];
        EXPECT_NE(r1[i].find("Pass"), std::string::npos) << r1[i]; // data still checked
    }
    EXPECT_GT(avg_of(r4[1]), avg_of(r1[1])) << r1[1] << " | " << r4[1];
}

// Port-level sharing (platforms/README.md, "Port-level sharing"): an
// InfiniBand switch arbitrates between its input ports, so flows that share a
// port share its grant (Gran et al., CCGrid 2011, the parking-lot set-up).
// A 1 MiB ping-pong between node-0 (switch A) and node-4 (switch B) beside
// the 96-rank background, 16 ranks on each of node-33..35 (A) and node-37..39
// (B), whose inter-switch steps put 48 flows on each 4 GB/s uplink, 16 from
// each of its three nodes. The background's three nodes and the measured node
// are 4 input ports of the uplink's switch, so the measured flow gets 1 GB/s:
// 1,048,592 B / 1 GB/s + 2.45 us = 1,051.04 us one way (measured 1,051.05).
// Per-flow sharing gives it one of 49 shares (4 GB/s / 49: 12,847 us;
// measured 12,334, the background's steps not all in flight at once); the
// same bytes as one flow per node (alltoall-port) give it the port's share.
TEST(BackgroundSim, PortLevelSharesInTheParkingLot)
{
    const std::string base = "bench --platform kandalla-testbed --np 2 --ppn 1 --hosts node-0+node-4 "
                             "--coll pingpong --alg send_recv --sizes 1M --warmup 1 --iters 4 "
                             "--background ",
                      where = ":inter-switch:4M:96@node-33..35+node-37..39";
    Out port = cli(base + "alltoall-port" + where);
    Out flow = cli(base + "alltoall" + where);
    ASSERT_EQ(port.code, 0) << port.text;
    ASSERT_EQ(flow.code, 0) << flow.text;
    auto rp = rows(port.text), rf = rows(flow.text);
    ASSERT_EQ(rp.size(), 1u) << port.text;
    ASSERT_EQ(rf.size(), 1u) << flow.text;
    const double share = 1048592 / 1e9 * 1e6 + 2.45; // us, a quarter of the uplink
    EXPECT_GT(avg_of(rp[0]), 0.98 * share) << rp[0];
    EXPECT_LT(avg_of(rp[0]), 1.02 * share) << rp[0];
    EXPECT_GT(avg_of(rf[0]), 10 * share) << rf[0]; // per flow: 11.7x
    EXPECT_NE(port.text.find("# background alltoall-port:inter-switch: 96 ranks (world 2..97)"),
              std::string::npos)
        << port.text;
    EXPECT_NE(port.text.find("6 senders"), std::string::npos) << port.text;
    EXPECT_NE(flow.text.find("96 senders"), std::string::npos) << flow.text;
}

// The background is under way before the measured job's first call and
// stops only after every measured rank is done (the driver prints the
// simulated instants); the run exits 0 (a clean MPI_Finalize of all 224
// ranks), and a second run prints the same bytes.
TEST(BackgroundSim, CoversTheCallsStopsCleanlyAndRepeats)
{
    const std::string cmd = "bench --platform kandalla-testbed --np 128 --alg bruck --fold "
                            "--sizes 4096,65536 --warmup 1 --iters 2 "
                            "--background alltoall:inter-switch:1M:96";
    Out a = cli(cmd), b = cli(cmd);
    ASSERT_EQ(a.code, 0) << a.text;
    ASSERT_EQ(b.code, 0) << b.text;
    EXPECT_EQ(a.text, b.text);
    double bg_from = after(a.text, "under way from "), first = after(a.text, "first call after ");
    double done = after(a.text, "every rank done by "), stopped = after(a.text, "rounds at ");
    ASSERT_GT(bg_from, 0) << a.text;
    ASSERT_GT(first, 0) << a.text;
    ASSERT_GT(done, 0) << a.text;
    ASSERT_GT(stopped, 0) << a.text;
    EXPECT_LE(bg_from, first) << a.text;
    EXPECT_LT(first, done) << a.text;
    EXPECT_LE(done, stopped) << a.text;
    EXPECT_NE(a.text.find("96 ranks (world 128..223)"), std::string::npos) << a.text;
    EXPECT_GE(after(a.text, "stopped after "), 2) << a.text;
}

// A measured job that fails its data check still stops the background: the
// run ends (no hang) with the failure as its status, not a timeout.
TEST(BackgroundSim, StopsAlsoWhenTheMeasuredJobFails)
{
    Out o = run_shell("COLLSIM_FAULT=1:0:0 " + std::string(COLLSIM_CLI_PATH) +
                      " bench --platform kandalla-testbed --np 16 --alg ring --sizes 64,128 "
                      "--timeout 120 --background alltoall:inter-switch:64K:8");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("fail: check failed on rank 1, block 0"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("every rank done by"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("8 ranks (world 16..23)"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("rounds at"), std::string::npos) << o.text;
    if (is_case_dir(kept_dir(o.text))) // the failed case's directory
        run_shell("rm -rf '" + kept_dir(o.text) + "'");
}

// run: <background> sweeps (quiet and loaded cases side by side), the
// column (canonical spelling), the case's key for --resume, the --only key,
// the best-algorithm table and report split by it, and <expect> per value
TEST(BackgroundSim, ScenariosSweepItAndResultsCarryIt)
{
    char dir[] = "/tmp/collsim-bgtest-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string d = dir;
    auto write = [&](const char *traffic) {
        std::ofstream f(d + "/bg.xml");
        f << "<?xml version=\"1.0\"?>\n<scenario name=\"bg\">\n"
             "  <platform name=\"kandalla-testbed\"/>\n  <mappings>sequential</mappings>\n"
             "  <processes>16</processes>\n"
             "  <collective name=\"allgather\"><algorithms>ring bruck</algorithms></collective>\n"
             "  <sizes>64 4096</sizes>\n  <iterations warmup=\"0\" timed=\"1\"/>\n"
             "  <background>"
          << traffic << "</background>\n"
          << "  <expect faster=\"bruck\" than=\"ring\" bytes=\"64\"/>\n</scenario>\n";
    };
    write("none alltoall:inter-switch:64K:8");
    Out r = cli("run " + d + "/bg.xml --out " + d + "/out");
    ASSERT_EQ(r.code, 0) << r.text;
    EXPECT_NE(r.text.find("4 cases (0 already recorded)"), std::string::npos) << r.text;
    // the best table tells quiet from loaded; the expectation holds at both (2 points)
    EXPECT_NE(r.text.find("background"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find(" none "), std::string::npos) << r.text;
    EXPECT_NE(r.text.find(" alltoall:inter-switch:64K:8 "), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("bruck faster than ring (bytes=64): 2 of 2 points pass"),
              std::string::npos)
        << r.text;
    std::ifstream csv(d + "/out/results.csv");
    std::string header, line;
    std::getline(csv, header);
    EXPECT_NE(header.find(",counts,size_unit,root,op,segment,background,hosts,bytes,"), std::string::npos)
        << header;
    int quiet = 0, loaded = 0;
    while (std::getline(csv, line)) {
        // ...,root,op,segment,background,hosts,bytes,...: quiet rows have background and hosts empty
        quiet += line.find(",0,,0,,,64,") != std::string::npos || line.find(",0,,0,,,4096,") != std::string::npos;
        loaded += line.find(",alltoall:inter-switch:64K:8,") != std::string::npos;
    }
    EXPECT_EQ(quiet, 4);
    EXPECT_EQ(loaded, 4);
    Out rep = cli("report " + d + "/out/results.csv --out " + d + "/rep");
    ASSERT_EQ(rep.code, 0) << rep.text;
    std::ifstream md(d + "/rep/report.md");
    std::string all((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
    EXPECT_NE(all.find("kandalla-testbed, sequential mapping, background alltoall:inter-switch:64K:8"),
              std::string::npos)
        << all.substr(0, 3000);
    r = cli("run " + d + "/bg.xml --out " + d + "/out --resume");
    EXPECT_NE(r.text.find("4 cases (4 already recorded)"), std::string::npos) << r.text;
    r = cli("run " + d + "/bg.xml --out " + d + "/o2 --only background=alltoall:inter-switch:65536:8,alg=ring");
    EXPECT_NE(r.text.find("1 cases (0 already recorded)"), std::string::npos) << r.text;
    // another background is another case: not recorded yet
    write("none alltoall:inter-switch:128K:8");
    r = cli("run " + d + "/bg.xml --out " + d + "/out --resume --accept-changes");
    EXPECT_NE(r.text.find("4 cases (2 already recorded)"), std::string::npos) << r.text;
    // bad values: refused at load, naming file, line and value
    struct {
        const char *traffic, *want;
    } bad[] = {
        {"none 4M:96", "bg.xml:9: <background>: --background '4M:96': expected "
                       "alltoall:inter-LEVEL:SIZE:PROCS"},
        {"alltoall:inter-switch:4096K:8 alltoall:inter-switch:4M:8",
         "bg.xml:9: <background>: 'alltoall:inter-switch:4M:8' listed twice"},
        {"alltoall:inter-rack:64K:8", "bg.xml:9: <background> alltoall:inter-rack:64K:8: region "
                                      "level 'rack' is not declared by platform "
                                      "'kandalla-testbed' (valid: node, switch)"},
    };
    for (auto &b : bad) {
        write(b.traffic);
        r = cli("run " + d + "/bg.xml --out " + d + "/o3");
        EXPECT_EQ(r.code, 2) << r.text;
        EXPECT_NE(r.text.find(b.want), std::string::npos) << b.want << "\n" << r.text;
    }
    run_shell("rm -rf " + d);
}
