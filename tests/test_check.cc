// `collsim check` and `collsim merge` on results files written here, and
// scenario expectations on a small real run. Each outcome a user relies on is
// asserted: the exit code, the moved case with its ratio, missing and added
// cases, a baseline rewritten exactly, PASS/FAIL lines with their numbers.
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
}

namespace {

const std::string data = COLLSIM_TEST_DATA_DIR;

struct TempDir {
    char path[256];
    TempDir() { EXPECT_EQ(tw_tempdir(path, sizeof path), 0); }
    ~TempDir() { tw_rmtree(path); }
    std::string operator/(const std::string &name) const { return std::string(path) + "/" + name; }
};

cs_result row(const char *alg, int np, long bytes, double avg)
{
    cs_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.platform, sizeof r.platform, "yahoo");
    snprintf(r.mapping, sizeof r.mapping, "sequential");
    snprintf(r.collective, sizeof r.collective, "allgather");
    snprintf(r.algorithm, sizeof r.algorithm, "%s", alg);
    snprintf(r.dtype, sizeof r.dtype, "byte");
    snprintf(r.mode, sizeof r.mode, "check");
    snprintf(r.status, sizeof r.status, "ok");
    r.np = np;
    r.bytes = bytes;
    r.avg_us = avg;
    r.min_us = avg / 3; // not short decimals: the round trip must keep every bit
    r.max_us = avg * 1.5;
    r.iterations = 3;
    return r;
}

// in key order: np numerically, then algorithm, then bytes
std::vector<cs_result> base_rows()
{
    return {row("bruck", 4, 1, 1.4275), row("ring", 4, 1, 2.1355), row("ring", 4, 1024, 3.67),
            row("bruck", 13, 1024, 2.962)};
}

void write(const std::string &path, const std::vector<cs_result> &rows)
{
    FILE *f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr) << path;
    cs_results_write_header(f);
    for (auto &r : rows)
        cs_results_write_row(f, &r);
    fclose(f);
}

std::vector<cs_result> read(const std::string &path)
{
    cs_result *rows;
    size_t n;
    char err[2048];
    EXPECT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), 0) << err;
    std::vector<cs_result> v(rows, rows + n);
    if (n)
        tw_free_rows(rows);
    return v;
}

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// the lines of text that contain every one of the given pieces
std::vector<std::string> lines_with(const std::string &text, std::vector<std::string> pieces)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        bool all = true;
        for (auto &p : pieces)
            all = all && line.find(p) != std::string::npos;
        if (all)
            out.push_back(line);
    }
    return out;
}

TEST(Check, IdenticalResultsPass)
{
    TempDir d;
    write(d / "base.csv", base_rows());
    write(d / "res.csv", base_rows());
    Out o = cli("check " + d / "res.csv" + " --baseline " + d / "base.csv");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("PASS: 4 rows within rtol 1e-09"), std::string::npos) << o.text;
}

TEST(Check, AMovedCaseFailsAndIsTabledWithItsRatio)
{
    TempDir d;
    auto res = base_rows();
    res[3].avg_us *= 1.25;
    write(d / "base.csv", base_rows());
    write(d / "res.csv", res);
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
    write(d / "base.csv", base_rows());
    auto res = base_rows();
    res[0].avg_us *= 1 + 1e-12; // a last-digit difference
    res[2].min_us *= 1 + 1e-6;
    write(d / "res.csv", res);
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
    write(d / "base.csv", base_rows());
    auto res = base_rows();
    res.erase(res.begin() + 2); // ring np=4 1024 B
    res.push_back(row("sparbit", 4, 1, 1.2));
    write(d / "res.csv", res);
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
    write(d / "added.csv", res);
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
    write(d / "base.csv", base_rows());
    auto res = base_rows();
    snprintf(res[0].status, sizeof res[0].status, "fail");
    snprintf(res[0].note, sizeof res[0].note, "rank 2, block 1, offset 0");
    write(d / "res.csv", res);
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
    write(d / "res.csv", res);
    std::string base = d / "new-baseline.csv";
    Out first = cli("check " + d / "res.csv" + " --baseline " + base + " --update");
    ASSERT_EQ(first.code, 0) << first.text;
    auto got = read(base), want = base_rows();
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
    write(d / "res2.csv", res);
    Out second = cli("check " + d / "res2.csv" + " --baseline " + base + " --update");
    EXPECT_EQ(second.code, 0) << second.text;
    EXPECT_NE(second.text.find("moved beyond rtol"), std::string::npos) << second.text;
    EXPECT_EQ(cli("check " + d / "res2.csv" + " --baseline " + base + " --rtol 0").code, 0);

    // a run that did not pass is no baseline
    std::string before = slurp(base);
    snprintf(res[0].status, sizeof res[0].status, "error");
    write(d / "res3.csv", res);
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
    write(d / "r.csv", base_rows());
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
    write(d / "bad.csv", all);
    write(d / "good.csv", base_rows());
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

TEST(Merge, JoinsFilesInKeyOrderWithOneHeader)
{
    TempDir d;
    auto all = base_rows();
    write(d / "a.csv", {all[3], all[0]}); // np 13 before np 4
    write(d / "b.csv", {all[2], all[1]});
    Out o = cli("merge " + d / "a.csv" + " " + d / "b.csv" + " --out " + d / "m.csv");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("merged 4 rows from 2 files"), std::string::npos) << o.text;
    auto got = read(d / "m.csv");
    ASSERT_EQ(got.size(), 4u);
    for (size_t i = 0; i < 4; i++) { // np numerically, then algorithm, then bytes
        EXPECT_STREQ(got[i].algorithm, all[i].algorithm) << i;
        EXPECT_EQ(got[i].np, all[i].np) << i;
        EXPECT_EQ(got[i].bytes, all[i].bytes) << i;
        EXPECT_EQ(got[i].min_us, all[i].min_us) << i;
    }
    std::string text = slurp(d / "m.csv");
    EXPECT_EQ(lines_with(text, {"platform,mapping,np"}).size(), 1u) << text;

    // a row that did not pass is merged, and makes merge exit 1 as run would
    all[1].avg_us = 0;
    snprintf(all[1].status, sizeof all[1].status, "timeout");
    write(d / "c.csv", {all[1]});
    Out t = cli("merge " + d / "a.csv" + " " + d / "c.csv" + " --out " + d / "m2.csv");
    EXPECT_EQ(t.code, 1) << t.text;
    EXPECT_NE(t.text.find("1 rows did not pass"), std::string::npos) << t.text;
    EXPECT_EQ(read(d / "m2.csv").size(), 3u);
}

TEST(Merge, ADuplicateCaseIsReportedAndNothingWritten)
{
    TempDir d;
    auto all = base_rows();
    write(d / "a.csv", {all[0], all[1]});
    write(d / "b.csv", {all[2], all[0]});
    Out o = cli("merge " + d / "a.csv" + " " + d / "b.csv" + " --out " + d / "m.csv");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("yahoo sequential np=4 allgather/bruck byte check 1 B is in both " +
                          d / "a.csv" + " and " + d / "b.csv"),
              std::string::npos)
        << o.text;
    EXPECT_EQ(fopen((d / "m.csv").c_str(), "r"), nullptr);
}

// A file holding a case twice (two sweeps at once, or a file joined twice) is
// refused by report, naming the key and the repair; `repair` keeps one row per
// key, a passing one before a failed one whatever their order, the first of
// equals, and keeps the file as it was beside it.
TEST(Repair, KeepsOneRowPerKeyPassingFirstAndKeepsTheOriginal)
{
    TempDir d;
    auto all = base_rows();
    cs_result broken = all[0];
    snprintf(broken.status, sizeof broken.status, "error");
    snprintf(broken.note, sizeof broken.note, "smpirun exited with 0: no error output");
    cs_result later = all[1];
    later.avg_us = 99; // a second ring 4 1 B row: the first one stays
    write(d / "r.csv", {broken, all[0], all[1], later, all[2], all[3]});
    const std::string before = slurp(d / "r.csv");

    Out rep = cli("report " + d / "r.csv" + " --out " + d / "rep");
    EXPECT_EQ(rep.code, 2) << rep.text;
    EXPECT_NE(rep.text.find(d / "r.csv" + " holds 2 (case, size) keys more than once (e.g. "
                                          "yahoo sequential np=4 allgather/bruck byte check 1 B)"),
              std::string::npos)
        << rep.text;
    EXPECT_NE(rep.text.find("`collsim repair " + d / "r.csv" + "`"), std::string::npos) << rep.text;

    Out o = cli("repair " + d / "r.csv");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("dropped yahoo sequential np=4 allgather/bruck byte check 1 B: error: "
                          "smpirun exited with 0: no error output"),
              std::string::npos)
        << o.text;
    EXPECT_NE(o.text.find("2 (case, size) keys were given more than once; kept one row each"),
              std::string::npos)
        << o.text;
    EXPECT_EQ(slurp(d / "r.csv.orig"), before);
    auto kept = read(d / "r.csv");
    ASSERT_EQ(kept.size(), 4u);
    for (auto &r : kept)
        EXPECT_STREQ(r.status, "ok") << r.algorithm;
    for (auto &r : kept) {
        if (std::string(r.algorithm) == "ring" && r.bytes == 1) {
            EXPECT_EQ(r.avg_us, all[1].avg_us);
        }
    }
    EXPECT_EQ(cli("report " + d / "r.csv" + " --out " + d / "rep").code, 0);
    // a second repair has nothing to do and keeps no second copy
    Out again = cli("repair " + d / "r.csv");
    EXPECT_EQ(again.code, 0) << again.text;
    EXPECT_NE(again.text.find("every case is given once (4 rows); nothing to repair"),
              std::string::npos) << again.text;
    EXPECT_EQ(fopen((d / "r.csv.orig.1").c_str(), "r"), nullptr);
}

// A results file saved by a spreadsheet program starts with a UTF-8 byte-order mark: it is no part
// of the first column's name, so every reader keeps the platform column.
TEST(Check, AByteOrderMarkIsNoPartOfTheFirstColumn)
{
    TempDir d;
    write(d / "plain.csv", base_rows());
    std::ofstream(d / "bom.csv") << "\xEF\xBB\xBF" << slurp(d / "plain.csv");
    auto rows = read(d / "bom.csv");
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
    write(csv, rows);
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
    write(csv, rows);
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
    write(csv, base_rows());
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

// A file cut inside its last row (a run killed while writing): every reader names the line and
// says how to mend it; `repair` drops that row, keeping the file as it was.
TEST(Repair, AnIncompleteLastRowIsNamedAndDropped)
{
    TempDir d;
    write(d / "r.csv", base_rows());
    const std::string whole = slurp(d / "r.csv");
    std::ofstream(d / "r.csv", std::ios::app) << "yahoo,sequential,5,0,allgather,bru";
    const std::string torn = slurp(d / "r.csv");
    const std::string said = d / "r.csv" + ":6: an incomplete last row (6 fields, the header has " +
                             "38), as a run killed while writing leaves: `collsim repair " +
                             d / "r.csv" + "` drops it";
    for (std::string cmd : {"check " + d / "r.csv" + " --baseline " + d / "r.csv",
                            "report " + d / "r.csv" + " --out " + d / "rep",
                            "merge " + d / "r.csv" + " --out " + d / "m.csv"}) {
        Out o = cli(cmd);
        EXPECT_EQ(o.code, 2) << cmd << ": " << o.text;
        EXPECT_NE(o.text.find(said), std::string::npos) << cmd << ": " << o.text;
    }
    Out rep = cli("repair " + d / "r.csv");
    ASSERT_EQ(rep.code, 0) << rep.text;
    EXPECT_NE(rep.text.find("an incomplete last row (34 bytes, as a run killed while writing "
                            "leaves) dropped; the file as it was is " + d / "r.csv.orig"),
              std::string::npos) << rep.text;
    EXPECT_EQ(slurp(d / "r.csv"), whole);
    EXPECT_EQ(slurp(d / "r.csv.orig"), torn);
    // a damaged row inside the file is no torn tail: named, not dropped
    std::string mid = whole;
    mid.insert(mid.find('\n') + 1, "yahoo,sequential,4\n");
    std::ofstream(d / "mid.csv") << mid;
    Out m = cli("repair " + d / "mid.csv");
    EXPECT_EQ(m.code, 2) << m.text;
    EXPECT_NE(m.text.find(d / "mid.csv:2: 3 fields, the header has 38: a damaged row"),
              std::string::npos) << m.text;
}

// compare takes the measured file (collsim-mpibench: rows without platform) first; given the
// other way round it says so instead of pairing rows.
TEST(Compare, SwappedFilesAreNamed)
{
    TempDir d;
    auto measured = base_rows();
    for (auto &r : measured)
        r.platform[0] = r.mapping[0] = 0;
    write(d / "measured.csv", measured);
    write(d / "predicted.csv", base_rows());
    Out right = cli("compare " + d / "measured.csv " + d / "predicted.csv");
    EXPECT_EQ(right.code, 0) << right.text;
    Out swapped = cli("compare " + d / "predicted.csv " + d / "measured.csv");
    EXPECT_EQ(swapped.code, 2) << swapped.text;
    EXPECT_NE(swapped.text.find("collsim: compare: " + d / "predicted.csv" + " holds simulated rows "
                                "(each names a platform) and " + d / "measured.csv" +
                                " measured ones (none does): the measured file comes first"),
              std::string::npos) << swapped.text;
}

// The tasks of an emitted sweep (tests/data/scaleout-small.xml: 4 cases) that
// no input brings a row of are named, from the job list --emit wrote beside
// them; --strict makes them fail the merge, and then nothing is written.
TEST(Merge, TasksOfTheEmittedJobListThatBringNoRowAreNamed)
{
    TempDir d;
    auto all = base_rows();
    for (std::string kind : {"parallel", "slurm"}) {
        std::string dir = d / kind, list = dir + (kind == "slurm" ? "/collsim.sbatch" : "/jobs.txt");
        Out emit = cli("run " + data + "/scaleout-small.xml --emit " + kind + " --out " + dir);
        ASSERT_EQ(emit.code, 0) << emit.text;
        std::string in;
        for (int k = 0; k < 3; k++) { // task 1 wrote its header only, task 3 nothing
            std::string t = dir + "/tasks/" + std::to_string(k);
            ASSERT_EQ(system(("mkdir -p " + t).c_str()), 0);
            write(t + "/results.csv", k == 1 ? std::vector<cs_result>{} : std::vector<cs_result>{all[k]});
            in += " " + t + "/results.csv";
        }
        std::string want = "collsim: merge: 2 of 4 task files missing or empty (" + list +
                           " runs 4 tasks): " + dir + "/tasks/K/results.csv for K = 1, 3; run them again: " +
                           (kind == "slurm" ? "sbatch --array=1,3 " + list : "sed -n '2p;4p' " + list + " | parallel") + "\n";
        Out o = cli("merge" + in + " --out " + dir + "/results.csv");
        EXPECT_EQ(o.code, 0) << o.text;
        EXPECT_NE(o.text.find("merged 2 rows from 3 files"), std::string::npos) << o.text;
        EXPECT_NE(o.text.find(want), std::string::npos) << o.text;
        // --strict: an incomplete merge is not written, and says so
        Out strict = cli("merge" + in + " --out " + dir + "/strict.csv --strict");
        EXPECT_EQ(strict.code, 1) << strict.text;
        EXPECT_NE(strict.text.find(want), std::string::npos) << strict.text;
        EXPECT_NE(strict.text.find("collsim: merge --strict: 2 tasks brought no row; " + dir +
                                   "/strict.csv not written"),
                  std::string::npos) << strict.text;
        EXPECT_EQ(fopen((dir + "/strict.csv").c_str(), "r"), nullptr);
        EXPECT_EQ(strict.text.find("merged "), std::string::npos) << strict.text;
    }
    // all of them given: nothing is missing
    std::string dir = d / "parallel", in;
    write(dir + "/tasks/1/results.csv", {all[1]});
    ASSERT_EQ(system(("mkdir -p " + dir + "/tasks/3").c_str()), 0);
    write(dir + "/tasks/3/results.csv", {all[3]});
    for (int k = 0; k < 4; k++)
        in += " " + dir + "/tasks/" + std::to_string(k) + "/results.csv";
    Out o = cli("merge" + in + " --out " + dir + "/results.csv --strict");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(o.text.find("missing"), std::string::npos) << o.text;
}

// --- expectations, on a real run of 4 small cases ---

std::vector<std::string> verdicts(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.rfind("PASS ", 0) || !line.rfind("FAIL ", 0) || !line.rfind("SKIP ", 0) ||
            !line.rfind("    ", 0))
            out.push_back(line);
    return out;
}

TEST(Expect, PassAndFailOnARealRunAndInCheckAlike)
{
    TempDir d;
    std::string scen = data + "/expect-small.xml";
    Out run = cli("run " + scen + " --out " + d / "out" + " -j 2");
    EXPECT_EQ(run.code, 1) << run.text; // two expectations do not hold
    auto pass14 = lines_with(run.text, {"PASS " + scen + ":14: bruck faster than ring (every point): "
                                        "4 of 4 points pass; closest: yahoo sequential np=5 1024 B: "
                                        "bruck 4.18 us vs ring 4.89 us (14.5% faster)"});
    EXPECT_EQ(pass14.size(), 1u) << run.text;
    EXPECT_EQ(lines_with(run.text, {"PASS " + scen + ":15: bruck faster than ring by 10%",
                                    "1 of 1 points pass"})
                  .size(),
              1u)
        << run.text;
    EXPECT_EQ(lines_with(run.text, {"FAIL " + scen + ":16: ring faster than bruck (bytes=1K): "
                                    "2 of 2 points fail"})
                  .size(),
              1u)
        << run.text;
    EXPECT_EQ(lines_with(run.text, {"    yahoo sequential np=4 1024 B: ring 3.67 us vs bruck "
                                    "2.96 us (23.9% slower)"})
                  .size(),
              1u)
        << run.text;
    EXPECT_EQ(lines_with(run.text, {"FAIL " + scen + ":17: bruck faster than ring by 30%",
                                    "3 of 4 points fail"})
                  .size(),
              1u)
        << run.text;
    EXPECT_NE(run.text.find("# expectations: 2 passed, 2 failed, 0 skipped"), std::string::npos);

    // check --scenario: the same code path, the same verdicts
    Out check = cli("check " + d / "out/results.csv" + " --scenario " + scen);
    EXPECT_EQ(check.code, 1) << check.text;
    EXPECT_EQ(verdicts(check.text), verdicts(run.text));
    EXPECT_EQ(verdicts(run.text).size(), 9u) << run.text; // 4 verdicts, 5 failing points

    Out pass = cli("check " + d / "out/results.csv" + " --scenario " + data + "/expect-pass.xml");
    EXPECT_EQ(pass.code, 0) << pass.text;
    EXPECT_NE(pass.text.find("# expectations: 2 passed, 0 failed, 0 skipped"), std::string::npos)
        << pass.text;
}

// A tie (relative difference <= 1e-9, as in the best table) is not "faster",
// however the last bits fall.
TEST(Expect, ATieIsNotFaster)
{
    TempDir d;
    std::vector<cs_result> rows;
    for (int np : {4, 5})
        for (long bytes : {1L, 1024L}) {
            double t = 2.5 + np + bytes / 1000.0;
            rows.push_back(row("bruck", np, bytes, t * (1 - 1e-12)));
            rows.push_back(row("ring", np, bytes, np == 5 && bytes == 1 ? 1.2 * t : t));
        }
    write(d / "r.csv", rows);
    Out o = cli("check " + d / "r.csv" + " --scenario " + data + "/expect-pass.xml");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_EQ(lines_with(o.text, {"FAIL ", ":12: bruck faster than ring (every point): 3 of 4 "
                                  "points fail"}).size(), 1u) << o.text;
    EXPECT_EQ(lines_with(o.text, {"yahoo sequential np=4 1 B: bruck 6.50 us vs ring 6.50 us (tie)"})
                  .size(), 1u) << o.text;
    EXPECT_EQ(lines_with(o.text, {"PASS ", ":13: bruck faster than ring by 10%"}).size(), 1u)
        << o.text;
}

// An algorithm that takes no region (bruck, native:ompi) has one case per
// point whatever <region> lists, recorded without region: an expectation
// reads it at region "" beside loc_bruck at each level (2 points), and one of
// two such algorithms is one point, not one per level. A file written before
// (bruck once per level, each row carrying the level) reads the same.
TEST(Expect, AlgorithmsWithoutRegionAreReadAtTheEmptyRegion)
{
    TempDir d;
    std::string scen = data + "/region-expect.xml";
    auto quartz = [](const char *alg, const char *region, double avg) {
        cs_result r = row(alg, 16, 8, avg);
        snprintf(r.platform, sizeof r.platform, "quartz");
        snprintf(r.region, sizeof r.region, "%s", region);
        snprintf(r.dtype, sizeof r.dtype, "int");
        snprintf(r.mode, sizeof r.mode, "fold");
        r.ppn = 4;
        r.iterations = 1;
        return r;
    };
    write(d / "new.csv", {quartz("bruck", "", 10), quartz("loc_bruck", "node", 8),
                          quartz("loc_bruck", "socket", 9), quartz("native:ompi", "", 12)});
    write(d / "old.csv", {quartz("bruck", "node", 10), quartz("bruck", "socket", 10),
                          quartz("loc_bruck", "node", 8), quartz("loc_bruck", "socket", 9),
                          quartz("native:ompi", "node", 12), quartz("native:ompi", "socket", 12)});
    std::vector<std::string> want = {
        "PASS " + scen + ":16: loc_bruck faster than bruck (every point): 2 of 2 points pass; "
        "closest: quartz sequential ppn=4 region=socket np=16 8 B: loc_bruck 9.00 us vs bruck "
        "10.00 us (10.0% faster)",
        "PASS " + scen + ":17: bruck faster than native:ompi (every point): 1 of 1 points pass; "
        "closest: quartz sequential ppn=4 np=16 8 B: bruck 10.00 us vs native:ompi 12.00 us "
        "(16.7% faster)"};
    Out now = cli("check " + d / "new.csv" + " --scenario " + scen);
    EXPECT_EQ(now.code, 0) << now.text;
    EXPECT_EQ(verdicts(now.text), want) << now.text;
    Out old = cli("check " + d / "old.csv" + " --scenario " + scen);
    EXPECT_EQ(old.code, 0) << old.text;
    EXPECT_EQ(verdicts(old.text), want) << old.text;
    EXPECT_EQ(lines_with(old.text, {"# 4 rows of algorithms that take no region (bruck, "
                                    "native:ompi) carry a region level"})
                  .size(),
              1u)
        << old.text;
}

TEST(Expect, CasesLeftOutAreSkippedByRunButFailCheck)
{
    TempDir d;
    std::string scen = data + "/expect-pass.xml";
    Out run = cli("run " + scen + " --out " + d / "out" + " --only alg=bruck");
    EXPECT_EQ(run.code, 0) << run.text;
    EXPECT_NE(run.text.find("SKIP " + scen + ":12: bruck faster than ring (every point): none of "
                                             "its 4 points was run"),
              std::string::npos)
        << run.text;
    EXPECT_NE(run.text.find("# expectations: 0 passed, 0 failed, 2 skipped"), std::string::npos);
    // the file is all check sees: what is not there fails
    Out check = cli("check " + d / "out/results.csv" + " --scenario " + scen);
    EXPECT_EQ(check.code, 1) << check.text;
    EXPECT_NE(check.text.find("    yahoo sequential np=4 1 B: no result for ring"), std::string::npos)
        << check.text;
    // an expectation checked on the points that ran says how many were not run, and the summary
    // counts those points instead of saying "0 skipped"
    Out five = cli("run " + scen + " --out " + d / "five" + " --only np=5");
    EXPECT_EQ(five.code, 0) << five.text;
    EXPECT_NE(five.text.find("PASS " + scen + ":12: bruck faster than ring (every point): 2 of 2 "
                                             "points pass"),
              std::string::npos) << five.text;
    EXPECT_NE(five.text.find("    (2 points not run here: skipped)\n"), std::string::npos)
        << five.text;
    EXPECT_NE(five.text.find("# expectations: 2 passed, 0 failed; 2 points not run here (skipped)\n"),
              std::string::npos) << five.text;
    EXPECT_EQ(five.text.find("0 skipped"), std::string::npos) << five.text;
    // an expectation none of whose points ran is counted as skipped, the others' points beside it
    Out four = cli("run " + scen + " --out " + d / "four" + " --only np=4");
    EXPECT_EQ(four.code, 0) << four.text;
    EXPECT_NE(four.text.find("# expectations: 1 passed, 0 failed, 1 skipped; 2 more points not "
                             "run here (skipped)\n"),
              std::string::npos) << four.text;
}

// metric="max" compares the maximum over processes (Kang et al.'s metric),
// where the average can say the opposite; by="Fx" is the factor test.
TEST(Expect, TheMaxMetricAndAFactor)
{
    cs_result rows[2];
    for (int i = 0; i < 2; i++) {
        cs_result_init(&rows[i]);
        snprintf(rows[i].platform, sizeof rows[i].platform, "flat");
        snprintf(rows[i].mapping, sizeof rows[i].mapping, "sequential");
        snprintf(rows[i].collective, sizeof rows[i].collective, "inter_allgather");
        snprintf(rows[i].groups, sizeof rows[i].groups, "50:14");
        snprintf(rows[i].status, sizeof rows[i].status, "ok");
        rows[i].np = 64;
        rows[i].bytes = 1024;
    }
    // a: faster on average, 2x slower in the max; b the other way round
    snprintf(rows[0].algorithm, sizeof rows[0].algorithm, "a");
    rows[0].avg_us = 10, rows[0].max_us = 200, rows[0].min_us = 1;
    snprintf(rows[1].algorithm, sizeof rows[1].algorithm, "b");
    rows[1].avg_us = 50, rows[1].max_us = 100, rows[1].min_us = 1;
    cs_result point = rows[0];
    auto verdict = [&](const char *faster, const char *than, int metric, double pct, double factor) {
        cs_expect_points x = {};
        x.line = 7, x.faster = faster, x.than = than, x.by_pct = pct, x.scope = "every point";
        x.metric = metric, x.by_factor = factor, x.points = &point, x.npoints = 1;
        char *buf = nullptr;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        int failed = cs_expect_check(f, "k.xml", &x, 1, rows, 2, 0);
        fclose(f);
        std::string text(buf);
        free(buf);
        return std::make_pair(failed, text);
    };
    EXPECT_EQ(verdict("a", "b", CS_METRIC_AVG, 0, 0).first, 0);
    auto max_ab = verdict("a", "b", CS_METRIC_MAX, 0, 0);
    EXPECT_EQ(max_ab.first, 1) << max_ab.second;
    EXPECT_NE(max_ab.second.find("FAIL k.xml:7: a faster than b in max (every point)"),
              std::string::npos) << max_ab.second;
    EXPECT_NE(max_ab.second.find("groups=50:14 np=64 1024 B: a 200.00 us vs b 100.00 us, max (0.50x)"),
              std::string::npos) << max_ab.second;
    // b is 2x faster in the max: passes by 2x (50%), fails by 2.5x (60%)
    auto two = verdict("b", "a", CS_METRIC_MAX, 50, 2);
    EXPECT_EQ(two.first, 0) << two.second;
    EXPECT_NE(two.second.find("PASS k.xml:7: b faster than a by 2x in max"), std::string::npos)
        << two.second;
    EXPECT_EQ(verdict("b", "a", CS_METRIC_MAX, 60, 2.5).first, 1);
    EXPECT_EQ(verdict("b", "a", CS_METRIC_AVG, 0, 0).first, 1);
}

// alg="A" time="T" within="W%": A's time at every point within W% of T,
// either side; a missing row or a failed one is a failure too.
TEST(Expect, ATimeWithinAPercentage)
{
    cs_result row;
    cs_result_init(&row);
    snprintf(row.platform, sizeof row.platform, "ranger");
    snprintf(row.mapping, sizeof row.mapping, "sequential");
    snprintf(row.collective, sizeof row.collective, "pingpong");
    snprintf(row.algorithm, sizeof row.algorithm, "send_recv");
    snprintf(row.hosts, sizeof row.hosts, "node-0+node-96");
    snprintf(row.status, sizeof row.status, "ok");
    row.np = 2, row.ppn = 1, row.avg_us = row.min_us = row.max_us = 2.871;
    auto verdict = [&](double t, double within, const cs_result &point) {
        cs_expect_points x = {};
        x.line = 9, x.faster = "send_recv", x.than = "", x.scope = "hosts=node-0+node-96";
        x.time_us = t, x.within_pct = within, x.points = const_cast<cs_result *>(&point);
        x.npoints = 1;
        char *buf = nullptr;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        int failed = cs_expect_check(f, "t1.xml", &x, 1, &row, 1, 0);
        fclose(f);
        std::string text(buf);
        free(buf);
        return std::make_pair(failed, text);
    };
    auto pass = verdict(2.85, 5, row);
    EXPECT_EQ(pass.first, 0) << pass.second;
    EXPECT_NE(pass.second.find("PASS t1.xml:9: send_recv takes 2.85 us within 5% (hosts=node-0+node-96): "
                               "1 of 1 points pass; farthest: ranger sequential ppn=1 hosts=node-0+node-96 "
                               "np=2 0 B: send_recv 2.871 us, +0.74% from 2.85 us"),
              std::string::npos) << pass.second;
    // 2.871 is 4.3% below 3.0 and 0.74% above 2.85: within 5 and 4.5, not within 0.5 or 4
    EXPECT_EQ(verdict(3.0, 5, row).first, 0);
    EXPECT_EQ(verdict(3.0, 4, row).first, 1);
    auto tight = verdict(2.85, 0.5, row);
    EXPECT_EQ(tight.first, 1);
    EXPECT_NE(tight.second.find("FAIL t1.xml:9: send_recv takes 2.85 us within 0.5%"), std::string::npos)
        << tight.second;
    cs_result other = row; // a point of another placement: no row
    snprintf(other.hosts, sizeof other.hosts, "node-0+node-1");
    auto missing = verdict(2.85, 5, other);
    EXPECT_EQ(missing.first, 1);
    EXPECT_NE(missing.second.find("hosts=node-0+node-1 np=2 0 B: no result for send_recv"),
              std::string::npos) << missing.second;
}

// A rooted collective's rows carry the scenario's <root rank>: an expectation's points are read at
// that root (not at 0), a comparison and a time alike; rows of another root do not count.
TEST(Expect, ARootedScenarioIsReadAtItsRoot)
{
    TempDir d;
    auto gather = [](const char *alg, int root, double avg) {
        cs_result r = row(alg, 13, 1024, avg);
        snprintf(r.collective, sizeof r.collective, "gather");
        r.root = root;
        return r;
    };
    std::ofstream(d / "x.xml")
        << "<scenario>\n  <platform name=\"yahoo\"/>\n  <mappings>sequential</mappings>\n"
           "  <processes>13</processes>\n  <sizes>1K</sizes>\n  <root rank=\"3\"/>\n"
           "  <models>network</models>\n" /* rows without a model: network-only */
           "  <collective name=\"gather\"><algorithms>binomial linear</algorithms></collective>\n"
           "  <expect faster=\"linear\" than=\"binomial\"/>\n"
           "  <expect alg=\"linear\" time=\"5.91us\" within=\"1%\"/>\n</scenario>\n";
    write(d / "root3.csv", {gather("binomial", 3, 29.93), gather("linear", 3, 5.91)});
    Out three = cli("check " + d / "root3.csv" + " --scenario " + d / "x.xml");
    EXPECT_EQ(three.code, 0) << three.text;
    EXPECT_NE(three.text.find("yahoo sequential np=13 1024 B: linear 5.91 us vs binomial 29.93 us"),
              std::string::npos) << three.text;
    EXPECT_NE(three.text.find("# expectations: 2 passed, 0 failed"), std::string::npos) << three.text;
    write(d / "root0.csv", {gather("binomial", 0, 29.93), gather("linear", 0, 5.91)});
    Out zero = cli("check " + d / "root0.csv" + " --scenario " + d / "x.xml");
    EXPECT_EQ(zero.code, 1) << zero.text;
    EXPECT_NE(zero.text.find("no result for linear"), std::string::npos) << zero.text;
}

// hosts="..." and background="..." narrow an expectation to one value of <hosts> and of
// <background> (the other values are other cases, with other outcomes): here bruck wins under
// the background on the chosen nodes only.
TEST(Expect, HostsAndBackgroundNarrowTheScope)
{
    TempDir d;
    std::vector<cs_result> rows;
    for (const char *bg : {"", "alltoall:inter-switch:64K:8"})
        for (const char *hosts : {"", "node-0+node-4"}) {
            const bool win = bg[0] && hosts[0];
            for (const char *alg : {"bruck", "ring"}) {
                cs_result r = row(alg, 16, 64, (alg[0] == 'b') == win ? 10.0 : 20.0);
                snprintf(r.platform, sizeof r.platform, "kandalla-testbed");
                snprintf(r.background, sizeof r.background, "%s", bg);
                snprintf(r.hosts, sizeof r.hosts, "%s", hosts);
                rows.push_back(r);
            }
        }
    write(d / "results.csv", rows);
    auto check = [&](const std::string &attrs) {
        std::ofstream(d / "x.xml")
            << "<scenario>\n  <platform name=\"kandalla-testbed\"/>\n  <mappings>sequential</mappings>\n"
               "  <processes>16</processes>\n  <sizes>64</sizes>\n"
               "  <collective name=\"allgather\"><algorithms>ring bruck</algorithms></collective>\n"
               "  <hosts>all node-0+node-4</hosts>\n"
               "  <background>none alltoall:inter-switch:64K:8</background>\n"
               "  <models>network</models>\n" /* rows without a model: network-only */
               "  <expect faster=\"bruck\" than=\"ring\" " << attrs << "/>\n</scenario>\n";
        return cli("check " + d / "results.csv" + " --scenario " + d / "x.xml");
    };
    Out both = check(R"(hosts="node-0+node-4" background="alltoall:inter-switch:65536:8")");
    EXPECT_EQ(both.code, 0) << both.text;
    EXPECT_NE(both.text.find("1 of 1 points pass"), std::string::npos) << both.text;
    Out one = check(R"(background="alltoall:inter-switch:64K:8")");
    EXPECT_EQ(one.code, 1) << one.text;
    EXPECT_NE(one.text.find("1 of 2 points fail"), std::string::npos) << one.text;
    EXPECT_NE(one.text.find("kandalla-testbed sequential np=16 64 B: bruck 20.00 us vs ring 10.00 us"),
              std::string::npos) << one.text;
    Out all = check(R"(hosts="all")");
    EXPECT_EQ(all.code, 1) << all.text;
    EXPECT_NE(all.text.find("2 of 2 points fail"), std::string::npos) << all.text;
    Out none = check(R"(hosts="node-0+node-4" background="none")");
    EXPECT_NE(none.text.find("kandalla-testbed sequential hosts=node-0+node-4 np=16 64 B: bruck 20.00 us"),
              std::string::npos) << none.text;
}

TEST(Expect, ErrorsNameTheLineAndTheValidChoices)
{
    TempDir d;
    struct {
        const char *attrs, *want;
    } cases[] = {
        {R"(faster="sparbit" than="ring")",
         R"(<expect faster="sparbit">: not among the scenario's allgather algorithms (valid: ring, bruck))"},
        {R"(faster="bruk" than="ring")", "(valid: ring, bruck)"},
        {R"(faster="ring" than="ring")", "faster and than both name 'ring'"},
        {R"(faster="bruck")", R"(<expect> needs faster="ALG" and than="ALG")"},
        {R"(faster="bruck" than="ring" speed="2")",
         "unknown attribute 'speed' (valid: faster, than, by, collective, platform, mapping, np, bytes, "
         "metric, groups, block-ratio, counts, hosts, background, model, alg, time, within)"},
        {R"(faster="bruck" than="ring" groups="1:1")",
         "<expect>: no <groups> of allgather matches its groups, block-ratio and counts (valid: none)"},
        {R"(faster="bruck" than="ring" metric="median")",
         R"(<expect metric="median">: expected avg, max or min)"},
        {R"(faster="bruck" than="ring" by="0.5x")", R"(or a factor of at least 1, such as by="5x")"},
        {R"(faster="bruck" than="ring" np="6")",
         "6 is not among the scenario's process counts (valid: 4,5)"},
        {R"(faster="bruck" than="ring" bytes="2K")", "2048 is not among the scenario's sizes (valid: 1,1024)"},
        {R"(faster="bruck" than="ring" by="10")", R"(expected a percentage from 0 to 100, such as by="10%")"},
        {R"(faster="bruck" than="ring" platform="cervino")", "not a platform of the scenario (valid: yahoo)"},
        {R"(faster="bruck" than="ring" mapping="cyclic")", "not a mapping of the scenario (valid: sequential)"},
        {R"(faster="bruck" than="ring" mapping="rr")", "unknown mapping 'rr' (valid: sequential, cyclic)"},
        {R"(faster="bruck" than="ring" collective="alltoall")", "not a collective of the scenario (valid: allgather)"},
        // a published time instead of a comparison
        {R"(alg="ring" time="1us")", R"(<expect> with a time needs alg="ALG", time="T" and within="W%")"},
        {R"(alg="ring" faster="bruck" time="1us" within="5%")", "and no faster, than or by"},
        {R"(alg="ring" time="fast" within="5%")", R"(<expect time="fast">: expected a time > 0 in us, ms or s)"},
        {R"(alg="ring" time="-2us" within="5%")", R"(<expect time="-2us">: expected a time > 0)"},
        {R"(alg="ring" time="2us" within="5")", R"(<expect within="5">: expected a percentage above 0 and below 100)"},
        {R"(alg="sparbit" time="2us" within="5%")",
         R"(<expect alg="sparbit">: not among the scenario's allgather algorithms (valid: ring, bruck))"},
        {R"(alg="ring" time="2us" within="5%" hosts="node-0+node-1")",
         R"(<expect hosts="node-0+node-1">: not a <hosts> value of the scenario (valid: all))"},
        {R"(faster="bruck" than="ring" background="alltoall:inter-node:64K:4")",
         R"(<expect background="alltoall:inter-node:64K:4">: not a <background> value of the scenario (valid: none))"},
        {R"(faster="bruck" than="ring" background="alltoall:4M")",
         R"(<expect background="alltoall:4M">: --background 'alltoall:4M': expected)"},
    };
    for (auto &c : cases) {
        std::string path = d / "x.xml";
        FILE *f = fopen(path.c_str(), "w");
        // the <expect> comes first, on line 3: names are checked against
        // elements that follow it
        fprintf(f, "<?xml version=\"1.0\"?>\n<scenario>\n  <expect %s/>\n"
                   "  <platform name=\"yahoo\"/><mappings>sequential</mappings>\n"
                   "  <processes>4 5</processes><sizes>1 1K</sizes>\n"
                   "  <collective name=\"allgather\"><algorithms>ring bruck</algorithms></collective>\n"
                   "</scenario>\n",
                c.attrs);
        fclose(f);
        long n;
        char err[4096] = "";
        EXPECT_EQ(tw_scenario(path.c_str(), &n, err, sizeof err), -1) << c.attrs;
        EXPECT_NE(std::string(err).find(path + ":3: "), std::string::npos) << c.attrs << ": " << err;
        EXPECT_NE(std::string(err).find(c.want), std::string::npos) << c.attrs << ": " << err;
    }
}

} // namespace
