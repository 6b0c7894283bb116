// The command line as users meet it: listings, a single bench run (paths
// with spaces, the hand command, the region level), the demo and the
// script's build notice. How a run ends badly: test_cli_failures.cc.
#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "cli.h"
#include "wrapper.h"

namespace {

TEST(Cli, ListsAlgorithmsAndPlatforms)
{
    Out a = cli("list algorithms");
    EXPECT_EQ(a.code, 0);
    for (const char *name : {"allgather/ring", "allgather/neighbor_exchange",
                             "allgather/recursive_doubling", "allgather/bruck", "allgather/sparbit",
                             "native:{ompi,mpich,mvapich2,impi}"})
        EXPECT_NE(a.text.find(name), std::string::npos) << name;
    Out p = cli("list platforms");
    EXPECT_EQ(p.code, 0);
    for (const char *name : {"yahoo", "cervino", "fattree-32k"})
        EXPECT_NE(p.text.find(name), std::string::npos) << name;
    EXPECT_NE(p.text.find("32768"), std::string::npos);
}

TEST(Cli, BenchPrintsAnOsuTable)
{
    Out o = cli("bench --platform yahoo --np 13 --map cyclic --alg sparbit --sizes 1:1024 --iters 2");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("# Size"), std::string::npos);
    EXPECT_NE(o.text.find("Avg Latency(us)"), std::string::npos);
    size_t passes = 0;
    for (size_t at = 0; (at = o.text.find("Pass", at)) != std::string::npos; at++)
        passes++;
    EXPECT_EQ(passes, 11u) << o.text; // 1, 2, 4, ..., 1024
}

// inter_allgather(v): the groups, layout, ratio and count pattern reach the
// driver (its header), every byte is checked (Pass), and the header names
// the paper's metric
TEST(Cli, BenchRunsAnIntergroupCollective)
{
    Out o = cli("bench --platform yahoo --np 7 --coll inter_allgatherv --alg kang_segmented "
                "--groups 2:5 --layout interleaved --block-ratio 1:4 --counts arithmetic "
                "--dtype int --sizes 4,64,4096 --iters 1");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("# collsim inter_allgatherv/kang_segmented np=7 mode=check dtype=int "
                          "groups=2:5 layout=interleaved block-ratio=1:4 counts=arithmetic"),
              std::string::npos) << o.text;
    EXPECT_NE(o.text.find("(Max: Kang et al.'s metric)"), std::string::npos) << o.text;
    size_t passes = 0;
    for (size_t at = 0; (at = o.text.find("Pass", at)) != std::string::npos; at++)
        passes++;
    EXPECT_EQ(passes, 3u) << o.text;
    // --size-unit node: 64 and 4096 bytes per node at 2 ranks per node are
    // blocks of 32 and 2048 bytes, said so
    Out n = cli("bench --platform yahoo --np 7 --ppn 2 --coll inter_allgather --alg kang_segmented "
                "--groups 2:5 --size-unit node --sizes 64,4096 --iters 1");
    ASSERT_EQ(n.code, 0) << n.text;
    EXPECT_NE(n.text.find("# sizes given per node, 2 ranks per node: each rank's block is the size / 2"),
              std::string::npos) << n.text;
    EXPECT_NE(n.text.find("\n32 "), std::string::npos) << n.text;
    EXPECT_NE(n.text.find("\n2048 "), std::string::npos) << n.text;
    EXPECT_EQ(n.text.find("\n4096 "), std::string::npos) << n.text;
    // the list shows them, without SMPI built-ins (SMPI has no intercommunicators)
    Out l = cli("list algorithms");
    EXPECT_NE(l.text.find("inter_allgather/kang_segmented"), std::string::npos);
    EXPECT_EQ(l.text.find("inter_allgather/native:"), std::string::npos) << l.text;
}

TEST(Cli, BenchFailsWhenTheDataCheckFails)
{
    setenv("COLLSIM_FAULT", "2:1:0", 1);
    Out f = cli("bench --platform yahoo --np 6 --alg ring --sizes 16 --iters 1");
    unsetenv("COLLSIM_FAULT");
    EXPECT_EQ(f.code, 1) << f.text;
    EXPECT_NE(f.text.find("FAIL"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("rank 2, block 1, offset 0"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("re-run by hand"), std::string::npos) << f.text;
    // each size's note is the driver's own diagnosis of that size, not SMPI's output
    setenv("COLLSIM_FAULT", "1:2:3", 1);
    Out two = cli("bench --platform yahoo --np 4 --alg ring --sizes 8,16 --iters 1");
    unsetenv("COLLSIM_FAULT");
    EXPECT_NE(two.text.find("size 8: fail: check failed on rank 1, block 2, offset 3: expected 0x"),
              std::string::npos) << two.text;
    EXPECT_EQ(two.text.find("SMPI process did not return"), std::string::npos) << two.text;
}

// A results directory or a TMPDIR whose path holds a space (SimGrid's smpirun splits its
// hostfile, temporary directory and program arguments at spaces): the cases run, and the command
// a failed bench prints to re-run it by hand is one shell command that runs as printed.
TEST(Cli, PathsWithSpacesRunAndTheHandCommandRunsAsPrinted)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string base = std::string(dir) + "/a b", tmp = base + "/t d";
    ASSERT_EQ(run_shell("mkdir -p '" + tmp + "'").code, 0);
    const std::string scen = std::string(COLLSIM_TEST_DATA_DIR) + "/scaleout-small.xml";
    Out run = run_shell("TMPDIR='" + tmp + "' " + COLLSIM_CLI_PATH + " run " + scen + " --out '" +
                        base + "/out' --only np=4,alg=ring");
    EXPECT_EQ(run.code, 0) << run.text;
    EXPECT_NE(run.text.find("ring                           ok ("), std::string::npos) << run.text;
    setenv("COLLSIM_FAULT", "1:2:3", 1);
    Out f = run_shell("TMPDIR='" + tmp + "' " + COLLSIM_CLI_PATH +
                      " bench --platform yahoo --np 4 --alg ring --sizes 8 --iters 1");
    unsetenv("COLLSIM_FAULT");
    EXPECT_EQ(f.code, 1) << f.text;
    size_t at = f.text.find("re-run by hand with:\n  ");
    ASSERT_NE(at, std::string::npos) << f.text;
    std::string cmd = f.text.substr(at + 23);
    cmd = cmd.substr(0, cmd.find('\n'));
    EXPECT_EQ(cmd.rfind("cd '" + tmp + "/collsim-bench-", 0), 0u) << cmd;
    Out again = run_shell("cd / && " + cmd);
    EXPECT_EQ(again.code, 0) << cmd << "\n" << again.text;
    EXPECT_NE(again.text.find("Pass"), std::string::npos) << again.text;
    tw_rmtree(dir);
}

// `list algorithms`: the columns are as wide as their longest entry, so every algorithm's source
// and restriction start where the heading's do (long section names shifted them).
TEST(Cli, ListAlgorithmsKeepsItsColumns)
{
    Out o = cli("list algorithms");
    ASSERT_EQ(o.code, 0) << o.text;
    const std::string head = o.text.substr(0, o.text.find('\n'));
    const size_t src = head.find("source (section)"), res = head.find("restriction / fallback");
    ASSERT_NE(src, std::string::npos) << head;
    ASSERT_NE(res, std::string::npos) << head;
    size_t start = o.text.find('\n') + 1, rows = 0;
    for (size_t end; (end = o.text.find('\n', start)) != std::string::npos; start = end + 1) {
        std::string line = o.text.substr(start, end - start);
        if (line.empty())
            break; // the SMPI built-ins follow: one line each, no columns
        if (!line.rfind("    paper: ", 0))
            continue;
        rows++;
        ASSERT_GT(line.size(), res) << line;
        EXPECT_TRUE(line[src - 1] == ' ' && line[src] != ' ') << line;
        EXPECT_TRUE(line[res - 1] == ' ' && line[res] != ' ') << line;
    }
    EXPECT_GT(rows, 30u) << o.text;
}

// `postal` checks its arguments before anything is printed: a bad --nodes or --sizes is the only
// line, not one under the table's heading.
TEST(Cli, PostalChecksItsArgumentsBeforeItsHeader)
{
    struct {
        const char *args, *error;
    } cases[] = {
        {"--nodes 0,999", "collsim: --nodes: '999' is not a node of yahoo (valid: node-0 .. node-15, "
                          "or 0 .. 15)\n"},
        {"--nodes 3", "collsim: --nodes takes two nodes A,B (names or indices), got '3'\n"},
        {"--sizes 0x", "collsim: size list: cannot read '0x'"},
    };
    for (auto &c : cases) {
        Out o = cli(std::string("postal --platform yahoo ") + c.args);
        EXPECT_EQ(o.code, 2) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.rfind(c.error, 0), 0u) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.args << "\n" << o.text;
    }
}

// Headings in plain words: one rank is "1 rank", and a scenario without a description has no
// dangling colon.
TEST(Cli, HeadingsSayOneRankAndNoEmptyDescription)
{
    Out one = cli("bench --platform yahoo --np 1 --alg ring --sizes 8 --iters 1");
    EXPECT_EQ(one.code, 0) << one.text;
    EXPECT_NE(one.text.find(" mapping, 1 rank\n"), std::string::npos) << one.text;
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    Out run = cli(std::string("run ") + COLLSIM_TEST_DATA_DIR + "/scaleout-small.xml --out " + dir +
                  "/o --only np=4,alg=ring");
    EXPECT_EQ(run.code, 0) << run.text;
    EXPECT_EQ(run.text.rfind("# scenario scaleout-small\n", 0), 0u) << run.text;
    tw_rmtree(dir);
}

// --region: the locality-aware algorithms' region level reaches the driver
// (bench: data-checked, and the level changes the schedule so the time), and
// a scenario's <region> is recorded in the results' region column
TEST(Cli, RegionLevelReachesTheDriverAndTheResults)
{
    // quartz: a host is a socket of 18 cores; 36 per node fills both sockets
    const std::string base =
        "bench --platform quartz --np 72 --ppn 36 --alg loc_bruck --dtype int --sizes 8 --iters 1";
    Out s = cli(base + " --region socket");
    ASSERT_EQ(s.code, 0) << s.text;
    EXPECT_NE(s.text.find("36 per node, region socket"), std::string::npos) << s.text;
    EXPECT_NE(s.text.find("Pass"), std::string::npos) << s.text;
    Out n = cli(base + " --region node");
    ASSERT_EQ(n.code, 0) << n.text;
    // the table's last line: size, time, ...; the levels give different schedules
    auto row = [](const std::string &t) { return t.substr(t.rfind("\n8 ") + 1); };
    EXPECT_NE(row(s.text), row(n.text)) << s.text << n.text;

    char dir[] = "/tmp/collsim-test-region-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string out = std::string(dir) + "/out";
    Out r = cli("run " COLLSIM_TEST_DATA_DIR "/region-sweep.xml -j 1 --out " + out +
                " --only alg=loc_bruck,np=16,mapping=sequential");
    ASSERT_EQ(r.code, 0) << r.text;
    FILE *f = fopen((out + "/results.csv").c_str(), "r");
    ASSERT_NE(f, nullptr);
    std::string csv;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        csv.append(buf, k);
    fclose(f);
    EXPECT_NE(csv.find("quartz,sequential,16,4,allgather,loc_bruck,node,full,int,fold"), std::string::npos)
        << csv;
    EXPECT_NE(csv.find("quartz,sequential,16,4,allgather,loc_bruck,socket,full,int,fold"),
              std::string::npos)
        << csv;
    std::string rm = "rm -rf " + std::string(dir);
    EXPECT_EQ(system(rm.c_str()), 0);
}

// demo run again keeps what it would replace, and says where
TEST(Cli, DemoKeepsThePreviousResults)
{
    char tmpl[] = "/tmp/collsim-demo-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string out = std::string(tmpl) + "/quickstart";
    Out first = cli("demo --out " + out + " --only alg=ring,np=5,mapping=sequential");
    ASSERT_EQ(first.code, 0) << first.text;
    EXPECT_EQ(first.text.find("is kept as"), std::string::npos) << first.text;
    Out second = cli("demo --out " + out + " --only alg=ring,np=5,mapping=sequential");
    ASSERT_EQ(second.code, 0) << second.text;
    EXPECT_NE(second.text.find("the previous " + out + " is kept as " + out + ".1"),
              std::string::npos) << second.text;
    EXPECT_EQ(access((out + ".1/results.csv").c_str(), F_OK), 0);
    EXPECT_EQ(access((out + "/results.csv").c_str(), F_OK), 0);
    EXPECT_EQ(system(("rm -rf " + std::string(tmpl)).c_str()), 0);
}

// ./collsim builds before it runs: it says so first (the first build took 11 minutes on a busy
// machine without a word) and how long it took; nothing when there is nothing to build. Only
// where this build is the script's own (build/ of the source tree), which has nothing to build
// while its tests run.
TEST(Cli, TheScriptSaysWhenItBuilds)
{
    const std::string root = COLLSIM_SOURCE_DIR;
    if (std::string(COLLSIM_CLI_PATH) != root + "/build/collsim-cli")
        GTEST_SKIP() << "the tests' build is not the script's build/";
    // as after a change of the sources: neither the tools' stamp nor the whole build's is
    // newer than them (the CLI's commands build the tools alone; `test` builds everything)
    unlink((root + "/build/.collsim-built").c_str());
    unlink((root + "/build/.collsim-built-tools").c_str());
    Out o = run_shell(root + "/collsim list algorithms");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(o.text.find("collsim: rebuilding what changed in " + root + "/build...\n"), 0u)
        << o.text;
    EXPECT_NE(o.text.find("\ncollsim: built in "), std::string::npos) << o.text;
    o = run_shell(root + "/collsim list algorithms");
    EXPECT_EQ(o.code, 0) << o.text;
    // up to date: no build tool runs, nothing is said
    EXPECT_EQ(o.text.find("collsim: "), std::string::npos) << o.text;
    EXPECT_TRUE(std::filesystem::exists(root + "/build/.collsim-built-tools"));
}

} // namespace
