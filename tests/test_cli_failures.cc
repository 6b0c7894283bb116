// How a bench run ends badly, as users meet it: killed or interrupted (its
// simulation goes down with it), over its CPU timeout, an algorithm's MPI
// error, SimGrid's abort named by its message, a one-line error naming the
// value and the valid choices for each bad input, and each command's help.
#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "cli.h"
#include "wrapper.h"

namespace {

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

// A case directory removed while its simulation runs (a user's clean-up of TMPDIR/collsim-bench-*)
// is named as such, not as a failed run or data check, and bench does not point to the gone files.
TEST(Cli, AWorkDirectoryThatVanishedIsNamed)
{
    char dir[] = "/tmp/collsim-test-vanish-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string d = dir;
    Out o = run_shell("TMPDIR=" + d + " " COLLSIM_CLI_PATH " bench --platform yahoo --np 64 --alg "
                      "ring --sizes 64K --fold --iters 50 >" + d + "/out 2>&1 & b=$!; "
                      "for i in $(seq 1000); do pgrep -f 'smpimain .*" + d + "' >/dev/null && break; "
                      "sleep 0.01; done; rm -rf " + d + "/collsim-bench-*; wait $b; echo rc=$?; "
                      "cat " + d + "/out");
    EXPECT_NE(o.text.find("rc=1"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("size 65536: error: the case's work directory " + d + "/collsim-bench-"),
              std::string::npos) << o.text;
    EXPECT_NE(o.text.find("vanished while the case ran: removed by another process?"),
              std::string::npos) << o.text;
    EXPECT_NE(o.text.find("is gone: run the same bench again"), std::string::npos) << o.text;
    EXPECT_EQ(o.text.find("files kept in"), std::string::npos) << o.text;
    run_shell("rm -rf " + d);
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
    // only the case directory bench named (a wrong parse must not remove anything else)
    const std::string kept = kept_dir(o.text);
    ASSERT_TRUE(is_case_dir(kept)) << o.text;
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
    // only the case directory bench named (a wrong parse must not remove anything else)
    const std::string kept = kept_dir(o.text);
    ASSERT_TRUE(is_case_dir(kept)) << o.text;
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

TEST(Cli, BadInputGetsOneLineNamingTheValueAndTheChoices)
{
    struct { const char *args, *want; } cases[] = {
        {"bench --platform yahooo --np 4 --alg ring", "unknown platform 'yahooo' (valid: cervino, cori, cori-knl, cori-knl-minimal, cori-minimal, fattree-32k, "},
        {"bench --platform yahoo --np 4 --alg rign", "unknown allgather algorithm 'rign' (valid: ring,"},
        {"bench --platform yahoo --np 129 --alg ring", "129 processes do not fit on platform 'yahoo' (16 nodes, 128 cores in all)"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 1:x", "size list: cannot read '1:x'"},
        {"bench --platform yahoo --np 4 --alg ring --map block", "unknown mapping 'block' (valid: sequential, cyclic)"},
        {"bench --platform yahoo --np 4 --alg ring --coll scan", "unknown collective 'scan' (valid: allgather, alltoall, alltoallv, inter_allgather, inter_allgatherv, gather, scatter, bcast, allreduce, reduce, reduce_scatter_block, reduce_scatter, pingpong)"},
        {"bench --platform yahoo --np 4 --alg binomial --coll gather --root 4",
         "--root 4 at 4 processes: the root must be a rank, 0..3"},
        {"bench --platform yahoo --np 4 --alg ring --root 1", "--root applies to gather, scatter, bcast, reduce only, not allgather"},
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
         "alltoall, gather, scatter, allreduce, reduce, reduce_scatter_block, reduce_scatter)"},
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
         "scatter, allreduce, reduce, reduce_scatter_block, reduce_scatter; the algorithms take MPI_IN_PLACE, but an in-place alltoallv needs symmetric "
         "block sizes, which --dist does not give)"},
        {"bench --platform yahoo --np 4 --alg ring --seed 3", "--seed applies to alltoallv, reduce_scatter only, not allgather"},
        {"bench --platform yahoo --np 4 --alg ring --warmup", "--warmup needs a value"},
        {"bench --platform yahoo --np 4 --alg ring --frobnicate", "unknown option '--frobnicate'"},
        {"bench --platform fattree-32k --np 32768 --alg ring --sizes 1M", "use --fold"},
        {"bench --platform quartz --np 16 --alg loc_bruck --region rack",
         "region level 'rack' is not declared by platform 'quartz' (valid: socket, node, switch)"},
        {"run /nonexistent.xml", "scenario file '/nonexistent.xml' cannot be read"},
        {"run /tmp", "scenario file '/tmp' is a directory (give an XML file)"},
        // an algorithm of commutative operations only, before anything runs
        {"bench --platform yahoo --np 8 --coll allreduce --alg ring --op matmul --dtype int "
         "--sizes 8",
         "allreduce/ring takes commutative operations only (MPI_ERR_OP otherwise), not matmul: "
         "use the operation sum, max or bxor, or another algorithm"},
        {"bench --platform yahoo --np 8 --coll reduce_scatter --alg ring --op matmul --dtype int "
         "--sizes 32",
         "reduce_scatter/ring takes commutative operations only"},
        // the default datatype (byte) does not go with the default operation (sum)
        {"bench --platform yahoo --np 4 --coll allreduce --alg ring --sizes 8",
         "--op sum does not take the default datatype, byte: give --dtype int (valid: int, double)"},
        {"bench --platform yahoo --np 4 --coll allreduce --alg ring --sizes 8 --dtype byte",
         "--op sum does not take --dtype byte (valid: int, double)"},
        // SMPI options against SimGrid 3.32's own list, names and value types
        {"bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg foo/bar:1",
         "--smpi-cfg: unknown option 'foo/bar': not one of SimGrid 3.32's"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg maxmin/precison:1e-5",
         "--smpi-cfg: unknown option 'maxmin/precison': not one of SimGrid 3.32's (nearest: "
         "maxmin/precision)"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg maxmin/precision:abc",
         "--smpi-cfg: option maxmin/precision takes a finite number, not 'abc'"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg network/crosstraffic:maybe",
         "option network/crosstraffic takes a boolean (yes, no, on, off, true, false, 1 or 0), "
         "not 'maybe'"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg smpi/async-small-thresh:1k",
         "option smpi/async-small-thresh takes an integer, not '1k'"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg network/optim:fast",
         "option network/optim takes one of Lazy, TI, Full, not 'fast'"},
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

// --smpi-cfg and <smpi> are checked against smpi_options.def, the options of the installed
// SimGrid as its own configuration help lists them: regenerated, the file is the same.
TEST(SmpiOptions, TheTableIsTheInstalledSimGrids)
{
    const std::string dir = COLLSIM_SOURCE_DIR "/sim/host/case";
    Out o = run_shell("sh " + dir + "/smpi-options.sh | cmp - " + dir + "/smpi_options.def");
    EXPECT_EQ(o.code, 0) << "sim/host/case/smpi_options.def is not what smpi-options.sh prints "
                            "for this SimGrid: regenerate it (its header says how)\n" << o.text;
    std::ifstream f(dir + "/smpi_options.def");
    std::string all((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (const char *want : {"CS_SMPI_OPTION(\"maxmin/precision\", DOUBLE, \"\")",
                             "CS_SMPI_OPTION(\"network/crosstraffic\", BOOLEAN, \"\")",
                             "CS_SMPI_OPTION(\"network/optim\", STRING, \"Lazy|TI|Full\")"})
        EXPECT_NE(all.find(want), std::string::npos) << want;
}

// SimGrid stopping on a platform it refuses, which collsim's own checks leave to
// SimGrid (a Wifi zone's link given a latency: a CRITICAL log line and its
// backtrace): the note leads with SimGrid's fatal message, without its backtrace
// or smpirun's echo of the command.
TEST(Cli, ASimgridAbortIsNamedByItsMessage)
{
    const std::string two_hosts = "    <host id=\"a\" speed=\"1Gf\"/>\n"
                                  "    <host id=\"b\" speed=\"1Gf\"/>\n"
                                  "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n";
    struct {
        std::string body, want;
    } cases[] = {
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
        if (is_case_dir(kept_dir(o.text))) {
            EXPECT_EQ(system(("rm -rf " + kept_dir(o.text)).c_str()), 0);
        }
    }
}

// `collsim COMMAND --help`: that command's usage alone, on stdout, exit 0;
// bench's options are those of the case-field table (case_fields.def).
// SimGrid 3.32's max-min solver aborts on padded_alltoall at 512 ranks on
// Theta (a rounding error in its shared-link system): the error says so first
// and names the option that avoided it where measured, before SimGrid's text.
// An option of a platform's <config> is checked against SimGrid 3.32's list as --smpi-cfg is
// (SimGrid would abort on it at run time with an uncaught exception and its configuration dump).
TEST(Cli, APlatformsConfigOptionsAreCheckedAtLoad)
{
    struct {
        const char *prop, *want;
    } cases[] = {
        {"<prop id=\"smpi/no-such-option\" value=\"1\"/>",
         ":4: <config> <prop id=\"smpi/no-such-option\">: unknown option 'smpi/no-such-option': "
         "not one of SimGrid 3.32's"},
        {"<prop id=\"maxmin/precision\" value=\"abc\"/>",
         ":4: <config> <prop id=\"maxmin/precision\">: option maxmin/precision takes a finite "
         "number, not 'abc'"},
    };
    for (auto &c : cases) {
        char path[] = "/tmp/collsim-test-config-XXXXXX.xml";
        int fd = mkstemps(path, 4);
        ASSERT_GE(fd, 0);
        std::string xml = std::string("<?xml version='1.0'?>\n"
                                      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                                      "<platform version=\"4.1\">\n  <config>") + c.prop +
                          "</config>\n  <zone id=\"z\" routing=\"Full\">\n"
                          "    <host id=\"a\" speed=\"1Gf\"/>\n    <host id=\"b\" speed=\"1Gf\"/>\n"
                          "    <link id=\"l1\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                          "    <route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n"
                          "  </zone>\n</platform>\n";
        ASSERT_EQ(write(fd, xml.data(), xml.size()), (ssize_t)xml.size());
        close(fd);
        Out o = cli(std::string("bench --platform ") + path + " --np 2 --alg ring --sizes 8");
        unlink(path);
        EXPECT_EQ(o.code, 2) << o.text;
        EXPECT_NE(o.text.find(std::string(path) + c.want), std::string::npos) << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << "not one line:\n" << o.text;
    }
}

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
