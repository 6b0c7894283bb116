// Every algorithm's output checked byte by byte against the definition of
// MPI_Allgather, for every p in 1..32 and 37, 63, 64 (64 KiB: every p in
// 1..16 and 31, 37, 63, 64; data_check.h, every_p_keeps), one smpirun per
// algorithm and mapping (the driver runs on the first p ranks for each p),
// sizes 0, 1, an odd size and 64 KiB, sequential and cyclic mappings on Yahoo.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <tuple>

#include "data_check.h"
#include "wrapper.h"

extern "C" {
#include "registry.h"
}

namespace {

tw_run_spec spec_for(const char *alg, const char *mapping)
{
    return sweep_spec("allgather", alg, mapping, "0,1,13,65536", 600);
}

class EveryP : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(EveryP, OutputMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    expect_every_p_ok(spec_for(alg.c_str(), mapping.c_str()));
}

// The locality-aware allgathers have their own sweep over region shapes
// (test_locality.cc: Yahoo and Cervino, both mappings, several ppn).
bool locality_aware(const std::string &name)
{
    return name == "loc_bruck" || name == "loc_bruck_multilevel" || name == "hierarchical" ||
           name == "multilane";
}

std::vector<std::string> algorithms_under_test()
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (std::string(r[i].collective) == "allgather" && !locality_aware(r[i].name))
            v.push_back(r[i].name);
    return v;
}

std::string param_name(const ::testing::TestParamInfo<EveryP::ParamType> &info)
{
    std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param);
    for (char &ch : s)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Allgather, EveryP,
                         ::testing::Combine(::testing::ValuesIn(algorithms_under_test()),
                                            ::testing::Values("sequential", "cyclic")),
                         param_name);

// SMPI's own implementations, checked by the same driver, one smpirun per p
// (see expect_each_p_ok).
class Natives : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Natives, OutputMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    const int ps[] = {1, 2, 3, 5, 8, 13, 31, 48, 49, 64};
    expect_each_p_ok(spec_for(alg.c_str(), mapping.c_str()), ps);
}

INSTANTIATE_TEST_SUITE_P(Allgather, Natives,
                         ::testing::Combine(::testing::Values("native:ompi", "native:mpich"),
                                            ::testing::Values("sequential", "cyclic")),
                         param_name);

class Variants : public ::testing::TestWithParam<std::string> {};

// Typed data (the algorithms move blocks of count x extent) and MPI_IN_PLACE.
TEST_P(Variants, TypedAndInPlace)
{
    const std::string alg = GetParam();
    for (const char *dtype : {"int", "double"}) {
        tw_run_spec s = spec_for(alg.c_str(), "sequential");
        s.dtype = dtype;
        s.sizes = "8,104,65544";
        s.np_list = "1:64:3";
        expect_every_p_ok(s, dtype, "1,4,7,13,31,64");
    }
    tw_run_spec s = spec_for(alg.c_str(), "cyclic");
    s.in_place = 1;
    s.sizes = "1,13";
    expect_every_p_ok(s, "in place");
}

INSTANTIATE_TEST_SUITE_P(Allgather, Variants,
                         ::testing::Values("ring", "neighbor_exchange", "recursive_doubling",
                                           "bruck", "sparbit", "sparbit_indexed",
                                           "sparbit_packed"));

// The check itself must be able to fail: a corrupted byte is reported with
// its rank, block and offset.
TEST(DataCheck, CatchesACorruptedByteAndNamesIt)
{
    expect_fault_named(spec_for("sparbit", "sequential"));
}

// Folding buffers changes memory, not predicted times (sparbit_packed also
// skips its packing copies when folded).
TEST(FoldMode, SamePredictedTimesAsRealBuffers)
{
    for (const char *alg : {"bruck", "sparbit", "ring", "sparbit_packed"})
        expect_fold_same_times(spec_for(alg, "cyclic"), "1,1000,65536");
}

// sparbit_packed sends exactly sparbit_indexed's messages: the same
// predicted times, bit for bit, at odd and even p, eager and rendezvous sizes.
TEST(SparbitPacked, SamePredictedTimesAsIndexed)
{
    cs_result *rows[2];
    size_t n[2];
    const char *algs[2] = {"sparbit_indexed", "sparbit_packed"};
    for (int k = 0; k < 2; k++) {
        tw_run_spec s = spec_for(algs[k], "cyclic");
        s.np_list = "13,64";
        s.sizes = "1,4096,65536";
        s.model = "network"; /* the same messages; under full, packing and datatypes differ */
        char err[2048];
        ASSERT_EQ(tw_run(&s, &rows[k], &n[k], err, sizeof err), 0) << err;
    }
    ASSERT_EQ(n[0], n[1]);
    for (size_t i = 0; i < n[0]; i++) {
        EXPECT_STREQ(rows[1][i].status, "ok");
        EXPECT_EQ(rows[0][i].avg_us, rows[1][i].avg_us) << rows[0][i].np << " " << rows[0][i].bytes;
        EXPECT_EQ(rows[0][i].max_us, rows[1][i].max_us) << rows[0][i].np << " " << rows[0][i].bytes;
    }
    tw_free_rows(rows[0]);
    tw_free_rows(rows[1]);
}

} // namespace

namespace {

// Every byte an algorithm moves in its own memory goes through the helpers of
// coll_util.h, which report it to the model (sim/driver/cost.h): no algorithm
// calls memcpy, memmove or bcopy itself. The region set-up (coll_locality.c,
// coll_locality_msgs.c, coll_locality_map.c) runs before the timed calls and copies layouts, not
// payload; coll_util.c is the helpers. The same for the reduction arithmetic:
// only coll_reduce.c's coll_reduce_local calls MPI_Reduce_local.
TEST(LocalWork, AlgorithmsCopyOnlyThroughTheHelpers)
{
    namespace fs = std::filesystem;
    const fs::path root = fs::path(COLLSIM_SOURCE_DIR) / "algorithms";
    const std::regex call("\\b(memcpy|memmove|bcopy|mempcpy|P?MPI_Reduce_local)\\s*\\(");
    std::string found;
    int files = 0;
    for (const auto &e : fs::recursive_directory_iterator(root)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".c" || name == "coll_util.c" || name == "coll_locality.c" ||
            name == "coll_locality_msgs.c" || name == "coll_locality_map.c" ||
            name == "coll_reduce.c")
            continue;
        files++;
        std::ifstream in(e.path());
        std::string line;
        for (int n = 1; std::getline(in, line); n++)
            if (std::regex_search(line, call))
                found += e.path().string() + ":" + std::to_string(n) + ": " + line + "\n";
    }
    EXPECT_GT(files, 40);
    EXPECT_EQ(found, "") << "copies outside coll_copy / coll_copy_data / the block helpers, or "
                            "reductions outside coll_reduce_local";
}

// Fan et al. 2022, Figure 2a: the four uniform Bruck variants on Theta, P = 256, N = 32 B.
// Under the network-only model they are one schedule, so one time; under the full model their
// local work (rotations, per-block copies, derived datatypes) separates them, zero-rotation
// first, then modified, then basic (docs/findings/fan2022.md gives the figures).
TEST(LocalWorkVariants, BruckVariantsOnThetaDifferByTheirLocalWork)
{
    std::map<std::string, double> t[2];
    const char *models[2] = {"network", "full"};
    for (int m = 0; m < 2; m++)
        for (const char *alg : {"bruck_basic", "bruck_modified", "bruck_zero_rotation",
                                "bruck_zero_copy"}) {
            tw_run_spec s{};
            s.platform = "theta";
            s.mapping = "sequential";
            s.coll = "alltoall";
            s.alg = alg;
            s.np = 256;
            s.sizes = "32";
            s.fold = 1;
            s.iters = 2;
            s.model = models[m];
            const Checked c = run_checked(s);
            ASSERT_EQ(c.rows, 1u);
            EXPECT_EQ(c.ok, 1u) << alg << " " << c.first_problem;
            EXPECT_STREQ(c.all[0].model, models[m]);
            t[m][alg] = c.all[0].avg_us;
        }
    for (const auto &[alg, us] : t[0])
        EXPECT_EQ(us, t[0]["bruck_basic"]) << alg << ": one schedule, one network-only time";
    EXPECT_LT(t[1]["bruck_zero_rotation"], t[1]["bruck_modified"]);
    EXPECT_LT(t[1]["bruck_modified"], t[1]["bruck_basic"]);
    EXPECT_NE(t[1]["bruck_zero_copy"], t[1]["bruck_modified"]);
    for (const auto &[alg, us] : t[1])
        EXPECT_GT(us, t[0][alg]) << alg << ": local work and overheads add time";
}

} // namespace
