// The report of real runs and its options: baseline and focus, a tiny run
// with the ring model on one node, the what-if section of variant runs,
// and one-line command-line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include "cli.h"
#include "wrapper.h"
#include "report_util.h"

namespace {

TEST(Report, BaselineAndFocusOptionsAndTheirErrors)
{
    char dir[256], md[1024], err[2048];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string results = write_results(dir), out = std::string(dir) + "/r";
    ASSERT_EQ(tw_report(results.c_str(), out.c_str(), "allgather/bruck", "ring", md, sizeof md, err,
                        sizeof err), 0) << err;
    std::string text = slurp(md);
    EXPECT_TRUE(has(text, "## Improvement of bruck over the second best"));
    EXPECT_TRUE(has(text, "Speedup = T(ring) / T(bruck)"));
    // cyclic: bruck 5 us against 10 us everywhere: 50 % in all 6 cases
    EXPECT_TRUE(has(text, "| cyclic | yahoo | Min | 6 / 6 (100.0%) | 50.00 | 50.00 | 50.00 |")) << text;

    EXPECT_EQ(tw_report(results.c_str(), out.c_str(), "sparbitt", NULL, md, sizeof md, err, sizeof err), -1);
    EXPECT_TRUE(has(err, "--focus 'sparbitt' is not an algorithm of")) << err;
    EXPECT_TRUE(has(err, "valid: bruck, native:ompi, recursive_doubling, ring, sparbit")) << err;
    EXPECT_EQ(tw_report(results.c_str(), out.c_str(), "sparbit", "sparbit", md, sizeof md, err, sizeof err), -1);
    EXPECT_TRUE(has(err, "is the focus algorithm")) << err;
    tw_rmtree(dir);
}

// A tiny real sweep: ring and sparbit on Yahoo, 4 and 8 ranks on node-0
// (sequential mapping, 8 cores per node), 3 sizes. On one node every message
// is intra-node and nothing contends (the loopback is a fat pipe), so the
// ring's simulated time is its Hockney model with the intra-node pair.
TEST(Report, TinyRealRunAndTheRingModelOnOneNode)
{
    char dir[256], md[1024], err[4096];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string scenario = std::string(dir) + "/tiny.xml", out = std::string(dir) + "/out";
    FILE *f = fopen(scenario.c_str(), "w");
    fputs("<?xml version=\"1.0\"?>\n<scenario name=\"tiny\">\n  <platform name=\"yahoo\"/>\n"
          "  <mappings>sequential</mappings>\n  <processes>4 8</processes>\n"
          "  <collective name=\"allgather\"><algorithms>ring sparbit</algorithms></collective>\n"
          "  <sizes>1 1K 64K</sizes>\n  <iterations warmup=\"1\" timed=\"2\"/>\n"
          "  <models>network</models>\n</scenario>\n", f); /* the ring's alpha-beta model */
    fclose(f);
    ASSERT_EQ(tw_run_scenario(scenario.c_str(), out.c_str(), 2, NULL, err, sizeof err), 0) << err;
    std::string results = out + "/results.csv";
    ASSERT_EQ(tw_report(results.c_str(), NULL, NULL, NULL, md, sizeof md, err, sizeof err), 0) << err;
    std::string text = slurp(md);
    EXPECT_TRUE(has(text, "None: every row has status ok.")) << text;
    EXPECT_TRUE(has(text, "| yahoo | sequential | 6 |")) << text;
    EXPECT_EQ(check_figures(out + "/report", text), 5); // heat map, speedup, 2 latency, model

    double alpha, beta, worst;
    ASSERT_EQ(tw_postal("yahoo", "node-0", "node-0", &alpha, &beta, &worst, err, sizeof err), 0) << err;
    // run wrote the fits beside the results, bit for bit what a ping-pong gives
    std::string fits = slurp(out + "/platforms.csv");
    EXPECT_EQ(fits.substr(0, fits.find('\n')),
              "platform,status,intra_node,intra_alpha_s,intra_beta_s_per_byte,intra_max_rel_residual,"
              "inter_node_a,inter_node_b,inter_alpha_s,inter_beta_s_per_byte,inter_max_rel_residual,note,"
              "copy_call_s,copy_bw,reduce_bw");
    // and the platform's local-work costs as yahoo.xml writes them (copies, and the
    // reductions' gamma)
    EXPECT_TRUE(has(fits, ",8e-9,0:3.7e10;32768:1.2e10;2097152:6.0e8,"
                          "0:2.2e10;32768:1.2e10;2097152:6.0e8\n"))
        << fits;
    char fit_row[256];
    snprintf(fit_row, sizeof fit_row, "\nyahoo,ok,node-0,%.17g,%.17g,", alpha, beta);
    EXPECT_TRUE(has(fits, fit_row)) << fits;
    EXPECT_TRUE(has(fits, ",node-0,node-15,")) << fits;
    cs_result *rows;
    size_t n;
    ASSERT_EQ(tw_read_results(results.c_str(), &rows, &n, err, sizeof err), 0) << err;
    int checked = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].algorithm, "ring") && rows[i].np == 8) {
            double model_us = tw_cost("allgather", "ring", 8, rows[i].bytes, alpha, beta) * 1e6;
            EXPECT_NEAR(rows[i].avg_us, model_us, 0.02 * model_us) << rows[i].bytes << " bytes";
            checked++;
        }
    EXPECT_EQ(checked, 3);
    tw_free_rows(rows);
    tw_rmtree(dir);
}

// The cells of the markdown table row that starts with `start`, or none.
std::vector<std::string> row_cells(const std::string &text, const std::string &start)
{
    std::vector<std::string> cells;
    size_t at = text.find("\n" + start);
    if (at == std::string::npos)
        return cells;
    std::string row = text.substr(at + 3, text.find('\n', at + 1) - at - 3); // after "\n| "
    for (size_t b = 0, e; (e = row.find(" |", b)) != std::string::npos; b = e + 3)
        cells.push_back(row.substr(b, e - b));
    return cells;
}

// A real what-if run: Bruck, 48 ranks in sequence (nodes 0-4 on leaf A, node 5
// on leaf B), Yahoo's uplinks at 0.01x, 1x, 10x. The report compares the
// variants and measures alpha/beta on each variant's own file.
TEST(Report, WhatIfSectionOfARealVariantRun)
{
    char dir[256], md[1024], err[4096];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string scenario = std::string(dir) + "/whatif.xml", out = std::string(dir) + "/out";
    FILE *f = fopen(scenario.c_str(), "w");
    fputs("<?xml version=\"1.0\"?>\n<scenario name=\"w\">\n  <platform name=\"yahoo\"/>\n"
          "  <vary level=\"uplinks\" factors=\"0.01 1 10\"/>\n  <mappings>sequential</mappings>\n"
          "  <processes>48</processes>\n"
          "  <collective name=\"allgather\"><algorithms>bruck</algorithms></collective>\n"
          "  <sizes>64K</sizes>\n  <iterations warmup=\"0\" timed=\"1\"/>\n"
          "  <buffers mode=\"fold\"/>\n</scenario>\n", f);
    fclose(f);
    ASSERT_EQ(tw_run_scenario(scenario.c_str(), out.c_str(), 2, NULL, err, sizeof err), 0) << err;
    ASSERT_EQ(tw_report((out + "/results.csv").c_str(), NULL, NULL, NULL, md, sizeof md, err,
                        sizeof err), 0) << err;
    std::string text = slurp(md);
    size_t sec = text.find("## What-if: platform variants");
    ASSERT_NE(sec, std::string::npos) << text;
    std::string whatif = text.substr(sec, text.find("\n## ", sec + 1) - sec);
    EXPECT_TRUE(has(whatif, "### yahoo, uplinks.bandwidth varied, sequential mapping")) << whatif;
    EXPECT_TRUE(has(whatif, "Values: x0.01, x1, x10; reference: x1.")) << whatif;
    // table rows in the parameter's order: size, value, best, bruck time, change
    size_t slow = whatif.find("| 64K | x0.01 |"), ref = whatif.find("| 64K | x1 |"),
           fast = whatif.find("| 64K | x10 |");
    ASSERT_TRUE(slow != std::string::npos && ref != std::string::npos && fast != std::string::npos)
        << whatif;
    EXPECT_LT(slow, ref);
    EXPECT_LT(ref, fast);
    std::vector<std::string> s = row_cells(whatif, "| 64K | x0.01 |"), r = row_cells(whatif, "| 64K | x1 |"),
                             q = row_cells(whatif, "| 64K | x10 |");
    ASSERT_EQ(s.size(), 5u) << whatif;
    ASSERT_EQ(r.size(), 5u);
    ASSERT_EQ(q.size(), 5u);
    EXPECT_EQ(r[4], "ref");
    // the slow uplinks carry the traffic between the leaves: far slower
    EXPECT_GT(std::stod(s[4]), 100.0) << whatif;
    EXPECT_NEAR(std::stod(s[4]), 100 * (std::stod(s[3]) / std::stod(r[3]) - 1), 0.1);
    EXPECT_LE(std::stod(q[4]), 0.0);

    // alpha/beta measured on each variant's file: at 0.01x the uplink (94 Mbps)
    // is slower than a node link (941 Mbps), so the pair across leaves sees it
    EXPECT_FALSE(has(text, "not measured")) << text;
    std::vector<std::string> slow_pair = row_cells(text, "| yahoo@uplinks.bandwidth=x0.01 | inter-node |"),
                             ref_pair = row_cells(text, "| yahoo@uplinks.bandwidth=x1 | inter-node |");
    ASSERT_EQ(slow_pair.size(), 7u) << text;
    ASSERT_EQ(ref_pair.size(), 7u) << text;
    EXPECT_NEAR(std::stod(ref_pair[5]), 941.48 / 8, 0.1);
    EXPECT_NEAR(std::stod(slow_pair[5]), 94.148 / 8, 0.1);

    // three variants are few enough for their own sections: 3 x (heat map,
    // latency, model) and one what-if figure
    std::string fig = "figures/whatif-yahoo_uplinks.bandwidth-allgather-sequential-np48-64K.png";
    EXPECT_TRUE(has(whatif, "](" + fig + ")")) << whatif;
    EXPECT_TRUE(has(text, "## yahoo@uplinks.bandwidth=x10, sequential mapping"));
    EXPECT_EQ(check_figures(out + "/report", text), 10);
    tw_rmtree(dir);
}

// Many values (cores per node, set rather than multiplied, written out of
// order): numeric order, the first value as the reference, and per-platform
// sections for the reference only. Times: bruck 100, 80, 60, 50 us at 4, 8, 16,
// 32 cores; ring 120 us, but 3e-11 us from bruck at 16 cores: a tie.
TEST(Report, ManyVariantsShowOnlyTheReferenceOutsideTheWhatIfSection)
{
    char dir[256], md[1024], err[2048];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string results = std::string(dir) + "/results.csv";
    FILE *f = fopen(results.c_str(), "w");
    fprintf(f, "platform,mapping,np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
               "iterations,status,note\n");
    const int cores[] = {16, 4, 32, 8};
    const double bruck[] = {60, 100, 50, 80};
    for (int i = 0; i < 4; i++)
        for (const char *alg : {"bruck", "ring"}) {
            double t = alg[0] == 'b' ? bruck[i] : cores[i] == 16 ? 60.00000000003 : 120;
            fprintf(f, "yahoo@cores=%d,sequential,8,allgather,%s,byte,fold,65536,%.14g,%.14g,%.14g,"
                       "1,ok,\n", cores[i], alg, t, t, t);
        }
    fclose(f);
    ASSERT_EQ(tw_report(results.c_str(), NULL, NULL, NULL, md, sizeof md, err, sizeof err), 0) << err;
    std::string text = slurp(md);
    EXPECT_TRUE(has(text, "### yahoo, cores varied, sequential mapping")) << text;
    EXPECT_TRUE(has(text, "Values: 4, 8, 16, 32; reference: 4.")) << text;
    EXPECT_TRUE(has(text, "| 64K | 4 | bruck | 100.00 | ref | 120.00 | ref |")) << text;
    EXPECT_TRUE(has(text, "| 64K | 8 | bruck | 80.00 | -20.0 | 120.00 | +0.0 |")) << text;
    EXPECT_TRUE(has(text, "| 64K | 16 | bruck=ring | 60.00 | -40.0 | 60.00 | -50.0 |")) << text;
    EXPECT_TRUE(has(text, "| 64K | 32 | bruck | 50.00 | -50.0 | 120.00 | +0.0 |")) << text;
    EXPECT_TRUE(has(text, "Largest speedup against the reference: -50.0 % (bruck, 8 processes, 64K, 32).")) << text;
    EXPECT_TRUE(has(text, "show only their reference variant")) << text;
    // the summary keeps every variant; the per-platform sections only the reference
    EXPECT_TRUE(has(text, "| yahoo@cores=32 | sequential | 1 |")) << text;
    EXPECT_TRUE(has(text, "## yahoo@cores=4, sequential mapping")) << text;
    EXPECT_FALSE(has(text, "## yahoo@cores=8, sequential mapping")) << text;
    // no platforms.csv next to these results (not written by `run`): the
    // models are skipped, not simulated
    EXPECT_TRUE(has(text, "Skipped: no " + std::string(dir) + "/platforms.csv beside the results")) << text;
    EXPECT_FALSE(has(text, "| yahoo@cores=8 | inter-node |")) << text;
    // the what-if figure, and the reference's heat map and latency figure
    EXPECT_EQ(check_figures(std::string(dir) + "/report", text), 3);
    tw_rmtree(dir);
}

// The commands as users type them: one-line errors, exit code 2.
TEST(Report, CommandLineErrorsAndThePostalCommand)
{
    Out o = cli("report");
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.text, "collsim: report needs a results file (e.g. results/quickstart/results.csv)\n");
    o = cli("report /nonexistent/results.csv");
    EXPECT_EQ(o.code, 2);
    EXPECT_EQ(o.text, "collsim: cannot read /nonexistent/results.csv: No such file or directory\n");
    o = cli("report x.csv --colour red");
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "unexpected argument '--colour' (valid: RESULTS.csv [--out DIR]")) << o.text;
    o = cli("postal --platform yahoo --nodes node-0,node-99");
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "'node-99' is not a node of yahoo (valid: node-0 .. node-15, or 0 .. 15)"))
        << o.text;

    o = cli("postal --platform cervino");
    ASSERT_EQ(o.code, 0) << o.text;
    // cervino: 15 us and 40 Gbps x 1448/1538 between nodes, 0.4 us and 6 GB/s inside one
    EXPECT_TRUE(has(o.text, "intra-node  node-0,node-0")) << o.text;
    EXPECT_TRUE(has(o.text, "inter-node  node-0,node-4")) << o.text;
    EXPECT_TRUE(has(o.text, "6000.00")) << o.text;
    EXPECT_TRUE(has(o.text, "4707.37")) << o.text;
}

} // namespace
