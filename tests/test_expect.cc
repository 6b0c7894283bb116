// Scenario expectations (<expect>) on small real runs and in `collsim check`:
// PASS/FAIL lines with their numbers, ties, the empty region, cases left out,
// the max metric, factors, absolute times, rooted scenarios, hosts and
// background in the scope, and one-line errors naming the line and choices.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "wrapper.h"

extern "C" {
#include "expect.h"
#include "results_util.h"
}

namespace {

std::vector<std::string> verdicts(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.rfind("PASS ", 0) || !line.rfind("FAIL ", 0) || !line.rfind("SKIP ", 0) ||
            !line.rfind("    ", 0))
            out.push_back(line);
    return out;
}

TEST(Expect, PassAndFailOnARealRunAndInCheckAlike)
{
    TempDir d;
    std::string scen = data + "/expect-small.xml";
    Out run = cli("run " + scen + " --out " + d / "out" + " -j 2");
    EXPECT_EQ(run.code, 1) << run.text; // two expectations do not hold
    auto pass14 = lines_with(run.text, {"PASS " + scen + ":14: bruck faster than ring (every point): "
                                        "4 of 4 points pass; closest: yahoo sequential np=5 1024 B: "
                                        "bruck 4.18 us vs ring 4.89 us (14.5% faster)"});
    EXPECT_EQ(pass14.size(), 1u) << run.text;
    EXPECT_EQ(lines_with(run.text, {"PASS " + scen + ":15: bruck faster than ring by 10%",
                                    "1 of 1 points pass"})
                  .size(),
              1u)
        << run.text;
    EXPECT_EQ(lines_with(run.text, {"FAIL " + scen + ":16: ring faster than bruck (bytes=1K): "
                                    "2 of 2 points fail"})
                  .size(),
              1u)
        << run.text;
    EXPECT_EQ(lines_with(run.text, {"    yahoo sequential np=4 1024 B: ring 3.67 us vs bruck "
                                    "2.96 us (23.9% slower)"})
                  .size(),
              1u)
        << run.text;
    EXPECT_EQ(lines_with(run.text, {"FAIL " + scen + ":17: bruck faster than ring by 30%",
                                    "3 of 4 points fail"})
                  .size(),
              1u)
        << run.text;
    EXPECT_NE(run.text.find("# expectations: 2 passed, 2 failed, 0 skipped"), std::string::npos);

    // check --scenario: the same code path, the same verdicts
    Out check = cli("check " + d / "out/results.csv" + " --scenario " + scen);
    EXPECT_EQ(check.code, 1) << check.text;
    EXPECT_EQ(verdicts(check.text), verdicts(run.text));
    EXPECT_EQ(verdicts(run.text).size(), 9u) << run.text; // 4 verdicts, 5 failing points

    Out pass = cli("check " + d / "out/results.csv" + " --scenario " + data + "/expect-pass.xml");
    EXPECT_EQ(pass.code, 0) << pass.text;
    EXPECT_NE(pass.text.find("# expectations: 2 passed, 0 failed, 0 skipped"), std::string::npos)
        << pass.text;
}

// A tie (relative difference <= 1e-9, as in the best table) is not "faster",
// however the last bits fall.
TEST(Expect, ATieIsNotFaster)
{
    TempDir d;
    std::vector<cs_result> rows;
    for (int np : {4, 5})
        for (long bytes : {1L, 1024L}) {
            double t = 2.5 + np + bytes / 1000.0;
            rows.push_back(row("bruck", np, bytes, t * (1 - 1e-12)));
            rows.push_back(row("ring", np, bytes, np == 5 && bytes == 1 ? 1.2 * t : t));
        }
    write_rows(d / "r.csv", rows);
    Out o = cli("check " + d / "r.csv" + " --scenario " + data + "/expect-pass.xml");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_EQ(lines_with(o.text, {"FAIL ", ":12: bruck faster than ring (every point): 3 of 4 "
                                  "points fail"}).size(), 1u) << o.text;
    EXPECT_EQ(lines_with(o.text, {"yahoo sequential np=4 1 B: bruck 6.50 us vs ring 6.50 us (tie)"})
                  .size(), 1u) << o.text;
    EXPECT_EQ(lines_with(o.text, {"PASS ", ":13: bruck faster than ring by 10%"}).size(), 1u)
        << o.text;
}

// An algorithm that takes no region (bruck, native:ompi) has one case per
// point whatever <region> lists, recorded without region: an expectation
// reads it at region "" beside loc_bruck at each level (2 points), and one of
// two such algorithms is one point, not one per level. A file written before
// (bruck once per level, each row carrying the level) reads the same.
TEST(Expect, AlgorithmsWithoutRegionAreReadAtTheEmptyRegion)
{
    TempDir d;
    std::string scen = data + "/region-expect.xml";
    auto quartz = [](const char *alg, const char *region, double avg) {
        cs_result r = row(alg, 16, 8, avg);
        snprintf(r.platform, sizeof r.platform, "quartz");
        snprintf(r.region, sizeof r.region, "%s", region);
        snprintf(r.dtype, sizeof r.dtype, "int");
        snprintf(r.mode, sizeof r.mode, "fold");
        r.ppn = 4;
        r.iterations = 1;
        return r;
    };
    write_rows(d / "new.csv", {quartz("bruck", "", 10), quartz("loc_bruck", "node", 8),
                          quartz("loc_bruck", "socket", 9), quartz("native:ompi", "", 12)});
    write_rows(d / "old.csv", {quartz("bruck", "node", 10), quartz("bruck", "socket", 10),
                          quartz("loc_bruck", "node", 8), quartz("loc_bruck", "socket", 9),
                          quartz("native:ompi", "node", 12), quartz("native:ompi", "socket", 12)});
    std::vector<std::string> want = {
        "PASS " + scen + ":16: loc_bruck faster than bruck (every point): 2 of 2 points pass; "
        "closest: quartz sequential ppn=4 region=socket np=16 8 B: loc_bruck 9.00 us vs bruck "
        "10.00 us (10.0% faster)",
        "PASS " + scen + ":17: bruck faster than native:ompi (every point): 1 of 1 points pass; "
        "closest: quartz sequential ppn=4 np=16 8 B: bruck 10.00 us vs native:ompi 12.00 us "
        "(16.7% faster)"};
    Out now = cli("check " + d / "new.csv" + " --scenario " + scen);
    EXPECT_EQ(now.code, 0) << now.text;
    EXPECT_EQ(verdicts(now.text), want) << now.text;
    Out old = cli("check " + d / "old.csv" + " --scenario " + scen);
    EXPECT_EQ(old.code, 0) << old.text;
    EXPECT_EQ(verdicts(old.text), want) << old.text;
    EXPECT_EQ(lines_with(old.text, {"# 4 rows of algorithms that take no region (bruck, "
                                    "native:ompi) carry a region level"})
                  .size(),
              1u)
        << old.text;
}

TEST(Expect, CasesLeftOutAreSkippedByRunButFailCheck)
{
    TempDir d;
    std::string scen = data + "/expect-pass.xml";
    Out run = cli("run " + scen + " --out " + d / "out" + " --only alg=bruck");
    EXPECT_EQ(run.code, 0) << run.text;
    EXPECT_NE(run.text.find("SKIP " + scen + ":12: bruck faster than ring (every point): none of "
                                             "its 4 points was run"),
              std::string::npos)
        << run.text;
    EXPECT_NE(run.text.find("# expectations: 0 passed, 0 failed, 2 skipped"), std::string::npos);
    // the file is all check sees: what is not there fails
    Out check = cli("check " + d / "out/results.csv" + " --scenario " + scen);
    EXPECT_EQ(check.code, 1) << check.text;
    EXPECT_NE(check.text.find("    yahoo sequential np=4 1 B: no result for ring"), std::string::npos)
        << check.text;
    // an expectation checked on the points that ran says how many were not run, and the summary
    // counts those points instead of saying "0 skipped"
    Out five = cli("run " + scen + " --out " + d / "five" + " --only np=5");
    EXPECT_EQ(five.code, 0) << five.text;
    EXPECT_NE(five.text.find("PASS " + scen + ":12: bruck faster than ring (every point): 2 of 2 "
                                             "points pass"),
              std::string::npos) << five.text;
    EXPECT_NE(five.text.find("    (2 points not run here: skipped)\n"), std::string::npos)
        << five.text;
    EXPECT_NE(five.text.find("# expectations: 2 passed, 0 failed; 2 points not run here (skipped)\n"),
              std::string::npos) << five.text;
    EXPECT_EQ(five.text.find("0 skipped"), std::string::npos) << five.text;
    // an expectation none of whose points ran is counted as skipped, the others' points beside it
    Out four = cli("run " + scen + " --out " + d / "four" + " --only np=4");
    EXPECT_EQ(four.code, 0) << four.text;
    EXPECT_NE(four.text.find("# expectations: 1 passed, 0 failed, 1 skipped; 2 more points not "
                             "run here (skipped)\n"),
              std::string::npos) << four.text;
}

// metric="max" compares the maximum over processes (Kang et al.'s metric),
// where the average can say the opposite; by="Fx" is the factor test.
TEST(Expect, TheMaxMetricAndAFactor)
{
    cs_result rows[2];
    for (int i = 0; i < 2; i++) {
        cs_result_init(&rows[i]);
        snprintf(rows[i].platform, sizeof rows[i].platform, "flat");
        snprintf(rows[i].mapping, sizeof rows[i].mapping, "sequential");
        snprintf(rows[i].collective, sizeof rows[i].collective, "inter_allgather");
        snprintf(rows[i].groups, sizeof rows[i].groups, "50:14");
        snprintf(rows[i].status, sizeof rows[i].status, "ok");
        rows[i].np = 64;
        rows[i].bytes = 1024;
    }
    // a: faster on average, 2x slower in the max; b the other way round
    snprintf(rows[0].algorithm, sizeof rows[0].algorithm, "a");
    rows[0].avg_us = 10, rows[0].max_us = 200, rows[0].min_us = 1;
    snprintf(rows[1].algorithm, sizeof rows[1].algorithm, "b");
    rows[1].avg_us = 50, rows[1].max_us = 100, rows[1].min_us = 1;
    cs_result point = rows[0];
    auto verdict = [&](const char *faster, const char *than, int metric, double pct, double factor) {
        cs_expect_points x = {};
        x.line = 7, x.faster = faster, x.than = than, x.by_pct = pct, x.scope = "every point";
        x.metric = metric, x.by_factor = factor, x.points = &point, x.npoints = 1;
        char *buf = nullptr;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        int failed = cs_expect_check(f, "k.xml", &x, 1, rows, 2, 0);
        fclose(f);
        std::string text(buf);
        free(buf);
        return std::make_pair(failed, text);
    };
    EXPECT_EQ(verdict("a", "b", CS_METRIC_AVG, 0, 0).first, 0);
    auto max_ab = verdict("a", "b", CS_METRIC_MAX, 0, 0);
    EXPECT_EQ(max_ab.first, 1) << max_ab.second;
    EXPECT_NE(max_ab.second.find("FAIL k.xml:7: a faster than b in max (every point)"),
              std::string::npos) << max_ab.second;
    EXPECT_NE(max_ab.second.find("groups=50:14 np=64 1024 B: a 200.00 us vs b 100.00 us, max (0.50x)"),
              std::string::npos) << max_ab.second;
    // b is 2x faster in the max: passes by 2x (50%), fails by 2.5x (60%)
    auto two = verdict("b", "a", CS_METRIC_MAX, 50, 2);
    EXPECT_EQ(two.first, 0) << two.second;
    EXPECT_NE(two.second.find("PASS k.xml:7: b faster than a by 2x in max"), std::string::npos)
        << two.second;
    EXPECT_EQ(verdict("b", "a", CS_METRIC_MAX, 60, 2.5).first, 1);
    EXPECT_EQ(verdict("b", "a", CS_METRIC_AVG, 0, 0).first, 1);
}

// alg="A" time="T" within="W%": A's time at every point within W% of T,
// either side; a missing row or a failed one is a failure too.
TEST(Expect, ATimeWithinAPercentage)
{
    cs_result row;
    cs_result_init(&row);
    snprintf(row.platform, sizeof row.platform, "ranger");
    snprintf(row.mapping, sizeof row.mapping, "sequential");
    snprintf(row.collective, sizeof row.collective, "pingpong");
    snprintf(row.algorithm, sizeof row.algorithm, "send_recv");
    snprintf(row.hosts, sizeof row.hosts, "node-0+node-96");
    snprintf(row.status, sizeof row.status, "ok");
    row.np = 2, row.ppn = 1, row.avg_us = row.min_us = row.max_us = 2.871;
    auto verdict = [&](double t, double within, const cs_result &point) {
        cs_expect_points x = {};
        x.line = 9, x.faster = "send_recv", x.than = "", x.scope = "hosts=node-0+node-96";
        x.time_us = t, x.within_pct = within, x.points = const_cast<cs_result *>(&point);
        x.npoints = 1;
        char *buf = nullptr;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        int failed = cs_expect_check(f, "t1.xml", &x, 1, &row, 1, 0);
        fclose(f);
        std::string text(buf);
        free(buf);
        return std::make_pair(failed, text);
    };
    auto pass = verdict(2.85, 5, row);
    EXPECT_EQ(pass.first, 0) << pass.second;
    EXPECT_NE(pass.second.find("PASS t1.xml:9: send_recv takes 2.85 us within 5% (hosts=node-0+node-96): "
                               "1 of 1 points pass; farthest: ranger sequential ppn=1 hosts=node-0+node-96 "
                               "np=2 0 B: send_recv 2.871 us, +0.74% from 2.85 us"),
              std::string::npos) << pass.second;
    // 2.871 is 4.3% below 3.0 and 0.74% above 2.85: within 5 and 4.5, not within 0.5 or 4
    EXPECT_EQ(verdict(3.0, 5, row).first, 0);
    EXPECT_EQ(verdict(3.0, 4, row).first, 1);
    auto tight = verdict(2.85, 0.5, row);
    EXPECT_EQ(tight.first, 1);
    EXPECT_NE(tight.second.find("FAIL t1.xml:9: send_recv takes 2.85 us within 0.5%"), std::string::npos)
        << tight.second;
    cs_result other = row; // a point of another placement: no row
    snprintf(other.hosts, sizeof other.hosts, "node-0+node-1");
    auto missing = verdict(2.85, 5, other);
    EXPECT_EQ(missing.first, 1);
    EXPECT_NE(missing.second.find("hosts=node-0+node-1 np=2 0 B: no result for send_recv"),
              std::string::npos) << missing.second;
}

// A rooted collective's rows carry the scenario's <root rank>: an expectation's points are read at
// that root (not at 0), a comparison and a time alike; rows of another root do not count.
TEST(Expect, ARootedScenarioIsReadAtItsRoot)
{
    TempDir d;
    auto gather = [](const char *alg, int root, double avg) {
        cs_result r = row(alg, 13, 1024, avg);
        snprintf(r.collective, sizeof r.collective, "gather");
        r.root = root;
        return r;
    };
    std::ofstream(d / "x.xml")
        << "<scenario>\n  <platform name=\"yahoo\"/>\n  <mappings>sequential</mappings>\n"
           "  <processes>13</processes>\n  <sizes>1K</sizes>\n  <root rank=\"3\"/>\n"
           "  <models>network</models>\n" /* rows without a model: network-only */
           "  <collective name=\"gather\"><algorithms>binomial linear</algorithms></collective>\n"
           "  <expect faster=\"linear\" than=\"binomial\"/>\n"
           "  <expect alg=\"linear\" time=\"5.91us\" within=\"1%\"/>\n</scenario>\n";
    write_rows(d / "root3.csv", {gather("binomial", 3, 29.93), gather("linear", 3, 5.91)});
    Out three = cli("check " + d / "root3.csv" + " --scenario " + d / "x.xml");
    EXPECT_EQ(three.code, 0) << three.text;
    EXPECT_NE(three.text.find("yahoo sequential np=13 1024 B: linear 5.91 us vs binomial 29.93 us"),
              std::string::npos) << three.text;
    EXPECT_NE(three.text.find("# expectations: 2 passed, 0 failed"), std::string::npos) << three.text;
    write_rows(d / "root0.csv", {gather("binomial", 0, 29.93), gather("linear", 0, 5.91)});
    Out zero = cli("check " + d / "root0.csv" + " --scenario " + d / "x.xml");
    EXPECT_EQ(zero.code, 1) << zero.text;
    EXPECT_NE(zero.text.find("no result for linear"), std::string::npos) << zero.text;
}

// hosts="..." and background="..." narrow an expectation to one value of <hosts> and of
// <background> (the other values are other cases, with other outcomes): here bruck wins under
// the background on the chosen nodes only.
TEST(Expect, HostsAndBackgroundNarrowTheScope)
{
    TempDir d;
    std::vector<cs_result> rows;
    for (const char *bg : {"", "alltoall:inter-switch:64K:8"})
        for (const char *hosts : {"", "node-0+node-4"}) {
            const bool win = bg[0] && hosts[0];
            for (const char *alg : {"bruck", "ring"}) {
                cs_result r = row(alg, 16, 64, (alg[0] == 'b') == win ? 10.0 : 20.0);
                snprintf(r.platform, sizeof r.platform, "kandalla-testbed");
                snprintf(r.background, sizeof r.background, "%s", bg);
                snprintf(r.hosts, sizeof r.hosts, "%s", hosts);
                rows.push_back(r);
            }
        }
    write_rows(d / "results.csv", rows);
    auto check = [&](const std::string &attrs) {
        std::ofstream(d / "x.xml")
            << "<scenario>\n  <platform name=\"kandalla-testbed\"/>\n  <mappings>sequential</mappings>\n"
               "  <processes>16</processes>\n  <sizes>64</sizes>\n"
               "  <collective name=\"allgather\"><algorithms>ring bruck</algorithms></collective>\n"
               "  <hosts>all node-0+node-4</hosts>\n"
               "  <background>none alltoall:inter-switch:64K:8</background>\n"
               "  <models>network</models>\n" /* rows without a model: network-only */
               "  <expect faster=\"bruck\" than=\"ring\" " << attrs << "/>\n</scenario>\n";
        return cli("check " + d / "results.csv" + " --scenario " + d / "x.xml");
    };
    Out both = check(R"(hosts="node-0+node-4" background="alltoall:inter-switch:65536:8")");
    EXPECT_EQ(both.code, 0) << both.text;
    EXPECT_NE(both.text.find("1 of 1 points pass"), std::string::npos) << both.text;
    Out one = check(R"(background="alltoall:inter-switch:64K:8")");
    EXPECT_EQ(one.code, 1) << one.text;
    EXPECT_NE(one.text.find("1 of 2 points fail"), std::string::npos) << one.text;
    EXPECT_NE(one.text.find("kandalla-testbed sequential np=16 64 B: bruck 20.00 us vs ring 10.00 us"),
              std::string::npos) << one.text;
    Out all = check(R"(hosts="all")");
    EXPECT_EQ(all.code, 1) << all.text;
    EXPECT_NE(all.text.find("2 of 2 points fail"), std::string::npos) << all.text;
    Out none = check(R"(hosts="node-0+node-4" background="none")");
    EXPECT_NE(none.text.find("kandalla-testbed sequential hosts=node-0+node-4 np=16 64 B: bruck 20.00 us"),
              std::string::npos) << none.text;
}

TEST(Expect, ErrorsNameTheLineAndTheValidChoices)
{
    TempDir d;
    struct {
        const char *attrs, *want;
    } cases[] = {
        {R"(faster="sparbit" than="ring")",
         R"(<expect faster="sparbit">: not among the scenario's allgather algorithms (valid: ring, bruck))"},
        {R"(faster="bruk" than="ring")", "(valid: ring, bruck)"},
        {R"(faster="ring" than="ring")", "faster and than both name 'ring'"},
        {R"(faster="bruck")", R"(<expect> needs faster="ALG" and than="ALG")"},
        {R"(faster="bruck" than="ring" speed="2")",
         "unknown attribute 'speed' (valid: faster, than, by, collective, platform, mapping, np, bytes, "
         "metric, groups, block-ratio, counts, hosts, background, model, alg, time, within)"},
        {R"(faster="bruck" than="ring" groups="1:1")",
         "<expect>: no <groups> of allgather matches its groups, block-ratio and counts (valid: none)"},
        {R"(faster="bruck" than="ring" metric="median")",
         R"(<expect metric="median">: expected avg, max or min)"},
        {R"(faster="bruck" than="ring" by="0.5x")", R"(or a factor of at least 1, such as by="5x")"},
        {R"(faster="bruck" than="ring" np="6")",
         "6 is not among the scenario's process counts (valid: 4,5)"},
        {R"(faster="bruck" than="ring" bytes="2K")", "2048 is not among the scenario's sizes (valid: 1,1024)"},
        {R"(faster="bruck" than="ring" by="10")", R"(expected a percentage from 0 to 100, such as by="10%")"},
        {R"(faster="bruck" than="ring" platform="cervino")", "not a platform of the scenario (valid: yahoo)"},
        {R"(faster="bruck" than="ring" mapping="cyclic")", "not a mapping of the scenario (valid: sequential)"},
        {R"(faster="bruck" than="ring" mapping="rr")", "unknown mapping 'rr' (valid: sequential, cyclic)"},
        {R"(faster="bruck" than="ring" collective="alltoall")", "not a collective of the scenario (valid: allgather)"},
        // a published time instead of a comparison
        {R"(alg="ring" time="1us")", R"(<expect> with a time needs alg="ALG", time="T" and within="W%")"},
        {R"(alg="ring" faster="bruck" time="1us" within="5%")", "and no faster, than or by"},
        {R"(alg="ring" time="fast" within="5%")", R"(<expect time="fast">: expected a time > 0 in us, ms or s)"},
        {R"(alg="ring" time="-2us" within="5%")", R"(<expect time="-2us">: expected a time > 0)"},
        {R"(alg="ring" time="2us" within="5")", R"(<expect within="5">: expected a percentage above 0 and below 100)"},
        {R"(alg="sparbit" time="2us" within="5%")",
         R"(<expect alg="sparbit">: not among the scenario's allgather algorithms (valid: ring, bruck))"},
        {R"(alg="ring" time="2us" within="5%" hosts="node-0+node-1")",
         R"(<expect hosts="node-0+node-1">: not a <hosts> value of the scenario (valid: all))"},
        {R"(faster="bruck" than="ring" background="alltoall:inter-node:64K:4")",
         R"(<expect background="alltoall:inter-node:64K:4">: not a <background> value of the scenario (valid: none))"},
        {R"(faster="bruck" than="ring" background="alltoall:4M")",
         R"(<expect background="alltoall:4M">: --background 'alltoall:4M': expected)"},
    };
    for (auto &c : cases) {
        std::string path = d / "x.xml";
        FILE *f = fopen(path.c_str(), "w");
        // the <expect> comes first, on line 3: names are checked against
        // elements that follow it
        fprintf(f, "<?xml version=\"1.0\"?>\n<scenario>\n  <expect %s/>\n"
                   "  <platform name=\"yahoo\"/><mappings>sequential</mappings>\n"
                   "  <processes>4 5</processes><sizes>1 1K</sizes>\n"
                   "  <collective name=\"allgather\"><algorithms>ring bruck</algorithms></collective>\n"
                   "</scenario>\n",
                c.attrs);
        fclose(f);
        long n;
        char err[4096] = "";
        EXPECT_EQ(tw_scenario(path.c_str(), &n, err, sizeof err), -1) << c.attrs;
        EXPECT_NE(std::string(err).find(path + ":3: "), std::string::npos) << c.attrs << ": " << err;
        EXPECT_NE(std::string(err).find(c.want), std::string::npos) << c.attrs << ": " << err;
    }
}

} // namespace
