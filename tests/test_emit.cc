// Choosing cases (--only, --case) and scaling out (--emit, merge) on a real
// sweep of 4 small cases (tests/data/scaleout-small.xml; runner order:
// np 4 ring, np 4 bruck, np 5 ring, np 5 bruck). The GNU parallel path is run
// for real and must give the same bytes as a direct run; the Slurm script is
// checked for its structure and one of its tasks is run as Slurm would. An
// SMPI option given to a scenario reaches every case and its rows. Resuming:
// test_resume.cc; the memory estimate: test_memory.cc.
#include <gtest/gtest.h>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli.h"
#include "wrapper.h"

extern "C" {
#include "bench_case.h"
#include "sweep_util.h"
}

namespace {

TEST(Only, RunsTheCasesThatMatchEveryKey)
{
    TempDir d;
    struct {
        const char *only;
        std::multiset<Case> want;
    } cases[] = {
        {"alg=bruck,np=5", {{5, "bruck"}}},
        {"alg=ring,bruck,np=4", {{4, "ring"}, {4, "bruck"}}}, // values of one key: either
        {"platform=yahoo,mapping=sequential,collective=allgather,alg=allgather/ring",
         {{4, "ring"}, {5, "ring"}}},
        {"np=4:8", {{4, "ring"}, {4, "bruck"}}}, // number-list items: 4, 8
    };
    int k = 0;
    for (auto &c : cases) {
        std::string out = d / std::to_string(k++);
        Out o = cli("run " + scen + " --out " + out + " --only " + c.only);
        EXPECT_EQ(o.code, 0) << c.only << "\n" << o.text;
        size_t rows;
        EXPECT_EQ(cases_in(out + "/results.csv", &rows), c.want) << c.only;
        EXPECT_EQ(rows, 2 * c.want.size()) << c.only; // sizes 1 and 1K
    }
}

TEST(Only, BadTermsAreOneLineErrorsWithTheValidChoices)
{
    TempDir d;
    struct {
        const char *only, *want;
    } cases[] = {
        {"foo=1", "--only foo=1: unknown key 'foo' (valid keys: platform, mapping, np, collective, alg, ppn, hosts, region, model, groups, layout, block_ratio, counts, size_unit, root, op, segment, background)"},
        {"alg=sparbit", "no case of the scenario has alg=sparbit (valid: ring, bruck)"},
        {"np=6", "no case of the scenario has np=6 (valid: 4, 5)"},
        {"mapping=cyclic", "no case of the scenario has mapping=cyclic (valid: sequential)"},
        {"bruck", "'bruck' is not KEY=VALUE (valid keys: platform"},
        {"np=x", "--only np: cannot read 'x'"},
        {"alg=", "alg has no value"},
    };
    for (auto &c : cases) {
        Out o = cli("run " + scen + " --out " + d / "out" + " --only " + c.only);
        EXPECT_EQ(o.code, 2) << c.only << "\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.only << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.only << ": not one line:\n" << o.text;
    }
    EXPECT_EQ(fopen((d / "out/results.csv").c_str(), "r"), nullptr); // nothing was run
}

TEST(Case, RunsOneCaseInTheRunnersOrder)
{
    TempDir d;
    const Case order[] = {{4, "ring"}, {4, "bruck"}, {5, "ring"}, {5, "bruck"}};
    for (int k = 0; k < 4; k++) {
        std::string out = d / std::to_string(k);
        Out o = cli("run " + scen + " --out " + out + " --case " + std::to_string(k));
        EXPECT_EQ(o.code, 0) << o.text;
        EXPECT_EQ(cases_in(out + "/results.csv"), std::multiset<Case>{order[k]}) << "case " << k;
    }
    // with --only, K counts the selected cases
    Out o = cli("run " + scen + " --out " + d / "only" + " --only alg=bruck --case 1");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(cases_in(d / "only/results.csv"), (std::multiset<Case>{{5, "bruck"}}));

    Out bad = cli("run " + scen + " --out " + d / "bad" + " --case 4");
    EXPECT_EQ(bad.code, 2) << bad.text;
    EXPECT_EQ(bad.text, "collsim: --case 4: there are 4 cases to choose from (valid: 0..3)\n");
    Out neg = cli("run " + scen + " --out " + d / "bad" + " --case -1");
    EXPECT_EQ(neg.code, 2) << neg.text;
    EXPECT_NE(neg.text.find("--case needs an integer >= 0 (got '-1')"), std::string::npos);
}

TEST(Emit, GnuParallelTasksMergedEqualADirectRunBitForBit)
{
    TempDir d;
    std::string dir = d / "scaled";
    Out emit = cli("run " + scen + " --emit parallel --out " + dir + " -j 2 --entry " +
                   COLLSIM_CLI_PATH);
    ASSERT_EQ(emit.code, 0) << emit.text;
    std::string jobs = slurp(dir + "/jobs.txt");
    std::vector<std::string> lines;
    std::istringstream in(jobs);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), 4u) << jobs; // one job per case
    for (int k = 0; k < 4; k++)
        EXPECT_EQ(lines[k], std::string(COLLSIM_CLI_PATH) + " run " + scen + " --case " +
                                std::to_string(k) + " --out " + dir + "/tasks/" +
                                std::to_string(k) + " --force");
    // the commands it prints are the ones to run
    std::string run_cmd = "parallel -j 2 < " + dir + "/jobs.txt";
    std::string merge_cmd = std::string(COLLSIM_CLI_PATH) + " merge " + dir +
                            "/tasks/*/results.csv --out " + dir + "/results.csv";
    EXPECT_NE(emit.text.find("\n" + run_cmd + "\n"), std::string::npos) << emit.text;
    EXPECT_NE(emit.text.find("\n" + merge_cmd + "\n"), std::string::npos) << emit.text;

    ASSERT_EQ(sh(run_cmd + " > " + dir + "/parallel.log 2>&1"), 0) << slurp(dir + "/parallel.log");
    ASSERT_EQ(sh(merge_cmd + " > " + dir + "/merge.log 2>&1"), 0) << slurp(dir + "/merge.log");

    Out direct = cli("run " + scen + " --out " + d / "direct" + " -j 2");
    ASSERT_EQ(direct.code, 0) << direct.text;
    // the direct run's rows come in completion order: merge sorts them the
    // same way, then the two files must be the same bytes
    Out sorted = cli("merge " + d / "direct/results.csv" + " --out " + d / "direct-sorted.csv");
    ASSERT_EQ(sorted.code, 0) << sorted.text;
    std::string merged = slurp(dir + "/results.csv");
    EXPECT_EQ(merged, slurp(d / "direct-sorted.csv"));
    // the tasks' platform fits are joined beside the merged results as a
    // direct run writes them
    std::string fits = slurp(dir + "/platforms.csv");
    EXPECT_NE(fits.find("\nyahoo,ok,"), std::string::npos) << fits;
    EXPECT_EQ(fits, slurp(d / "direct/platforms.csv"));
    size_t rows;
    EXPECT_EQ(cases_in(dir + "/results.csv", &rows).size(), 4u);
    EXPECT_EQ(rows, 8u);
    Out check = cli("check " + dir + "/results.csv --baseline " + d / "direct/results.csv" +
                    " --rtol 0 --strict");
    EXPECT_EQ(check.code, 0) << check.text;
}

TEST(Emit, SlurmScriptIsAJobArrayWhoseTasksRun)
{
    TempDir d;
    // as users get it: tasks run the repository's ./collsim, by absolute path
    Out emit = cli("run " + scen + " --emit slurm --out " + d / "slurm");
    ASSERT_EQ(emit.code, 0) << emit.text;
    std::string script = slurp(d / "slurm/collsim.sbatch");
    std::istringstream in(script);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_GT(lines.size(), 3u);
    EXPECT_EQ(lines[0], "#!/bin/bash");
    // sbatch reads #SBATCH only before the first command
    size_t first_cmd = 1;
    while (first_cmd < lines.size() && (lines[first_cmd].empty() || lines[first_cmd][0] == '#'))
        first_cmd++;
    std::set<std::string> sbatch;
    for (size_t i = 0; i < lines.size(); i++)
        if (!lines[i].rfind("#SBATCH ", 0)) {
            EXPECT_LT(i, first_cmd) << lines[i];
            sbatch.insert(lines[i]);
        }
    EXPECT_TRUE(sbatch.count("#SBATCH --array=0-3")) << script; // 4 cases
    EXPECT_TRUE(sbatch.count("#SBATCH --job-name=collsim-scaleout-small")) << script;
    EXPECT_TRUE(sbatch.count("#SBATCH --output=" + d / "slurm/tasks/slurm-%A_%a.out")) << script;
    EXPECT_NE(script.find("exec " + std::string(COLLSIM_SOURCE_DIR) + "/collsim run " + scen +
                          " --case \"$k\" --out " + d / "slurm/tasks/\"$k\"" + " --force\n"),
              std::string::npos)
        << script;
    EXPECT_EQ(sh("bash -n " + d / "slurm/collsim.sbatch"), 0);
    EXPECT_NE(emit.text.find("\nsbatch " + d / "slurm/collsim.sbatch" + "\n"), std::string::npos);
    // outside a job array, it says so instead of running something
    EXPECT_NE(sh("bash " + d / "slurm/collsim.sbatch" + " 2>/dev/null"), 0);
    // where a Slurm controller answers, Slurm itself validates the script
    // (no job is queued); sbatch cannot check a script without one
    if (sh("timeout 3 sinfo > /dev/null 2>&1") == 0) {
        EXPECT_EQ(sh("sbatch --test-only " + d / "slurm/collsim.sbatch"), 0);
    }

    // a task run as Slurm runs it (the script, with its task id), here with
    // the CLI of this build as the entry; it runs case 2 (np 5, ring), the
    // same bytes as a direct run of that case
    Out emit2 = cli("run " + scen + " --emit slurm --out " + d / "s2" + " --entry " + COLLSIM_CLI_PATH);
    ASSERT_EQ(emit2.code, 0) << emit2.text;
    ASSERT_EQ(sh("SLURM_ARRAY_TASK_ID=2 bash " + d / "s2/collsim.sbatch" + " > " + d / "task.log"),
              0)
        << slurp(d / "task.log");
    EXPECT_EQ(cases_in(d / "s2/tasks/2/results.csv"), (std::multiset<Case>{{5, "ring"}}));
    Out direct = cli("run " + scen + " --out " + d / "direct" + " --only np=5,alg=ring");
    ASSERT_EQ(direct.code, 0) << direct.text;
    Out check = cli("check " + d / "s2/tasks/2/results.csv" + " --baseline " +
                    d / "direct/results.csv" + " --rtol 0 --strict");
    EXPECT_EQ(check.code, 0) << check.text;
}

TEST(Emit, BadUseIsAOneLineError)
{
    TempDir d;
    ASSERT_EQ(cli("run " + scen + " --emit parallel --out " + d / "e").code, 0);
    sh("mkdir -p " + d / "e/tasks/0");
    struct {
        std::string args, want;
    } cases[] = {
        {"--emit pbs --out " + d / "x", "--emit pbs: unknown target (valid: slurm, parallel)"},
        {"--emit slurm --case 1 --out " + d / "x", "--case K is what each task runs"},
        {"--entry /bin/true --out " + d / "x", "--entry names the command of emitted tasks"},
        {"--emit parallel --out " + d / "e", d / "e/tasks already holds task results"},
        {"--emit slurm --out '" + d / "with space" + "'", "cannot carry; choose another --out"},
    };
    for (auto &c : cases) {
        Out o = cli("run " + scen + " " + c.args);
        EXPECT_EQ(o.code, 2) << c.args << "\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.args << ": not one line:\n" << o.text;
    }
}

// <smpi option value> gives every case of a scenario an SMPI option: it reaches
// the simulation (crosstraffic off changes a bandwidth-bound ring's time on
// Yahoo) and each row records it; a malformed or repeated one is refused with
// the file and line.
TEST(SmpiOption, ReachesEveryCaseAndIsRecordedInTheRows)
{
    TempDir d;
    const std::string body = "<?xml version=\"1.0\"?>\n<scenario name=\"smpi\">\n"
                             "  <platform name=\"yahoo\"/>\n  <mappings>cyclic</mappings>\n"
                             "  <processes>16</processes>\n"
                             "  <collective name=\"allgather\"><algorithms>ring</algorithms>"
                             "</collective>\n  <sizes>64K</sizes>\n"
                             "  <iterations warmup=\"0\" timed=\"1\"/>\n";
    std::ofstream(d / "plain.xml") << body << "</scenario>\n";
    std::ofstream(d / "opt.xml") << body
                                 << "  <smpi option=\"network/crosstraffic\" value=\"0\"/>\n"
                                    "</scenario>\n";
    ASSERT_EQ(cli("run " + d / "plain.xml" + " -j 1 --out " + d / "plain").code, 0);
    ASSERT_EQ(cli("run " + d / "opt.xml" + " -j 1 --out " + d / "opt").code, 0);
    cs_result *a, *b;
    size_t na, nb;
    char err[2048];
    ASSERT_EQ(tw_read_results((d / "plain/results.csv").c_str(), &a, &na, err, sizeof err), 0);
    ASSERT_EQ(tw_read_results((d / "opt/results.csv").c_str(), &b, &nb, err, sizeof err), 0);
    ASSERT_EQ(na, 1u);
    ASSERT_EQ(nb, 1u);
    EXPECT_STREQ(a[0].smpi_cfg, "");
    EXPECT_STREQ(b[0].smpi_cfg, "network/crosstraffic:0");
    EXPECT_LT(b[0].avg_us, a[0].avg_us); // no reverse-path charge: the ring is faster
    tw_free_rows(a);
    tw_free_rows(b);

    std::ofstream(d / "bad.xml") << body << "  <smpi option=\"precision\" value=\"1e-2\"/>\n"
                                 << "</scenario>\n";
    Out o = cli("run " + d / "bad.xml" + " --out " + d / "bad");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(d / "bad.xml" + ":9: <smpi> needs option=\"NAME\" and value=\"VALUE\""),
              std::string::npos) << o.text;
    std::ofstream(d / "twice.xml") << body << "  <smpi option=\"maxmin/precision\" value=\"1e-2\"/>\n"
                                   << "  <smpi option=\"maxmin/precision\" value=\"1e-3\"/>\n"
                                   << "</scenario>\n";
    // options collsim sets itself, or that would swap a native algorithm, are refused
    std::string native = body;
    native.replace(native.find("<algorithms>ring"), 16, "<algorithms>native:ompi");
    std::ofstream(d / "own.xml") << native
                                 << "  <smpi option=\"smpi/allgather\" value=\"ring\"/>\n"
                                 << "</scenario>\n";
    o = cli("run " + d / "own.xml" + " --out " + d / "own");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(d / "own.xml" + ":9: <smpi>: option smpi/allgather would replace the "
                                          "algorithm of allgather/native:ompi"),
              std::string::npos) << o.text;
    o = cli("bench --platform yahoo --np 4 --alg native:ompi --sizes 8 --smpi-cfg "
            "smpi/allgather:ring");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("option smpi/allgather would replace the algorithm"), std::string::npos)
        << o.text;
    o = cli("bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg smpi/privatization:yes");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("--smpi-cfg: option smpi/privatization is set by collsim"),
              std::string::npos) << o.text;
    o = cli("bench --platform yahoo --np 4 --alg ring --sizes 8 --smpi-cfg smpi/os:" +
            std::string(200, '1'));
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("is longer than 153 characters"), std::string::npos) << o.text;
    // a scenario name is one line (it goes into the directory's record)
    std::string nl = body;
    nl.replace(nl.find("name=\"smpi\""), 11, "name=\"sm&#10;pi\"");
    std::ofstream(d / "nl.xml") << nl << "</scenario>\n";
    o = cli("run " + d / "nl.xml" + " --out " + d / "nl");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("nl.xml:2: <scenario name=\"...\">: a name has no line break"),
              std::string::npos) << o.text;
    o = cli("run " + d / "twice.xml" + " --out " + d / "twice");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(d / "twice.xml" + ":10: <smpi option=\"maxmin/precision\"> given twice "
                                            "(first at line 9)"),
              std::string::npos) << o.text;
}

} // namespace
