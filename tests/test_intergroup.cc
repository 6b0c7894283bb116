// The intergroup allgathers and allgathervs (Kang, Traff et al. 2019, and
// the root-gathering baselines) through tests/intergroup_unit.c, an SMPI
// program of its own: per algorithm one smpirun of 48 ranks covers every
// (p, q) with 1 <= p, q <= 16 under the block and the interleaved layouts
// (the first p + q ranks, a sub-communicator each), with equal, unequal and
// zero block sizes (allgatherv: equal, arithmetic, random with zeros,
// all-zero groups; packed and gapped reversed displacements), typed data,
// every received byte, the bytes around the blocks and the send buffer
// checked, and MPI_IN_PLACE refused with MPI_ERR_ARG. Plus the worked examples
// of docs/papers.md (p = 8, q = 3 segmentation; p = 6, q = 3 Algorithm 2 map) and
// a check that a corrupted byte is reported.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cli.h"
#include "data_check.h"
#include "smpi_run.h"
#include "wrapper.h"

extern "C" {
#include "fits.h"
#include "regression.h"
#include "registry.h"
}

namespace {

// smpirun of intergroup_unit on 48 Yahoo ranks (3 per node); returns its exit status.
int run_unit(const std::string &args, std::string &out)
{
    return run_smpi_unit(COLLSIM_INTERGROUP_UNIT, 48, args, out);
}

std::vector<std::string> intergroup_algorithms()
{
    std::vector<std::string> v;
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (r[i].needs_groups)
            v.push_back(std::string(r[i].collective) + "/" + r[i].name);
    return v;
}

class IntergroupEveryP : public ::testing::TestWithParam<std::string> {};

TEST_P(IntergroupEveryP, EveryPQBothLayoutsMatchesTheDefinition)
{
    std::string out;
    // 16 x 16 (512 shapes) rather than the program's 24 x 24 (1,152): six
    // times less CPU, and the shapes up to 16 already have p < q, p > q, p
    // dividing q and not, powers of two and primes, under both layouts
    const int status = run_unit(GetParam() + " 16 16", out);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("intergroup_unit: "), std::string::npos) << out;
    EXPECT_NE(out.find(" checks, 0 failed"), std::string::npos) << out;
    EXPECT_EQ(out.find("FAIL"), std::string::npos) << out;
}

std::string param_name(const ::testing::TestParamInfo<std::string> &info)
{
    std::string s = info.param;
    for (char &ch : s)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Intergroup, IntergroupEveryP, ::testing::ValuesIn(intergroup_algorithms()),
                         param_name);

TEST(Intergroup, RegistryHasThePapersAlgorithms)
{
    const std::vector<std::string> want = {
        "inter_allgather/root_gather_mpich", "inter_allgather/root_gather_ompi",
        "inter_allgather/root_gather_ideal", "inter_allgather/kang_two_step",
        "inter_allgather/kang_segmented",    "inter_allgatherv/root_gather_mpich",
        "inter_allgatherv/root_gather_ring", "inter_allgatherv/kang_segmented",
        "inter_allgatherv/kang_segmented_ordered"};
    EXPECT_EQ(intergroup_algorithms(), want);
    for (const std::string &a : want) {
        const cs_alg_info *i = cs_alg_find(a.substr(0, a.find('/')).c_str(), a.c_str());
        ASSERT_NE(i, nullptr) << a;
        EXPECT_FALSE(i->in_place) << a;
        EXPECT_FALSE(i->needs_regions) << a;
    }
}

// The worked examples of docs/papers.md, "Kang: Algorithm 1 made exact" (p = 8,
// q = 3, k_B = 7: subgroups 3, 3, 2; A-side counts [3,2,2,3,2,2,4,3] at
// [0,3,5,7,10,12,14,18]) and "Kang: Algorithm 2 made exact" (p = 6, q = 3, A counts
// [5,1,1,9,2,6]: a0->b0 5, a1->b0 1, a2->b0 1, a3->b0 1, a3->b1 8, a4->b2 2,
// a5->b2 6) with the receive orders of Algorithm 2's exchange (posted: rank
// order; the paper's: b0 takes a3, a0, a1, a2; and a receiver between two
// multi-target senders), and the 25:7 interleaved layout.
TEST(Intergroup, WorkedExamplesOfTheAlgorithms)
{
    std::string out;
    EXPECT_EQ(run_unit("vectors", out), 0) << out;
    EXPECT_NE(out.find("intergroup_unit: 42 checks, 0 failed"), std::string::npos) << out;
}

// The worked examples as data: p = 8, q = 3 and p = 6, q = 3 are among the
// (p, q) of the every-(p, q) runs; here a corrupted received byte must be
// reported, for one allgather and one allgatherv.
TEST(Intergroup, DataCheckCatchesACorruptedByte)
{
    for (const char *a : {"inter_allgather/kang_segmented", "inter_allgatherv/kang_segmented"}) {
        std::string out;
        EXPECT_NE(run_unit(std::string("fault:") + a + " 8 3", out), 0) << a;
        EXPECT_NE(out.find("FAIL"), std::string::npos) << out;
        EXPECT_NE(out.find("expected 0x"), std::string::npos) << out;
        EXPECT_EQ(out.find(" checks, 0 failed"), std::string::npos) << out;
    }
}

// ---- bench's side (sim/driver/intergroup.c): the driver's own loop, check
// and fold modes, through the same case path as `collsim bench` ----

struct BenchCase {
    int p, q;
    const char *layout, *ratio, *counts, *sizes;
};

// P = Q = 1, P = 1 < Q, P < Q, P > Q, non-powers of two, both layouts,
// both block ratios of settings 3/4, equal and arithmetic counts, 0 bytes
const BenchCase bench_cases[] = {
    {1, 1, "block", nullptr, "equal", "0,1,13"},
    {1, 5, "interleaved", nullptr, "arithmetic", "1,13,1000"},
    {5, 3, "block", "1:4", "arithmetic", "0,4,52"},
    {3, 7, "interleaved", "4:1", "equal", "0,4,52,1000"},
    {6, 10, "interleaved", nullptr, "arithmetic", "13,1000"},
};

tw_run_spec bench_spec(const std::string &full, const BenchCase &c, char *groups, size_t len)
{
    snprintf(groups, len, "%d:%d", c.p, c.q);
    static std::string coll, alg; // tw_run copies what it needs before the next call
    coll = full.substr(0, full.find('/'));
    alg = full.substr(full.find('/') + 1);
    tw_run_spec s{};
    s.platform = "yahoo";
    s.mapping = "sequential";
    s.coll = coll.c_str();
    s.alg = alg.c_str();
    s.np = c.p + c.q;
    s.sizes = c.sizes;
    s.iters = 1;
    s.warmup = 1; // the check runs on the first and the last call
    s.timeout_s = 300;
    s.groups = groups;
    s.layout = c.layout;
    s.block_ratio = c.ratio;
    s.counts = coll == "inter_allgatherv" ? c.counts : nullptr;
    return s;
}

class IntergroupBench : public ::testing::TestWithParam<std::string> {};

TEST_P(IntergroupBench, EveryByteCheckedForSeveralGroupShapes)
{
    for (const BenchCase &c : bench_cases) {
        char groups[32];
        tw_run_spec s = bench_spec(GetParam(), c, groups, sizeof groups);
        size_t nsizes = 1;
        for (const char *x = c.sizes; *x; x++)
            nsizes += *x == ',';
        Checked r = run_checked(s);
        EXPECT_EQ(r.rows, nsizes) << groups << " " << c.layout;
        EXPECT_EQ(r.ok, nsizes) << groups << " " << c.layout << " ratio "
                                << (c.ratio ? c.ratio : "1:1") << ": " << r.first_problem;
    }
}

INSTANTIATE_TEST_SUITE_P(Intergroup, IntergroupBench, ::testing::ValuesIn(intergroup_algorithms()),
                         param_name);

// COLLSIM_FAULT=3:5:7 flips a received byte after each call (block: the
// remote block's index): the check names it at 13 bytes, and at 4 bytes the
// offset lies outside the block (data_check.h). 6:2 interleaved puts rank 3
// in group B, which receives group A's 6 blocks.
TEST(IntergroupBenchCheck, ACorruptedReceivedByteIsCaught)
{
    const BenchCase c = {6, 2, "interleaved", nullptr, "arithmetic", "4,13"};
    for (const char *a : {"inter_allgather/root_gather_mpich", "inter_allgatherv/kang_segmented"}) {
        char groups[32];
        expect_fault_named(bench_spec(a, c, groups, sizeof groups));
    }
}

// Folded buffers change memory, not predicted times; the rows carry the
// bytes the collective delivers: Q x (P k_A) + P x (Q k_B).
TEST(IntergroupBenchCheck, FoldAndCheckPredictTheSameTimes)
{
    const BenchCase c = {7, 5, "interleaved", "1:4", "equal", "1024,65536"};
    for (const char *a : {"inter_allgather/kang_segmented", "inter_allgatherv/root_gather_mpich"}) {
        char groups[32];
        tw_run_spec s = bench_spec(a, c, groups, sizeof groups);
        cs_result *x, *y;
        size_t nx, ny;
        char err[4096];
        ASSERT_EQ(tw_run(&s, &x, &nx, err, sizeof err), 0) << err;
        s.fold = 1;
        ASSERT_EQ(tw_run(&s, &y, &ny, err, sizeof err), 0) << err;
        ASSERT_EQ(nx, 2u);
        ASSERT_EQ(ny, 2u);
        for (size_t i = 0; i < nx; i++) {
            EXPECT_STREQ(x[i].status, "ok") << a << ": " << x[i].note;
            EXPECT_STREQ(y[i].status, "ok") << a << ": " << y[i].note;
            EXPECT_STREQ(x[i].mode, "check");
            EXPECT_STREQ(y[i].mode, "fold");
            EXPECT_GT(x[i].max_us, 0.0);
            EXPECT_DOUBLE_EQ(x[i].avg_us, y[i].avg_us) << a << " bytes " << x[i].bytes;
            EXPECT_DOUBLE_EQ(x[i].min_us, y[i].min_us) << a << " bytes " << x[i].bytes;
            EXPECT_DOUBLE_EQ(x[i].max_us, y[i].max_us) << a << " bytes " << x[i].bytes;
            const long long kA = x[i].bytes, kB = 4 * x[i].bytes;
            EXPECT_EQ(x[i].data_bytes, 5 * 7 * kA + 7 * 5 * kB) << a;
        }
        tw_free_rows(x);
        tw_free_rows(y);
    }
}

// The scenario of IntergroupScenario, with one <expect> of inter_allgather.
void write_ig_scenario(const std::string &path, const char *faster, const char *than)
{
    std::ofstream(path)
        << "<scenario name=\"ig\">\n  <platform name=\"yahoo\"/>\n"
           "  <mappings>sequential</mappings>\n  <processes>8</processes>\n"
           "  <groups sizes=\"5:3\" layout=\"interleaved\" block-ratio=\"1:4\" "
           "counts=\"arithmetic\"/>\n"
           "  <collective name=\"inter_allgather\"><algorithms>kang_segmented "
           "root_gather_mpich</algorithms></collective>\n"
           "  <collective name=\"inter_allgatherv\"><algorithms>kang_segmented</algorithms>"
           "</collective>\n"
           "  <collective name=\"allgather\"><algorithms>ring</algorithms></collective>\n"
           "  <sizes>4,64</sizes>\n"
           "  <models>network</models>\n" /* the times below are the network-only model's */
           "  <expect faster=\"" << faster << "\" than=\"" << than
        << "\" collective=\"inter_allgather\" bytes=\"64\"/>\n</scenario>\n";
}

// A scenario's <groups> reaches every intergroup case (and no other), its
// rows record groups, layout, block ratio and counts, --only selects by them,
// rows that differ only there are different cases (resume keys), and an
// <expect> finds the intergroup rows (a false one fails the run).
TEST(IntergroupScenario, GroupsAreCaseFieldsColumnsAndKeys)
{
    char dir[256], err[4096] = "";
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string path = std::string(dir) + "/ig.xml", out = std::string(dir) + "/out";
    // 64 bytes, 5:3 at 1:4: kang_segmented 4.06 us, root_gather_mpich 4.71 us
    write_ig_scenario(path, "root_gather_mpich", "kang_segmented");
    EXPECT_EQ(tw_run_scenario(path.c_str(), (out + "-false").c_str(), 1, nullptr, err, sizeof err),
              1) << err;
    write_ig_scenario(path, "kang_segmented", "root_gather_mpich");
    char values[1024];
    EXPECT_EQ(tw_expand_field(path.c_str(), "counts=arithmetic", CS_F_algorithm, values,
                              sizeof values, err, sizeof err), 1) << err;
    EXPECT_EQ(tw_expand_field(path.c_str(), "groups=5:3", CS_F_algorithm, values, sizeof values,
                              err, sizeof err), 3) << err;
    ASSERT_EQ(tw_run_scenario(path.c_str(), out.c_str(), 1, nullptr, err, sizeof err), 0) << err;
    cs_result *rows = nullptr;
    size_t n = 0;
    ASSERT_EQ(tw_read_results((out + "/results.csv").c_str(), &rows, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 8u);
    for (size_t i = 0; i < n; i++) {
        const cs_result &r = rows[i];
        const std::string coll = r.collective;
        EXPECT_STREQ(r.status, "ok") << coll << "/" << r.algorithm << ": " << r.note;
        if (coll == "allgather") {
            EXPECT_STREQ(r.groups, "") << r.algorithm;
            EXPECT_STREQ(r.layout, "");
            EXPECT_STREQ(r.counts, "");
            continue;
        }
        EXPECT_STREQ(r.groups, "5:3");
        EXPECT_STREQ(r.layout, "interleaved");
        EXPECT_STREQ(r.block_ratio, "1:4");
        EXPECT_STREQ(r.counts, coll == "inter_allgatherv" ? "arithmetic" : "");
        if (coll == "inter_allgather") { // Q x P k_A + P x Q k_B, k_B = 4 k_A
            EXPECT_EQ(r.data_bytes, 3 * 5 * r.bytes + 5 * 3 * 4 * r.bytes);
        }
        cs_result other = r;
        EXPECT_EQ(cs_key_cmp(&r, &other), 0);
        snprintf(other.layout, sizeof other.layout, "block");
        EXPECT_NE(cs_key_cmp(&r, &other), 0);
        other = r;
        snprintf(other.groups, sizeof other.groups, "4:4");
        EXPECT_NE(cs_key_cmp(&r, &other), 0);
        other = r;
        snprintf(other.block_ratio, sizeof other.block_ratio, "%s", "");
        EXPECT_NE(cs_key_cmp(&r, &other), 0);
        other = r;
        snprintf(other.counts, sizeof other.counts, "%s", coll == "inter_allgatherv" ? "equal" : "x");
        EXPECT_NE(cs_key_cmp(&r, &other), 0);
    }
    tw_free_rows(rows);
    tw_rmtree(dir);
}

// <groups ratio="P:Q">: the groups of each process count, P:Q scaled (25:7
// at 64 processes is 50:14), in the cases, their keys and --only; a process
// count P + Q does not divide is refused at load, as are sizes and ratio both.
TEST(IntergroupScenario, ARatioScalesToEachProcessCount)
{
    char dir[256], err[4096] = "";
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    auto write = [&](const std::string &name, const char *procs, const char *groups) {
        const std::string path = std::string(dir) + "/" + name + ".xml";
        std::ofstream(path) << "<scenario>\n  <platform name=\"fattree-32k\"/>\n"
                               "  <mappings>sequential</mappings>\n  <processes>" << procs
                            << "</processes>\n  <groups " << groups << "/>\n"
                               "  <collective name=\"inter_allgather\"><algorithms>kang_segmented "
                               "root_gather_mpich</algorithms></collective>\n"
                               "  <sizes>64K</sizes>\n</scenario>\n";
        return path;
    };
    const std::string ok = write("ok", "64 256 32", "ratio=\"25:7\"");
    char values[1024];
    ASSERT_EQ(tw_expand_field(ok.c_str(), nullptr, CS_F_groups, values, sizeof values, err,
                              sizeof err), 6) << err;
    EXPECT_STREQ(values, "50:14 50:14 200:56 200:56 25:7 25:7");
    EXPECT_EQ(tw_expand_field(ok.c_str(), "groups=200:56", CS_F_np, values, sizeof values, err,
                              sizeof err), 2) << err;
    EXPECT_STREQ(values, "256 256");
    long n;
    const std::string odd = write("odd", "64 100", "ratio=\"25:7\"");
    EXPECT_EQ(tw_scenario(odd.c_str(), &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("<groups ratio=\"25:7\">: group ratio 25:7 at 100 processes: "
                                    "100 is not a multiple of 32 (P + Q)"), std::string::npos) << err;
    const std::string both = write("both", "64", "ratio=\"25:7\" sizes=\"50:14\"");
    EXPECT_EQ(tw_scenario(both.c_str(), &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("<groups> has sizes=\"50:14\" and ratio=\"25:7\": give one"),
              std::string::npos) << err;
    const std::string fixed = write("fixed", "64 256", "sizes=\"50:14\"");
    EXPECT_EQ(tw_scenario(fixed.c_str(), &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("<groups> at <processes> 256: --groups 50:14 makes 64 "
                                    "processes, but --np is 256"), std::string::npos) << err;
    tw_rmtree(dir);
}

// The homogeneous gate: Kang et al.'s settings 1-8 on a homogeneous
// network (fattree-32k, one process per node, 64 processes, 8 MiB per node):
// the report's ratio root gathering / Algorithm 1 or 2 in the max metric lies
// within 10% of the finite-p model (docs/papers.md, "Kang: the finite-p
// model"), and within 10% of the cost
// models (algorithms.def) everywhere. Setting 6 is the exception the models
// explain: MPICH's allgatherv code starts its second gatherv as soon as
// group 1's root, whose block is the smallest of the arithmetic sequence, has
// sent it (fair sharing of the first root's link), so its two gathervs
// overlap where the finite-p model puts them in sequence; the cost model,
// which follows the code, predicts the simulated ratio (about 2.9, below
// the finite-p 3.77-4.00). 256 processes: scenarios/kang-homogeneous.xml.
TEST(KangModel, SettingsOneToEightAtSixtyFourProcesses)
{
    char dir[256], err[4096] = "", md[1024];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string out = std::string(dir) + "/out";
    ASSERT_EQ(tw_run_scenario(COLLSIM_TEST_DATA_DIR "/kang-gate-64.xml", out.c_str(), 2, nullptr, err,
                              sizeof err), 0) << err;
    ASSERT_EQ(tw_report((out + "/results.csv").c_str(), nullptr, nullptr, nullptr, md, sizeof md, err,
                        sizeof err), 0) << err;
    std::ifstream in(md);
    std::string line, coll;
    bool kang = false;
    int rows = 0;
    while (std::getline(in, line)) {
        if (!line.rfind("## ", 0))
            kang = !line.rfind("## Kang et al.", 0);
        if (kang && !line.rfind("### inter_allgather", 0))
            coll = line.substr(4, line.find(':') - 4);
        if (!kang || line.rfind("| fattree-32k |", 0))
            continue;
        std::vector<std::string> c;
        for (size_t a = 1, b; (b = line.find(" |", a)) != std::string::npos; a = b + 2)
            c.push_back(line.substr(a + 1, b - a - 1));
        ASSERT_EQ(c.size(), 14u) << line;
        const double sim = std::stod(c[8]), model = std::stod(c[10]);
        const bool setting6 = coll == "inter_allgatherv" && c[3].find("32:32") == 0 &&
                              c[3].find("arithmetic") != std::string::npos;
        EXPECT_EQ(c[4], "64") << line;
        EXPECT_EQ(c[5], "8M per node (8M)") << line;
        EXPECT_NEAR(sim, model, 0.1 * model) << coll << " " << line;
        if (setting6)
            EXPECT_EQ(c[13].rfind("no", 0), 0u) << "setting 6 reached the finite-p range: " << line;
        else
            EXPECT_EQ(c[13], "yes") << coll << " " << line;
        rows++;
    }
    EXPECT_EQ(rows, 8) << "settings 1-8";
    tw_rmtree(dir);
}

// Each row of a scenario run beside its cost model (algorithms.def's cost
// column, the fitted alpha and beta of platforms.csv), in the max metric.
struct ModelRow {
    std::string groups;
    long np;
    double sim_us, model_us;
};

std::vector<ModelRow> run_against_model(const char *scenario, const std::string &out)
{
    std::vector<ModelRow> v;
    char err[4096] = "";
    EXPECT_EQ(tw_run_scenario(scenario, out.c_str(), 2, nullptr, err, sizeof err), 0) << err;
    cs_result *rows = nullptr;
    size_t n = 0;
    EXPECT_EQ(tw_read_results((out + "/results.csv").c_str(), &rows, &n, err, sizeof err), 0) << err;
    cs_platform_fit *fits = nullptr;
    size_t nfits = 0;
    cs_err e;
    EXPECT_EQ(cs_fits_read((out + "/" CS_FITS_FILE).c_str(), &fits, &nfits, &e), 0) << e.msg;
    for (size_t i = 0; i < n; i++) {
        const cs_result &r = rows[i];
        EXPECT_STREQ(r.status, "ok") << r.note;
        const cs_platform_fit *f = cs_fits_find(fits, nfits, r.platform);
        if (!f || !f->has_inter) {
            ADD_FAILURE() << "no inter-node fit of " << r.platform;
            continue;
        }
        cs_cost_params c = cs_cost_params_hockney(&f->inter.h);
        EXPECT_EQ(cs_cost_params_groups(&c, r.groups, r.block_ratio, r.counts, r.dtype), 0);
        const double m = cs_cost_predict_params(r.collective, r.algorithm, (int)r.np, r.bytes, &c);
        v.push_back({std::string(r.groups) + (r.block_ratio[0] ? std::string(" ") + r.block_ratio : ""),
                     r.np, r.max_us, m * 1e6});
    }
    free(fits);
    tw_free_rows(rows);
    return v;
}

// The EuroMPI 2018 two-step algorithm (Fig. 4's "EuroMPI") against its cost
// model (analysis/cost_model_intergroup.c, kang_two_step: B's rounds, then
// the column and stack ring allgathervs in A beside Algorithm 1's ring in B),
// settings 1-4 at 64 and 256 processes, 8 MiB per node, max over processes:
// within 1% on fattree-32k, except setting 4 at 256 (56:200 with k 4:1),
// which fattree-32k's static routing slows down by more than 30% (rings of
// both groups crossing leaves on shared up-links, as Algorithm 1's; see
// docs/findings/kang2019.md) and which on a single 256-node leaf switch with
// the same links is again within 1%.
TEST(KangModel, TwoStepModelAgainstTheSimulation)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::vector<ModelRow> tree =
        run_against_model(COLLSIM_TEST_DATA_DIR "/kang-two-step.xml", std::string(dir) + "/tree");
    EXPECT_EQ(tree.size(), 8u) << "settings 1-4 at 64 and 256 processes";
    for (const ModelRow &r : tree) {
        if (r.np == 256 && r.groups == "56:200 4:1")
            EXPECT_GT(r.sim_us, 1.3 * r.model_us) << r.groups << " at " << r.np;
        else
            EXPECT_NEAR(r.sim_us, r.model_us, 0.01 * r.model_us) << r.groups << " at " << r.np;
    }
    const std::vector<ModelRow> one = run_against_model(
        COLLSIM_TEST_DATA_DIR "/kang-two-step-one-switch.xml", std::string(dir) + "/one");
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].groups, "56:200 4:1");
    EXPECT_NEAR(one[0].sim_us, one[0].model_us, 0.01 * one[0].model_us);
    tw_rmtree(dir);
}

// <groups> repeats: each intergroup collective runs once per element that
// applies to it (collective="..." narrows one to a collective), rows and
// reports keep them apart, an <expect> picks elements by groups,
// block-ratio and counts, and two elements that give a collective the same
// cases are refused.
TEST(IntergroupScenario, SeveralGroupsElements)
{
    char dir[256], err[4096] = "";
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    auto write = [&](const std::string &name, const std::string &groups) {
        const std::string path = std::string(dir) + "/" + name + ".xml";
        std::ofstream(path) << "<scenario>\n  <platform name=\"yahoo\"/>\n"
                               "  <mappings>sequential</mappings>\n  <processes>8</processes>\n"
                            << groups
                            << "  <collective name=\"inter_allgather\"><algorithms>kang_segmented "
                               "root_gather_mpich</algorithms></collective>\n"
                               "  <collective name=\"inter_allgatherv\"><algorithms>kang_segmented"
                               "</algorithms></collective>\n"
                               "  <sizes>4K</sizes>\n  <buffers mode=\"fold\"/>\n  <models>network</models>\n"
                               "  <iterations warmup=\"0\" timed=\"1\"/>\n"
                               "  <expect faster=\"kang_segmented\" than=\"root_gather_mpich\" "
                               "collective=\"inter_allgather\" groups=\"5:3\" block-ratio=\"1:4\" "
                               "metric=\"max\"/>\n</scenario>\n";
        return path;
    };
    const std::string three = "  <groups sizes=\"4:4\"/>\n"
                              "  <groups sizes=\"5:3\" block-ratio=\"1:4\" collective=\"inter_allgather\"/>\n"
                              "  <groups sizes=\"5:3\" counts=\"arithmetic\" collective=\"inter_allgatherv\"/>\n";
    const std::string path = write("ok", three);
    char values[1024];
    ASSERT_EQ(tw_expand_field(path.c_str(), nullptr, CS_F_groups, values, sizeof values, err,
                              sizeof err), 6) << err;
    EXPECT_STREQ(values, "4:4 5:3 4:4 5:3 4:4 5:3");
    ASSERT_EQ(tw_expand_field(path.c_str(), "alg=kang_segmented", CS_F_counts, values, sizeof values,
                              err, sizeof err), 4) << err;
    const std::string out = std::string(dir) + "/out";
    ASSERT_EQ(tw_run_scenario(path.c_str(), out.c_str(), 1, nullptr, err, sizeof err), 0) << err;
    cs_result *rows = nullptr;
    size_t n = 0;
    ASSERT_EQ(tw_read_results((out + "/results.csv").c_str(), &rows, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 6u);
    int ratio14 = 0, arith = 0;
    for (size_t i = 0; i < n; i++) {
        EXPECT_STREQ(rows[i].status, "ok") << rows[i].note;
        ratio14 += !strcmp(rows[i].block_ratio, "1:4");
        arith += !strcmp(rows[i].counts, "arithmetic");
    }
    EXPECT_EQ(ratio14, 2);
    EXPECT_EQ(arith, 1);
    tw_free_rows(rows);
    // the same cases twice: counts do not tell inter_allgather's apart
    long nc;
    const std::string dup = write("dup", "  <groups sizes=\"5:3\" block-ratio=\"1:4\"/>\n"
                                         "  <groups sizes=\"5:3\" block-ratio=\"1:4\" counts=\"arithmetic\"/>\n");
    EXPECT_EQ(tw_scenario(dup.c_str(), &nc, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find(":6: <groups> gives inter_allgather the cases of line 5 again"),
              std::string::npos) << err;
    const std::string bad = write("bad", "  <groups sizes=\"4:4\" collective=\"allgather\"/>\n");
    EXPECT_EQ(tw_scenario(bad.c_str(), &nc, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("<groups collective=\"allgather\">: not an intergroup collective"),
              std::string::npos) << err;
    tw_rmtree(dir);
}

// <sizes unit="node">: each size divided by the <ppn> value (rows hold the
// block per process and size_unit node), an <expect bytes> in the same unit
// finds those rows, and a ppn that does not divide a size is refused at load.
TEST(IntergroupScenario, SizesPerNode)
{
    char dir[256], err[4096] = "";
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    auto write = [&](const char *ppn) {
        const std::string path = std::string(dir) + "/n" + ppn + ".xml";
        std::ofstream(path) << "<scenario>\n  <platform name=\"yahoo\"/>\n"
                               "  <mappings>sequential</mappings>\n  <processes>8</processes>\n"
                               "  <ppn>" << ppn << "</ppn>\n  <groups sizes=\"5:3\"/>\n"
                               "  <collective name=\"inter_allgather\"><algorithms>kang_segmented "
                               "root_gather_mpich</algorithms></collective>\n"
                               "  <sizes unit=\"node\">64K</sizes>\n"
                               "  <buffers mode=\"fold\"/>\n  <models>network</models>\n"
                               "  <iterations warmup=\"0\" timed=\"1\"/>\n"
                               "  <expect faster=\"kang_segmented\" than=\"root_gather_mpich\" "
                               "bytes=\"64K\" metric=\"max\"/>\n</scenario>\n";
        return path;
    };
    long n;
    EXPECT_EQ(tw_scenario(write("3").c_str(), &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("<sizes unit=\"node\">: size 65536 per node is not a multiple "
                                    "of 3 ranks per node"), std::string::npos) << err;
    const std::string path = write("2"), out = std::string(dir) + "/out";
    ASSERT_EQ(tw_run_scenario(path.c_str(), out.c_str(), 1, nullptr, err, sizeof err), 0) << err;
    cs_result *rows = nullptr;
    size_t nr = 0;
    ASSERT_EQ(tw_read_results((out + "/results.csv").c_str(), &rows, &nr, err, sizeof err), 0) << err;
    ASSERT_EQ(nr, 2u);
    for (size_t i = 0; i < nr; i++) {
        EXPECT_STREQ(rows[i].status, "ok") << rows[i].note;
        EXPECT_EQ(rows[i].bytes, 32768) << rows[i].algorithm;
        EXPECT_STREQ(rows[i].size_unit, "node");
    }
    tw_free_rows(rows);
    tw_rmtree(dir);
}

} // namespace
