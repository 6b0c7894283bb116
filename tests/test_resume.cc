// `collsim run --resume` on a real sweep of 4 small cases
// (tests/data/scaleout-small.xml): a sweep killed with SIGKILL and resumed
// ends with the rows of a direct run, bit for bit; what a resume refuses
// (another scenario, duplicate keys, a second sweep on the folder) and
// what --force keeps.
#include <gtest/gtest.h>

#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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
// it runs; before or after its first row is in results.csv: every check below
// has the same outcome in both states, the next test holds the one before),
// a second `run`, with or without --resume, exits 2 naming the first
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

// The state the sweep above may be stopped in before its first row: the lock held, no
// results.csv yet. repair names the sweep that holds the directory (not the missing file), so
// the test above checks the same outcome wherever its sweep was stopped.
TEST(Resume, RepairNamesTheSweepThatHoldsTheDirectoryBeforeItsFirstRow)
{
    TempDir d;
    const std::string out = d / "held";
    ASSERT_EQ(mkdir(out.c_str(), 0755), 0);
    int fd = open((out + "/sweep.lock").c_str(), O_RDWR | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
    const std::string who = "pid " + std::to_string(getpid()) + "\nhost h\nstarted s\ncommand c\n";
    ASSERT_EQ(write(fd, who.data(), who.size()), (ssize_t)who.size());
    Out rep = cli("repair " + out + "/results.csv");
    EXPECT_EQ(rep.code, 2) << rep.text;
    EXPECT_NE(rep.text.find(out + " is being written by another sweep: pid " + std::to_string(getpid())),
              std::string::npos) << rep.text;
    close(fd);
    // the lock released, the missing file is what repair names
    rep = cli("repair " + out + "/results.csv");
    EXPECT_EQ(rep.code, 2) << rep.text;
    EXPECT_NE(rep.text.find("repair: cannot read " + out + "/results.csv"), std::string::npos) << rep.text;
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

} // namespace
