// Every algorithm's output checked byte by byte against the definition of
// MPI_Allgather, for every p in 1..64 (one smpirun per algorithm and mapping:
// the driver runs on the first p ranks for each p), sizes 0, 1, an odd size
// and 64 KiB, under sequential and cyclic mappings on the Yahoo platform.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <tuple>

#include "wrapper.h"

extern "C" {
#include "registry.h"
}

namespace {

struct Checked {
    size_t rows = 0, ok = 0;
    std::string first_problem;
};

Checked run(const tw_run_spec &spec)
{
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096];
    Checked c;
    EXPECT_EQ(tw_run(&spec, &rows, &n, err, sizeof err), 0) << err;
    c.rows = n;
    for (size_t i = 0; i < n; i++) {
        if (std::string(rows[i].status) == "ok")
            c.ok++;
        else if (c.first_problem.empty())
            c.first_problem = std::string("np=") + std::to_string(rows[i].np) + " bytes=" +
                              std::to_string(rows[i].bytes) + ": " + rows[i].status + ": " +
                              rows[i].note;
    }
    tw_free_rows(rows);
    return c;
}

tw_run_spec spec_for(const char *alg, const char *mapping)
{
    tw_run_spec s{};
    s.platform = "yahoo";
    s.mapping = mapping;
    s.coll = "allgather";
    s.alg = alg;
    s.np = 64;
    s.np_list = "1:64:1";
    s.sizes = "0,1,13,65536";
    s.iters = 1;
    s.warmup = 1; // the check runs on the first and the last call
    s.timeout_s = 600;
    return s;
}

class EveryP : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(EveryP, OutputMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    Checked c = run(spec_for(alg.c_str(), mapping.c_str()));
    EXPECT_EQ(c.rows, 64u * 4u);
    EXPECT_EQ(c.ok, c.rows) << c.first_problem;
}

std::vector<std::string> algorithms_under_test()
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (std::string(r[i].collective) == "allgather")
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

// SMPI's own implementations, checked by the same driver. One smpirun per p:
// SMPI 3.32's mpich decision logic deadlocks ("free(): invalid pointer") on
// the next communicator after a 48-rank cyclic sub-communicator was freed, so
// natives are not swept over sub-communicators.
class Natives : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Natives, OutputMatchesTheDefinition)
{
    auto [alg, mapping] = GetParam();
    for (int p : {1, 2, 3, 5, 8, 13, 31, 48, 49, 64}) {
        tw_run_spec s = spec_for(alg.c_str(), mapping.c_str());
        s.np = p;
        s.np_list = nullptr;
        Checked c = run(s);
        EXPECT_EQ(c.rows, 4u) << "p=" << p;
        EXPECT_EQ(c.ok, c.rows) << "p=" << p << ": " << c.first_problem;
    }
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
        Checked c = run(s);
        EXPECT_EQ(c.rows, 22u * 3u) << dtype;
        EXPECT_EQ(c.ok, c.rows) << dtype << ": " << c.first_problem;
    }
    tw_run_spec s = spec_for(alg.c_str(), "cyclic");
    s.in_place = 1;
    s.sizes = "1,13";
    Checked c = run(s);
    EXPECT_EQ(c.rows, 64u * 2u);
    EXPECT_EQ(c.ok, c.rows) << "in place: " << c.first_problem;
}

INSTANTIATE_TEST_SUITE_P(Allgather, Variants,
                         ::testing::Values("ring", "neighbor_exchange", "recursive_doubling",
                                           "bruck", "sparbit", "sparbit_indexed"));

// The check itself must be able to fail: a corrupted byte is reported with
// its rank, block and offset.
TEST(DataCheck, CatchesACorruptedByteAndNamesIt)
{
    setenv("COLLSIM_FAULT", "3:5:7", 1);
    tw_run_spec s = spec_for("sparbit", "sequential");
    s.np = 8;
    s.np_list = nullptr;
    s.sizes = "4,13";
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096];
    ASSERT_EQ(tw_run(&s, &rows, &n, err, sizeof err), 0) << err;
    unsetenv("COLLSIM_FAULT");
    ASSERT_EQ(n, 2u);
    EXPECT_STREQ(rows[0].status, "ok"); // offset 7 is outside a 4-byte block
    EXPECT_STREQ(rows[1].status, "fail");
    EXPECT_NE(std::string(rows[1].note).find("rank 3, block 5, offset 7"), std::string::npos)
        << rows[1].note;
    tw_free_rows(rows);
}

// Folding buffers changes memory, not predicted times.
TEST(FoldMode, SamePredictedTimesAsRealBuffers)
{
    for (const char *alg : {"bruck", "sparbit", "ring"}) {
        cs_result *a, *b;
        size_t na, nb;
        char err[4096];
        tw_run_spec s = spec_for(alg, "cyclic");
        s.np = 48;
        s.np_list = nullptr;
        s.sizes = "1,1000,65536";
        ASSERT_EQ(tw_run(&s, &a, &na, err, sizeof err), 0) << err;
        s.fold = 1;
        ASSERT_EQ(tw_run(&s, &b, &nb, err, sizeof err), 0) << err;
        ASSERT_EQ(na, 3u);
        ASSERT_EQ(nb, 3u);
        for (size_t i = 0; i < na; i++) {
            EXPECT_STREQ(b[i].status, "ok");
            EXPECT_STREQ(b[i].mode, "fold");
            EXPECT_DOUBLE_EQ(a[i].avg_us, b[i].avg_us) << alg << " bytes " << a[i].bytes;
            EXPECT_DOUBLE_EQ(a[i].max_us, b[i].max_us) << alg << " bytes " << a[i].bytes;
        }
        tw_free_rows(a);
        tw_free_rows(b);
    }
}

} // namespace
