// MPI_Alltoall: every collsim algorithm's output checked byte by byte against
// the definition (slot j of rank r holds what rank j sent to r, the send
// buffer unchanged) for every p in 1..32 and 37, 63 (and 64) (data_check.h,
// every_p_keeps; one smpirun per algorithm and
// mapping, swept over sub-communicators), sizes 0, 1, 13 and 4096 bytes per
// block, sequential and cyclic mappings on Yahoo; SMPI's ompi logic as a
// baseline; the data check's failure report; fold mode; the CLI's view.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
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

tw_run_spec spec_for(const char *alg, const char *mapping)
{
    return sweep_spec("alltoall", alg, mapping, "0,1,13,4096", 800);
}

std::vector<std::string> alltoall_algorithms()
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (std::string(r[i].collective) == "alltoall")
            v.push_back(r[i].name);
    return v;
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>> &info)
{
    std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param);
    for (char &ch : s)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

class AlltoallEveryP : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(AlltoallEveryP, OutputMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    expect_every_p_ok(spec_for(alg.c_str(), mapping.c_str()));
}

// MPI_IN_PLACE: the blocks to send are taken from the receive buffer
// (coll_adapt.h copies them aside), the same p.
class AlltoallInPlaceEveryP : public ::testing::TestWithParam<std::string> {};

TEST_P(AlltoallInPlaceEveryP, OutputMatchesTheDefinition)
{
    tw_run_spec s = spec_for(GetParam().c_str(), "cyclic");
    s.in_place = 1;
    s.sizes = "1,13";
    expect_every_p_ok(s, "in place");
}

INSTANTIATE_TEST_SUITE_P(Alltoall, AlltoallInPlaceEveryP, ::testing::ValuesIn(alltoall_algorithms()));

INSTANTIATE_TEST_SUITE_P(Alltoall, AlltoallEveryP,
                         ::testing::Combine(::testing::ValuesIn(alltoall_algorithms()),
                                            ::testing::Values("sequential", "cyclic")),
                         param_name);

TEST(AlltoallRegistry, HasTheRequestedAlgorithms)
{
    std::vector<std::string> v = alltoall_algorithms();
    for (const char *name : {"spread_out", "pairwise", "bruck_basic", "bruck_modified"})
        EXPECT_NE(std::find(v.begin(), v.end(), name), v.end()) << name;
}

// SMPI's own alltoall under the ompi decision logic, checked by the same
// driver; one smpirun per p (SMPI's decision logics misbehave on
// sub-communicator sweeps, see test_algorithms.cc).
class AlltoallNatives : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(AlltoallNatives, OutputMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    const int ps[] = {1, 2, 5, 13, 32, 64};
    expect_each_p_ok(spec_for(alg.c_str(), mapping.c_str()), ps);
}

INSTANTIATE_TEST_SUITE_P(Alltoall, AlltoallNatives,
                         ::testing::Combine(::testing::Values("native:ompi"),
                                            ::testing::Values("sequential", "cyclic")),
                         param_name);

// The check must be able to fail: a corrupted received byte is reported with
// its rank, block (the source rank) and offset.
TEST(AlltoallDataCheck, CatchesACorruptedByteAndNamesIt)
{
    expect_fault_named(spec_for("bruck_basic", "sequential"));
}

// Folding (one shared buffer sized for p send and p receive blocks) changes
// memory, not predicted times.
TEST(AlltoallFoldMode, SamePredictedTimesAsRealBuffers)
{
    for (const char *alg : {"spread_out", "bruck_basic", "bruck_zero_rotation"})
        expect_fold_same_times(spec_for(alg, "cyclic"), "1,1000,4096");
}

TEST(AlltoallResolve, NativesSelectTheAlltoallOption)
{
    char cfg[256], alg[128], err[1024];
    ASSERT_EQ(tw_resolve("alltoall", "native:pair", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0)
        << err;
    EXPECT_STREQ(cfg, "smpi/alltoall:pair");
    EXPECT_STREQ(alg, "native");
    ASSERT_EQ(tw_resolve("alltoall", "native:ompi", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_STREQ(cfg, "smpi/coll-selector:ompi");
    ASSERT_EQ(tw_resolve("alltoall", "alltoall/bruck_modified", cfg, sizeof cfg, alg, sizeof alg, err,
                         sizeof err), 0);
    EXPECT_STREQ(alg, "bruck_modified");
    EXPECT_STREQ(cfg, "");
    // allgather names are not alltoall names, and the reverse
    EXPECT_NE(tw_resolve("alltoall", "sparbit", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_NE(std::string(err).find("unknown alltoall algorithm 'sparbit'"), std::string::npos) << err;
    EXPECT_NE(tw_resolve("allgather", "pairwise", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_NE(tw_resolve("alltoall", "native:GB", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
}

TEST(AlltoallCli, ListsAndBenches)
{
    Out l = cli("list algorithms");
    EXPECT_EQ(l.code, 0);
    for (const char *name : {"alltoall/spread_out", "alltoall/pairwise", "alltoall/bruck_basic",
                             "alltoall/bruck_modified", "alltoall/native:{ompi,mpich,mvapich2,impi}",
                             "--cfg=smpi/alltoall"})
        EXPECT_NE(l.text.find(name), std::string::npos) << name;
    Out b = cli("bench --platform yahoo --np 6 --coll alltoall --alg bruck_modified --sizes 1:64 --iters 1");
    ASSERT_EQ(b.code, 0) << b.text;
    EXPECT_NE(b.text.find("alltoall/bruck_modified np=6"), std::string::npos) << b.text;
    EXPECT_EQ(b.text.find("FAIL"), std::string::npos) << b.text;
    Out f = cli("bench --platform yahoo --np 6 --coll alltoall --alg pairwise --sizes 64 --fold");
    ASSERT_EQ(f.code, 0) << f.text;
    EXPECT_NE(f.text.find("unchecked"), std::string::npos) << f.text;
    Out i = cli("bench --platform yahoo --np 6 --coll alltoall --alg pairwise --sizes 8 --in-place");
    ASSERT_EQ(i.code, 0) << i.text;
    EXPECT_NE(i.text.find("in-place"), std::string::npos) << i.text;
    EXPECT_EQ(i.text.find("FAIL"), std::string::npos) << i.text;
}

} // namespace
