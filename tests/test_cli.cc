// The command line as users meet it: listings, a single bench run, killing
// or interrupting it, its CPU timeout, and a one-line error naming the value
// and the valid choices for each bad input.
#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// A bench of about 5 s of simulation whose case directory is made in `dir`
// (named in smpimain's arguments); returns its pid once the simulation runs.
pid_t start_long_bench(const char *dir, std::string *running)
{
    setenv("TMPDIR", dir, 1);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(COLLSIM_CLI_PATH, COLLSIM_CLI_PATH, "bench", "--platform", "yahoo", "--np", "64",
              "--alg", "ring", "--sizes", "64K", "--fold", "--iters", "50", (char *)nullptr);
        _exit(127);
    }
    unsetenv("TMPDIR");
    *running = std::string("pgrep -f '^[^ ]*smpimain .*") + dir + "' >/dev/null";
    int up = 0;
    for (int i = 0; i < 1000 && !up; i++, usleep(10000))
        up = system(running->c_str()) == 0;
    EXPECT_TRUE(up) << "the simulation did not start";
    return pid;
}

// polls for up to 1 s, well under the run's 5 s
bool gone_soon(const std::string &running)
{
    for (int i = 0; i < 100; i++, usleep(10000))
        if (system(running.c_str()) != 0)
            return true;
    return false;
}

// collsim killed outright (SIGKILL: no handler runs) must not leave its
// simulation running: each run's supervisor takes its process group down.
// Interrupted (SIGINT, as Ctrl-C), bench also removes its case directory.
TEST(Cli, KilledOrInterruptedBenchTakesItsSimulationDown)
{
    for (int sig : {SIGKILL, SIGINT}) {
        char dir[] = "/tmp/collsim-test-kill-XXXXXX";
        ASSERT_NE(mkdtemp(dir), nullptr);
        std::string running;
        pid_t pid = start_long_bench(dir, &running);
        ASSERT_GT(pid, 0);
        kill(pid, sig);
        int st;
        waitpid(pid, &st, 0);
        EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig) << sig;
        EXPECT_TRUE(gone_soon(running)) << "the simulation outlived collsim, signal " << sig;
        if (sig == SIGINT) {
            std::string left = "rmdir " + std::string(dir) + " 2>/dev/null"; // empty: no case directory
            EXPECT_EQ(system(left.c_str()), 0) << "bench left its case directory in " << dir;
        }
        std::string rm = "rm -rf " + std::string(dir);
        EXPECT_EQ(system(rm.c_str()), 0);
    }
}

// --timeout (and a scenario's <timeout>) limits the simulation's CPU time,
// which does not grow when the machine is busy, unlike wall time. The run
// needs about 20 CPU s unlimited (50 iterations took 1.1-1.3 s, too near the
// limit: on a quiet core it ended within it and the test failed).
TEST(Cli, TimeoutIsCpuTimeAndIsRecordedAsSuch)
{
    Out o = cli("bench --platform yahoo --np 64 --alg ring --sizes 64K --fold --iters 1000 --timeout 1");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("allgather/ring np=64 size 65536: timeout: over its limit of 1 CPU s"),
              std::string::npos) << o.text;
    const size_t at = o.text.find("files kept in ");
    ASSERT_NE(at, std::string::npos) << o.text;
    std::string kept = o.text.substr(at + 14);
    kept = kept.substr(0, kept.find(';'));
    // only the case directory bench named (a wrong parse must not remove anything else)
    ASSERT_EQ(kept.rfind("/tmp/collsim-bench-", 0), 0u) << kept;
    ASSERT_EQ(kept.find_first_of(" \n*"), std::string::npos) << kept;
    EXPECT_EQ(system(("rm -rf " + kept).c_str()), 0);
}

// A size that ended before the CPU limit killed the run keeps its row: the
// driver's table line reached the output and its CSV row was recorded (before,
// both sat in stdio buffers the kill threw away, and the size read "timeout").
TEST(Cli, RowsOfSizesThatEndedSurviveALaterKill)
{
    Out o = cli("bench --platform yahoo --np 64 --alg ring --sizes 1:1M --fold --iters 40 --timeout 3");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("\n1         "), std::string::npos) << o.text;
    EXPECT_EQ(o.text.find("size 1: timeout"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find(": timeout: over its limit of 3 CPU s"), std::string::npos) << o.text;
    const size_t at = o.text.find("files kept in ");
    ASSERT_NE(at, std::string::npos) << o.text;
    std::string kept = o.text.substr(at + 14);
    kept = kept.substr(0, kept.find(';'));
    // only the case directory bench named (a wrong parse must not remove anything else)
    ASSERT_EQ(kept.rfind("/tmp/collsim-bench-", 0), 0u) << kept;
    ASSERT_EQ(kept.find_first_of(" \n*"), std::string::npos) << kept;
    EXPECT_EQ(system(("rm -rf " + kept).c_str()), 0);
}

// An MPI error returned by the algorithm is an error, not a data-check failure.
// bench refuses a size whose messages an int cannot count before it runs
// (BadInputGetsOneLineNamingTheValueAndTheChoices), so the driver runs alone
// here: Bruck at np 4 with 1 GiB per rank would send 2 x 2^30 elements, and
// the algorithm's own check (algorithms.def's msg_blocks, as the host's)
// returns MPI_ERR_COUNT: the row is an error and the driver says which.
TEST(Cli, AnAlgorithmsMpiErrorIsAnErrorNotAFailure)
{
    const std::string dir = "/tmp/collsim-test-mpierr-" + std::to_string(getpid());
    ASSERT_EQ(system(("mkdir -p " + dir).c_str()), 0);
    const std::string hf = dir + "/hostfile", loc = dir + "/locality", csv = dir + "/rows.csv";
    char err[1024];
    ASSERT_EQ(tw_case_files("yahoo", "sequential", 4, 0, nullptr, hf.c_str(), loc.c_str(), err,
                            sizeof err), 0) << err;
    const std::string cmd =
        "smpirun -np 4 -platform " COLLSIM_TEST_DATA_DIR "/../../platforms/yahoo.xml -hostfile " +
        hf + " --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no "
             "--log=root.thresh:warning " COLLSIM_DRIVER_PATH " --coll allgather --alg bruck "
             "--sizes 1073741824 --mode fold --warmup 0 --iters 1 --dtype byte --locality " +
        loc + " --csv " + csv + " 2>&1";
    Out o{-1, ""};
    FILE *p = popen(cmd.c_str(), "r");
    ASSERT_TRUE(p);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        o.text.append(buf, n);
    pclose(p);
    EXPECT_NE(o.text.find("allgather/bruck np=4 size=1073741824: rank 0: algorithm returned MPI "
                          "error 6 (MPI_ERR_COUNT)"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("ERROR"), std::string::npos) << o.text;
    FILE *f = fopen(csv.c_str(), "r");
    ASSERT_TRUE(f) << o.text;
    std::string rows;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        rows.append(buf, n);
    fclose(f);
    EXPECT_NE(rows.find(",error,"), std::string::npos) << rows;
    EXPECT_EQ(rows.find(",fail,"), std::string::npos) << rows;
    EXPECT_EQ(system(("rm -rf " + dir).c_str()), 0);
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
    unlink((root + "/build/.collsim-built").c_str()); // as after a change of the sources
    Out o = run_shell(root + "/collsim list platforms");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(o.text.find("collsim: rebuilding what changed in " + root + "/build...\n"), 0u)
        << o.text;
    EXPECT_NE(o.text.find("\ncollsim: built in "), std::string::npos) << o.text;
    o = run_shell(root + "/collsim list platforms");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(o.text.find("collsim: "), std::string::npos) << o.text;
}

TEST(Cli, BadInputGetsOneLineNamingTheValueAndTheChoices)
{
    struct { const char *args, *want; } cases[] = {
        {"bench --platform yahooo --np 4 --alg ring", "unknown platform 'yahooo' (valid: cervino, cori, cori-knl, cori-knl-minimal, cori-minimal, fattree-32k, "},
        {"bench --platform yahoo --np 4 --alg rign", "unknown allgather algorithm 'rign' (valid: ring,"},
        {"bench --platform yahoo --np 129 --alg ring", "129 processes do not fit on platform 'yahoo' (16 nodes, 128 cores in all)"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 1:x", "size list: cannot read '1:x'"},
        {"bench --platform yahoo --np 4 --alg ring --map block", "unknown mapping 'block' (valid: sequential, cyclic)"},
        {"bench --platform yahoo --np 4 --alg ring --coll scan", "unknown collective 'scan' (valid: allgather, alltoall, alltoallv, inter_allgather, inter_allgatherv, gather, scatter, bcast, allreduce, pingpong)"},
        {"bench --platform yahoo --np 4 --alg binomial --coll gather --root 4",
         "--root 4 at 4 processes: the root must be a rank, 0..3"},
        {"bench --platform yahoo --np 4 --alg ring --root 1", "--root applies to gather, scatter, bcast only, not allgather"},
        // the intergroup collectives' groups, layout, block ratio and count pattern
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented",
         "inter_allgather needs --groups P:Q, the sizes of groups A and B (P + Q = --np)"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5x3",
         "--groups '5x3': expected P:Q, the sizes of groups A and B, two integers >= 1 (e.g. 50:14)"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 0:8",
         "--groups '0:8': expected P:Q"},
        {"bench --platform yahoo --np 9 --coll inter_allgatherv --alg kang_segmented --groups 5:3",
         "--groups 5:3 makes 8 processes, but --np is 9 (--np must be P + Q)"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5:3 "
         "--layout cyclic", "unknown layout 'cyclic' (valid: block, interleaved)"},
        {"bench --platform yahoo --np 8 --alg ring --groups 5:3",
         "--groups applies to inter_allgather, inter_allgatherv only, not allgather"},
        {"bench --platform yahoo --np 8 --coll alltoall --alg pairwise --layout block",
         "--layout applies to inter_allgather, inter_allgatherv only, not alltoall"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5:3 "
         "--counts arithmetic", "--counts applies to inter_allgatherv only, not inter_allgather"},
        {"bench --platform yahoo --np 8 --coll inter_allgatherv --alg kang_segmented --groups 5:3 "
         "--counts zipf", "unknown counts 'zipf' (valid: equal, arithmetic)"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5:3 "
         "--block-ratio 4", "--block-ratio '4': expected A:B, the ratio k_A:k_B of the two groups' "
         "blocks, two integers >= 1 (e.g. 4:1)"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5:3 "
         "--block-ratio 4:1 --sizes 6", "size 6 with --block-ratio 4:1 gives group B blocks of 6/4 "
         "bytes, not a whole number of 1-byte elements (sizes that are multiples of 4 work)"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg native:ompi --groups 5:3",
         "inter_allgather has no native:... baseline: SMPI 3.32 has no intercommunicators"},
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5:3 "
         "--in-place", "--in-place is not supported for inter_allgather (only for allgather, "
         "alltoall, gather, scatter, allreduce)"},
        // sizes per node: divided by an explicit --ppn, exactly
        {"bench --platform yahoo --np 8 --coll inter_allgather --alg kang_segmented --groups 5:3 "
         "--size-unit node --sizes 64", "--size-unit node (sizes per node) needs the ranks per node: "
         "give --ppn"},
        {"bench --platform yahoo --np 8 --ppn 3 --coll inter_allgather --alg kang_segmented "
         "--groups 5:3 --size-unit node --sizes 64", "size 64 per node is not a multiple of 3 ranks "
         "per node"},
        {"bench --platform yahoo --np 8 --ppn 2 --coll inter_allgather --alg kang_segmented "
         "--groups 5:3 --size-unit rack", "unknown size_unit 'rack' (valid: process, node)"},
        {"bench --platform yahoo --np 8 --ppn 2 --alg ring --size-unit node",
         "--size-unit applies to inter_allgather, inter_allgatherv only, not allgather"},
        {"bench --platform yahoo --np 128 --coll inter_allgather --alg root_gather_mpich --groups "
         "100:28 --sizes 32M --fold", "inter_allgather/root_gather_mpich with --groups 100:28 and "
         "size 33554432: group A's data (3355443200 bytes) travels in one MPI_BYTE message: more "
         "than an MPI count (an int, at most 2147483647) can express"},
        {"bench --platform yahoo --np 4 --alg ring --dtype int --sizes 6", "size 6 is not a multiple of the int size"},
        {"bench --platform yahoo --np 0 --alg ring", "--np needs an integer >= 1"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 4G,4294967297 --fold",
         "size 4294967296 is 4294967296 byte elements: more than an MPI count (an int, at most 2147483647)"},
        // the largest message of the algorithm (algorithms.def, msg_blocks), before any run
        {"bench --platform yahoo --np 4 --alg bruck --sizes 1G --fold",
         "allgather/bruck at np 4 with 1 GiB per rank sends 2 x 1073741824 elements in one "
         "message: more than an MPI count (an int, at most 2147483647) can express"},
        {"bench --platform yahoo --np 4096 --oversubscribe --alg bruck --sizes 1M --fold",
         "allgather/bruck at np 4096 with 1 MiB per rank sends 2048 x 1048576 elements"},
        {"bench --platform yahoo --np 13 --alg recursive_doubling --dtype int --sizes 1G --fold",
         "allgather/recursive_doubling at np 13 with 1 GiB per rank sends 12 x 268435456 elements"},
        // ... and SMPI's limit: a message of 2 GiB does not make its sender wait
        // (the old code printed 1.61 s for this, with 2.33 s at 8 bytes less)
        {"bench --platform yahoo --np 3 --alg recursive_doubling --dtype int --sizes 1G --fold",
         "allgather/recursive_doubling at np 3 with 1 GiB per rank spans up to 2 x 1073741824 "
         "bytes in one MPI call (the algorithm's bound, algorithms.def msg_blocks): SMPI 3.32 sends "
         "a message of 2147483648 bytes or more without making its sender wait for it"},
        {"bench --platform yahoo --np 5 --coll alltoall --alg bruck_basic --sizes 1G --fold",
         "alltoall/bruck_basic at np 5 with 1 GiB blocks sends 2 x 1073741824 elements"},
        {"bench --platform yahoo --np 4 --alg native:ring --sizes 1G --fold",
         "allgather/native:ring at np 4 with 1 GiB per rank may send 4 x 1073741824 elements in "
         "one message (assumed for SMPI's built-ins: p blocks, the whole buffer)"},
        {"bench --platform yahoo --np 4 --coll alltoallv --alg two_phase_bruck --dtype int "
         "--sizes 1G --fold",
         "alltoallv/two_phase_bruck at np 4 with 1 GiB blocks at most sends 2 x 1073741824 bytes"},
        {"bench --platform yahoo --np 8 --coll alltoallv --alg spread_out --dtype int --sizes 1G "
         "--fold",
         "the driver's buffers put the 8 blocks at displacements up to 2147483675 int elements: "
         "more than an MPI displacement (an int, at most 2147483647) can express"},
        {"bench --platform yahoo --np 4 --alg ring --iters 0", "--iters needs an integer >= 1 (got '0')"},
        {"bench --platform yahoo --np 10000000000 --alg ring",
         "--np needs an integer from 1 to 1073741824 (got '10000000000')"},
        {"bench --platform yahoo --coll pingpong --np 1 --alg send_recv",
         "np 1: pingpong bounces each size between ranks 0 and 1: it needs 2 processes at least"},
        {"bench --platform yahoo --np 4 --alg ring --dtype float",
         "unknown datatype 'float' (valid: byte, int, double)"},
        {"bench --platform yahoo --np 4 --alg spread_out --coll alltoallv --in-place",
         "--in-place is not supported for alltoallv (only for allgather, alltoall, gather, "
         "scatter, allreduce; the algorithms take MPI_IN_PLACE, but an in-place alltoallv needs symmetric "
         "block sizes, which --dist does not give)"},
        {"bench --platform yahoo --np 4 --alg ring --seed 3", "--seed applies to alltoallv only, not allgather"},
        {"bench --platform yahoo --np 4 --alg ring --warmup", "--warmup needs a value"},
        {"bench --platform yahoo --np 4 --alg ring --frobnicate", "unknown option '--frobnicate'"},
        {"bench --platform fattree-32k --np 32768 --alg ring --sizes 1M", "use --fold"},
        {"bench --platform quartz --np 16 --alg loc_bruck --region rack",
         "region level 'rack' is not declared by platform 'quartz' (valid: socket, node, switch)"},
        {"run /nonexistent.xml", "scenario file '/nonexistent.xml' cannot be read"},
        {"list things", "valid: algorithms, platforms"},
        {"frobnicate", "unknown command 'frobnicate'"},
    };
    for (auto &c : cases) {
        Out o = cli(c.args);
        EXPECT_EQ(o.code, 2) << c.args << "\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.args << ": not one line:\n" << o.text;
    }
}

// A bad link value in a platform file is a collsim error (exit 2), not
// SimGrid's "The Impossible Did Happen" or a run with a negative latency.
TEST(Cli, BenchRejectsABadLinkValueInAPlatformFile)
{
    for (const char *bad : {"latency=\"-5us\" bandwidth=\"1GBps\"", "latency=\"1us\" bandwidth=\"0\"",
                            "latency=\"1us\" bandwidth=\"10Gbbps\""}) {
        char path[] = "/tmp/collsim-test-badlink-XXXXXX.xml";
        int fd = mkstemps(path, 4);
        ASSERT_GE(fd, 0);
        std::string xml = std::string("<?xml version='1.0'?>\n"
                                      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                                      "<platform version=\"4.1\">\n"
                                      "  <zone id=\"z\" routing=\"Full\">\n"
                                      "    <host id=\"a\" speed=\"1Gf\"/>\n"
                                      "    <host id=\"b\" speed=\"1Gf\"/>\n"
                                      "    <link id=\"l1\" ") + bad + "/>\n"
                          "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n"
                          "  </zone>\n</platform>\n";
        ASSERT_EQ(write(fd, xml.data(), xml.size()), (ssize_t)xml.size());
        close(fd);
        Out o = cli(std::string("bench --platform ") + path + " --np 2 --alg ring --sizes 8 --iters 1");
        unlink(path);
        EXPECT_EQ(o.code, 2) << bad << "\n" << o.text;
        EXPECT_NE(o.text.find(std::string(path) + ":7: <link id=\"l1\" "), std::string::npos)
            << bad << "\n" << o.text;
        EXPECT_EQ(o.text.find("Impossible"), std::string::npos) << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << bad << ": not one line:\n" << o.text;
    }
}

// SimGrid stopping on a platform it refuses, which collsim's own checks leave to
// SimGrid (an option SMPI 3.32 does not know in the file's <config>: an uncaught
// exception and a dump of every option; a Wifi zone's link given a latency: a
// CRITICAL log line and its backtrace): the note leads with SimGrid's fatal
// message, without its backtrace or smpirun's echo of the command.
TEST(Cli, ASimgridAbortIsNamedByItsMessage)
{
    const std::string two_hosts = "    <host id=\"a\" speed=\"1Gf\"/>\n"
                                  "    <host id=\"b\" speed=\"1Gf\"/>\n"
                                  "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
    const std::string ab = "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n";
    struct {
        std::string body, want;
    } cases[] = {
        {"  <config><prop id=\"smpi/no-such-option\" value=\"1\"/></config>\n"
         "  <zone id=\"z\" routing=\"Full\">\n" + two_hosts + ab + "  </zone>\n",
         "size 8: error: smpirun exited with 134: Uncaught exception std::out_of_range: Bad config "
         "key: smpi/no-such-option"},
        {"  <zone id=\"z\" routing=\"Wifi\">\n" + two_hosts + "  </zone>\n",
         "size 8: error: smpirun exited with 134: Latency cannot be set for WiFi Links. | Aborted"},
    };
    for (auto &c : cases) {
        char path[] = "/tmp/collsim-test-simgrid-abort-XXXXXX.xml";
        int fd = mkstemps(path, 4);
        ASSERT_GE(fd, 0);
        std::string xml = "<?xml version='1.0'?>\n"
                          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                          "<platform version=\"4.1\">\n" + c.body + "</platform>\n";
        ASSERT_EQ(write(fd, xml.data(), xml.size()), (ssize_t)xml.size());
        close(fd);
        Out o = cli(std::string("bench --platform ") + path + " --np 2 --alg ring --sizes 8 --iters 1");
        unlink(path);
        EXPECT_EQ(o.code, 1) << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << o.text;
        EXPECT_EQ(o.text.find("->"), std::string::npos) << o.text;
        EXPECT_EQ(o.text.find("acktrace"), std::string::npos) << o.text;
        if (o.text.find("files kept in ") != std::string::npos) {
            std::string kept = o.text.substr(o.text.find("files kept in ") + 14);
            kept = kept.substr(0, kept.find(';'));
            EXPECT_EQ(system(("rm -rf " + kept).c_str()), 0);
        }
    }
}

// `collsim COMMAND --help`: that command's usage alone, on stdout, exit 0;
// bench's options are those of the case-field table (case_fields.def).
// SimGrid 3.32's max-min solver aborts on padded_alltoall at 512 ranks on
// Theta (a rounding error in its shared-link system): the error says so first
// and names the option that avoided it where measured, before SimGrid's text.
TEST(SolverAbort, NamesTheOptionThatAvoidedIt)
{
    Out o = cli("bench --platform theta --coll alltoallv --np 512 --alg padded_alltoall "
                "--sizes 512 --dist uniform --seed 1 --fold --dtype double --iters 1 --warmup 0");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("size 512: error: smpirun exited with 134: SimGrid's flow solver stopped on "
                          "a rounding error (SMPI "
                          "option maxmin/precision:1e-2 avoided it where measured"),
              std::string::npos)
        << o.text;
    EXPECT_NE(o.text.find("): Cannot saturate more a constraint that has no active element"),
              std::string::npos) << o.text;
}

TEST(Cli, EachCommandPrintsItsOwnHelp)
{
    const char *cmds[] = {"bench", "run", "check", "report", "merge", "list", "tune", "postal", "calibrate"};
    for (const char *cmd : cmds) {
        /* stdout alone, and the exit code after it */
        Out o = cli(std::string(cmd) + " --help 2>/dev/null; echo exit=$?");
        const std::string &out = o.text;
        EXPECT_NE(out.find("\nexit=0"), std::string::npos) << cmd << ": " << out;
        EXPECT_EQ(out.find(std::string("usage: collsim ") + cmd), 0u) << cmd << ": " << out;
        EXPECT_NE(out.find(std::string("  ") + cmd + " "), std::string::npos) << cmd << ": " << out;
        for (const char *other : cmds) /* one command's usage, not all of them */
            if (strcmp(other, cmd)) {
                EXPECT_EQ(out.find(std::string("\n  ") + other + " "), std::string::npos)
                    << cmd << " shows " << other << ": " << out;
            }
    }
    Out b = cli("bench --help");
    for (const char *opt : {"--platform NAME|FILE", "--np N", "--coll allgather|alltoall|alltoallv",
                            "--region LEVEL", "--dtype byte|int|double", "--check|--fold",
                            "--dist [hankel:|toeplitz:]uniform|window:R", "--seed N", "--iters N", "--warmup N",
                            "--in-place", "--account", "--timeout N", "--ppn N", "--smpi-cfg"})
        EXPECT_NE(b.text.find(opt), std::string::npos) << opt << "\n" << b.text;
    Out r = cli("run --help");
    EXPECT_NE(r.text.find("--only KEY=VALUE"), std::string::npos) << r.text;
    Out all = cli("help");
    EXPECT_EQ(all.code, 0);
    for (const char *cmd : cmds)
        EXPECT_NE(all.text.find(std::string("  ") + cmd + " "), std::string::npos) << cmd;
}

} // namespace
