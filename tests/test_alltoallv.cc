// MPI_Alltoallv: every collsim algorithm's output checked byte by byte by the
// driver's check mode (blocks at displacements with gaps, in a non-identity
// order; the gaps, the send buffer and the caller's count and displacement
// arrays must come back untouched) for every p in 1..32 and 37, 63 (and 64)
// (data_check.h, every_p_keeps), for each block-size
// distribution, sequential and cyclic; SMPI's alltoallv as a baseline; the
// distributions' definitions and determinism; the check's failure reports;
// fold mode; the CLI and scenario views.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli.h"
#include "data_check.h"
#include "wrapper.h"

extern "C" {
#include "registry.h"
}

namespace {

std::vector<std::string> alltoallv_algorithms()
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (std::string(r[i].collective) == "alltoallv")
            v.push_back(r[i].name);
    return v;
}

// Sizes are N, the largest block. N = 0: every block empty; N = 1: about half
// of the blocks empty (uniform), most of them under powerlaw:0.99. Spread-out
// gets small N only: every block of different size is a separate completion
// for SMPI's flow solver, and it has p-1 flows per rank in flight (20 s of CPU
// per sweep at N <= 6, against 4 s for the log-step algorithms at N <= 300).
tw_run_spec v_spec(const char *alg, const char *mapping, const char *dist)
{
    tw_run_spec s = sweep_spec("alltoallv", alg, mapping,
                               std::string(alg) == "spread_out" ? "0,1,6" : "0,1,13,300", 800);
    s.dist = dist;
    s.seed = 1;
    return s;
}

std::string param_name(
    const ::testing::TestParamInfo<std::tuple<std::string, std::string, std::string>> &info)
{
    std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param) + "_" +
                    std::get<2>(info.param);
    for (char &ch : s)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

class AlltoallvEveryP
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, std::string>> {};

TEST_P(AlltoallvEveryP, OutputMatchesTheDefinition)
{
    auto [alg, dist, mapping] = GetParam();
    tw_run_spec s = v_spec(alg.c_str(), mapping.c_str(), dist.c_str());
    expect_every_p_ok(s);
}

INSTANTIATE_TEST_SUITE_P(Alltoallv, AlltoallvEveryP,
                         ::testing::Combine(::testing::ValuesIn(alltoallv_algorithms()),
                                            ::testing::Values("uniform", "window:50", "gaussian",
                                                              "powerlaw:0.99"),
                                            ::testing::Values("sequential", "cyclic")),
                         param_name);

// The named count layouts (distributions.h): the same checks, every p in
// 1..64 (powers of two and not), each algorithm with hankel: under one of the
// mappings, two-phase Bruck with toeplitz: too.
std::vector<std::tuple<std::string, std::string, std::string>> layout_cases()
{
    std::vector<std::tuple<std::string, std::string, std::string>> v;
    for (const std::string &alg : alltoallv_algorithms())
        v.emplace_back(alg, "hankel:uniform", v.size() % 2 ? "cyclic" : "sequential");
    v.emplace_back("two_phase_bruck", "toeplitz:gaussian", "cyclic");
    return v;
}

INSTANTIATE_TEST_SUITE_P(AlltoallvLayouts, AlltoallvEveryP, ::testing::ValuesIn(layout_cases()),
                         param_name);

TEST(AlltoallvRegistry, HasThePapersAlgorithms)
{
    std::vector<std::string> v = alltoallv_algorithms();
    for (const char *name : {"spread_out", "padded_bruck", "two_phase_bruck", "padded_alltoall"})
        EXPECT_NE(std::find(v.begin(), v.end(), name), v.end()) << name;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++) {
        if (std::string(r[i].collective) == "alltoallv") {
            EXPECT_NE(std::string(r[i].section).find("Fan"), std::string::npos) << r[i].name;
        }
    }
}

// Typed data: counts and displacements in elements of int and double.
TEST(AlltoallvTyped, IntAndDouble)
{
    for (const char *dtype : {"int", "double"}) {
        tw_run_spec s = v_spec("two_phase_bruck", "cyclic", "uniform");
        s.np = 16;
        s.np_list = "1:16:1";
        s.dtype = dtype;
        s.sizes = "0,8,96";
        Checked c = run_checked(s);
        EXPECT_EQ(c.rows, 16u * 3u) << dtype;
        EXPECT_EQ(c.ok, c.rows) << dtype << ": " << c.first_problem;
    }
}

// SMPI's own alltoallv, checked by the same driver (one smpirun per p, as
// for the other collectives' natives).
TEST(AlltoallvNatives, OutputMatchesTheDefinition)
{
    const int ps[] = {1, 2, 5, 13, 32};
    for (const char *alg : {"native:ompi", "native:bruck"}) {
        tw_run_spec s = v_spec(alg, "cyclic", "gaussian");
        s.sizes = "0,1,13,300";
        expect_each_p_ok(s, ps);
    }
}

// ---- the distributions ----

struct Dist {
    tw_dist *d;
    explicit Dist(const char *spec)
    {
        char err[512];
        d = tw_dist_new(spec, err, sizeof err);
        EXPECT_NE(d, nullptr) << err;
    }
    ~Dist() { tw_dist_free(d); }
    long operator()(unsigned long seed, long i, long j, long max) const
    {
        return tw_dist_block(d, seed, i, j, max);
    }
};

struct Stats {
    double mean = 0, sd = 0;
    long min = 0, max = 0;
    std::map<long, long> hist;
};

Stats sample(const Dist &d, long max, unsigned long seed = 5, int ranks = 300)
{
    Stats s;
    double sum = 0, sq = 0;
    s.min = max;
    for (int i = 0; i < ranks; i++)
        for (int j = 0; j < ranks; j++) {
            long v = d(seed, i, j, max);
            sum += v;
            sq += (double)v * v;
            s.min = std::min(s.min, v);
            s.max = std::max(s.max, v);
            s.hist[v]++;
        }
    double n = (double)ranks * ranks;
    s.mean = sum / n;
    s.sd = std::sqrt(sq / n - s.mean * s.mean);
    return s;
}

TEST(Distributions, UniformCoversZeroToN)
{
    Dist d("uniform");
    Stats s = sample(d, 1000);
    EXPECT_EQ(s.min, 0);
    EXPECT_EQ(s.max, 1000);
    EXPECT_NEAR(s.mean, 500, 5);
    EXPECT_NEAR(s.sd, 1001 / std::sqrt(12.0), 5); // discrete uniform on 0..1000
    Stats small = sample(d, 3);
    EXPECT_EQ(small.hist.size(), 4u); // 0, 1, 2, 3, each about a quarter
    for (auto &[v, n] : small.hist)
        EXPECT_NEAR(n / 90000.0, 0.25, 0.01) << v;
}

TEST(Distributions, WindowStaysInItsBounds)
{
    for (int r : {0, 20, 50, 80, 100}) {
        Dist d(("window:" + std::to_string(r)).c_str());
        Stats s = sample(d, 1000);
        long lo = (100 - r) * 1000 / 100;
        EXPECT_EQ(s.min, lo) << r;
        EXPECT_EQ(s.max, 1000) << r;
        EXPECT_NEAR(s.mean, (lo + 1000) / 2.0, 5) << r;
    }
    Dist w("window:50");
    EXPECT_EQ(sample(w, 7).min, 3); // floor(50% of 7)
}

TEST(Distributions, GaussianIsWindowedAtThreeSigma)
{
    Dist d("gaussian");
    const long n = 600; // mean 300, sigma 100
    Stats s = sample(d, n);
    EXPECT_GE(s.min, 0);
    EXPECT_LE(s.max, n);
    EXPECT_NEAR(s.mean, 300, 2);
    EXPECT_NEAR(s.sd, 100 * 0.9866, 2); // a normal truncated at +-3 sigma: 0.9866 sigma
    long within1 = 0, total = 0;
    for (auto &[v, c] : s.hist) {
        total += c;
        within1 += std::abs(v - 300) <= 100 ? c : 0;
    }
    EXPECT_NEAR((double)within1 / total, 0.6827 / 0.9973, 0.01);
}

TEST(Distributions, PowerlawTakesThePapersSizes)
{
    for (double base : {0.99, 0.999}) {
        char spec[64];
        snprintf(spec, sizeof spec, "powerlaw:%g", base);
        Dist d(spec);
        EXPECT_STREQ(tw_dist_name(d.d), spec);
        const long n = 1024, k = 4096;
        std::set<long> allowed;
        for (long e = 0; e < k; e++)
            allowed.insert((long)std::floor(n * std::pow(base, (double)e)));
        Stats s = sample(d, n);
        for (auto &[v, c] : s.hist)
            EXPECT_TRUE(allowed.count(v)) << spec << ": " << v;
        // mean of floor(N B^k) over k = 0..K-1, give or take the floors
        double want = n * (1 - std::pow(base, (double)k)) / (k * (1 - base));
        EXPECT_NEAR(s.mean, want, 0.05 * want + 0.5) << spec;
        EXPECT_EQ(s.max, n) << spec;
    }
    Dist few("powerlaw:0.5:3"); // K = 3: N, N/2, N/4
    Stats s = sample(few, 8);
    EXPECT_EQ(s.hist.size(), 3u);
    EXPECT_TRUE(s.hist.count(8) && s.hist.count(4) && s.hist.count(2));
}

TEST(Distributions, PureFunctionOfSeedAndPair)
{
    Dist d("uniform");
    long same = 0, differ = 0;
    for (long i = 0; i < 100; i++)
        for (long j = 0; j < 100; j++) {
            EXPECT_EQ(d(7, i, j, 1000), d(7, i, j, 1000));
            same += d(7, i, j, 1000) == d(8, i, j, 1000);
            differ += d(7, i, j, 1000) != d(7, j, i, 1000) && i != j;
        }
    EXPECT_LT(same, 100); // another seed: other sizes (1 in 1001 agree by chance)
    EXPECT_GT(differ, 9800 - 100);
}

// toeplitz:D: block (i, j) is D's block (0, j - i), constant along each
// diagonal; hankel:D: D's block (0, i + j), constant along anti-diagonals.
// Each row and column is still P independent draws of D (rows far apart
// share no draw, so their totals differ as iid rows' do).
TEST(Distributions, NamedLayoutsAreConstantAlongDiagonals)
{
    for (const char *layout : {"toeplitz", "hankel"})
        for (const char *inner : {"uniform", "window:50", "gaussian", "powerlaw:0.99"}) {
            const std::string spec = std::string(layout) + ":" + inner;
            const bool toeplitz = std::string(layout) == "toeplitz";
            Dist t(spec.c_str()), d(inner);
            EXPECT_EQ(std::string(tw_dist_name(t.d)), spec);
            for (long i = 0; i < 40; i++)
                for (long j = 0; j < 40; j++) {
                    EXPECT_EQ(t(3, i, j, 500), d(3, 0, toeplitz ? j - i : i + j, 500))
                        << spec << " " << i << " " << j;
                    EXPECT_EQ(t(3, i, j, 500), t(3, i + 7, toeplitz ? j + 7 : j - 7, 500)) << spec;
                }
            // O(p) total of the diagonals against the sum over every pair
            for (int p : {1, 2, 7, 64, 100}) {
                long long sum = 0;
                for (int i = 0; i < p; i++)
                    for (int j = 0; j < p; j++)
                        sum += i != j ? t(3, i, j, 500) : 0;
                EXPECT_EQ(tw_dist_total(t.d, 3, p, 500), sum) << spec << " p " << p;
            }
            if (inner == std::string("uniform")) {
                Stats s = sample(t, 1000, 5, 300); // 599 diagonals' draws, weighted
                EXPECT_EQ(s.min, 0) << spec;
                EXPECT_EQ(s.max, 1000) << spec;
            }
            std::set<long long> row_totals;
            for (int i = 0; i < 1000; i += 100) {
                long long sum = 0;
                for (int j = 0; j < 1000; j++)
                    sum += t(5, i, j, 1000);
                row_totals.insert(sum);
            }
            EXPECT_EQ(row_totals.size(), 10u) << spec;
        }
}

TEST(Distributions, BadSpellingsNameTheValueAndTheForms)
{
    for (const char *bad : {"", "gauss", "window:", "window:101", "window:-1", "window:5x",
                            "powerlaw:", "powerlaw:1", "powerlaw:0", "powerlaw:abc",
                            "powerlaw:0.9:0", "uniform:3", "toeplitz", "toeplitz:",
                            "toeplitz:gauss", "toeplitz:window:101", "toeplitz:toeplitz:uniform",
                            "hankel:toeplitz:uniform", "hankel:", "hankel:powerlaw:2",
                            "toeplitz:powerlaw:0.12345678901234"}) {
        char err[512];
        EXPECT_EQ(tw_dist_new(bad, err, sizeof err), nullptr) << bad;
        std::string e = err;
        EXPECT_NE(e.find(std::string("'") + bad + "'"), std::string::npos) << e;
        EXPECT_NE(e.find("valid: uniform, window:R"), std::string::npos) << e;
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
}

// ---- the driver uses exactly these counts ----

long long host_total(const char *spec, unsigned long seed, int p, long n)
{
    Dist d(spec);
    long long sum = 0;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            if (i != j)
                sum += d(seed, i, j, n);
    return sum;
}

std::vector<cs_result> run_rows(const tw_run_spec &s)
{
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096];
    EXPECT_EQ(tw_run(&s, &rows, &n, err, sizeof err), 0) << err;
    std::vector<cs_result> v(rows, rows + n);
    tw_free_rows(rows);
    return v;
}

// data_bytes (the defined payload, self blocks excluded) equals the host's sum
// of the pure function at every p of a sweep: the driver's counts for (i, j)
// are the same whatever p. The same seed gives the same rows, another seed
// other sizes.
TEST(AlltoallvDriver, CountsArePureFunctionsOfSeedAndPair)
{
    tw_run_spec s = v_spec("two_phase_bruck", "sequential", "gaussian");
    s.np = 12;
    s.np_list = "2,5,12";
    s.sizes = "100";
    s.seed = 42;
    std::vector<cs_result> a = run_rows(s), b = run_rows(s);
    s.seed = 43;
    std::vector<cs_result> c = run_rows(s);
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(b.size(), 3u);
    ASSERT_EQ(c.size(), 3u);
    for (size_t k = 0; k < 3; k++) {
        EXPECT_STREQ(a[k].status, "ok") << a[k].note;
        EXPECT_STREQ(a[k].dist, "gaussian");
        EXPECT_EQ(a[k].seed, 42ul);
        EXPECT_EQ(c[k].seed, 43ul);
        EXPECT_EQ(a[k].data_bytes, host_total("gaussian", 42, a[k].np, 100)) << a[k].np;
        EXPECT_EQ(c[k].data_bytes, host_total("gaussian", 43, c[k].np, 100)) << c[k].np;
        EXPECT_EQ(a[k].data_bytes, b[k].data_bytes);
        EXPECT_DOUBLE_EQ(a[k].avg_us, b[k].avg_us);
        EXPECT_NE(a[k].data_bytes, c[k].data_bytes) << a[k].np;
    }
    // typed: N = 100 bytes of int is at most 25 elements per block
    s.dtype = "int";
    s.seed = 42;
    std::vector<cs_result> t = run_rows(s);
    ASSERT_EQ(t.size(), 3u);
    for (auto &r : t)
        EXPECT_EQ(r.data_bytes, 4 * host_total("gaussian", 42, r.np, 25)) << r.np;
}

// The check must be able to fail: a corrupted received byte is reported with
// its rank, block (the source rank) and offset; a byte in the gap before a
// block (COLLSIM_FAULT's negative offset) as a write outside the blocks.
TEST(AlltoallvDataCheck, CatchesACorruptedByteAndNamesIt)
{
    // window:0: every block has N bytes, so block 5 -> 3 holds offset 7 at
    // N = 13 (not at N = 4: that row must pass)
    expect_fault_named(v_spec("two_phase_bruck", "sequential", "window:0"));
}

TEST(AlltoallvDataCheck, CatchesAWriteIntoAGap)
{
    tw_run_spec s = v_spec("padded_bruck", "cyclic", "window:50");
    s.np = 8;
    s.np_list = nullptr;
    s.sizes = "13";
    setenv("COLLSIM_FAULT", "3:5:-2", 1);
    std::vector<cs_result> r = run_rows(s);
    unsetenv("COLLSIM_FAULT");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_STREQ(r[0].status, "fail");
    EXPECT_NE(std::string(r[0].note).find("rank 3 wrote outside the blocks of its receive buffer, "
                                          "2 bytes before block 5"),
              std::string::npos)
        << r[0].note;
}

// Folding changes memory, not predicted times; with a named layout fold mode
// reads every rank's counts from the shared arrays of diagonals
// (fold_v_layout_counts), check mode from arrays of its own.
TEST(AlltoallvFoldMode, SamePredictedTimesAsRealBuffers)
{
    for (const char *alg : {"two_phase_bruck", "padded_bruck", "spread_out"}) {
        tw_run_spec s = v_spec(alg, "cyclic", "powerlaw:0.99");
        expect_fold_same_times(s, "1,300");
    }
    for (const char *dist : {"toeplitz:uniform", "hankel:uniform"})
        for (const char *alg : {"two_phase_bruck", "spread_out"}) {
            tw_run_spec s = v_spec(alg, "sequential", dist);
            expect_fold_same_times(s, "1,300");
        }
}

// A named layout's data_bytes (cs_dist_total's O(p) sum over the diagonals)
// is the definition summed over every pair, at each p of a sweep
// (sub-communicators of 2, 5 and 12 ranks) and each size, in both modes; the
// check mode's runs pass their data check.
TEST(AlltoallvDriver, LayoutCountsAreTheDefinitionInBothModes)
{
    for (int fold : {0, 1}) {
        tw_run_spec s = v_spec("two_phase_bruck", "sequential", "hankel:gaussian");
        s.np = 12;
        s.np_list = "2,5,12";
        s.sizes = "40,100";
        s.seed = 42;
        s.fold = fold;
        std::vector<cs_result> a = run_rows(s);
        ASSERT_EQ(a.size(), 6u);
        for (auto &r : a) {
            EXPECT_STREQ(r.status, "ok") << r.note;
            EXPECT_STREQ(r.dist, "hankel:gaussian");
            EXPECT_EQ(r.data_bytes, host_total("hankel:gaussian", 42, r.np, r.bytes))
                << "fold " << fold << " np " << r.np << " size " << r.bytes;
        }
    }
}

// ---- CLI and scenarios ----

TEST(AlltoallvCli, BenchesAndRejectsBadDistributions)
{
    Out b = cli("bench --platform yahoo --np 6 --coll alltoallv --alg two_phase_bruck --sizes 1:64 "
                "--dist window:20 --seed 9 --iters 1");
    ASSERT_EQ(b.code, 0) << b.text;
    EXPECT_NE(b.text.find("alltoallv/two_phase_bruck np=6 mode=check dtype=byte dist=window:20 seed=9"),
              std::string::npos)
        << b.text;
    EXPECT_EQ(b.text.find("FAIL"), std::string::npos) << b.text;
    Out n = cli("bench --platform yahoo --np 6 --coll alltoallv --alg native:ompi --sizes 64");
    ASSERT_EQ(n.code, 0) << n.text;
    EXPECT_NE(n.text.find("dist=uniform seed=1"), std::string::npos) << n.text;
    Out l = cli("list algorithms");
    for (const char *name : {"alltoallv/two_phase_bruck", "alltoallv/padded_bruck",
                             "alltoallv/native:{default,bruck,ompi_basic_linear"})
        EXPECT_NE(l.text.find(name), std::string::npos) << name;
    struct { const char *args, *want; } bad[] = {
        {"bench --platform yahoo --np 4 --coll alltoallv --alg spread_out --dist gauss",
         "bad distribution 'gauss' (valid: uniform, window:R (R an integer 0..100), gaussian, "
         "powerlaw:B[:K]"},
        {"bench --platform yahoo --np 4 --coll alltoallv --alg spread_out --dist window:150",
         "bad distribution 'window:150': R must be an integer from 0 to 100 (valid:"},
        {"bench --platform yahoo --np 4 --coll alltoallv --alg spread_out --seed -3",
         "--seed needs an integer >= 0 (got '-3')"},
        {"bench --platform yahoo --np 4 --coll alltoall --alg pairwise --dist uniform",
         "a block-size distribution applies to alltoallv, reduce_scatter only, not alltoall"},
    };
    for (auto &c : bad) {
        Out o = cli(c.args);
        EXPECT_EQ(o.code, 2) << c.args << "\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.args << ": not one line:\n" << o.text;
    }
}

std::string write_scenario(const std::string &dir, const std::string &name, const std::string &extra,
                           const char *coll = "alltoallv", const char *algs = "two_phase_bruck spread_out")
{
    std::string path = dir + "/" + name + ".xml";
    std::ofstream f(path);
    f << "<scenario name=\"" << name << "\">\n"
      << "  <platform name=\"yahoo\"/>\n"
      << "  <mappings>cyclic</mappings>\n"
      << "  <processes>5</processes>\n"
      << "  <collective name=\"" << coll << "\"><algorithms>" << algs << "</algorithms></collective>\n"
      << "  <sizes>8 64</sizes>\n"
      << "  <iterations warmup=\"0\" timed=\"1\"/>\n"
      << extra << "</scenario>\n";
    return path;
}

TEST(AlltoallvScenario, DistributionElementAndItsErrors)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    struct { const char *name, *extra, *want; } bad[] = {
        {"bad-name", "  <distribution name=\"zipf\"/>\n",
         ":8: <distribution name=\"zipf\">: bad distribution 'zipf' (valid: uniform, window:R"},
        {"bad-seed", "  <distribution name=\"uniform\" seed=\"x1\"/>\n",
         ":8: <distribution seed=\"x1\">: expected an integer >= 0"},
        {"bad-attr", "  <distribution name=\"uniform\" mean=\"3\"/>\n",
         ":8: <distribution>: unknown attribute 'mean' (valid: name, seed)"},
        {"no-name", "  <distribution seed=\"3\"/>\n", ":8: <distribution> needs name=\"...\" (valid: uniform"},
        {"twice", "  <distribution name=\"uniform\"/>\n  <distribution name=\"gaussian\"/>\n",
         ":9: <distribution> given twice (first on line 8"},
    };
    for (auto &c : bad) {
        std::string path = write_scenario(dir, c.name, c.extra);
        long n;
        char err[1024];
        EXPECT_NE(tw_scenario(path.c_str(), &n, err, sizeof err), 0) << c.name;
        EXPECT_NE(std::string(err).find(path + c.want), std::string::npos) << err;
    }
    std::string nov = write_scenario(dir, "no-alltoallv", "  <distribution name=\"uniform\"/>\n",
                                     "alltoall", "pairwise");
    long n;
    char err[1024];
    EXPECT_NE(tw_scenario(nov.c_str(), &n, err, sizeof err), 0);
    EXPECT_NE(std::string(err).find(":8: <distribution name> is for alltoallv, reduce_scatter, and "
                                    "the scenario has none of them: remove it or add such a "
                                    "collective"),
              std::string::npos)
        << err;

    // a real run records the distribution, its seed and the payload per row
    std::string good = write_scenario(dir, "good", "  <distribution name=\"powerlaw:0.999\" seed=\"11\"/>\n");
    std::string out = std::string(dir) + "/out";
    ASSERT_EQ(tw_run_scenario(good.c_str(), out.c_str(), 1, nullptr, err, sizeof err), 0) << err;
    cs_result *rows;
    size_t nrows;
    ASSERT_EQ(tw_read_results((out + "/results.csv").c_str(), &rows, &nrows, err, sizeof err), 0) << err;
    ASSERT_EQ(nrows, 4u);
    for (size_t i = 0; i < nrows; i++) {
        EXPECT_STREQ(rows[i].status, "ok") << rows[i].note;
        EXPECT_STREQ(rows[i].dist, "powerlaw:0.999");
        EXPECT_EQ(rows[i].seed, 11ul);
        EXPECT_EQ(rows[i].data_bytes, host_total("powerlaw:0.999", 11, 5, rows[i].bytes));
    }
    tw_free_rows(rows);
    tw_rmtree(dir);
}

} // namespace
