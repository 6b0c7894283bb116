// Broadcast, allreduce and reduce (coll_reduce.h): the driver's exact data check.
//
// BcastEveryP, AllreduceEveryP, ReduceEveryP: every bcast, allreduce and reduce algorithm of
// algorithms.def on
// Yahoo, both mappings, p in 1..33 and 37, 63 (every_p_keeps; the full
// model at 1..8, 13, 31, 64) for the first case (bcast from rank 0, integer
// MPI_SUM), then a shorter list of p with and without powers of two for the
// others; counts 0, 1, 13 and 1025 elements (not divisible by most p). Broadcasts: roots 0, 5 and 62. Allreduces: integer
// MPI_SUM, MPI_MAX, MPI_BXOR, doubles with exact sums, MPI_IN_PLACE, and the
// non-commutative matmul for the algorithms that take it (the others must
// refuse it with an MPI error). Reduces: roots 0, 3, 5 and 62, the same
// operations, MPI_IN_PLACE at the root. ReduceFault: a flipped byte and a reversed
// order are named. ReduceNatives: SMPI's built-ins through the same check.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "data_check.h"
#include "wrapper.h"

extern "C" {
#include "registry.h"
}

namespace {

std::vector<std::string> algorithms_of(const char *coll)
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (std::string(r[i].collective) == coll)
            v.push_back(r[i].name);
    return v;
}

const char *const kPs = "1:9:1,12,13,16,17,31,32,33,63,64";

// One run under the network model at the p of `ps` (a shorter list than an
// every-p sweep, for the variants of a case the sweep checks in full): one
// passing row per (p, size).
void expect_ps_ok(tw_run_spec s, const char *ps, const std::string &what)
{
    s.model = "network";
    s.np_list = ps;
    Checked c = run_checked(s);
    EXPECT_EQ(c.rows, numbers(ps).size() * numbers(s.sizes).size()) << what;
    EXPECT_EQ(c.ok, c.rows) << what << ": " << c.first_problem;
}

// whether the algorithm takes a non-commutative operation (algorithms.def's
// restriction says "commutative operations only" otherwise)
bool takes_non_commutative(const std::string &coll, const std::string &alg)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (coll == r[i].collective && alg == r[i].name)
            return std::string(r[i].restriction).find("commutative operations only") ==
                   std::string::npos;
    return false;
}

using AlgMapping = std::tuple<std::string, std::string>;
class BcastEveryP : public ::testing::TestWithParam<AlgMapping> {};
class AllreduceEveryP : public ::testing::TestWithParam<AlgMapping> {};
class ReduceEveryP : public ::testing::TestWithParam<AlgMapping> {};

// The non-commutative matmul: the result in rank order, or the algorithm
// refuses it alike on every process (an MPI error, no hang).
void expect_matmul(tw_run_spec s, const char *coll, const std::string &name, const char *ps)
{
    s.op = "matmul";
    s.dtype = "int";
    s.sizes = "4,52,4100";
    s.in_place = 0;
    if (takes_non_commutative(coll, name)) {
        expect_ps_ok(s, ps, "matmul");
        return;
    }
    s.np_list = "5";
    Checked c = run_checked(s);
    EXPECT_EQ(c.rows, 3u);
    EXPECT_EQ(c.ok, 0u);
    EXPECT_NE(c.first_problem.find("error"), std::string::npos) << c.first_problem;
}

TEST_P(BcastEveryP, EveryPAndRoot)
{
    auto [alg, mapping] = GetParam();
    tw_run_spec s = sweep_spec("bcast", alg.c_str(), mapping.c_str(), "0,1,13,1025", 600);
    s.np_list = kPs;
    expect_every_p_ok(s, "root 0", "1,2,3,5,8,13,31,64");
    s.root = 5;
    s.dtype = "int";
    s.sizes = "0,4,52,4100";
    expect_ps_ok(s, "6,7,13,17,33,64", "root 5");
    s.root = 62; // the last rank, and one short of it
    expect_ps_ok(s, "63,64", "root 62");
}

TEST_P(AllreduceEveryP, EveryPAndOperation)
{
    auto [name, mapping] = GetParam();
    struct Case {
        const char *op, *dtype, *sizes;
        int in_place;
    };
    tw_run_spec sum = sweep_spec("allreduce", name.c_str(), mapping.c_str(), "0,4,52,4100", 600);
    sum.np_list = kPs;
    sum.op = "sum";
    sum.dtype = "int";
    expect_every_p_ok(sum, "sum int");
    std::vector<Case> cases = {{"sum", "double", "0,8,104,8200", 1}};
    if (mapping == "sequential") // the data do not depend on the placement
        cases.insert(cases.end(), {{"max", "int", "4,52,4100", 0},
                                   {"bxor", "int", "4,52,4100", 1},
                                   {"bxor", "byte", "1,13,1025", 0}});
    for (const Case &c : cases) {
        tw_run_spec s = sum;
        s.op = c.op;
        s.dtype = c.dtype;
        s.sizes = c.sizes;
        s.in_place = c.in_place;
        expect_ps_ok(s, "1,2,3,5,7,8,13,17,32,33,63", std::string(c.op) + " " + c.dtype);
    }
    expect_matmul(sum, "allreduce", name, "1,2,3,4,5,6,7,8,9,12,13,16,17,31,33,63,64");
}

TEST_P(ReduceEveryP, EveryPRootAndOperation)
{
    auto [name, mapping] = GetParam();
    tw_run_spec s = sweep_spec("reduce", name.c_str(), mapping.c_str(), "0,4,52,4100", 600);
    s.np_list = kPs;
    s.op = "sum";
    s.dtype = "int";
    expect_every_p_ok(s, "sum int, root 0", "1,2,3,5,8,13,31,64");
    s.root = 5;
    expect_ps_ok(s, "6,7,13,17,33,64", "root 5");
    s.root = 62; // the last rank, and one short of it
    expect_ps_ok(s, "63,64", "root 62");
    s.root = 3;
    if (mapping == "sequential") { // the data do not depend on the placement
        struct Case {
            const char *op, *dtype, *sizes;
            int in_place;
        };
        for (const Case &c : std::vector<Case>{{"sum", "double", "0,8,104,8200", 1},
                                               {"max", "int", "4,52,4100", 0},
                                               {"bxor", "byte", "1,13,1025", 1}}) {
            s.op = c.op;
            s.dtype = c.dtype;
            s.sizes = c.sizes;
            s.in_place = c.in_place;
            expect_ps_ok(s, "4,5,7,8,13,17,33", std::string(c.op) + " " + c.dtype);
        }
    }
    expect_matmul(s, "reduce", name, "4,5,6,7,8,9,12,13,16,17,31,33,64");
}

std::string alg_mapping_name(const ::testing::TestParamInfo<AlgMapping> &info)
{
    return gtest_name(std::get<0>(info.param) + "_" + std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Bcast, BcastEveryP,
                         ::testing::Combine(::testing::ValuesIn(algorithms_of("bcast")),
                                            ::testing::Values("sequential", "cyclic")),
                         alg_mapping_name);
INSTANTIATE_TEST_SUITE_P(Allreduce, AllreduceEveryP,
                         ::testing::Combine(::testing::ValuesIn(algorithms_of("allreduce")),
                                            ::testing::Values("sequential", "cyclic")),
                         alg_mapping_name);
INSTANTIATE_TEST_SUITE_P(Reduce, ReduceEveryP,
                         ::testing::Combine(::testing::ValuesIn(algorithms_of("reduce")),
                                            ::testing::Values("sequential", "cyclic")),
                         alg_mapping_name);

// The check can fail: a byte flipped in the result is named by rank and
// offset; the matmul operands swapped (COLLSIM_FAULT_ORDER) give the product
// in reverse rank order, which the check names as such.
TEST(ReduceFault, FlippedByteAndReversedOrderAreNamed)
{
    tw_run_spec s = sweep_spec("allreduce", "recursive_doubling", "sequential", "4,52", 300);
    s.np_list = nullptr;
    s.np = 8;
    s.op = "bxor"; // bytes: element 7 is the flipped byte
    expect_fault_named(s, "3:0:7", "rank 3: --op bxor: element 7 of the result is ");
    s.op = "matmul";
    s.dtype = "int";
    s.sizes = "4,52";
    setenv("COLLSIM_FAULT_ORDER", "1", 1);
    Checked c = run_checked(s);
    unsetenv("COLLSIM_FAULT_ORDER");
    EXPECT_EQ(c.rows, 2u);
    EXPECT_EQ(c.ok, 0u);
    EXPECT_NE(c.first_problem.find("element 0 of the result"), std::string::npos) << c.first_problem;
    EXPECT_NE(c.first_problem.find("combined in reverse order"), std::string::npos)
        << c.first_problem;
    tw_run_spec b = sweep_spec("bcast", "scatter_ring_allgather", "sequential", "13", 300);
    b.root = 2;
    expect_fault_named(b, "3:0:7", "rank 3, block 0, offset 7");
    tw_run_spec r = sweep_spec("reduce", "rabenseifner", "sequential", "4,52", 300);
    r.np_list = nullptr;
    r.np = 6;
    r.root = 4;
    r.op = "bxor";
    expect_fault_named(r, "4:0:7", "rank 4: --op bxor: element 7 of the result is ");
}

// SMPI's built-ins through the same check (one smpirun per p, as for the
// other collectives' natives).
class ReduceNatives : public ::testing::TestWithParam<std::string> {};

TEST_P(ReduceNatives, OutputMatchesTheDefinition)
{
    const std::string coll_alg = GetParam();
    const std::string coll = coll_alg.substr(0, coll_alg.find('/')), alg = coll_alg.substr(coll.size() + 1);
    tw_run_spec s = sweep_spec(coll.c_str(), alg.c_str(), "sequential", "0,4,52,4100", 300);
    s.dtype = "int";
    s.root = coll == "allreduce" ? 0 : 2;
    // SMPI's rab1 throws on a p that is not a power of two (algorithms.md)
    const std::vector<int> ps = alg == "native:rab1" ? std::vector<int>{2, 4, 8}
                                                     : std::vector<int>{3, 5, 8, 13};
    expect_each_p_ok(s, ps);
}

INSTANTIATE_TEST_SUITE_P(Reduce, ReduceNatives,
                         ::testing::Values("bcast/native:default", "bcast/native:binomial_tree",
                                           "bcast/native:scatter_LR_allgather",
                                           "allreduce/native:default", "allreduce/native:rdb",
                                           "allreduce/native:lr", "allreduce/native:rab1",
                                           "reduce/native:default", "reduce/native:binomial"),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return gtest_name(info.param);
                         });

} // namespace
