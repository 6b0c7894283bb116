// Scenario files: the valid one expands as written; each kind of mistake gets
// an error naming the file, the line and what would be valid.
#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <string>

#include "wrapper.h"

namespace {

const std::string data = COLLSIM_TEST_DATA_DIR;

std::string error_of(const std::string &file)
{
    long n;
    char err[4096] = "";
    EXPECT_EQ(tw_scenario((data + "/" + file).c_str(), &n, err, sizeof err), -1) << file;
    return err;
}

TEST(Scenario, ValidScenarioExpandsIntoCases)
{
    long n;
    char err[4096];
    ASSERT_EQ(tw_scenario((data + "/good.xml").c_str(), &n, err, sizeof err), 0) << err;
    EXPECT_EQ(n, 1 * 2 * 4 * 3); // platform x mappings x {5,8,12,16} x algorithms
}

// every scenario shipped in scenarios/, whatever its name
TEST(Scenario, ShippedScenariosLoad)
{
    std::string dir = std::string(COLLSIM_SOURCE_DIR) + "/scenarios";
    DIR *d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr) << dir;
    int files = 0;
    while (struct dirent *e = readdir(d)) {
        std::string f = e->d_name;
        if (f.size() < 5 || f.compare(f.size() - 4, 4, ".xml"))
            continue;
        long n;
        char err[4096];
        EXPECT_EQ(tw_scenario((dir + "/" + f).c_str(), &n, err, sizeof err), 0) << err;
        EXPECT_GT(n, 0) << f;
        files++;
    }
    closedir(d);
    EXPECT_GE(files, 20); // quickstart, regression, sparbit-paper, loc-bruck-*, fan-*, whatif
}

TEST(Scenario, ErrorsNameFileLineAndValidChoices)
{
    struct { const char *file, *where, *what; } cases[] = {
        {"bad-element.xml", "bad-element.xml:4:", "unknown element <procesess>"},
        {"bad-element.xml", "bad-element.xml:4:", "valid: description, platform"},
        {"bad-algorithm.xml", "bad-algorithm.xml:6:", "unknown allgather algorithm 'sparbitt'"},
        {"bad-sizes.xml", "bad-sizes.xml:7:", "'1:1M:0'"},
        {"bad-platform.xml", "bad-platform.xml:3:", "unknown platform 'yahooo' (valid: cervino"},
        {"bad-mapping.xml", "bad-mapping.xml:4:", "unknown mapping 'round-robin' (valid: sequential, cyclic)"},
        {"bad-attribute.xml", "bad-attribute.xml:8:", "unknown attribute 'repeat' (valid: warmup, timed)"},
        {"missing-sizes.xml", "missing-sizes.xml", "needs <sizes>"},
        {"bad-size-count.xml", "bad-size-count.xml: <sizes>:",
         "size 4294967296 is 4294967296 byte elements: more than an MPI count"},
        {"bad-alg-count.xml", "bad-alg-count.xml:6: <algorithms>:",
         "allgather/bruck at np 4 with 1 GiB per rank sends 2 x 1073741824 elements in one "
         "message: more than an MPI count (an int, at most 2147483647) can express"},
        {"malformed-scenario.xml", "malformed-scenario.xml:4:",
         "malformed XML: Opening and ending tag mismatch: platform line 3 and scenario"},
        {"no-such-file.xml", "no-such-file.xml", "cannot be read"},
        {"bad-region.xml", "bad-region.xml:6:",
         "level 'rack' is not declared by platform 'quartz' (valid: socket, node, switch)"},
        {"region-unused.xml", "region-unused.xml:6:",
         "<region> sweeps the algorithms that take a region"},
    };
    for (auto &c : cases) {
        std::string e = error_of(c.file);
        EXPECT_NE(e.find(c.where), std::string::npos) << c.file << ": " << e;
        EXPECT_NE(e.find(c.what), std::string::npos) << c.file << ": " << e;
    }
}

// Each case as ALG@REGION (ALG@ when it has no region), space-separated, in
// the runner's order; the case count in *n (-1: the error in err).
std::string cases_of(const std::string &file, const char *only, long *n, char *err, size_t len)
{
    char algs[8192], regions[8192];
    std::string path = data + "/" + file;
    *n = tw_expand_field(path.c_str(), only, CS_F_algorithm, algs, sizeof algs, err, len);
    if (*n < 0 || tw_expand(path.c_str(), only, regions, sizeof regions, err, len) != *n)
        return "";
    std::string out, a = algs, r = regions;
    for (size_t i = 0, j = 0; i <= a.size() && j <= r.size();) {
        size_t ai = a.find(' ', i), rj = r.find(' ', j);
        ai = ai == std::string::npos ? a.size() : ai;
        rj = rj == std::string::npos ? r.size() : rj;
        out += (out.empty() ? "" : " ") + a.substr(i, ai - i) + "@" + r.substr(j, rj - j);
        i = ai + 1;
        j = rj + 1;
    }
    return out;
}

// <region> is swept like <ppn>, each case carrying its level (what `run`
// passes to the driver and records), but only for the algorithms that take a
// region: bruck (no_regions) runs once per point with no region, as `bench`
// without --region runs it, whatever the levels.
TEST(Scenario, RegionLevelsSweepOnlyTheAlgorithmsThatTakeARegion)
{
    char err[4096];
    long n1, n2, n0;
    // region-one: <region>node</region>, algorithms bruck loc_bruck
    std::string one = cases_of("region-one.xml", nullptr, &n1, err, sizeof err);
    ASSERT_EQ(n1, 2 * 2 * 2) << err; // mappings x np x algorithms
    EXPECT_EQ(one.substr(0, 22), "bruck@ loc_bruck@node ") << one;
    // region-sweep: node socket. Per point bruck once, loc_bruck per level
    std::string two = cases_of("region-sweep.xml", nullptr, &n2, err, sizeof err);
    ASSERT_EQ(n2, 2 * 2 * 3) << err << two;
    std::string point = "bruck@ loc_bruck@node loc_bruck@socket";
    std::string want = point;
    for (int i = 1; i < 4; i++)
        want += " " + point;
    EXPECT_EQ(two, want);
    long counted;
    ASSERT_EQ(tw_scenario((data + "/region-sweep.xml").c_str(), &counted, err, sizeof err), 0);
    EXPECT_EQ(counted, n2);
    // --only region=...: the level's cases and those of the algorithms that
    // take no region (the comparison a level's sweep is for)
    std::string sock = cases_of("region-sweep.xml", "region=socket", &n2, err, sizeof err);
    EXPECT_EQ(n2, 2 * 2 * 2) << err;
    EXPECT_EQ(sock.substr(0, 24), "bruck@ loc_bruck@socket ") << sock;
    // a level the scenario does not have is still an error, listing the real ones
    char regions[4096];
    EXPECT_EQ(tw_expand((data + "/region-sweep.xml").c_str(), "region=rack", regions,
                        sizeof regions, err, sizeof err),
              -1);
    EXPECT_NE(std::string(err).find("no case of the scenario has region=rack (valid: node, socket)"),
              std::string::npos)
        << err;
    // no <region>: one case each, the driver's default
    n0 = tw_expand((data + "/good.xml").c_str(), nullptr, regions, sizeof regions, err, sizeof err);
    EXPECT_EQ(n0, 24) << err;
    EXPECT_EQ(std::string(regions).find_first_not_of(' '), std::string::npos) << regions;
    EXPECT_EQ(tw_expand((data + "/good.xml").c_str(), "region=node", regions, sizeof regions, err,
                        sizeof err),
              -1);
    EXPECT_NE(std::string(err).find("region=node (valid: none: the scenario does not set it)"),
              std::string::npos)
        << err;
}

// Each scenario list refuses a value given twice (it would run the same cases
// twice into one case directory), naming file, line, element and value
std::string scenario_error(const std::string &dir, const std::string &body)
{
    std::string path = dir + "/dup.xml";
    std::ofstream(path) << "<scenario>\n" << body << "</scenario>\n";
    long n;
    char err[4096] = "";
    EXPECT_EQ(tw_scenario(path.c_str(), &n, err, sizeof err), -1) << body;
    return err;
}

TEST(Scenario, ListsRefuseDuplicates)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string yahoo = std::string(COLLSIM_SOURCE_DIR) + "/platforms/yahoo.xml";
    const std::string rest = "  <mappings>cyclic</mappings>\n  <processes>4 5</processes>\n"
                             "  <sizes>8 64</sizes>\n";
    const std::string ring = "  <collective name=\"allgather\"><algorithms>ring</algorithms>"
                             "</collective>\n";
    struct { std::string body, want; } cases[] = {
        {"  <platform name=\"yahoo\"/>\n  <platform name=\"yahoo\"/>\n" + rest + ring,
         "dup.xml:3: <platform>: 'yahoo' given twice (first on line 2)"},
        // the same file under another spelling
        {"  <platform name=\"yahoo\"/>\n" + rest + "  <platform file=\"" + yahoo + "\"/>\n" + ring,
         "dup.xml:6: <platform>: '" + yahoo + "' given twice (first on line 2)"},
        {"  <platform name=\"yahoo\"/>\n" + rest +
             "  <collective name=\"allgather\">\n    <algorithms>ring bruck ring</algorithms>\n"
             "  </collective>\n",
         "dup.xml:7: <algorithms>: 'ring' listed twice (allgather 'ring', first on line 7)"},
        // resolved names: allgather/ring is ring, also from another <collective>
        {"  <platform name=\"yahoo\"/>\n" + rest + ring +
             "  <collective name=\"allgather\"><algorithms>allgather/ring</algorithms>"
             "</collective>\n",
         "dup.xml:7: <algorithms>: 'allgather/ring' listed twice (allgather 'ring', first on line 6)"},
        {"  <platform name=\"yahoo\"/>\n" + rest + ring + "  <ppn>2 1 2</ppn>\n",
         "dup.xml:7: <ppn>: ranks-per-node list lists 2 twice"},
        {"  <platform name=\"quartz\"/>\n" + rest + ring + "  <region>node socket node</region>\n",
         "dup.xml:7: <region>: 'node' listed twice"},
        {"  <platform name=\"yahoo\"/>\n" + rest + ring +
             "  <models>full full-arith-copy network full-arith-copy</models>\n",
         "dup.xml:7: <models>: 'full-arith-copy' listed twice"},
        {"  <platform name=\"yahoo\"/>\n" + rest + ring + "  <models>full gamma</models>\n",
         "dup.xml:7: <models>: unknown model 'gamma' (valid: full, full-arith-copy, network)"},
    };
    for (auto &c : cases) {
        std::string e = scenario_error(dir, c.body);
        EXPECT_NE(e.find(c.want), std::string::npos) << c.want << "\n" << e;
    }
    tw_rmtree(dir);
}

// What cannot apply or cannot be read is one line naming the scenario's line, before anything
// runs: an attribute of collectives the scenario has none of, an operation an algorithm refuses,
// a <vary> XPath that is invalid or selects nothing on a platform, SMPI options SimGrid does not
// take, and libxml2's own errors (a huge text node) without its multi-line report.
TEST(Scenario, WhatCannotApplyIsOneLineAtLoad)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string head = "  <platform name=\"yahoo\"/>\n  <mappings>cyclic</mappings>\n"
                             "  <processes>4</processes>\n  <sizes>8</sizes>\n";
    const std::string ring = "  <collective name=\"allgather\"><algorithms>ring</algorithms>"
                             "</collective>\n";
    struct { std::string body, want; } cases[] = {
        {head + ring + "  <reduction op=\"sum\"/>\n",
         "dup.xml:7: <reduction op> is for allreduce, reduce, reduce_scatter_block, "
         "reduce_scatter, and the scenario has none of them: remove it or add such a collective"},
        {head + ring + "  <root rank=\"0\"/>\n", "dup.xml:7: <root rank> is for "},
        {head + ring + "  <segment bytes=\"100\"/>\n",
         "dup.xml:7: <segment bytes> is for bcast, and the scenario has none of them"},
        {head + "  <buffers dtype=\"int\"/>\n  <reduction op=\"matmul\"/>\n"
                "  <collective name=\"allreduce\"><algorithms>recursive_doubling ring"
                "</algorithms></collective>\n",
         "dup.xml:8: <algorithms>: allreduce/ring takes commutative operations only (MPI_ERR_OP "
         "otherwise), not matmul"},
        {head + ring + "  <vary xpath=\"//cluster/@bw[\" factors=\"1 2\"/>\n",
         "dup.xml:7: <vary>: XPath '//cluster/@bw[' is not valid: Invalid expression"},
        {head + ring + "  <vary xpath=\"//nothing/@bw\" factors=\"1 2\"/>\n",
         "dup.xml:7: <vary>: '//nothing/@bw' selects nothing on platform "},
        {head + ring + "  <vary xpath=\"//cluster/@id\" factors=\"1 2\"/>\n",
         "dup.xml:7: <vary>: platform "},
        {head + ring + "  <smpi option=\"network/crosstraffic\" value=\"maybe\"/>\n",
         "dup.xml:7: <smpi>: option network/crosstraffic takes a boolean"},
        {head + ring + "  <smpi option=\"foo/bar\" value=\"1\"/>\n",
         "dup.xml:7: <smpi>: unknown option 'foo/bar': not one of SimGrid 3.32's"},
        {head + ring + "  <description>" + std::string(11000000, 'a') + "</description>\n",
         "dup.xml:7: malformed XML: xmlSAX2Characters: huge text node"},
    };
    for (auto &c : cases) {
        std::string e = scenario_error(dir, c.body);
        EXPECT_NE(e.find(c.want), std::string::npos) << c.want << "\n" << e.substr(0, 400);
        EXPECT_EQ(e.find('\n'), std::string::npos) << e.substr(0, 400);
    }
    tw_rmtree(dir);
}

// <hosts>: each value a --hosts SPEC checked against every platform at load (file, line, value,
// what is valid); swept like <ppn>, each case carrying its value ("all": every node, recorded as
// the default "").
TEST(Scenario, HostsAreSweptAndCheckedAtLoad)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string head = "  <platform name=\"kandalla-testbed\"/>\n  <mappings>cyclic</mappings>\n"
                             "  <processes>4</processes>\n  <sizes>8</sizes>\n"
                             "  <collective name=\"allgather\"><algorithms>ring bruck</algorithms>"
                             "</collective>\n";
    struct { std::string body, want; } cases[] = {
        {head + "  <hosts>node-0+node-40</hosts>\n",
         "dup.xml:7: <hosts>: hosts 'node-0+node-40': 'node-40': platform 'kandalla-testbed' has "
         "no node 'node-40' (its nodes: node-0 .. node-39)"},
        {head + "  <hosts>2-per-rack</hosts>\n",
         "dup.xml:7: <hosts>: hosts '2-per-rack': '2-per-rack': 'rack' is not a level of platform "
         "'kandalla-testbed' at or above node (valid: node, switch)"},
        {head + "  <hosts>node-0,node-1</hosts>\n", "dup.xml:7: <hosts>: hosts 'node-0,node-1': "},
        {head + "  <hosts>node-0+node-1 all node-0+node-1</hosts>\n",
         "dup.xml:7: <hosts>: 'node-0+node-1' listed twice"},
        {head + "  <hosts> </hosts>\n", "dup.xml:7: <hosts> is empty (valid: all, or a list of nodes"},
        {head + "  <hosts>all</hosts>\n  <hosts>all</hosts>\n",
         "dup.xml:8: <hosts> given twice (first on line 7"},
        {head + "  <hosts kind=\"x\">all</hosts>\n", "dup.xml:7: <hosts>: unknown attribute 'kind'"},
        {head + "  <background>alltoall:inter-switch:64K:8@node-30+node-99</background>\n",
         "dup.xml:7: <background> alltoall:inter-switch:64K:8@node-30+node-99: hosts "
         "'node-30+node-99': 'node-99': platform 'kandalla-testbed' has no node 'node-99'"},
        {head + "  <hosts>all</hosts>\n  <expect faster=\"bruck\" than=\"ring\" hosts=\"node-0\"/>\n",
         "dup.xml:8: <expect hosts=\"node-0\">: not a <hosts> value of the scenario (valid: all)"},
    };
    for (auto &c : cases) {
        std::string e = scenario_error(dir, c.body);
        EXPECT_NE(e.find(c.want), std::string::npos) << c.want << "\n" << e;
    }
    // three placements x two algorithms
    std::string path = std::string(dir) + "/hosts.xml";
    std::ofstream(path) << "<scenario>\n" << head
                        << "  <hosts>all node-4..32+node-0..3 2-per-switch-cyclic</hosts>\n"
                        << "  <expect faster=\"bruck\" than=\"ring\" hosts=\"all\"/>\n</scenario>\n";
    char values[4096], err[4096];
    ASSERT_EQ(tw_expand_field(path.c_str(), nullptr, CS_F_hosts, values, sizeof values, err,
                              sizeof err), 6) << err;
    EXPECT_STREQ(values, "  node-4..32+node-0..3 node-4..32+node-0..3 2-per-switch-cyclic "
                         "2-per-switch-cyclic");
    ASSERT_EQ(tw_expand_field(path.c_str(), "hosts=2-per-switch-cyclic", CS_F_hosts, values,
                              sizeof values, err, sizeof err), 2) << err;
    tw_rmtree(dir);
}

// What a case would have recorded as an error row at run time (exit 1) is a scenario error at
// load: more processes than the platform's (or the hosts') cores, a background with no free
// nodes, a pingpong on one process; 10M processes say that they do not fit, not "use --fold".
TEST(Scenario, PlacementsThatCannotRunAreErrorsAtLoad)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const std::string head = "  <platform name=\"yahoo\"/>\n  <mappings>sequential</mappings>\n"
                             "  <sizes>8</sizes>\n  <buffers mode=\"fold\"/>\n";
    const std::string ring = "  <collective name=\"allgather\"><algorithms>ring</algorithms>"
                             "</collective>\n";
    struct { std::string body, want; } cases[] = {
        {head + ring + "  <processes>8 200</processes>\n",
         "dup.xml:7: <processes> on platform 'yahoo' (sequential): 200 processes do not fit on "
         "platform 'yahoo' (16 nodes, 128 cores in all); use at most 128 or allow oversubscription"},
        {head + ring + "  <processes>10000000</processes>\n",
         "dup.xml:7: <processes> on platform 'yahoo' (sequential): 10000000 processes do not fit"},
        {head + ring + "  <processes>20</processes>\n  <hosts>node-0..node-1</hosts>\n",
         "dup.xml:7: <processes> on platform 'yahoo' (sequential, hosts node-0..node-1): 20 "
         "processes do not fit on the 2 nodes --hosts chooses"},
        {head + ring + "  <processes>8</processes>\n  <ppn>4</ppn>\n"
                       "  <hosts>node-0..node-1</hosts>\n",
         ""},
        {head + ring + "  <processes>128</processes>\n"
                       "  <background>alltoall:inter-node:1K:16</background>\n",
         "dup.xml:8: <background> on platform 'yahoo' (sequential): --background "
         "alltoall:inter-node:1K:16: background traffic between node regions needs free nodes"},
        {head + "  <collective name=\"pingpong\"><algorithms>send_recv</algorithms></collective>\n"
                "  <processes>1 2</processes>\n",
         "dup.xml:7: <processes> 1: pingpong bounces each size between ranks 0 and 1: it needs 2 "
         "processes at least"},
    };
    for (auto &c : cases) {
        std::string path = std::string(dir) + "/dup.xml";
        std::ofstream(path) << "<scenario>\n" << c.body << "</scenario>\n";
        long n;
        char err[4096] = "";
        int rc = tw_scenario(path.c_str(), &n, err, sizeof err);
        if (c.want.empty())
            EXPECT_EQ(rc, 0) << c.body << err;
        else
            EXPECT_NE(std::string(err).find(c.want), std::string::npos) << c.want << "\n" << err;
    }
    tw_rmtree(dir);
}

// <scenario name=""> wrote into results/ itself; "." and ".." likewise or above it.
TEST(Scenario, AnEmptyNameIsAnError)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    for (const char *name : {"", ".", ".."}) {
        std::string path = std::string(dir) + "/named.xml";
        std::ofstream(path) << "<scenario name=\"" << name << "\">\n  <platform name=\"yahoo\"/>\n"
                            << "  <mappings>cyclic</mappings>\n  <processes>4</processes>\n"
                            << "  <sizes>8</sizes>\n  <collective name=\"allgather\"><algorithms>"
                               "ring</algorithms></collective>\n</scenario>\n";
        long n;
        char err[4096] = "";
        EXPECT_EQ(tw_scenario(path.c_str(), &n, err, sizeof err), -1) << name;
        EXPECT_NE(std::string(err).find("named.xml:1: <scenario name=\"" + std::string(name) +
                                        "\">: the name names the results directory"),
                  std::string::npos) << err;
    }
    tw_rmtree(dir);
}

// Every case field case_fields.def gives a scenario attribute ("<buffers
// dtype>") is read through the table: a good value reaches every case, a bad
// one is an error naming file, line, element, attribute, value and what is
// valid. A new .def line is covered here without a test of its own.
std::string field_scenario(const std::string &dir, const std::string &elem,
                           const std::string &attrs)
{
    std::string path = dir + "/" + elem + ".xml";
    std::ofstream f(path);
    // <groups>: an intergroup collective (two algorithms: two cases) at P + Q = 4;
    // <sizes unit>: the same with 1 rank per node (the element on line 7); <root>: a rooted one;
    // <reduction op>: an allreduce
    const bool sizes = elem == "sizes", groups = elem == "groups" || sizes;
    f << "<scenario>\n  <platform name=\"yahoo\"/>\n  <mappings>cyclic</mappings>\n"
      << (groups ? "  <collective name=\"inter_allgatherv\"><algorithms>kang_segmented "
                   "root_gather_mpich</algorithms></collective>\n"
          : elem == "root"
              ? "  <collective name=\"gather\"><algorithms>binomial</algorithms></collective>\n"
          : elem == "segment"
              ? "  <collective name=\"bcast\"><algorithms>pipelined_chain</algorithms></collective>\n"
          : elem == "reduction" // <reduction op>: an allreduce of ints
              ? "  <collective name=\"allreduce\"><algorithms>recursive_doubling</algorithms>"
                "</collective>\n  <buffers dtype=\"int\"/>\n"
              : "  <collective name=\"alltoallv\"><algorithms>spread_out</algorithms></collective>\n")
      << (sizes ? "  <ppn>1</ppn>\n" : "  <sizes>8 64</sizes>\n");
    if (elem != "processes")
        f << (groups ? "  <processes>4</processes>\n" : "  <processes>4 5</processes>\n");
    f << "  <" << elem << attrs
      << (elem == "processes" ? ">4 5</processes>" : sizes ? ">8 64</sizes>" : "/>") << "\n"
      << (sizes ? "  <groups sizes=\"1:3\"/>\n" : "") << "</scenario>\n";
    return path;
}

TEST(Scenario, EveryCaseFieldAttributeIsReadAndChecked)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    const cs_field *t = tw_scenario_fields();
    int tested = 0;
    for (int k = 0; k < CS_NFIELDS; k++) {
        std::string sc = t[k].scenario ? t[k].scenario : "";
        size_t sp = sc.find(' ');
        if (t[k].kind == CS_FK_SPECIAL || sp == std::string::npos)
            continue;
        std::string elem = sc.substr(1, sp - 1), attr = sc.substr(sp + 1, sc.size() - sp - 2);
        std::string words = t[k].arg ? t[k].arg : "", good = "5", shown = "5", want;
        switch (t[k].kind) {
        case CS_FK_INT:
            want = "expected an integer >= " + std::to_string(t[k].min);
            if (elem == "root") // a rank at np 4 and 5
                good = shown = "3";
            break;
        case CS_FK_ULONG: want = "expected an integer >= 0"; break;
        case CS_FK_FLAG: good = "yes", shown = "1", want = "expected yes or no"; break;
        case CS_FK_TEXT: // dist, or an intergroup pair (groups P:Q, block_ratio A:B)
            if (t[k].scope == CS_SCOPE_GROUPS)
                good = shown = attr == "block-ratio" ? "2:1" : "1:3", // np 4
                want = std::string("expected ") + t[k].arg + ", two integers >= 1";
            else
                good = shown = "gaussian", want = "bad distribution";
            break;
        default: /* WORD, CHOICE: the last valid word; all of them listed */
            good = shown = words.substr(words.rfind('|') + 1);
            want = "expected one of ";
            for (char ch : words)
                want += ch == '|' ? std::string(", ") : std::string(1, ch);
        }
        // <distribution> needs its name
        std::string extra = elem == "distribution" && attr != "name" ? " name=\"uniform\"" : "";
        // <groups> needs its sizes
        if (elem == "groups" && attr != "sizes" && attr != "ratio")
            extra = " sizes=\"1:3\"";
        std::string path = field_scenario(dir, elem, " " + attr + "=\"" + good + "\"" + extra);
        char values[4096], err[4096] = "";
        long n = tw_expand_field(path.c_str(), nullptr, k, values, sizeof values, err, sizeof err);
        EXPECT_EQ(n, 2) << sc << ": " << err;
        EXPECT_EQ(std::string(values), shown + " " + shown) << sc;
        path = field_scenario(dir, elem, " " + attr + "=\"@x\"" + extra);
        long ncases;
        EXPECT_EQ(tw_scenario(path.c_str(), &ncases, err, sizeof err), -1) << sc;
        // after <processes> (and the allreduce's <buffers>)
        std::string line = elem == "processes" ? ":6: <" : elem == "reduction" ? ":8: <" : ":7: <";
        std::string at = path + line + elem + " " + attr + "=\"@x\">: " + want;
        EXPECT_NE(std::string(err).find(at), std::string::npos) << at << "\n" << err;
        tested++;
    }
    EXPECT_GE(tested, 15); // dtype, mode, dist, seed, warmup, timed, seconds, oversubscribe,
                           // groups sizes, ratio, layout, block-ratio, counts, sizes unit,
                           // root rank
    tw_rmtree(dir);
}

} // namespace
