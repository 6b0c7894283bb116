// Gather and scatter beyond their data: Kandalla et al.'s cost models by
// hand and replayed against the simulation, the recorded regions and
// placement, the report's Kandalla section and three metrics, and --root
// on the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli.h"
#include "wrapper.h"

extern "C" {
#include "fits.h"
#include "registry.h"
#include "rooted_util.h"
}

namespace {

// ---- models ----
cs_cost_params two_levels(double a_l, double b_l, double a, double b, int ppn)
{
    cs_hockney net = {a, b};
    cs_cost_params c = cs_cost_params_hockney(&net);
    c.local.eager = c.local.rdv = cs_hockney{a_l, b_l};
    c.ppn = ppn;
    return c;
}

// K2 as a replay at p = 8 in regions of 4, root 0: steps 1 and 2 local
// (1 and 2 blocks), step 4 non-local (4 blocks). K4: one leader step of 4
// blocks after a binomial in a region of 4. K3/K4/K5 as docs/papers.md,
// "Kandalla: the cost model K1-K5", reads Kandalla et al. 2010 Sec. 4.1, 4.2.
TEST(RootedModels, KandallaFormulasByHand)
{
    const double al = 1e-6, bl = 1e-9, a = 3e-6, b = 4e-9;
    const long N = 100;
    cs_cost_params c = two_levels(al, bl, a, b, 4);
    EXPECT_NEAR(cs_cost_predict_params("gather", "binomial", 8, N, &c),
                (al + N * bl) + (al + 2 * N * bl) + (a + 4 * N * b), 1e-18);
    EXPECT_NEAR(cs_cost_predict_params("scatter", "binomial", 8, N, &c),
                (al + N * bl) + (al + 2 * N * bl) + (a + 4 * N * b), 1e-18);
    EXPECT_NEAR(cs_cost_predict_params("gather", "topo_aware", 8, N, &c),
                (al + N * bl) + (al + 2 * N * bl) + (a + 4 * N * b), 1e-18);
    EXPECT_NEAR(cs_cost_predict_params("gather", "linear", 8, N, &c), a + 3 * N * bl + 4 * N * b,
                1e-18);
    // p = 296 in switches of 64 (R = 5, the last of 40): leader steps of 1,
    // 2 and 1 switches' blocks, i.e. 64, 128 and 40 ranks' (232 = p - 64)
    cs_cost_params t = two_levels(al, bl, a, b, 64);
    double intra = 0;
    for (int m = 1; m < 64; m <<= 1)
        intra += al + std::min(m, 64 - m) * N * bl;
    EXPECT_NEAR(cs_cost_predict_params("gather", "topo_aware", 296, N, &t),
                intra + (a + 64 * N * b) + (a + 128 * N * b) + (a + 40 * N * b), 1e-15);
    cs_kandalla k = cs_kandalla_models(296, N, &t);
    EXPECT_EQ(k.R, 5);
    EXPECT_EQ(k.c_local, 6); // masks 1..32
    EXPECT_EQ(k.c3, 3);      // masks 64, 128, 256
    EXPECT_NEAR(k.c3_delta, (64 + 128 + 40) / 296.0, 1e-15);
    EXPECT_NEAR(k.k3, 3 * a + 232 * N * b, 1e-15);
    // K4's (1 - 1/R) M: the bytes that leave the other regions, 232 N
    EXPECT_NEAR(k.k4, 3 * a + 232 * N * b, 1e-15);
    EXPECT_NEAR(k.k5, k.k3 / k.k4, 1e-12);
    EXPECT_DOUBLE_EQ(k.k2, cs_cost_predict_params("gather", "binomial", 296, N, &t));
    // one level (ppn unknown): MPICH's ceil(log2 p) α + (p-1) N β; topo_aware needs p_ℓ
    EXPECT_NEAR(tw_cost("gather", "binomial", 296, N, a, b), 9 * a + 295 * N * b, 1e-15);
    EXPECT_TRUE(std::isnan(tw_cost("gather", "topo_aware", 296, N, a, b)));
    EXPECT_EQ(tw_cost("gather", "binomial", 1, N, a, b), 0.0);
}

// The regions a case recorded (its placement column) instead of blocks of p_ℓ: Kandalla's testbed
// with switch A's 64 ranks and B's 232, contiguous (R = 2: one leader step of 232 blocks) and
// dealt node by node over the 33 nodes (placement (iii): 7 of the root's 9 steps cross the
// switches), and from a root on switch B.
TEST(RootedModels, TheRecordedRegionsGiveC3AndR)
{
    const double al = 1e-6, bl = 1e-9, a = 3e-6, b = 4e-9;
    const long N = 100;
    cs_cost_params c = two_levels(al, bl, a, b, 0);
    std::vector<int> reg(296);
    char text[512], err[2048], level[32];
    ASSERT_EQ(tw_placement("kandalla-testbed", "sequential", 296, 0, nullptr, text, sizeof text, err,
                           sizeof err), 0) << err;
    ASSERT_EQ(cs_placement_regions(text, "switch", 296, reg.data(), level, sizeof level), 0) << text;
    EXPECT_STREQ(level, "switch");
    c.region_of = reg.data();
    cs_kandalla k = cs_kandalla_models(296, N, &c);
    EXPECT_EQ(k.R, 2);
    EXPECT_EQ(k.c_local, 6);
    EXPECT_EQ(k.c3, 3);
    EXPECT_NEAR(k.c3_delta, (64 + 128 + 40) / 296.0, 1e-15);
    EXPECT_NEAR(k.k3, 3 * a + 232 * N * b, 1e-15);
    EXPECT_NEAR(k.k4, a + 232 * N * b, 1e-15);
    double intra = 0; // the binomial inside B, the larger switch, then one step of B's blocks
    for (int m = 1; m < 232; m <<= 1)
        intra += al + std::min(m, 232 - m) * N * bl;
    EXPECT_NEAR(cs_cost_predict_params("gather", "topo_aware", 296, N, &c), intra + a + 232 * N * b,
                1e-15);
    // node by node over the 33 nodes: ranks 0..3 on A, 4..32 on B, 33..36 on A, ...; after 8
    // rounds B's nodes are full and ranks 264..295 go to A
    ASSERT_EQ(tw_placement("kandalla-testbed", "cyclic", 296, 0, "node-0..3+node-4..32", text,
                           sizeof text, err, sizeof err), 0) << err;
    EXPECT_EQ(std::string(text), "switch:0x4 1x29 0x4 1x29 0x4 1x29 0x4 1x29 0x4 1x29 0x4 1x29 0x4 "
                                 "1x29 0x4 1x29 0x32");
    ASSERT_EQ(cs_placement_regions(text, nullptr, 296, reg.data(), level, sizeof level), 0);
    k = cs_kandalla_models(296, N, &c);
    EXPECT_EQ(k.R, 2);
    EXPECT_EQ(k.c_local, 2); // masks 1, 2 (ranks 1, 2 on A)
    EXPECT_EQ(k.c3, 7);
    EXPECT_NEAR(k.c3_delta, (4 + 8 + 16 + 32 + 64 + 128 + 40) / 296.0, 1e-15);
    EXPECT_NEAR(k.k3, 7 * a + 292 * N * b, 1e-15);
    EXPECT_NEAR(k.k4, a + 232 * N * b, 1e-15);
    EXPECT_NEAR(k.k5, k.k3 / k.k4, 1e-12);
    // root 4 (B): partners 5, 6, 8, 12, 20 (B), 36, 68, 132 (A), 260 (B); A's 64 ranks outside
    c.root = 4;
    k = cs_kandalla_models(296, N, &c);
    EXPECT_EQ(k.c3, 3);
    EXPECT_NEAR(k.c3_delta, (32 + 64 + 128) / 296.0, 1e-15);
    EXPECT_NEAR(k.k4, a + 64 * N * b, 1e-15);
    EXPECT_NEAR(cs_cost_predict_params("gather", "binomial", 296, N, &c),
                (al + N * bl) + (al + 2 * N * bl) + (al + 4 * N * bl) + (al + 8 * N * bl) +
                    (al + 16 * N * bl) + (a + 32 * N * b) + (a + 64 * N * b) + (a + 128 * N * b) +
                    (al + 40 * N * bl),
                1e-15);
    // a column of another np, or without the level: not these regions
    EXPECT_EQ(cs_placement_regions(text, "switch", 295, reg.data(), nullptr, 0), -1);
    EXPECT_EQ(cs_placement_regions(text, "switch", 297, reg.data(), nullptr, 0), -1);
    EXPECT_EQ(cs_placement_regions(text, "node", 296, reg.data(), nullptr, 0), -1);
    EXPECT_EQ(cs_placement_regions("", nullptr, 296, reg.data(), nullptr, 0), -1);
}

// The placement column: every level at or above the node, coarsest first; a level too long to
// record (296 ranks dealt over nodes: 296 runs) is left out with the finer ones.
TEST(RootedModels, ThePlacementColumnRecordsEveryLevelThatFits)
{
    char text[512], err[2048];
    ASSERT_EQ(tw_placement("ranger", "sequential", 2, 1, "node-0+node-96", text, sizeof text, err,
                           sizeof err), 0) << err;
    EXPECT_STREQ(text, "linecard:0 1; rack:0 1; chassis:0 1; node:0 1");
    ASSERT_EQ(tw_placement("ranger", "sequential", 2, 1, "node-0+node-1", text, sizeof text, err,
                           sizeof err), 0) << err;
    EXPECT_STREQ(text, "linecard:0x2; rack:0x2; chassis:0x2; node:0 1");
    ASSERT_EQ(tw_placement("kandalla-testbed", "sequential", 296, 0, nullptr, text, sizeof text, err,
                           sizeof err), 0) << err;
    std::string t = text;
    EXPECT_EQ(t.rfind("switch:0x64 1x232; node:0x16 1x16 2x16 3x16 4x8 5x8 ", 0), 0u) << t;
    EXPECT_NE(t.find(" 32x8"), std::string::npos) << t;
    std::vector<int> reg(296);
    ASSERT_EQ(cs_placement_regions(text, "node", 296, reg.data(), nullptr, 0), 0);
    EXPECT_EQ(reg[63], 3);
    EXPECT_EQ(reg[64], 4);
    EXPECT_EQ(reg[295], 32);
    // quartz: sockets are hosts, finer than the node: not recorded
    ASSERT_EQ(tw_placement("quartz", "sequential", 72, 0, nullptr, text, sizeof text, err,
                           sizeof err), 0) << err;
    EXPECT_STREQ(text, "switch:0x72; node:0x36 1x36");
}

// The replays against the simulation on kandalla-testbed, 296 ranks, switch
// A's 64 first (sequential), root 0, levels from simulated ping-pongs: the
// binomial's root within 5% of K2's replay (regions of 64: its steps below 64
// stay in A), the linear gather within 7% of its model; K3, a lower bound of
// the binomial, below the simulated time.
TEST(RootedModels, ReplaysWithinAFewPercentOfTheSimulation)
{
    double al, bl, a, b, worst;
    char err[2048];
    ASSERT_EQ(tw_postal("kandalla-testbed", "node-0", "node-1", &al, &bl, &worst, err, sizeof err), 0)
        << err;
    ASSERT_EQ(tw_postal("kandalla-testbed", "node-0", "node-4", &a, &b, &worst, err, sizeof err), 0)
        << err;
    EXPECT_LT(al, a); // K1: intra-switch start-ups below inter-switch ones
    cs_cost_params c = two_levels(al, bl, a, b, 64);
    for (const char *alg : {"binomial", "linear"}) {
        tw_run_spec s = bench_spec(std::string("gather/") + alg, "sequential");
        s.np = 296;
        s.np_list = nullptr;
        s.model = "network"; // the replays are alpha-beta models of the network alone
        s.root = 0;
        s.sizes = "1024,65536";
        s.dtype = "byte";
        s.fold = 1;
        cs_result *rows = nullptr;
        size_t n = 0;
        ASSERT_EQ(tw_run(&s, &rows, &n, err, sizeof err), 0) << err;
        ASSERT_EQ(n, 2u);
        for (size_t i = 0; i < n; i++) {
            const double model = cs_cost_predict_params("gather", alg, 296, rows[i].bytes, &c) * 1e6;
            EXPECT_NEAR(rows[i].root_us / model, 1.0, std::string(alg) == "linear" ? 0.07 : 0.05)
                << alg << " " << rows[i].bytes << " B: simulated " << rows[i].root_us
                << " us, model " << model << " us";
            if (std::string(alg) == "binomial") {
                EXPECT_LT(cs_kandalla_models(296, rows[i].bytes, &c).k3 * 1e6, rows[i].root_us);
            }
        }
        tw_free_rows(rows);
    }
}

// ---- results and report ----
// The new columns round-trip; a file without them reads them as -1 ("not
// measured"); the report shows the three metrics of gather and scatter only.
// The report's Kandalla section: K3, K4 and K5 from the platform's fitted α, β (platforms.csv
// beside the results) and the regions each case recorded (placement), beside both algorithms'
// simulated completion and their ratios; a case without a placement says so.
TEST(RootedReport, KandallaSectionPrintsK3ToK5WithTheCasesRegions)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::vector<cs_result> rows;
    for (int np : {64, 296})
        for (const char *alg : {"binomial", "topo_aware"}) {
            cs_result r;
            cs_result_init(&r);
            snprintf(r.platform, sizeof r.platform, "kandalla-testbed");
            snprintf(r.mapping, sizeof r.mapping, "sequential");
            snprintf(r.collective, sizeof r.collective, "gather");
            snprintf(r.algorithm, sizeof r.algorithm, "%s", alg);
            snprintf(r.region, sizeof r.region, "%s", alg[0] == 't' ? "switch" : "");
            snprintf(r.dtype, sizeof r.dtype, "byte");
            snprintf(r.mode, sizeof r.mode, "fold");
            snprintf(r.status, sizeof r.status, "ok");
            if (np == 296) // 64 on switch A, 232 on B (np 64: an older row, none recorded)
                snprintf(r.placement, sizeof r.placement, "switch:0x64 1x232; node:0x16");
            r.np = np;
            r.bytes = 1024;
            r.iterations = 2;
            r.avg_us = alg[0] == 't' ? 40 : 60;
            r.min_us = 1;
            r.max_us = r.call_max_us = r.root_us = alg[0] == 't' ? 300 : 200;
            rows.push_back(r);
        }
    const std::string path = std::string(dir) + "/results.csv";
    cs_err e;
    ASSERT_EQ(cs_results_write_file(path.c_str(), rows.data(), rows.size(), &e), 0) << e.msg;
    cs_platform_fit fit = {};
    snprintf(fit.platform, sizeof fit.platform, "kandalla-testbed");
    fit.measured = fit.has_inter = 1;
    fit.intra.h = {0.4e-6, 0.5e-9};
    fit.inter.h = {2.4e-6, 1 / 1.5e9};
    snprintf(fit.intra.node_a, sizeof fit.intra.node_a, "node-0");
    snprintf(fit.intra.node_b, sizeof fit.intra.node_b, "node-0");
    snprintf(fit.inter.node_a, sizeof fit.inter.node_a, "node-0");
    snprintf(fit.inter.node_b, sizeof fit.inter.node_b, "node-39");
    ASSERT_EQ(cs_fits_write((std::string(dir) + "/platforms.csv").c_str(), &fit, 1, &e), 0) << e.msg;
    char md[1024], err[2048];
    ASSERT_EQ(tw_report(path.c_str(), (std::string(dir) + "/report").c_str(), nullptr, nullptr, md,
                        sizeof md, err, sizeof err), 0) << err;
    std::ifstream in(md);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("## Kandalla et al.: K3, K4 and K5 beside the simulation"), std::string::npos)
        << text;
    // the formulas' reading is in the repository, with the paper's sections
    EXPECT_NE(text.find("(Kandalla et al. 2010 Sec. 4.1 and 4.2, typos fixed as docs/papers.md, "
                        "\"Kandalla: the cost model K1-K5\", reads them)"),
              std::string::npos) << text;
    // C3 = 3 (masks 64, 128, 256), C3 δ = 232/296; K3 = 3 α + 232 N β, K4 = α + 232 N β
    const double a = 2.4, x = 232 * 1024 / 1500.0;
    char want[256];
    snprintf(want, sizeof want, "| 296 | 1K | switch | 2 | 3 | 0.784 | %.2f | %.2f | %.2f | 200.00 | "
                                "300.00 | 0.67 | 1.50 | yes |",
             3 * a + x, a + x, (3 * a + x) / (a + x));
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
    EXPECT_NE(text.find("| 64 | 1K | - | - | - | - | - | - | - | 200.00 | 300.00 | 0.67 | 1.50 | "
                        "placement not recorded |"),
              std::string::npos) << text;
    EXPECT_NE(text.find("Both bounds hold in 1 of 1 cases."), std::string::npos) << text;
    tw_rmtree(dir);
}

TEST(RootedReport, ColumnsRoundTripAndTheReportShowsTheThreeMetrics)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::vector<cs_result> rows;
    const char *algs[] = {"binomial", "topo_aware"};
    for (int a = 0; a < 2; a++)
        for (long bytes : {8L, 1024L}) {
            cs_result r;
            cs_result_init(&r);
            snprintf(r.platform, sizeof r.platform, "kandalla-testbed");
            snprintf(r.mapping, sizeof r.mapping, "sequential");
            snprintf(r.collective, sizeof r.collective, "gather");
            snprintf(r.algorithm, sizeof r.algorithm, "%s", algs[a]);
            snprintf(r.dtype, sizeof r.dtype, "byte");
            snprintf(r.mode, sizeof r.mode, "check");
            snprintf(r.status, sizeof r.status, "ok");
            r.np = 296;
            r.root = 3;
            r.bytes = bytes;
            r.iterations = 2;
            r.avg_us = 10 + a + bytes / 1000.0;
            r.min_us = 1;
            r.max_us = 50 + a;
            r.call_max_us = 51.25 + a;
            r.root_us = 49.5 + a;
            rows.push_back(r);
        }
    const std::string path = std::string(dir) + "/results.csv";
    cs_err e;
    ASSERT_EQ(cs_results_write_file(path.c_str(), rows.data(), rows.size(), &e), 0) << e.msg;
    cs_result *back = nullptr;
    size_t n = 0;
    char err[2048];
    ASSERT_EQ(tw_read_results(path.c_str(), &back, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 4u);
    EXPECT_EQ(back[0].root, 3);
    EXPECT_EQ(back[1].call_max_us, 51.25);
    EXPECT_EQ(back[1].root_us, 49.5);
    tw_free_rows(back);
    // an old file: the columns up to status only
    const std::string old = std::string(dir) + "/old.csv";
    FILE *f = fopen(old.c_str(), "w");
    ASSERT_TRUE(f);
    fprintf(f, "platform,mapping,np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
               "iterations,status\nyahoo,cyclic,4,allgather,ring,byte,check,8,1,1,1,1,ok\n");
    fclose(f);
    ASSERT_EQ(tw_read_results(old.c_str(), &back, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(back[0].root, 0);
    EXPECT_EQ(back[0].call_max_us, -1);
    EXPECT_EQ(back[0].root_us, -1);
    tw_free_rows(back);
    char md[1024];
    ASSERT_EQ(tw_report(path.c_str(), (std::string(dir) + "/report").c_str(), nullptr, nullptr, md,
                        sizeof md, err, sizeof err), 0) << err;
    std::ifstream in(md);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("## Gather and scatter: three metrics"), std::string::npos) << text;
    EXPECT_NE(text.find("### kandalla-testbed, sequential mapping, root 3, gather"), std::string::npos);
    EXPECT_NE(text.find("| 296 | 1K | topo_aware | 12.02 | 52.25 | 50.50 |"), std::string::npos)
        << text;
    ASSERT_EQ(tw_report(old.c_str(), (std::string(dir) + "/r2").c_str(), nullptr, nullptr, md,
                        sizeof md, err, sizeof err), 0) << err;
    std::ifstream in2(md);
    std::string text2((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text2.find("three metrics"), std::string::npos);
    tw_rmtree(dir);
}

// ---- the CLI ----
TEST(RootedCli, RootIsCheckedAndOnlyForRootedCollectives)
{
    Out o = cli("bench --platform yahoo --np 8 --coll gather --alg binomial --root 8 --sizes 4");
    EXPECT_NE(o.code, 0);
    EXPECT_NE(o.text.find("--root 8 at 8 processes: the root must be a rank, 0..7"),
              std::string::npos) << o.text;
    o = cli("bench --platform yahoo --np 8 --coll allgather --alg ring --root 1 --sizes 4");
    EXPECT_NE(o.code, 0);
    EXPECT_NE(o.text.find("gather, scatter"), std::string::npos) << o.text;
    o = cli("bench --platform yahoo --np 8 --coll gather --alg binomial --root -1 --sizes 4");
    EXPECT_NE(o.code, 0);
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    struct {
        const char *coll, *nps, *want;
    } scen[] = {{"allgather", "4", "s.xml:6: <root rank> is for gather, scatter, bcast, reduce, and the "
                                    "scenario has none of them: remove it or add such a collective"},
                {"gather", "4 8", "<root rank=\"5\"> at <processes> 4: the root must be a rank, "
                                  "0..3"}};
    for (auto &c : scen) {
        const std::string path = std::string(dir) + "/s.xml";
        FILE *f = fopen(path.c_str(), "w");
        ASSERT_TRUE(f);
        fprintf(f, "<scenario>\n  <platform name=\"yahoo\"/>\n  <mappings>cyclic</mappings>\n"
                   "  <processes>%s</processes>\n  <collective name=\"%s\"><algorithms>%s"
                   "</algorithms></collective>\n  <root rank=\"5\"/>\n  <sizes>8</sizes>\n"
                   "</scenario>\n", c.nps, c.coll, c.coll[0] == 'g' ? "binomial" : "ring");
        fclose(f);
        long ncases;
        char err[2048] = "";
        EXPECT_EQ(tw_scenario(path.c_str(), &ncases, err, sizeof err), -1) << c.coll;
        EXPECT_NE(std::string(err).find(c.want), std::string::npos) << err;
    }
    tw_rmtree(dir);
    o = cli("list algorithms");
    EXPECT_NE(o.text.find("gather/topo_aware "), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("scatter/native:{default,ompi_basic_linear"), std::string::npos);
}

} // namespace
