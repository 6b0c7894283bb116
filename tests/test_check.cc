// `collsim check` (and compare, and report's refusals) on results files
// written here. Each outcome a user relies on is asserted: the exit code, the
// moved case with its ratio, missing and added cases, a baseline rewritten
// exactly. Merge and repair: test_merge.cc; expectations: test_expect.cc.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "wrapper.h"

extern "C" {
#include "expect.h"
#include "results_util.h"
}

namespace {

TEST(Check, IdenticalResultsPass)
{
    TempDir d;
    write_rows(d / "base.csv", base_rows());
    write_rows(d / "res.csv", base_rows());
    Out o = cli("check " + d / "res.csv" + " --baseline " + d / "base.csv");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("PASS: 4 rows within rtol 1e-09"), std::string::npos) << o.text;
}

TEST(Check, AMovedCaseFailsAndIsTabledWithItsRatio)
{
    TempDir d;
    auto res = base_rows();
    res[3].avg_us *= 1.25;
    write_rows(d / "base.csv", base_rows());
    write_rows(d / "res.csv", res);
    Out o = cli("check " + d / "res.csv" + " --baseline " + d / "base.csv");
    EXPECT_EQ(o.code, 1) << o.text;
    // key, field, old, new, ratio on one line; the three unmoved rows absent
    auto moved = lines_with(o.text, {"yahoo", "sequential", " 13 ", "allgather/bruck", "byte",
                                     "check", "1024", "avg", "2.962", "3.7025", "1.25"});
    EXPECT_EQ(moved.size(), 1u) << o.text;
    EXPECT_TRUE(lines_with(o.text, {"allgather/ring"}).empty()) << o.text;
    EXPECT_NE(o.text.find("FAIL: 1 moved, 0 missing"), std::string::npos) << o.text;
}

TEST(Check, TheToleranceDecidesWhatMoved)
{
    TempDir d;
    write_rows(d / "base.csv", base_rows());
    auto res = base_rows();
    res[0].avg_us *= 1 + 1e-12; // a last-digit difference
    res[2].min_us *= 1 + 1e-6;
    write_rows(d / "res.csv", res);
    std::string args = "check " + d / "res.csv" + " --baseline " + d / "base.csv";
    Out dflt = cli(args);
    EXPECT_EQ(dflt.code, 1) << dflt.text; // 1e-6 > the default 1e-9
    EXPECT_EQ(lines_with(dflt.text, {"allgather/ring", " 1024 ", "min"}).size(), 1u) << dflt.text;
    EXPECT_TRUE(lines_with(dflt.text, {"allgather/bruck", "avg"}).empty()) << dflt.text;
    Out loose = cli(args + " --rtol 1e-5");
    EXPECT_EQ(loose.code, 0) << loose.text;
    Out exact = cli(args + " --rtol 0");
    EXPECT_EQ(exact.code, 1) << exact.text;
    EXPECT_NE(exact.text.find("FAIL: 2 moved"), std::string::npos) << exact.text;
}

TEST(Check, MissingCasesFailAddedOnesOnlyWhenStrict)
{
    TempDir d;
    write_rows(d / "base.csv", base_rows());
    auto res = base_rows();
    res.erase(res.begin() + 2); // ring np=4 1024 B
    res.push_back(row("sparbit", 4, 1, 1.2));
    write_rows(d / "res.csv", res);
    Out o = cli("check " + d / "res.csv" + " --baseline " + d / "base.csv");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("# 1 missing (in the baseline, not in the results):\n"
                          "  yahoo sequential np=4 allgather/ring byte check 1024 B\n"),
              std::string::npos)
        << o.text;
    EXPECT_NE(o.text.find("# 1 added (in the results, not in the baseline; not a failure "
                          "without --strict):\n  yahoo sequential np=4 allgather/sparbit"),
              std::string::npos)
        << o.text;

    res = base_rows();
    res.push_back(row("sparbit", 4, 1, 1.2));
    write_rows(d / "added.csv", res);
    std::string args = "check " + d / "added.csv" + " --baseline " + d / "base.csv";
    Out lenient = cli(args);
    EXPECT_EQ(lenient.code, 0) << lenient.text;
    EXPECT_NE(lenient.text.find("1 added"), std::string::npos) << lenient.text;
    Out strict = cli(args + " --strict");
    EXPECT_EQ(strict.code, 1) << strict.text;
    EXPECT_NE(strict.text.find("FAIL: 0 moved, 0 missing, 1 added,"), std::string::npos)
        << strict.text;
}

TEST(Check, RowsThatDidNotPassFail)
{
    TempDir d;
    write_rows(d / "base.csv", base_rows());
    auto res = base_rows();
    snprintf(res[0].status, sizeof res[0].status, "fail");
    snprintf(res[0].note, sizeof res[0].note, "rank 2, block 1, offset 0");
    write_rows(d / "res.csv", res);
    Out o = cli("check " + d / "res.csv" + " --baseline " + d / "base.csv");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_EQ(lines_with(o.text, {"np=4 allgather/bruck byte check 1 B: fail: rank 2, block 1"}).size(),
              1u)
        << o.text;
}

TEST(Check, UpdateRewritesTheBaselineExactly)
{
    TempDir d;
    auto res = base_rows();
    std::swap(res[0], res[3]); // any order in, key order out
    write_rows(d / "res.csv", res);
    std::string base = d / "new-baseline.csv";
    Out first = cli("check " + d / "res.csv" + " --baseline " + base + " --update");
    ASSERT_EQ(first.code, 0) << first.text;
    auto got = read_rows(base), want = base_rows();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        EXPECT_STREQ(got[i].algorithm, want[i].algorithm) << i;
        EXPECT_EQ(got[i].np, want[i].np) << i;
        EXPECT_EQ(got[i].bytes, want[i].bytes) << i;
        EXPECT_EQ(got[i].avg_us, want[i].avg_us) << i; // bit for bit
        EXPECT_EQ(got[i].min_us, want[i].min_us) << i;
        EXPECT_EQ(got[i].max_us, want[i].max_us) << i;
    }
    EXPECT_EQ(cli("check " + d / "res.csv" + " --baseline " + base + " --rtol 0").code, 0);

    // an intended change: shown, then taken as the new baseline
    res[1].avg_us *= 2;
    write_rows(d / "res2.csv", res);
    Out second = cli("check " + d / "res2.csv" + " --baseline " + base + " --update");
    EXPECT_EQ(second.code, 0) << second.text;
    EXPECT_NE(second.text.find("moved beyond rtol"), std::string::npos) << second.text;
    EXPECT_EQ(cli("check " + d / "res2.csv" + " --baseline " + base + " --rtol 0").code, 0);

    // a run that did not pass is no baseline
    std::string before = slurp(base);
    snprintf(res[0].status, sizeof res[0].status, "error");
    write_rows(d / "res3.csv", res);
    Out bad = cli("check " + d / "res3.csv" + " --baseline " + base + " --update");
    EXPECT_EQ(bad.code, 2) << bad.text;
    EXPECT_NE(bad.text.find("has status error: a baseline is made from a run where every case "
                            "passed"),
              std::string::npos)
        << bad.text;
    EXPECT_EQ(slurp(base), before);
}

TEST(Check, BadInputGetsOneLine)
{
    TempDir d;
    write_rows(d / "r.csv", base_rows());
    std::string r = d / "r.csv";
    struct {
        std::string args, want;
    } cases[] = {
        {"check", "check needs a results file"},
        {"check " + r, "compare with what? give --baseline BASE.csv and/or --scenario FILE.xml"},
        {"check " + r + " --baseline " + r + " --rtol x", "--rtol needs a relative tolerance >= 0"},
        {"check " + r + " --baseline " + r + " --rtol -1", "(got '-1')"},
        {"check " + r + " --baseline " + r + " --frobnicate", "unexpected argument '--frobnicate'"},
        {"check " + d / "none.csv" + " --baseline " + r, "cannot read " + d / "none.csv"},
        {"check " + r + " --scenario " + data + "/good.xml --update", "it needs --baseline BASE.csv"},
        {"check " + r + " --scenario " + data + "/good.xml", "has no <expect> element"},
        {"merge " + r, "merge needs --out MERGED.csv"},
        {"merge --out " + d / "m.csv", "merge needs at least one results file"},
        {"merge " + r + " --all --out " + d / "m.csv", "unexpected argument '--all'"},
    };
    for (auto &c : cases) {
        Out o = cli(c.args);
        EXPECT_EQ(o.code, 2) << c.args << "\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.args << ": not one line:\n" << o.text;
    }
}

// A results file whose ok row has a negative time is refused by every
// command that reads it, with the file, line, column and value.
TEST(Check, ReportCheckAndMergeRefuseAnOkRowWithoutATime)
{
    TempDir d;
    auto all = base_rows();
    all[2].avg_us = -5;
    write_rows(d / "bad.csv", all);
    write_rows(d / "good.csv", base_rows());
    std::string bad = d / "bad.csv";
    for (std::string args : {"report " + bad, "check " + bad + " --baseline " + d / "good.csv",
                             "check " + d / "good.csv" + " --baseline " + bad,
                             "merge " + bad + " --out " + d / "m.csv"}) {
        Out o = cli(args);
        EXPECT_EQ(o.code, 2) << args << "\n" << o.text;
        EXPECT_NE(o.text.find(bad + ":4: column avg_us: '-5' is not a time"), std::string::npos)
            << args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << args << ": not one line:\n" << o.text;
    }
}

// sim/shim (preloaded into smpimain for SMPI 3.32's speed) must not change a
// single predicted bit, nor any data: check mode (real buffers, eager and
// rendezvous sizes) and fold mode, with and without it.
TEST(SmpiShim, PredictedTimesAndDataAreIdenticalWithoutIt)
{
    struct Case {
        const char *platform, *alg, *sizes;
        int np, fold;
    } cases[] = {{"yahoo", "bruck", "1,1000,70000", 37, 0},
                 {"yahoo", "ring", "8,65536", 16, 0},
                 {"fattree-32k", "bruck", "8", 512, 1}};
    for (const Case &c : cases) {
        cs_result *rows[2];
        size_t n[2];
        for (int off = 0; off < 2; off++) {
            if (off)
                setenv("COLLSIM_SMPI_SHIM", "off", 1);
            tw_run_spec s;
            memset(&s, 0, sizeof s);
            s.platform = c.platform;
            s.mapping = "cyclic";
            s.coll = "allgather";
            s.alg = c.alg;
            s.sizes = c.sizes;
            s.np = c.np;
            s.fold = c.fold;
            s.iters = 2;
            s.warmup = 1;
            s.timeout_s = 300;
            char err[2048];
            int rc = tw_run(&s, &rows[off], &n[off], err, sizeof err);
            unsetenv("COLLSIM_SMPI_SHIM");
            ASSERT_EQ(rc, 0) << err;
        }
        ASSERT_EQ(n[0], n[1]);
        for (size_t i = 0; i < n[0]; i++) {
            EXPECT_STREQ(rows[0][i].status, "ok") << c.alg << " " << rows[0][i].note;
            EXPECT_STREQ(rows[1][i].status, "ok") << c.alg << " " << rows[1][i].note;
            EXPECT_EQ(rows[0][i].avg_us, rows[1][i].avg_us) << c.alg << " " << rows[0][i].bytes;
            EXPECT_EQ(rows[0][i].min_us, rows[1][i].min_us) << c.alg << " " << rows[0][i].bytes;
            EXPECT_EQ(rows[0][i].max_us, rows[1][i].max_us) << c.alg << " " << rows[0][i].bytes;
        }
        tw_free_rows(rows[0]);
        tw_free_rows(rows[1]);
    }
}

// A results file saved by a spreadsheet program starts with a UTF-8 byte-order mark: it is no part
// of the first column's name, so every reader keeps the platform column.
TEST(Check, AByteOrderMarkIsNoPartOfTheFirstColumn)
{
    TempDir d;
    write_rows(d / "plain.csv", base_rows());
    std::ofstream(d / "bom.csv") << "\xEF\xBB\xBF" << slurp(d / "plain.csv");
    auto rows = read_rows(d / "bom.csv");
    ASSERT_EQ(rows.size(), 4u);
    for (auto &r : rows)
        EXPECT_STREQ(r.platform, "yahoo");
    Out check = cli("check " + d / "bom.csv" + " --baseline " + d / "plain.csv" + " --strict");
    EXPECT_EQ(check.code, 0) << check.text;
    // both copies of the same rows: every key twice, nothing written
    Out merge = cli("merge " + d / "bom.csv " + d / "plain.csv" + " --out " + d / "m.csv");
    EXPECT_EQ(merge.code, 1) << merge.text;
    EXPECT_NE(merge.text.find("4 (case, size) keys given twice"), std::string::npos) << merge.text;
    Out one = cli("merge " + d / "bom.csv" + " --out " + d / "m.csv");
    EXPECT_EQ(one.code, 0) << one.text;
    EXPECT_EQ(slurp(d / "m.csv"), slurp(d / "plain.csv"));
}

// Rows given twice were listed as "added" (in the results) or "missing" (in the baseline):
// they are named as duplicates, with their key, lines and file, in either file; only the first
// row of each key is compared.
TEST(Check, KeysGivenTwiceAreNamedWithTheirLinesInEitherFile)
{
    TempDir d;
    auto rows = base_rows();
    write_rows(d / "base.csv", rows);
    auto twice = rows;
    twice.insert(twice.end(), rows.begin(), rows.begin() + 3); // lines 6, 7, 8
    write_rows(d / "dup.csv", twice);
    const std::string dup = d / "dup.csv", base = d / "base.csv";
    for (bool swapped : {false, true}) {
        Out o = cli(swapped ? "check " + base + " --baseline " + dup
                            : "check " + dup + " --baseline " + base);
        EXPECT_EQ(o.code, 1) << o.text;
        EXPECT_NE(o.text.find("# 3 keys given more than once in a file (the first row of each "
                              "compared):\n"
                              "  yahoo sequential np=4 allgather/bruck byte check 1 B: lines 2 and 6 of " +
                              dup + "\n  yahoo sequential np=4 allgather/ring byte check 1 B: lines 3 and 7 of " +
                              dup + "\n  yahoo sequential np=4 allgather/ring byte check 1024 B: lines 4 and 8 of " +
                              dup + "\n"),
                  std::string::npos) << o.text;
        EXPECT_EQ(o.text.find("added (in the results"), std::string::npos) << o.text;
        EXPECT_EQ(o.text.find("missing (in the baseline"), std::string::npos) << o.text;
        EXPECT_NE(o.text.find("FAIL: 0 moved, 0 missing, 0 added (allowed), 0 not ok, 3 given more "
                              "than once (4 rows compared"),
                  std::string::npos) << o.text;
    }
}

// The scenario record a run leaves in its directory (name, file, FNV-1a 64 of the file's bytes).
void write_record(const std::string &dir, const std::string &name, const std::string &scenario)
{
    unsigned long long h = 14695981039346656037ULL;
    for (unsigned char c : slurp(scenario)) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", h);
    std::ofstream(dir + "/scenario.id") << "name " << name << "\nfile " << scenario << "\nhash "
                                        << hex << "\n";
}

// Rows of no case of the scenario (another platform's, appended) are named in one warning line,
// with how many: by `check --scenario`, and by `check`, `report` and `merge` on a run's directory
// (the scenario it records); the scenario's own rows give no warning.
TEST(Check, RowsOfAnotherScenarioAreNamedWithHowMany)
{
    TempDir d;
    const std::string sc = d / "expect-small.xml", csv = d / "results.csv";
    std::ofstream(sc) << slurp(data + "/expect-small.xml");
    std::vector<cs_result> rows;
    for (int np : {4, 5})
        for (const char *alg : {"ring", "bruck"})
            for (long bytes : {1L, 1024L})
                rows.push_back(row(alg, np, bytes, alg[0] == 'b' ? 1.5 : 2.5));
    write_rows(csv, rows);
    const auto npos = std::string::npos;
    Out own = cli("check " + csv + " --scenario " + sc);
    EXPECT_EQ(own.text.find("warning"), npos) << own.text;
    write_record(d.path, "expect-small", sc);
    Out recorded = cli("report " + csv + " --out " + d / "rep");
    EXPECT_EQ(recorded.code, 0) << recorded.text;
    EXPECT_EQ(recorded.text.find("warning"), npos) << recorded.text;

    cs_result other = row("ring", 4, 1, 2.5), other2 = row("ring", 4, 1024, 3.5);
    snprintf(other.platform, sizeof other.platform, "kandalla-testbed");
    snprintf(other2.platform, sizeof other2.platform, "kandalla-testbed");
    rows.push_back(other);
    rows.push_back(other2);
    write_rows(csv, rows);
    const std::string named = "2 rows of no case of scenario 'expect-small'";
    const std::string key = "kandalla-testbed sequential np=4 allgather/ring";
    Out check = cli("check " + csv + " --scenario " + sc);
    EXPECT_NE(check.text.find("collsim: check: warning: " + csv + " holds " + named), npos)
        << check.text;
    EXPECT_NE(check.text.find(key), npos) << check.text;
    Out base = cli("check " + csv + " --baseline " + csv);
    EXPECT_EQ(base.code, 0) << base.text;
    EXPECT_NE(base.text.find("collsim: check: warning: " + csv + " holds " + named), npos)
        << base.text;
    Out report = cli("report " + csv + " --out " + d / "rep");
    EXPECT_EQ(report.code, 0) << report.text;
    EXPECT_NE(report.text.find("collsim: report: warning: " + csv + " holds " + named), npos)
        << report.text;
    Out merge = cli("merge " + csv + " --out " + d / "merged.csv");
    EXPECT_NE(merge.text.find("collsim: merge: warning: " + csv + " holds " + named), npos)
        << merge.text;
    // one line each
    for (const Out *o : {&check, &base, &report, &merge}) {
        size_t at = o->text.find("warning:");
        ASSERT_NE(at, npos);
        EXPECT_EQ(o->text.find("warning:", at + 1), npos) << o->text;
    }
    // a scenario changed since its rows were written is not the measure of them
    std::ofstream(sc, std::ios::app) << "<!-- changed -->\n";
    Out changed = cli("report " + csv + " --out " + d / "rep");
    EXPECT_EQ(changed.text.find("warning"), npos) << changed.text;
}

// `report` on a directory whose sweep still runs (its lock held) says so in one line, with the
// rows it covers; once the sweep has ended, the lock file left behind says nothing.
TEST(Report, ASweepStillRunningIsSaidInOneLine)
{
    TempDir d;
    const std::string csv = d / "results.csv";
    write_rows(csv, base_rows());
    const std::string lock = d / "sweep.lock";
    std::ofstream(lock) << "pid 4242\nhost here\nstarted 2024-01-01 00:00:00 UTC\ncommand collsim run\n";
    int fd = open(lock.c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
    Out running = cli("report " + csv);
    close(fd);
    EXPECT_EQ(running.code, 0) << running.text;
    EXPECT_NE(running.text.find("collsim: report: warning: the sweep writing " + csv +
                                " is still running (pid 4242 on here, started 2024-01-01 00:00:00 "
                                "UTC (collsim run)): this report covers the 4 rows written so far"),
              std::string::npos) << running.text;
    Out ended = cli("report " + csv);
    EXPECT_EQ(ended.code, 0) << ended.text;
    EXPECT_EQ(ended.text.find("still running"), std::string::npos) << ended.text;
}

// compare takes the measured file (collsim-mpibench: rows without platform) first; given the
// other way round it says so instead of pairing rows.
TEST(Compare, SwappedFilesAreNamed)
{
    TempDir d;
    auto measured = base_rows();
    for (auto &r : measured)
        r.platform[0] = r.mapping[0] = 0;
    write_rows(d / "measured.csv", measured);
    write_rows(d / "predicted.csv", base_rows());
    Out right = cli("compare " + d / "measured.csv " + d / "predicted.csv");
    EXPECT_EQ(right.code, 0) << right.text;
    Out swapped = cli("compare " + d / "predicted.csv " + d / "measured.csv");
    EXPECT_EQ(swapped.code, 2) << swapped.text;
    EXPECT_NE(swapped.text.find("collsim: compare: " + d / "predicted.csv" + " holds simulated rows "
                                "(each names a platform) and " + d / "measured.csv" +
                                " measured ones (none does): the measured file comes first"),
              std::string::npos) << swapped.text;
}

} // namespace
