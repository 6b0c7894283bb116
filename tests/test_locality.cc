// The locality-aware allgathers (loc_bruck, loc_bruck_multilevel,
// hierarchical, multilane: Bienz, Gautam, Kharel 2022) checked byte by byte
// against the definition of MPI_Allgather through the driver's check mode,
// for every p in 1..32 and 37, 63 (and 64) (data_check.h, every_p_keeps; one
// smpirun per case, the first p ranks of 64) under
// sequential and cyclic mappings, with regions (nodes) of every size the
// mappings give: 8 per node on Yahoo, 32 on Cervino, and --ppn K, so that
// uneven regions (13 ranks at 4 per node: 4, 4, 4, 1) and non-contiguous ones
// (cyclic) are all exercised; on Quartz, nodes of two socket hosts, where
// loc_bruck_multilevel's finer level exists. Sizes are small (0, 1 B and an
// odd few KiB; one 64 KiB run each): the algorithms move whole blocks, so
// larger sizes add simulation time, not coverage.
//
// Plus tests/locality_unit.c, an SMPI program of its own: coll_loc_split on
// sub-communicators (rank order, caching) and every algorithm under a
// two-level provider with arbitrary region shapes (scrambled, colours that
// clash when hashed), region level node and socket.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "cli.h"
#include "data_check.h"
#include "wrapper.h"

namespace {

struct Layout {
    const char *platform, *mapping;
    int ppn; // 0: the platform's cores per node
    int np;
    const char *np_list;
    const char *name;
};

// Up to 64 ranks where the platform holds 64 at that ppn (Yahoo has
// 16 nodes of 8 cores, Cervino 5 of 32). Left out as duplicates: ppn 1
// (regions of one rank: Yahoo cyclic, p <= 16), Yahoo cyclic with ppn <= 4
// (the same 16 nodes dealt as the default), ppn 8 sequential (the default).
const Layout kLayouts[] = {
    {"yahoo", "sequential", 0, 64, "1:64:1", "yahoo_seq"},
    {"yahoo", "cyclic", 0, 64, "1:64:1", "yahoo_cyc"},
    {"cervino", "sequential", 0, 64, "1:64:1", "cervino_seq"},
    {"cervino", "cyclic", 0, 64, "1:64:1", "cervino_cyc"},
    {"yahoo", "sequential", 2, 32, "1:32:1", "ppn2_seq"},
    {"yahoo", "sequential", 3, 48, "1:48:1", "ppn3_seq"},
    {"yahoo", "sequential", 5, 64, "1:64:1", "ppn5_seq"},
    {"yahoo", "cyclic", 5, 64, "1:64:1", "ppn5_cyc"},
    {"yahoo", "sequential", 7, 64, "1:64:1", "ppn7_seq"},
    {"yahoo", "cyclic", 7, 64, "1:64:1", "ppn7_cyc"},
    {"cervino", "sequential", 16, 64, "1:64:1", "ppn16_seq"},
    {"cervino", "cyclic", 16, 64, "1:64:1", "ppn16_cyc"},
};

// Quartz's nodes are two socket hosts of 18 cores ("socket,node,switch"):
// regions are nodes made of two hosts, and loc_bruck_multilevel has a real
// finer level. ppn 20 sequential: sockets of 18 and 2; ppn 30 cyclic: 3
// nodes of about 21 (sockets of 18 and 3), non-contiguous.
const Layout kSocketLayouts[] = {
    {"quartz", "sequential", 20, 64, "1:64:1", "quartz_ppn20_seq"},
    {"quartz", "cyclic", 30, 64, "1:64:1", "quartz_ppn30_cyc"},
};

const char kSizes[] = "0,1,4099";
const size_t kNsizes = 3;

tw_run_spec spec_for(const char *alg, const Layout &l)
{
    tw_run_spec s = sweep_spec("allgather", alg, l.mapping, kSizes, 900);
    s.platform = l.platform;
    s.ppn = l.ppn;
    s.np = l.np;
    s.np_list = l.np_list;
    return s;
}

class LocalityEveryP : public ::testing::TestWithParam<std::tuple<std::string, Layout>> {};

TEST_P(LocalityEveryP, OutputMatchesTheDefinition)
{
    const std::string alg = std::get<0>(GetParam());
    const Layout &l = std::get<1>(GetParam());
    expect_every_p_ok(spec_for(alg.c_str(), l));
}

std::string param_name(const ::testing::TestParamInfo<LocalityEveryP::ParamType> &info)
{
    std::string s = std::get<0>(info.param) + "_" + std::get<1>(info.param).name;
    for (char &ch : s)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Locality, LocalityEveryP,
                         ::testing::Combine(::testing::Values("loc_bruck", "hierarchical",
                                                              "multilane"),
                                            ::testing::ValuesIn(kLayouts)),
                         param_name);

// (the other algorithms read the same region tables: one is enough here)
INSTANTIATE_TEST_SUITE_P(LocalitySockets, LocalityEveryP,
                         ::testing::Combine(::testing::Values("loc_bruck_multilevel"),
                                            ::testing::ValuesIn(kSocketLayouts)),
                         param_name);

// Without a finer level (Cervino declares "node" only; Yahoo "node,switch")
// the multilevel variant is loc_bruck: the same predicted times, and correct
// output.
TEST(LocalityMultilevel, WithoutFinerLevelIsLocBruck)
{
    for (const Layout &l : {kLayouts[2], kLayouts[7]}) { // Cervino sequential, ppn 5 cyclic
        cs_result *a, *b;
        size_t na, nb;
        char err[4096];
        tw_run_spec s = spec_for("loc_bruck", l);
        s.np_list = "1:64:4";
        ASSERT_EQ(tw_run(&s, &a, &na, err, sizeof err), 0) << err;
        s.alg = "loc_bruck_multilevel";
        ASSERT_EQ(tw_run(&s, &b, &nb, err, sizeof err), 0) << err;
        ASSERT_EQ(na, nb);
        EXPECT_EQ(na, 16u * kNsizes);
        for (size_t i = 0; i < na && i < nb; i++) {
            EXPECT_STREQ(b[i].status, "ok") << l.name << " np " << b[i].np << " " << b[i].note;
            EXPECT_DOUBLE_EQ(a[i].avg_us, b[i].avg_us) << l.name << " np " << a[i].np;
            EXPECT_DOUBLE_EQ(a[i].max_us, b[i].max_us) << l.name << " np " << a[i].np;
        }
        tw_free_rows(a);
        tw_free_rows(b);
    }
}

// Typed data (blocks of several elements: the two-piece datatypes carry
// count x type), MPI_IN_PLACE and messages above the eager limit, on uneven
// regions.
class LocalityVariants : public ::testing::TestWithParam<std::string> {};

TEST_P(LocalityVariants, TypedAndInPlace)
{
    const Layout &l = kLayouts[7]; // ppn 5, cyclic
    tw_run_spec s = spec_for(GetParam().c_str(), l);
    s.dtype = "double";
    s.sizes = "8,1000";
    s.np_list = "1:64:3";
    Checked c = run_checked(s);
    EXPECT_EQ(c.rows, 22u * 2u);
    EXPECT_EQ(c.ok, c.rows) << "double: " << c.first_problem;
    s = spec_for(GetParam().c_str(), kLayouts[6]); // ppn 5, sequential
    s.in_place = 1;
    s.sizes = "1,13";
    s.np_list = "1:64:2";
    c = run_checked(s);
    EXPECT_EQ(c.rows, 32u * 2u);
    EXPECT_EQ(c.ok, c.rows) << "in place: " << c.first_problem;
    // above SMPI's 64 KiB eager limit: sends wait for their receives
    s = spec_for(GetParam().c_str(), kLayouts[7]);
    s.sizes = "65537";
    s.np_list = "1:64:9";
    c = run_checked(s);
    EXPECT_EQ(c.rows, 8u);
    EXPECT_EQ(c.ok, c.rows) << "64 KiB: " << c.first_problem;
}

INSTANTIATE_TEST_SUITE_P(Locality, LocalityVariants,
                         ::testing::Values("loc_bruck", "loc_bruck_multilevel", "hierarchical",
                                           "multilane"));

// The check can fail for these algorithms too: a corrupted byte is named.
TEST(LocalityDataCheck, CatchesACorruptedByte)
{
    tw_run_spec s = spec_for("loc_bruck", kLayouts[7]);
    expect_fault_named(s);
}

// Folding buffers changes memory, not predicted times (np 48, uneven cyclic
// regions: the final permutation and the scratch buffers run on folded memory).
TEST(LocalityFoldMode, SamePredictedTimesAsRealBuffers)
{
    for (const char *alg : {"loc_bruck", "hierarchical", "multilane"})
        expect_fold_same_times(spec_for(alg, kLayouts[7]), "1,1000,65536");
}

// Runs a command, returns its exit status and output.
int run_command(const std::string &cmd, std::string &out)
{
    Out o = run_shell(cmd);
    out += o.text;
    return o.code;
}

// The driver directly (smpirun, the case files of a placement of our own): --region picks the
// level of the platform's provider. Yahoo declares "node,switch": with
// --region switch the regions are the two leaf switches (5 and 11 nodes, so
// uneven), and loc_bruck_multilevel's finer level is the node. An unknown
// level is an error naming the valid ones.
std::string driver_run(const std::vector<int> &node_of_rank, const std::string &args, int *status)
{
    char dir[256];
    std::string out;
    if (tw_tempdir(dir, sizeof dir)) {
        *status = -1;
        return "no temporary directory";
    }
    const std::string hosts = std::string(dir) + "/hosts", loc = std::string(dir) + "/locality";
    char err[1024];
    if (tw_case_files("yahoo", nullptr, int(node_of_rank.size()), 0, node_of_rank.data(),
                      hosts.c_str(), loc.c_str(), err, sizeof err)) {
        *status = -1;
        tw_rmtree(dir);
        return err;
    }
    *status = run_command("timeout 600 smpirun -np " + std::to_string(node_of_rank.size()) +
                              " -platform " COLLSIM_PLATFORM_DIR "/yahoo.xml -hostfile " + hosts +
                              " --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no"
                              " --cfg=contexts/stack-size:256 --log=root.thresh:warning "
                              COLLSIM_DRIVER_PATH " --coll allgather --sizes 1,4099 --iters 1"
                              " --locality " + loc + " " + args,
                          out);
    tw_rmtree(dir);
    return out;
}

TEST(LocalityRegionOption, SwitchRegionsAndAnUnknownLevel)
{
    std::vector<int> seq(64), cyc(64);
    for (int r = 0; r < 64; r++) {
        seq[r] = r / 8;
        cyc[r] = r % 16;
    }
    // every p to 32, then a few (the locality sweeps above check every p of the default region)
    std::string nps = "1";
    for (int p = 2; p <= 64; p++)
        if (p <= 32 || p == 37 || p == 48 || p == 63 || p == 64)
            nps += "," + std::to_string(p);
    for (const auto &map : {seq, cyc})
        for (const char *alg : {"loc_bruck_multilevel", "multilane"}) {
            int status;
            std::string out = driver_run(map, std::string("--alg ") + alg + " --region switch" +
                                                  " --np-list " + nps, &status);
            EXPECT_EQ(status, 0) << alg << ": " << out;
            size_t pass = 0;
            for (size_t at = out.find(" Pass"); at != std::string::npos; at = out.find(" Pass", at + 1))
                pass++;
            EXPECT_EQ(pass, 2u * 36) << alg << ": " << out; // two sizes of 36 p
            EXPECT_EQ(out.find("FAIL"), std::string::npos) << alg << ": " << out;
        }
    int status;
    std::string out = driver_run(seq, "--alg loc_bruck --region rack", &status);
    EXPECT_NE(status, 0);
    EXPECT_NE(out.find("unknown --region 'rack' (valid: node, switch)"), std::string::npos) << out;
}

// tests/locality_unit.c under smpirun: 64 ranks on Yahoo hosts dealt
// unevenly and non-contiguously (for the default provider's regions).
TEST(LocalityUnit, SplitCachingTwoLevelProviderAndRankMap)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string hosts = std::string(dir) + "/hosts";
    FILE *f = fopen(hosts.c_str(), "w");
    ASSERT_NE(f, nullptr);
    for (int w = 0; w < 64; w++)
        fprintf(f, "node-%d\n", w < 52 ? (w * 7) % 13 : w % 16);
    fclose(f);
    const std::string cmd = "timeout 900 smpirun -np 64 -platform " COLLSIM_PLATFORM_DIR
                            "/yahoo.xml -hostfile " + hosts +
                            " --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no"
                            " --cfg=contexts/stack-size:256 --log=root.thresh:warning "
                            COLLSIM_LOCALITY_UNIT;
    std::string out;
    const int status = run_command(cmd, out);
    tw_rmtree(dir);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("locality_unit: "), std::string::npos) << out;
    EXPECT_NE(out.find(" checks, 0 failed"), std::string::npos) << out;
    EXPECT_EQ(out.find("FAIL"), std::string::npos) << out;
}

} // namespace
