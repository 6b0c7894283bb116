// The memory estimate of a case and what the runner and bench do with it:
// sizes that do not fit are refused alone (and -j changes nothing), the
// estimate's terms, and the refusal naming need, limit and remedy.
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

// A rank's buffers are what the driver allocates: a reduction's result is one vector, a
// broadcast's one block; allgathers, alltoalls, gathers and scatters receive p blocks (a
// scatter's p - 1 beyond its own block show a write past it).
TEST(Memory, BuffersPerCollectiveAreWhatTheDriverAllocates)
{
    const double mib4 = 4194304;
    const struct {
        const char *coll, *alg;
        int np;
        double blocks; // send and receive, per rank
    } cases[] = {{"allreduce", "ring", 4096, 2},         {"reduce", "binomial", 64, 2},
                 {"bcast", "binomial", 64, 2},           {"scatter", "binomial", 64, 64 + 64},
                 {"gather", "binomial", 64, 1 + 64},     {"allgather", "ring", 64, 1 + 64},
                 {"alltoall", "pairwise", 64, 64 + 64}};
    for (const auto &k : cases)
        for (int fold : {1, 0}) {
            cs_case c = estimate_case(k.np, k.alg, "", fold);
            snprintf(c.alg.collective, sizeof c.alg.collective, "%s", k.coll);
            cs_mem_parts m;
            cs_case_memory_parts(&c, (long)mib4, &m);
            EXPECT_DOUBLE_EQ(m.buffers, mib4 * k.blocks * (fold ? 1 : k.np)) << k.coll << " fold " << fold;
        }
    // MPI_IN_PLACE into a reduce-scatter: the receive buffer holds the p blocks of input
    cs_case rs = estimate_case(64, "ring", "", 1);
    snprintf(rs.alg.collective, sizeof rs.alg.collective, "reduce_scatter_block");
    cs_mem_parts m;
    cs_case_memory_parts(&rs, (long)mib4, &m);
    EXPECT_DOUBLE_EQ(m.buffers, mib4 * (64 + 1));
    rs.in_place = 1;
    cs_case_memory_parts(&rs, (long)mib4, &m);
    EXPECT_DOUBLE_EQ(m.buffers, mib4 * (64 + 64));
    // 64 ranks of a 1 MiB allreduce with real buffers: 134 MB, not 4.4 GB (p receive blocks)
    Out o = cli("bench --platform yahoo --np 64 --coll allreduce --alg recursive_doubling "
                "--dtype int --sizes 1M --iters 1 --warmup 0 --memory 256M");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("# memory: about "), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("buffers 134.2 MB"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("Pass"), std::string::npos) << o.text;
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
