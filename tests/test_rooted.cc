// Gather and scatter (Kandalla et al. 2010 and their baselines).
//
// RootedEveryP: every gather and scatter algorithm of algorithms.def through
// tests/rooted_unit.c, an SMPI program of its own: one smpirun of 64 ranks
// per algorithm and mapping covers every p in 1..64, every root up to p = 16
// and a spread above, counts 0, 1, 13 and 4 KiB, int and double, MPI_IN_PLACE
// at the root, on uneven socket / node / switch regions (see rooted_unit.c).
// RootedBench: the same algorithms through the driver (`bench`'s path) on
// kandalla-testbed with --root, the new metric columns, a corrupted byte
// named, folded buffers with the same times, SMPI's built-ins, and SimGrid
// 3.32's broken mvapich2_two_level gather. The cost models, the report and
// the CLI's errors: test_rooted_models.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli.h"
#include "data_check.h"
#include "smpi_run.h"
#include "wrapper.h"

extern "C" {
#include "fits.h"
#include "registry.h"
#include "rooted_util.h"
}

namespace {

std::vector<std::string> rooted_algorithms()
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (std::string(r[i].collective) == "gather" || std::string(r[i].collective) == "scatter")
            v.push_back(std::string(r[i].collective) + "/" + r[i].name);
    return v;
}

// smpirun of rooted_unit on 64 Yahoo ranks (4 per node; the unit's regions
// are its own); "ROOTED_UNIT_FAULT=1 " before the arguments sets that
// variable. Returns its exit status.
int run_unit(const std::string &args, std::string &out)
{
    const std::string fault = "ROOTED_UNIT_FAULT=1 ";
    if (args.rfind(fault, 0) == 0)
        return run_smpi_unit(COLLSIM_ROOTED_UNIT, 64, args.substr(fault.size()), out,
                             "ROOTED_UNIT_FAULT=1");
    return run_smpi_unit(COLLSIM_ROOTED_UNIT, 64, args, out);
}

class RootedEveryP : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(RootedEveryP, EveryPEveryRootMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    std::string out;
    const int status = run_unit(alg + " " + mapping, out);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("rooted_unit: "), std::string::npos) << out;
    EXPECT_NE(out.find(" checks, 0 failed"), std::string::npos) << out;
    EXPECT_EQ(out.find("FAIL"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(
    Rooted, RootedEveryP,
    ::testing::Combine(::testing::ValuesIn(rooted_algorithms()),
                       ::testing::Values("sequential", "cyclic")),
    [](const ::testing::TestParamInfo<RootedEveryP::ParamType> &info) {
        return gtest_name(std::get<0>(info.param) + "_" + std::get<1>(info.param));
    });

// The unit's check can fail: a byte flipped after the call is reported with
// the call it came from; an algorithm it cannot check is refused.
TEST(RootedUnit, CatchesAFlippedByteAndRefusesWhatItCannotCheck)
{
    std::string out;
    EXPECT_NE(run_unit("ROOTED_UNIT_FAULT=1 gather/binomial sequential", out), 0);
    EXPECT_NE(out.find("FAIL (world rank 2) gather/binomial p=5 root=2"), std::string::npos) << out;
    EXPECT_NE(out.find("receive block"), std::string::npos) << out;
    EXPECT_EQ(out.find(" checks, 0 failed"), std::string::npos) << out;
    EXPECT_NE(run_unit("allgather/bruck sequential", out), 0);
    EXPECT_NE(out.find("FAIL usage"), std::string::npos) << out;
}

class RootedBench : public ::testing::TestWithParam<std::string> {};

// Every row passes the driver's check (the root's blocks, or every rank's,
// byte by byte, and nothing else written), and the metrics are consistent:
// per-call maximum >= max of the means >= mean, the root's time among them.
TEST_P(RootedBench, DriverChecksAndMeasures)
{
    for (const char *mapping : {"sequential", "cyclic"}) {
        tw_run_spec s = bench_spec(GetParam(), mapping);
        s.in_place = mapping[0] == 'c';
        cs_result *rows = nullptr;
        size_t n = 0;
        char err[4096];
        ASSERT_EQ(tw_run(&s, &rows, &n, err, sizeof err), 0) << err;
        ASSERT_EQ(n, 6u) << mapping;
        for (size_t i = 0; i < n; i++) {
            const cs_result &r = rows[i];
            EXPECT_STREQ(r.status, "ok") << mapping << " np " << r.np << " " << r.note;
            EXPECT_EQ(r.root, 69);
            EXPECT_EQ(r.data_bytes, (long long)(r.np - 1) * r.bytes);
            EXPECT_GE(r.call_max_us, r.max_us * (1 - 1e-12));
            EXPECT_GE(r.max_us, r.avg_us * (1 - 1e-12));
            EXPECT_GE(r.root_us, r.min_us * (1 - 1e-12));
            EXPECT_LE(r.root_us, r.max_us * (1 + 1e-12));
        }
        tw_free_rows(rows);
    }
}

INSTANTIATE_TEST_SUITE_P(Rooted, RootedBench, ::testing::ValuesIn(rooted_algorithms()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return gtest_name(info.param);
                         });

// A received byte flipped after the call (COLLSIM_FAULT) is reported with
// its rank, block and offset: the root's block 5 of a gather, rank 3's only
// block of a scatter.
TEST(RootedFault, CorruptedByteIsNamed)
{
    struct {
        const char *alg, *fault, *named;
    } cases[] = {{"gather/topo_aware", "3:5:7", "rank 3, block 5, offset 7"},
                 {"scatter/binomial", "3:0:7", "rank 3, block 0, offset 7"}};
    for (auto &c : cases) {
        tw_run_spec s = bench_spec(c.alg, "sequential");
        s.root = 3;
        s.dtype = "byte";
        expect_fault_named(s, c.fault, c.named); // np 8, 4 and 13 bytes
    }
}

// Folded buffers change memory, not predicted times.
TEST(RootedFold, SamePredictedTimesAsRealBuffers)
{
    for (const char *alg : {"gather/topo_aware", "scatter/topo_aware_multilevel", "gather/binomial"}) {
        tw_run_spec s = bench_spec(alg, "cyclic");
        s.np_list = nullptr;
        s.sizes = "8,65536";
        cs_result *a, *b;
        size_t na, nb;
        char err[4096];
        ASSERT_EQ(tw_run(&s, &a, &na, err, sizeof err), 0) << err;
        s.fold = 1;
        ASSERT_EQ(tw_run(&s, &b, &nb, err, sizeof err), 0) << err;
        ASSERT_EQ(na, 2u);
        ASSERT_EQ(nb, 2u);
        for (size_t i = 0; i < na; i++) {
            EXPECT_STREQ(a[i].status, "ok");
            EXPECT_STREQ(b[i].status, "ok");
            EXPECT_DOUBLE_EQ(a[i].avg_us, b[i].avg_us) << alg;
            EXPECT_DOUBLE_EQ(a[i].call_max_us, b[i].call_max_us) << alg;
            EXPECT_DOUBLE_EQ(a[i].root_us, b[i].root_us) << alg;
        }
        tw_free_rows(a);
        tw_free_rows(b);
    }
}

// The regions (and, for the two-level algorithms, the node level of the
// whole communicator) are built before timing: without a warm-up, the one
// timed call sends the messages of a call after one, in about its time
// (the barrier's skew apart). Building the node level in the call made the
// cold two-level gather 17% slower (8.13 against 6.92 us) and its mean 14
// times larger.
TEST(RootedFold, FirstCallCarriesNoSetUp)
{
    for (const char *alg : {"gather/two_level_direct", "scatter/topo_aware_multilevel"}) {
        tw_run_spec s = bench_spec(alg, "sequential");
        s.np_list = nullptr;
        s.sizes = "8";
        s.account = 1;
        s.iters = 1;
        cs_result *warm, *cold;
        size_t nw, nc;
        char err[4096];
        ASSERT_EQ(tw_run(&s, &warm, &nw, err, sizeof err), 0) << err;
        s.warmup = 0;
        ASSERT_EQ(tw_run(&s, &cold, &nc, err, sizeof err), 0) << err;
        ASSERT_EQ(nw, 1u);
        ASSERT_EQ(nc, 1u);
        EXPECT_STREQ(cold[0].status, "ok") << alg << " " << cold[0].note;
        EXPECT_STREQ(cold[0].account, warm[0].account) << alg;
        EXPECT_GT(cold[0].nonlocal_total_msgs, 0) << alg;
        if (alg[0] == 'g') { // a scatter's warm call starts behind the last one's stragglers
            EXPECT_NEAR(cold[0].call_max_us, warm[0].call_max_us, 0.05 * warm[0].call_max_us);
            EXPECT_NEAR(cold[0].avg_us, warm[0].avg_us, 0.5 * warm[0].avg_us);
        }
        tw_free_rows(warm);
        tw_free_rows(cold);
    }
}

// SMPI's built-ins through the same check, swept over sub-communicators,
// under the block placement its node-level ones assume (np 100: nodes of 16
// and of 8 ranks). Left out: gather's mvapich2_two_level and impi (below);
// gather's mvapich2 selector crashes on the second sub-communicator of a
// sweep (np 64 after 9), though each p alone passes.
class RootedNatives : public ::testing::TestWithParam<std::string> {};

TEST_P(RootedNatives, OutputMatchesTheDefinition)
{
    tw_run_spec s = bench_spec(GetParam(), "sequential");
    s.np = 100;
    s.np_list = "9,64,100";
    s.root = 7;
    s.region = nullptr;
    Checked c = run_checked(s);
    EXPECT_EQ(c.rows, 9u);
    EXPECT_EQ(c.ok, c.rows) << c.first_problem;
}

INSTANTIATE_TEST_SUITE_P(
    Rooted, RootedNatives,
    ::testing::Values("gather/native:ompi_binomial", "gather/native:ompi_basic_linear",
                      "gather/native:ompi_linear_sync", "gather/native:default",
                      "gather/native:mpich", "gather/native:ompi",
                      "scatter/native:ompi_binomial", "scatter/native:ompi_basic_linear",
                      "scatter/native:ompi_linear_nb", "scatter/native:mvapich2_two_level_binomial",
                      "scatter/native:mvapich2_two_level_direct", "scatter/native:default",
                      "scatter/native:mpich", "scatter/native:ompi", "scatter/native:mvapich2",
                      "scatter/native:impi"),
    [](const ::testing::TestParamInfo<std::string> &info) { return gtest_name(info.param); });

// SimGrid 3.32's gather mvapich2_two_level (and the impi selector, which
// picks it at these sizes)
// reads its rank among the node leaders as the leader count, so the leader
// of a root that is not a node leader never allocates its buffer, and the
// branch for nodes of different sizes never matches: the run crashes. It
// works only with the root a node leader on equal nodes. Its scatter
// counterparts are right under block placement (nodes of 16 and 8 ranks
// included) and wrong under cyclic placement. Not baselines where they fail
// (docs/algorithms.md); this test fails when a SimGrid release fixes them.
TEST(RootedNatives, Mvapich2TwoLevelIsBrokenInSimGrid332)
{
    struct {
        const char *alg, *mapping;
        int np, root;
        bool ok;
    } cases[] = {{"gather/native:mvapich2_two_level", "sequential", 64, 0, true},
                 {"gather/native:mvapich2_two_level", "sequential", 64, 3, false},
                 {"gather/native:mvapich2_two_level", "sequential", 72, 0, false},
                 {"gather/native:impi", "sequential", 64, 7, false}, // selects it
                 {"gather/native:impi", "sequential", 100, 0, false},
                 {"scatter/native:mvapich2_two_level_binomial", "sequential", 72, 3, true},
                 {"scatter/native:mvapich2_two_level_binomial", "cyclic", 64, 7, false},
                 {"scatter/native:mvapich2_two_level_direct", "cyclic", 64, 7, false}};
    for (auto &c : cases) {
        tw_run_spec s = bench_spec(c.alg, c.mapping);
        s.np = c.np;
        s.np_list = nullptr;
        s.root = c.root;
        s.region = nullptr;
        s.sizes = "8";
        Checked k = run_checked(s);
        EXPECT_EQ(k.rows, 1u);
        EXPECT_EQ(k.ok == k.rows, c.ok) << c.alg << " " << c.mapping << " np " << c.np
                                         << " root " << c.root << ": " << k.first_problem;
    }
}

} // namespace
