// `collsim merge` and `collsim repair` on results files written here: files
// joined in key order with one header, a duplicate case or a task of an
// emitted job list that brought no row named, one row kept per key.
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

TEST(Merge, JoinsFilesInKeyOrderWithOneHeader)
{
    TempDir d;
    auto all = base_rows();
    write_rows(d / "a.csv", {all[3], all[0]}); // np 13 before np 4
    write_rows(d / "b.csv", {all[2], all[1]});
    Out o = cli("merge " + d / "a.csv" + " " + d / "b.csv" + " --out " + d / "m.csv");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("merged 4 rows from 2 files"), std::string::npos) << o.text;
    auto got = read_rows(d / "m.csv");
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
    write_rows(d / "c.csv", {all[1]});
    Out t = cli("merge " + d / "a.csv" + " " + d / "c.csv" + " --out " + d / "m2.csv");
    EXPECT_EQ(t.code, 1) << t.text;
    EXPECT_NE(t.text.find("1 rows did not pass"), std::string::npos) << t.text;
    EXPECT_EQ(read_rows(d / "m2.csv").size(), 3u);
}

TEST(Merge, ADuplicateCaseIsReportedAndNothingWritten)
{
    TempDir d;
    auto all = base_rows();
    write_rows(d / "a.csv", {all[0], all[1]});
    write_rows(d / "b.csv", {all[2], all[0]});
    Out o = cli("merge " + d / "a.csv" + " " + d / "b.csv" + " --out " + d / "m.csv");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("yahoo sequential np=4 allgather/bruck byte check 1 B is in both " +
                          d / "a.csv" + " (line 2) and " + d / "b.csv" + " (line 3)"),
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
    write_rows(d / "r.csv", {broken, all[0], all[1], later, all[2], all[3]});
    const std::string before = slurp(d / "r.csv");

    Out rep = cli("report " + d / "r.csv" + " --out " + d / "rep");
    EXPECT_EQ(rep.code, 2) << rep.text;
    EXPECT_NE(rep.text.find(d / "r.csv" + " holds 2 (case, size) keys more than once (e.g. "
                                          "yahoo sequential np=4 allgather/bruck byte check 1 B, "
                                          "lines 2 and 3)"),
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
    auto kept = read_rows(d / "r.csv");
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

// A file cut inside its last row (a run killed while writing): every reader names the line and
// says how to mend it; `repair` drops that row, keeping the file as it was.
TEST(Repair, AnIncompleteLastRowIsNamedAndDropped)
{
    TempDir d;
    write_rows(d / "r.csv", base_rows());
    const std::string whole = slurp(d / "r.csv");
    std::ofstream(d / "r.csv", std::ios::app) << "yahoo,sequential,5,0,allgather,bru";
    const std::string torn = slurp(d / "r.csv");
    const std::string said = d / "r.csv" + ":6: an incomplete last row (6 fields, the header has " +
                             "39), as a run killed while writing leaves: `collsim repair " +
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
    EXPECT_NE(m.text.find(d / "mid.csv:2: 3 fields, the header has 39: a damaged row"),
              std::string::npos) << m.text;
}

// A line that starts with NUL bytes (a crash that zero-fills a block of the file) was dropped
// without a word: report counted one row less, merge wrote one less and exited 0, repair found
// nothing to do. Every command names the line; repair drops it, naming it, and keeps the file.
TEST(Repair, ALineOfNulBytesIsNamedByEveryCommandAndDroppedByRepair)
{
    TempDir d;
    auto rows = base_rows();
    write_rows(d / "whole.csv", rows);
    const std::string whole = slurp(d / "whole.csv");
    // line 3 (the second row) starts with 3 NUL bytes; a zero-filled block inside line 5
    std::string text = whole;
    size_t line3 = text.find('\n', text.find('\n') + 1) + 1;
    text.insert(line3, std::string(3, '\0'));
    std::ofstream(d / "r.csv", std::ios::binary) << text;
    const std::string r = d / "r.csv";
    const std::string said = r + ":3: 3 NUL bytes from character 1 (what a crash that zero-fills "
                                 "part of a file leaves): a damaged row; `collsim repair " + r +
                             "` drops that line";
    for (std::string cmd : {"report " + r + " --out " + d / "rep", "merge " + r + " --out " + d / "m.csv",
                            "check " + r + " --baseline " + d / "whole.csv",
                            "check " + d / "whole.csv" + " --baseline " + r,
                            "compare " + r + " " + d / "whole.csv", "tune " + r + " --out " + d / "t"}) {
        Out o = cli(cmd);
        EXPECT_EQ(o.code, 2) << cmd << ": " << o.text;
        EXPECT_NE(o.text.find(said), std::string::npos) << cmd << ": " << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << cmd << ": not one line:\n" << o.text;
    }
    EXPECT_EQ(fopen((d / "m.csv").c_str(), "r"), nullptr);
    Out rep = cli("repair " + r);
    ASSERT_EQ(rep.code, 0) << rep.text;
    EXPECT_NE(rep.text.find("  dropped line 3: 3 NUL bytes from character 1\n"), std::string::npos)
        << rep.text;
    EXPECT_NE(rep.text.find(r + ": 1 line holding NUL bytes (what a crash that zero-fills part of "
                                "a file leaves) dropped (listed above); the file as it was is " +
                            r + ".orig"),
              std::string::npos) << rep.text;
    EXPECT_EQ(slurp(r + ".orig"), text);
    auto kept = read_rows(r); // the damaged line held the second row: it is gone, nothing else
    ASSERT_EQ(kept.size(), rows.size() - 1);
    EXPECT_STREQ(kept[0].algorithm, rows[0].algorithm);
    EXPECT_STREQ(kept[1].algorithm, rows[2].algorithm);
    EXPECT_EQ(kept[1].bytes, rows[2].bytes);

    // a block of NUL bytes from inside line 2 into line 3 (one line now), a line of NUL bytes
    // alone (line 4), and a row given twice: one repair mends all of them
    std::string block = whole;
    size_t line2 = block.find('\n') + 1, line4 = block.find('\n', line3) + 1;
    block.replace(line2 + 10, line4 - line2 - 10 + 5, std::string(line4 - line2 - 5, '\0'));
    block += std::string(7, '\0') + "\n" + block.substr(block.rfind('\n', block.size() - 2) + 1);
    std::ofstream(d / "b.csv", std::ios::binary) << block;
    Out b = cli("repair " + d / "b.csv");
    ASSERT_EQ(b.code, 0) << b.text;
    EXPECT_NE(b.text.find("  dropped line 2: "), std::string::npos) << b.text;
    EXPECT_NE(b.text.find(" NUL bytes from character 11\n"), std::string::npos) << b.text;
    EXPECT_NE(b.text.find("  dropped line 4: a line of 7 NUL bytes\n"), std::string::npos) << b.text;
    EXPECT_NE(b.text.find("2 lines holding NUL bytes"), std::string::npos) << b.text;
    EXPECT_NE(b.text.find("1 (case, size) key was given more than once"), std::string::npos) << b.text;
    Out again = cli("repair " + d / "b.csv");
    EXPECT_NE(again.text.find("nothing to repair"), std::string::npos) << again.text;
}

// `merge ... --out FILE` where FILE is one of the inputs replaced that input with the merge and
// exited 0 (the next merge then found its rows twice): refused in one line, however the path is
// spelled, and nothing is written.
TEST(Merge, TheOutputMayNotBeOneOfTheInputs)
{
    TempDir d;
    auto all = base_rows();
    ASSERT_EQ(system(("mkdir -p " + d / "tasks/0 " + d / "tasks/1").c_str()), 0);
    const std::string t0 = d / "tasks/0/results.csv", t1 = d / "tasks/1/results.csv";
    write_rows(t0, {all[0], all[1]});
    write_rows(t1, {all[2]});
    const std::string before = slurp(t0);
    ASSERT_EQ(link(t0.c_str(), (d / "hard.csv").c_str()), 0);
    ASSERT_EQ(symlink(t0.c_str(), (d / "soft.csv").c_str()), 0);
    for (std::string out : {t0, d / "tasks/./0/../0/results.csv", d / "hard.csv", d / "soft.csv"}) {
        Out o = cli("merge " + t0 + " " + t1 + " --out " + out);
        EXPECT_EQ(o.code, 2) << out << ": " << o.text;
        EXPECT_NE(o.text.find("collsim: merge: --out " + out + " is the input " + t0 +
                              " (the same file): the merge would replace its rows; write the "
                              "merge to a new file"),
                  std::string::npos) << out << ": " << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << out << ": not one line:\n" << o.text;
        EXPECT_EQ(slurp(t0), before) << out;
    }
    Out ok = cli("merge " + t0 + " " + t1 + " --out " + d / "results.csv");
    EXPECT_EQ(ok.code, 0) << ok.text;
    EXPECT_EQ(read_rows(d / "results.csv").size(), 3u);
    EXPECT_EQ(cli("merge " + t0 + " " + t1 + " --out " + d / "results.csv").code, 0); // again: the same
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
            write_rows(t + "/results.csv", k == 1 ? std::vector<cs_result>{} : std::vector<cs_result>{all[k]});
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
    write_rows(dir + "/tasks/1/results.csv", {all[1]});
    ASSERT_EQ(system(("mkdir -p " + dir + "/tasks/3").c_str()), 0);
    write_rows(dir + "/tasks/3/results.csv", {all[3]});
    for (int k = 0; k < 4; k++)
        in += " " + dir + "/tasks/" + std::to_string(k) + "/results.csv";
    Out o = cli("merge" + in + " --out " + dir + "/results.csv --strict");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(o.text.find("missing"), std::string::npos) << o.text;
}

// --- expectations, on a real run of 4 small cases ---

} // namespace
