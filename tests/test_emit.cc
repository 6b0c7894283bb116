// Choosing cases (--only, --case) and scaling out (--emit, merge) on a real
// sweep of 4 small cases (tests/data/scaleout-small.xml; runner order:
// np 4 ring, np 4 bruck, np 5 ring, np 5 bruck). The GNU parallel path is run
// for real and must give the same bytes as a direct run; the Slurm script is
// checked for its structure and one of its tasks is run as Slurm would. A
// sweep killed with SIGKILL and resumed ends with the rows of a direct run.
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
}

namespace {

const std::string scen = std::string(COLLSIM_TEST_DATA_DIR) + "/scaleout-small.xml";
using Case = std::pair<int, std::string>; // np, algorithm

struct TempDir {
    char path[256];
    TempDir() { EXPECT_EQ(tw_tempdir(path, sizeof path), 0); }
    ~TempDir() { tw_rmtree(path); }
    std::string operator/(const std::string &name) const { return std::string(path) + "/" + name; }
};

// the cases a results file holds, and how many rows it has
std::multiset<Case> cases_in(const std::string &csv, size_t *rows = nullptr)
{
    cs_result *r;
    size_t n;
    char err[2048];
    std::multiset<Case> out;
    EXPECT_EQ(tw_read_results(csv.c_str(), &r, &n, err, sizeof err), 0) << err;
    for (size_t i = 0; i < n; i++) {
        EXPECT_STREQ(r[i].status, "ok") << csv;
        if (!i || r[i].np != r[i - 1].np || std::string(r[i].algorithm) != r[i - 1].algorithm)
            out.insert({r[i].np, r[i].algorithm});
    }
    if (n)
        tw_free_rows(r);
    if (rows)
        *rows = n;
    return out;
}

// the number of rows of a results file, whatever their status
void cases_in_any(const std::string &csv, size_t *rows)
{
    cs_result *r;
    char err[2048];
    *rows = 0;
    EXPECT_EQ(tw_read_results(csv.c_str(), &r, rows, err, sizeof err), 0) << err;
    if (*rows)
        tw_free_rows(r);
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

int sh(const std::string &cmd)
{
    int st = system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

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

// `run` of the small scenario into out, in the background, as the leader of
// its own process group (so that a signal to -pid reaches its cases too).
pid_t start_sweep(const std::string &out)
{
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(COLLSIM_CLI_PATH, COLLSIM_CLI_PATH, "run", scen.c_str(), "-j", "1", "--out",
              out.c_str(), (char *)nullptr);
        _exit(127);
    }
    if (pid > 0)
        setpgid(pid, pid);
    return pid;
}

// The runner is killed (SIGKILL to its process group; each case in flight has
// a group of its own) once its first case is in the file; a torn line, as a kill inside a write would
// leave, is appended; --resume then finishes the sweep. The file must hold
// exactly the rows of an uninterrupted run: none lost, none twice.
TEST(Resume, AKilledSweepLosesAndDuplicatesNothing)
{
    TempDir d;
    Out direct = cli("run " + scen + " -j 1 --out " + d / "direct");
    ASSERT_EQ(direct.code, 0) << direct.text;
    const std::string csv = d / "killed/results.csv";
    pid_t pid = start_sweep(d / "killed");
    ASSERT_GE(pid, 0);
    size_t lines = 0;
    for (int i = 0; i < 60000 && lines < 3; i++) { // header + the 2 rows of one case
        usleep(1000);
        std::string t = slurp(csv);
        lines = (size_t)std::count(t.begin(), t.end(), '\n');
    }
    kill(-pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFSIGNALED(st)) << "the sweep ended before it could be killed";
    // its case in flight (its own process group) goes down with it, no orphan
    std::string orphans = "pgrep -f " + d / "killed/[c]ases" + " >/dev/null"; // not this sh
    int alive = 1;
    for (int i = 0; i < 500 && alive; i++, usleep(10000))
        alive = sh(orphans) == 0;
    EXPECT_FALSE(alive) << "a simulation outlived the killed sweep";
    size_t before;
    cases_in(csv, &before);
    ASSERT_GE(before, 2u);
    ASSERT_LT(before, 8u) << "nothing was left to resume";
    FILE *f = fopen(csv.c_str(), "a");
    fputs("yahoo,sequential,5,0,allgather,bru", f); // no newline: a torn row
    fclose(f);

    Out r = cli("run " + scen + " -j 1 --out " + d / "killed" + " --resume");
    ASSERT_EQ(r.code, 0) << r.text << slurp(csv);
    EXPECT_NE(r.text.find("dropped an incomplete last line (34 bytes)"), std::string::npos) << r.text;
    EXPECT_NE(r.text.find("(" + std::to_string(before / 2) + " already recorded)"), std::string::npos)
        << r.text;
    cs_result *a, *b;
    size_t na, nb;
    char err[2048];
    ASSERT_EQ(tw_read_results((d / "direct/results.csv").c_str(), &a, &na, err, sizeof err), 0) << err;
    ASSERT_EQ(tw_read_results(csv.c_str(), &b, &nb, err, sizeof err), 0) << err;
    ASSERT_EQ(na, 8u);
    ASSERT_EQ(nb, na) << slurp(csv);
    auto key = [](const cs_result &x) {
        return std::to_string(x.np) + " " + x.algorithm + " " + std::to_string(x.bytes);
    };
    std::map<std::string, double> want, got;
    for (size_t i = 0; i < na; i++)
        want[key(a[i])] = a[i].avg_us;
    for (size_t i = 0; i < nb; i++)
        EXPECT_TRUE(got.emplace(key(b[i]), b[i].avg_us).second) << "twice: " << key(b[i]);
    EXPECT_EQ(got, want); // the same keys and bit-identical predicted times
    tw_free_rows(a);
    tw_free_rows(b);
}

// A one-case results file's rows by size: status and the three times to the last bit; a size
// given twice fails the test.
static std::map<long, std::string> rows_by_size(const std::string &csv)
{
    std::map<long, std::string> t;
    cs_result *r;
    size_t n;
    char err[2048];
    EXPECT_EQ(tw_read_results(csv.c_str(), &r, &n, err, sizeof err), 0) << err;
    for (size_t i = 0; i < n; i++) {
        char v[96];
        snprintf(v, sizeof v, "%s %.17g %.17g %.17g", r[i].status, r[i].avg_us, r[i].min_us,
                 r[i].max_us);
        EXPECT_TRUE(t.emplace(r[i].bytes, v).second) << "twice: " << r[i].bytes;
    }
    if (n)
        tw_free_rows(r);
    return t;
}

// A size's predicted time depends on the sizes run before it in the same simulation (256 KiB of
// sparbit at np 13, cyclic, on yahoo: 29271.85 us alone, 29271.90 us after 64 KiB). A sweep whose
// 256 KiB row was refused (--memory 40M) and is resumed with more memory runs the case's 64 KiB
// again before it: every row bit-identical to an uninterrupted sweep, none twice.
TEST(Resume, AResumedCaseRunsItsEarlierSizesAgainSoEveryRowIsBitIdentical)
{
    TempDir d;
    const std::string s = std::string(COLLSIM_TEST_DATA_DIR) + "/resume-prefix.xml";
    Out direct = cli("run " + s + " --out " + d / "direct");
    ASSERT_EQ(direct.code, 0) << direct.text;
    Out refused = cli("run " + s + " --memory 40M --out " + d / "resumed");
    ASSERT_EQ(refused.code, 1) << refused.text;
    ASSERT_NE(refused.text.find("1 size refused: memory"), std::string::npos) << refused.text;
    Out resumed = cli("run " + s + " --out " + d / "resumed --resume");
    ASSERT_EQ(resumed.code, 0) << resumed.text;
    auto want = rows_by_size(d / "direct/results.csv");
    ASSERT_EQ(want.size(), 2u);
    EXPECT_EQ(rows_by_size(d / "resumed/results.csv"), want);
}

// A memory limit refuses the largest sizes; sizes run in ascending order whatever order the list
// is written in, so the refused ones are the last to run and the rows of the sizes that ran are
// bit-identical to a run without the limit (written 8K 256K 64K: the 64 KiB row was the one after
// 256 KiB without the limit, the one after 8 KiB with it, and differed in its last digits).
TEST(Resume, ARunThatRefusesASizeForMemoryGivesTheOtherRowsOfAFullRun)
{
    TempDir d;
    const std::string s = std::string(COLLSIM_TEST_DATA_DIR) + "/resume-order.xml";
    Out full = cli("run " + s + " --out " + d / "full");
    ASSERT_EQ(full.code, 0) << full.text;
    Out limited = cli("run " + s + " --memory 40M --out " + d / "limited");
    ASSERT_EQ(limited.code, 1) << limited.text;
    ASSERT_NE(limited.text.find("1 size refused: memory"), std::string::npos) << limited.text;
    auto want = rows_by_size(d / "full/results.csv"), got = rows_by_size(d / "limited/results.csv");
    ASSERT_EQ(want.size(), 3u);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[8192], want[8192]);
    EXPECT_EQ(got[65536], want[65536]);
    EXPECT_EQ(got[262144].rfind("error ", 0), 0u) << got[262144];
}

// A results.csv saved again by a spreadsheet program (a UTF-8 byte-order mark before its header)
// resumes as it was: every case recorded, nothing run again, no row without its platform; the
// file is rewritten without the mark, saying so.
TEST(Resume, AByteOrderMarkBeforeTheHeaderLosesAndDoublesNothing)
{
    TempDir d;
    const std::string out = d / "bom", csv = out + "/results.csv";
    ASSERT_EQ(cli("run " + scen + " -j 1 --out " + out).code, 0);
    const std::string before = slurp(csv);
    std::ofstream(csv) << "\xEF\xBB\xBF" << before;
    Out o = cli("run " + scen + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("(4 already recorded)"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find(csv + ": rewritten without the byte-order mark before its header"),
              std::string::npos) << o.text;
    EXPECT_EQ(slurp(csv), before);
}

// A row of another sweep appended to results.csv (here: another platform) is no case of the
// scenario: --resume refuses it naming the row, and writes nothing; with --accept-changes (the
// scenario changed on purpose) it is kept and said.
TEST(Resume, RowsOfNoCaseOfTheScenarioAreRefused)
{
    TempDir d;
    const std::string out = d / "mixed", csv = out + "/results.csv";
    ASSERT_EQ(cli("run " + scen + " -j 1 --out " + out).code, 0);
    std::string text = slurp(csv), last = text.substr(text.rfind('\n', text.size() - 2) + 1);
    last.replace(0, 5, "cervino");
    std::ofstream(csv, std::ios::app) << last;
    const std::string before = slurp(csv);
    for (std::string only : {"", " --only alg=ring"}) {
        Out o = cli("run " + scen + " -j 1 --out " + out + " --resume" + only);
        EXPECT_EQ(o.code, 2) << o.text;
        EXPECT_NE(o.text.find("collsim: " + csv + ": 1 row of no case of this scenario (e.g. "
                              "cervino sequential np=5 allgather/bruck byte check 1024 B): another "
                              "sweep's rows"),
                  std::string::npos) << o.text;
        EXPECT_EQ(slurp(csv), before);
    }
    Out o = cli("run " + scen + " -j 1 --out " + out + " --resume --accept-changes");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("1 row of no case of the scenario as it is now"), std::string::npos)
        << o.text;
    EXPECT_EQ(slurp(csv), before);
}

// Two sweeps on one directory: while the first holds it (stopped with
// SIGSTOP once it has taken the directory, so the second surely starts while
// it runs), a second `run`, with or without --resume, exits 2 naming the first
// one's pid and writes nothing; the first then ends with every key once.
TEST(Resume, ASecondSweepOnTheSameDirectoryIsRefusedAndNothingIsDoubled)
{
    TempDir d;
    const std::string out = d / "shared";
    pid_t pid = start_sweep(out);
    ASSERT_GE(pid, 0);
    const std::string held = "pid " + std::to_string(pid) + "\n", owner = "pid " + std::to_string(pid) + " on ";
    for (int i = 0; i < 30000 && slurp(out + "/sweep.lock").find(held) == std::string::npos; i++)
        usleep(1000);
    kill(-pid, SIGSTOP);
    ASSERT_NE(slurp(out + "/sweep.lock").find(held), std::string::npos) << "the sweep never started";
    const std::string before = slurp(out + "/results.csv");
    for (const char *extra : {" --resume", "", " --force"}) {
        Out o = cli("run " + scen + " -j 1 --out " + out + extra);
        EXPECT_EQ(o.code, 2) << extra << "\n" << o.text;
        EXPECT_NE(o.text.find(out + " is being written by another sweep: " + owner), std::string::npos)
            << extra << "\n" << o.text;
        EXPECT_NE(o.text.find("run " + scen + " -j 1 --out " + out + ")"), std::string::npos) << o.text;
    }
    Out rep = cli("repair " + out + "/results.csv");
    EXPECT_EQ(rep.code, 2) << rep.text;
    EXPECT_NE(rep.text.find("is being written by another sweep: " + owner), std::string::npos)
        << rep.text;
    EXPECT_EQ(slurp(out + "/results.csv"), before) << "the refused sweeps wrote to the file";
    kill(-pid, SIGCONT);
    int st;
    waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    size_t rows;
    auto cases = cases_in(out + "/results.csv", &rows);
    EXPECT_EQ(rows, 8u);
    EXPECT_EQ(cases.size(), 4u);
    for (auto &c : cases)
        EXPECT_EQ(cases.count(c), 1u) << c.first << " " << c.second;
    // the lock went with the sweep: the directory is free again
    Out r = cli("run " + scen + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(r.code, 0) << r.text;
    EXPECT_NE(r.text.find("(4 already recorded)"), std::string::npos) << r.text;
}

// The directory records the scenario that wrote it (name, file, content
// hash): --resume refuses another scenario's directory, and a changed
// scenario file unless --accept-changes; --force starts the other one afresh.
TEST(Resume, RefusesAnotherScenarioOrAChangedOne)
{
    TempDir d;
    std::string text = slurp(scen);
    const std::string mine = d / "mine.xml", other = d / "other.xml", out = d / "out";
    std::ofstream(mine) << text;
    std::string renamed = text;
    const std::string from = "name=\"scaleout-small\"";
    renamed.replace(renamed.find(from), from.size(), "name=\"another-sweep\"");
    std::ofstream(other) << renamed;
    ASSERT_EQ(cli("run " + mine + " -j 1 --out " + out).code, 0);
    std::string id = slurp(out + "/scenario.id");
    EXPECT_NE(id.find("\nname scaleout-small\nfile " + mine + "\nhash "), std::string::npos) << id;

    Out o = cli("run " + other + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(out + " holds the results of scenario 'scaleout-small' (" + mine +
                          "), not of 'another-sweep' (" + other + "): --resume would mix"),
              std::string::npos) << o.text;

    std::ofstream(mine, std::ios::app) << "<!-- edited -->\n";
    o = cli("run " + mine + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(mine + " changed since " + out + "'s results were written (content hash "),
              std::string::npos) << o.text;
    EXPECT_NE(o.text.find("Add --accept-changes to resume anyway"), std::string::npos) << o.text;
    o = cli("run " + mine + " -j 1 --out " + out + " --resume --accept-changes");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("(4 already recorded)"), std::string::npos) << o.text;
    std::string old_hash = id.substr(id.find("\nhash ") + 6, 16);
    EXPECT_NE(slurp(out + "/scenario.id").find("\nearlier " + old_hash + "\n"), std::string::npos)
        << slurp(out + "/scenario.id");
    EXPECT_EQ(cli("run " + mine + " -j 1 --out " + out + " --resume").code, 0); // now recorded

    o = cli("run " + other + " -j 1 --out " + out + " --force");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(slurp(out + "/scenario.id").find("\nname another-sweep\n"), std::string::npos);
}

// --force starts a sweep afresh without losing the previous one: its rows are kept as
// results.csv.1 (then .2), its cases' files as cases.1, so that cases/ holds the new sweep's alone.
TEST(Resume, ForceKeepsThePreviousRowsAndClearsTheirCases)
{
    TempDir d;
    const std::string out = d / "out", csv = out + "/results.csv";
    ASSERT_EQ(cli("run " + scen + " -j 1 --out " + out + " --only np=5").code, 0);
    const std::string first = slurp(csv);
    const std::string ls_first = run_shell("ls " + out + "/cases").text;
    EXPECT_NE(ls_first.find("-np5-"), std::string::npos) << ls_first;
    Out o = cli("run " + scen + " -j 1 --out " + out + " --force --only np=4,alg=ring");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("# --force: the previous sweep's rows are kept as " + csv +
                          ".1, its cases' files as " + out + "/cases.1\n"),
              std::string::npos) << o.text;
    EXPECT_EQ(slurp(csv + ".1"), first);
    EXPECT_EQ(run_shell("ls " + out + "/cases.1").text, ls_first);
    EXPECT_EQ(run_shell("ls " + out + "/cases").text,
              "yahoo-sequential-np4-allgather-ring\n");
    size_t rows;
    cases_in(csv, &rows);
    EXPECT_EQ(rows, 2u);
    // again: the next free number, the first backup untouched
    const std::string second = slurp(csv);
    ASSERT_EQ(cli("run " + scen + " -j 1 --out " + out + " --force --only np=4,alg=ring").code, 0);
    EXPECT_EQ(slurp(csv + ".1"), first);
    EXPECT_EQ(slurp(csv + ".2"), second);
    // without --force, the error says where the rows would go
    o = cli("run " + scen + " -j 1 --out " + out);
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("--force to start a new one (the previous rows are kept as " + csv +
                          ".1)"), std::string::npos) << o.text;
}

// A results.csv written before the smpi_cfg column existed resumes: it is
// rewritten with today's header before rows are appended, so it still reads.
TEST(Resume, AFileWithAnEarlierHeaderIsRewrittenBeforeRowsAreAppended)
{
    TempDir d;
    const std::string out = d / "out", csv = out + "/results.csv";
    ASSERT_EQ(cli("run " + scen + " -j 1 --out " + out).code, 0);
    std::istringstream in(slurp(csv));
    std::string line, old;
    for (int i = 0; i < 3 && std::getline(in, line); i++) { // the header and one case's 2 rows
        if (i == 0)
            line.replace(line.find(",smpi_cfg,"), 10, ",");
        else
            line.pop_back(); // the empty smpi_cfg field (ok rows end ",,")
        old += line + "\n";
    }
    std::ofstream(csv) << old;
    Out o = cli("run " + scen + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("rewritten with the current columns"), std::string::npos) << o.text;
    size_t rows;
    cases_in(csv, &rows); // reads: every row has the header's fields
    EXPECT_EQ(rows, 8u);
}

// --resume refuses a file that holds a key twice (as two sweeps at once left
// before the lock existed) and names `repair`; after it the sweep resumes.
TEST(Resume, RefusesDuplicateKeysUntilRepaired)
{
    TempDir d;
    const std::string out = d / "out", csv = out + "/results.csv";
    ASSERT_EQ(cli("run " + scen + " -j 1 --out " + out).code, 0);
    std::string text = slurp(csv);
    size_t first = text.find('\n') + 1, second = text.find('\n', first) + 1;
    std::ofstream(csv, std::ios::app) << text.substr(first, second - first);
    Out o = cli("run " + scen + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(csv + " holds 1 (case, size) key more than once"), std::string::npos)
        << o.text;
    EXPECT_EQ(cli("repair " + csv).code, 0);
    o = cli("run " + scen + " -j 1 --out " + out + " --resume");
    EXPECT_EQ(o.code, 0) << o.text;
    size_t rows;
    cases_in(csv, &rows);
    EXPECT_EQ(rows, 8u);
}

// A results file written before <region> stopped sweeping the algorithms that
// take no region holds bruck once per level (node, socket), each row carrying
// it. --resume recognises those rows as bruck's one case: nothing runs again,
// the file keeps one bruck row (region cleared, the same time) and says so.
TEST(Resume, OldRowsOfAnAlgorithmWithoutRegionAreItsOneCase)
{
    TempDir d;
    const std::string sweep = std::string(COLLSIM_TEST_DATA_DIR) + "/region-sweep.xml";
    const std::string args = " -j 1 --out " + d / "out" + " --only np=16,mapping=sequential";
    Out first = cli("run " + sweep + args + ",alg=bruck"); // one case, one size
    ASSERT_EQ(first.code, 0) << first.text;
    const std::string csv = d / "out/results.csv";
    cs_result *r;
    size_t n;
    char err[2048];
    ASSERT_EQ(tw_read_results(csv.c_str(), &r, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 1u) << slurp(csv);
    EXPECT_STREQ(r[0].region, "") << slurp(csv);
    double bruck_us = r[0].avg_us;
    // the file as the old code wrote it: bruck at each level, and loc_bruck's
    // two cases (their times made up: recorded is recorded)
    std::vector<cs_result> old;
    for (const char *alg : {"bruck", "loc_bruck"})
        for (const char *level : {"node", "socket"}) {
            old.push_back(r[0]);
            snprintf(old.back().algorithm, sizeof old.back().algorithm, "%s", alg);
            snprintf(old.back().region, sizeof old.back().region, "%s", level);
        }
    tw_free_rows(r);
    FILE *f = fopen(csv.c_str(), "w");
    cs_results_write_header(f);
    for (auto &x : old)
        cs_results_write_row(f, &x);
    fclose(f);

    Out again = cli("run " + sweep + args + " --resume");
    ASSERT_EQ(again.code, 0) << again.text;
    EXPECT_NE(again.text.find(csv + ": 2 rows of algorithms that take no region (bruck) carried a "
                                    "region level"),
              std::string::npos)
        << again.text;
    EXPECT_NE(again.text.find("# 3 cases (3 already recorded)"), std::string::npos) << again.text;
    ASSERT_EQ(tw_read_results(csv.c_str(), &r, &n, err, sizeof err), 0) << err;
    std::multiset<std::string> got;
    for (size_t i = 0; i < n; i++) {
        got.insert(std::string(r[i].algorithm) + "@" + r[i].region);
        if (std::string(r[i].algorithm) == "bruck") {
            EXPECT_EQ(r[i].avg_us, bruck_us);
        }
    }
    tw_free_rows(r);
    EXPECT_EQ(got, (std::multiset<std::string>{"bruck@", "loc_bruck@node", "loc_bruck@socket"}));
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

// A size that cannot fit the sweep's memory even alone is recorded as an
// error naming the need and the limit; the case's other sizes still run. The
// runner schedules by estimates against its budget, never by what the other
// workers hold at that moment, so -j 1 and -j 2 record the same rows.
TEST(Memory, SizesThatDoNotFitAreRefusedAloneAndJChangesNothing)
{
    TempDir d;
    const std::string mem = std::string(COLLSIM_TEST_DATA_DIR) + "/memory-budget.xml";
    std::map<std::string, std::string> runs[2];
    for (int j : {1, 2}) {
        std::string out = d / ("j" + std::to_string(j));
        Out o = cli("run " + mem + " -j " + std::to_string(j) + " --memory 1G --out " + out);
        EXPECT_EQ(o.code, 1) << o.text; // the refused size makes the sweep fail
        EXPECT_NE(o.text.find("sparbit_indexed                ok ("), std::string::npos) << o.text;
        EXPECT_NE(o.text.find("1 size refused: memory)"), std::string::npos) << o.text;
        cs_result *r;
        size_t n;
        char err[2048];
        ASSERT_EQ(tw_read_results((out + "/results.csv").c_str(), &r, &n, err, sizeof err), 0) << err;
        ASSERT_EQ(n, 4u);
        for (size_t i = 0; i < n; i++) {
            std::string key = std::string(r[i].algorithm) + " " + std::to_string(r[i].bytes);
            char v[128];
            snprintf(v, sizeof v, "%s %.17g", r[i].status, r[i].avg_us);
            runs[j - 1][key] = std::string(v) + " " + r[i].note;
        }
        tw_free_rows(r);
    }
    EXPECT_EQ(runs[0], runs[1]);
    // --resume runs error rows' cases again, but only those it selects
    Out kept = cli("run " + mem + " --memory 1G --out " + d / "j1" + " --resume --only alg=ring");
    EXPECT_EQ(kept.text.find("dropped"), std::string::npos) << kept.text;
    Out again = cli("run " + mem + " --memory 1G --out " + d / "j1" + " --resume");
    EXPECT_NE(again.text.find("1 row recorded as errors dropped; their cases run again"),
              std::string::npos) << again.text;
    EXPECT_NE(again.text.find("1 size refused: memory (the others were recorded before)"),
              std::string::npos) << again.text;
    EXPECT_EQ(again.code, 1) << again.text;
    size_t rows;
    cases_in_any(d / "j1/results.csv", &rows);
    EXPECT_EQ(rows, 4u); // the refused size recorded once more, nothing twice
    const std::string &refused = runs[0]["sparbit_indexed 1048576"];
    EXPECT_EQ(refused.rfind("error 0 64 ranks at 1048576 bytes need about 2.", 0), 0u) << refused;
    EXPECT_NE(refused.find("more than the limit of 1.1 GB (this sweep's, run --memory): use fewer "
                           "ranks or smaller sizes"),
              std::string::npos) << refused;
    for (const char *k : {"sparbit_indexed 1", "ring 1", "ring 1048576"})
        EXPECT_EQ(runs[0][k].rfind("ok ", 0), 0u) << k << ": " << runs[0][k];
    // a small limit reads as what it is, not "0.0 GB"
    Out tiny = cli("run " + mem + " --memory 1K --out " + d / "tiny" + " --only alg=ring");
    std::string notes = slurp(d / "tiny/results.csv");
    EXPECT_NE(notes.find("the limit of 1.0 kB (this sweep's, run --memory)"), std::string::npos)
        << notes;
    EXPECT_EQ(notes.find("0.0 GB"), std::string::npos) << notes;
}

// The estimate counts what alltoallv keeps per rank at scale: with iid counts
// p counts each way per rank (8 p^2 bytes), and two-phase Bruck's metadata
// (registry: 2 floor(p/2) ints, p one-byte sizes at N = 64, SMPI's copy of
// the 32 KiB size message at 16K ranks); the allgather's eager copies apart.
TEST(Memory, AlltoallvCountsAndAlgorithmStateAreInTheEstimate)
{
    TempDir d;
    const std::string scen = std::string(COLLSIM_TEST_DATA_DIR) + "/memory-alltoallv.xml";
    Out o = cli("run " + scen + " -j 1 --memory 100M --out " + d / "out");
    EXPECT_EQ(o.code, 1) << o.text;
    cs_result *r;
    size_t n;
    char err[2048];
    ASSERT_EQ(tw_read_results((d / "out/results.csv").c_str(), &r, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 3u);
    std::map<std::string, double> need_gb;
    for (size_t i = 0; i < n; i++) {
        EXPECT_STREQ(r[i].status, "error");
        const std::string note = r[i].note;
        const size_t at = note.find("need about ");
        ASSERT_NE(at, std::string::npos) << note;
        size_t used;
        const double v = std::stod(note.substr(at + 11), &used);
        need_gb[r[i].algorithm] = note.compare(at + 11 + used, 3, " MB") ? v : v / 1e3;
        EXPECT_NE(note.find("more than the limit of 104.9 MB (this sweep's, run --memory): "),
                  std::string::npos) << note;
    }
    tw_free_rows(r);
    const double p = 16384, counts_gb = 8.0 * p * p / 1e9; // 2.15
    const double state_gb = p * (4.0 * p + p + 4.0 * (p / 2)) / 1e9; // 1.88
    // Bruck's allgather of 64 bytes: SMPI's copies of its 512-block step, 32 KiB per rank
    const double bruck_eager_gb = p * 512 * 64 / 1e9; // 0.54
    EXPECT_NEAR(need_gb["padded_bruck"] - (need_gb["bruck"] - bruck_eager_gb), counts_gb, 0.11);
    EXPECT_NEAR(need_gb["two_phase_bruck"] - need_gb["padded_bruck"], state_gb, 0.11);
}

cs_case estimate_case(int np, const char *alg, const char *dist, int fold)
{
    cs_case c;
    cs_case_init(&c);
    c.np = np;
    c.fold = fold;
    c.dist = dist;
    snprintf(c.alg.collective, sizeof c.alg.collective, "alltoallv");
    snprintf(c.alg.name, sizeof c.alg.name, "%s", alg);
    snprintf(c.alg.driver_alg, sizeof c.alg.driver_alg, "%s", alg);
    return c;
}

// The terms of the estimate (fitted to measured PSS, docs/simulation-cost.md)
// and the refusal: need and limit, where the limit comes from, what to do.
TEST(Memory, EstimateTermsAndRefusalNameNeedLimitAndRemedy)
{
    const double p = 32768;
    cs_mem_parts m;
    cs_case c = estimate_case(32768, "two_phase_bruck", "uniform", 1);
    const double total = cs_case_memory_parts(&c, 16, &m);
    EXPECT_DOUBLE_EQ(total, m.ranks + m.buffers + m.counts + m.state + m.packs);
    EXPECT_DOUBLE_EQ(m.counts, 8 * p * p);           // iid: every rank's own, 8.6 GB
    EXPECT_DOUBLE_EQ(m.state, p * (4 * p + p));       // no eager copies at 32K ranks
    EXPECT_DOUBLE_EQ(m.packs, 0.0);
    EXPECT_DOUBLE_EQ(m.buffers, 16 * (2 * p));        // folded: one send and one receive buffer
    EXPECT_GT(m.ranks, p * 20e3);                     // the actors: tens of kB each
    EXPECT_LT(m.ranks, p * 50e3);
    EXPECT_DOUBLE_EQ(total, cs_case_memory_at(&c, 16));
    // a named layout shares the counts; padded Bruck has no per-rank state here
    cs_mem_parts h;
    cs_case ch = estimate_case(32768, "two_phase_bruck", "hankel:uniform", 1);
    EXPECT_DOUBLE_EQ(cs_case_memory_parts(&ch, 16, &h), total - m.counts);
    EXPECT_DOUBLE_EQ(h.counts, 0.0);
    cs_case cp = estimate_case(32768, "padded_bruck", "toeplitz:uniform", 1);
    EXPECT_DOUBLE_EQ(cs_case_memory_parts(&cp, 16, &h), m.ranks + m.buffers);
    // real buffers: counts, displacements and their pristine copy per rank
    cs_case check = estimate_case(64, "two_phase_bruck", "hankel:uniform", 0);
    cs_case_memory_parts(&check, 8, &h);
    EXPECT_DOUBLE_EQ(h.counts, 32.0 * 64 * 64);
    EXPECT_DOUBLE_EQ(h.buffers, 64 * 8.0 * (64 + 64));

    char parts[256], msg[1024];
    cs_mem_parts_fmt(&m, parts, sizeof parts);
    EXPECT_STREQ(parts, "ranks 1.3 GB, counts 8.6 GB, algorithm state 5.4 GB") << parts;
    cs_mem_refusal(&c, 16, 8e9, "--memory", msg, sizeof msg);
    EXPECT_EQ(std::string(msg), "32768 ranks at 16 bytes need about 15.3 GB (" + std::string(parts) +
                                    "), more than the limit of 8.0 GB (--memory): most of it is "
                                    "the ranks' own alltoallv counts: a named count layout shares "
                                    "them (--dist hankel:D, docs/simulation-cost.md), or use fewer "
                                    "ranks");
    cs_mem_refusal(&ch, 16, 4e9, "--memory", msg, sizeof msg);
    EXPECT_NE(std::string(msg).find("more than the limit of 4.0 GB (--memory): use fewer ranks or "
                                    "smaller sizes"),
              std::string::npos) << msg;
    cs_mem_refusal(&check, 8, 1e3, "--memory", msg, sizeof msg);
    EXPECT_NE(std::string(msg).find(": use --fold (folded buffers, no data check) at this scale"),
              std::string::npos) << msg;
}

// bench refuses before it starts, on one line: need, limit and its source
// (--memory, or 90% of what is available), what to do; and prints its
// estimate above the table otherwise.
TEST(Memory, BenchSaysItsEstimateAndWhyItRefuses)
{
    Out o = cli("bench --platform theta --np 32768 --coll alltoallv --alg two_phase_bruck "
                "--sizes 16 --fold --dtype double --memory 1G");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("collsim: 32768 ranks at 16 bytes need about 15.3 GB (ranks 1.3 GB, "
                          "counts 8.6 GB, algorithm state 5.4 GB)"),
              std::string::npos)
        << o.text;
    EXPECT_NE(o.text.find("more than the limit of 1.1 GB (--memory): most of it is the ranks' own "
                          "alltoallv counts"),
              std::string::npos) << o.text;
    EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << o.text;
    // real buffers at 32K ranks exceed any machine: the limit is 90% of what
    // is available, and the message says so
    Out a = cli("bench --platform theta --np 32768 --alg bruck --sizes 64K");
    EXPECT_EQ(a.code, 2) << a.text;
    EXPECT_NE(a.text.find("available now; --memory SIZE sets another): use --fold"),
              std::string::npos) << a.text;
    Out bad = cli("bench --platform yahoo --np 4 --alg bruck --memory 1,2");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.text.find("bench: --memory takes one size, e.g. 8G (got '1,2')"),
              std::string::npos) << bad.text;
    Out ok = cli("bench --platform yahoo --np 6 --coll alltoallv --alg two_phase_bruck --sizes 64 "
                 "--dist hankel:uniform --iters 1 --memory 1G");
    EXPECT_EQ(ok.code, 0) << ok.text;
    EXPECT_NE(ok.text.find("# memory: about "), std::string::npos) << ok.text;
    EXPECT_NE(ok.text.find("dist=hankel:uniform seed=1"), std::string::npos) << ok.text;
    EXPECT_EQ(ok.text.find("FAIL"), std::string::npos) << ok.text;
}

} // namespace
