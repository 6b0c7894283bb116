// The algorithm registry: names users type, and SMPI's built-in baselines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "cost_model.h"
#include "registry.h"
}
#include "wrapper.h"

namespace {

std::string resolve_error(const char *coll, const char *spec)
{
    char cfg[256], alg[64], err[4096] = "";
    EXPECT_EQ(tw_resolve(coll, spec, cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), -1);
    return err;
}

TEST(Registry, EveryRegisteredAlgorithmResolvesByBothSpellings)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    ASSERT_GE(n, 5u);
    for (size_t i = 0; i < n; i++) {
        char cfg[256], alg[64], err[2048];
        EXPECT_STRNE(r[i].paper, "");
        EXPECT_STRNE(r[i].section, "");
        // the intergroup collectives are collectives of bench (--groups),
        // and only they are
        const cs_coll_props *cp = cs_coll_find(r[i].collective);
        ASSERT_NE(cp, nullptr) << r[i].collective;
        EXPECT_EQ(cp->groups != 0, r[i].needs_groups != 0) << r[i].collective;
        std::string full = std::string(r[i].collective) + "/" + r[i].name;
        for (const std::string &spec : {std::string(r[i].name), full}) {
            ASSERT_EQ(tw_resolve(r[i].collective, spec.c_str(), cfg, sizeof cfg, alg, sizeof alg,
                                 err, sizeof err), 0) << err;
            EXPECT_STREQ(alg, r[i].name);
            EXPECT_STREQ(cfg, "");
        }
    }
}

TEST(Registry, TheSparbitPaperAlgorithmsAreAllThere)
{
    for (const char *name : {"ring", "neighbor_exchange", "recursive_doubling", "bruck", "sparbit"}) {
        char cfg[256], alg[64], err[2048];
        EXPECT_EQ(tw_resolve("allgather", name, cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0)
            << err;
    }
}

TEST(Registry, NativeBaselinesPickTheRightSmpiOption)
{
    char cfg[256], alg[64], err[2048];
    ASSERT_EQ(tw_resolve("allgather", "native:ompi", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_STREQ(cfg, "smpi/coll-selector:ompi");
    EXPECT_STREQ(alg, "native");
    ASSERT_EQ(tw_resolve("allgather", "native:mvapich2", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_STREQ(cfg, "smpi/coll-selector:mvapich2");
    ASSERT_EQ(tw_resolve("allgather", "allgather/native:bruck", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_STREQ(cfg, "smpi/allgather:bruck");
    ASSERT_EQ(tw_resolve("allgather", "native:ompi_neighborexchange", cfg, sizeof cfg, alg, sizeof alg, err, sizeof err), 0);
    EXPECT_STREQ(cfg, "smpi/allgather:ompi_neighborexchange");
}

TEST(Registry, UnknownNamesListTheValidOnes)
{
    std::string e = resolve_error("allgather", "sparbitt");
    EXPECT_NE(e.find("unknown allgather algorithm 'sparbitt'"), std::string::npos) << e;
    EXPECT_NE(e.find("sparbit"), std::string::npos) << e;
    EXPECT_NE(e.find("native:ompi"), std::string::npos) << e;
    EXPECT_NE(resolve_error("allgather", "native:nope").find("native:bruck"), std::string::npos);
    EXPECT_NE(resolve_error("alltoallw", "ring").find("unknown collective 'alltoallw'"), std::string::npos);
}

// algorithms.def's file column: every algorithm is in its own file, which
// defines its function.
TEST(Registry, EveryAlgorithmIsDefinedInTheFileItNames)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++) {
        std::string path = std::string(COLLSIM_SOURCE_DIR) + "/algorithms/" + r[i].source;
        std::ifstream f(path);
        ASSERT_TRUE(f.good()) << path;
        std::stringstream text;
        text << f.rdbuf();
        std::string def = std::string("int collsim_") + r[i].collective + "_" + r[i].name + "(";
        EXPECT_NE(text.str().find(def), std::string::npos) << path << " lacks " << def;
        for (size_t j = 0; j < i; j++)
            EXPECT_STRNE(r[i].source, r[j].source) << r[i].name << " and " << r[j].name;
    }
}

// The capability columns as the code has them: MPI_IN_PLACE wherever the
// driver offers it (alltoallv's algorithms take it too, tested by
// MpiColls.SmpiEveryAlgorithm: the driver's block sizes are not symmetric, as
// MPI_IN_PLACE needs), derived datatypes where a step is one indexed message,
// regions for the locality-aware algorithms (built before the timing),
// groups for the intergroup ones (none takes MPI_IN_PLACE).
TEST(Registry, CapabilitiesAreConsistent)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++) {
        if (cs_collective_in_place(r[i].collective)) {
            EXPECT_TRUE(r[i].in_place) << r[i].name;
        }
        // no in-place form: the intergroup collectives, and bcast (no send buffer)
        EXPECT_EQ(r[i].in_place, std::string(r[i].collective).rfind("inter_", 0) != 0 &&
                                     std::string(r[i].collective) != "bcast")
            << r[i].name;
        EXPECT_EQ(r[i].needs_regions, r[i].setup_regions) << r[i].name;
        // the intergroup collectives, and only they, run on a group descriptor
        EXPECT_EQ(r[i].needs_groups, std::string(r[i].collective).rfind("inter_", 0) == 0)
            << r[i].name;
        EXPECT_EQ(cs_alg_locality_aware(r[i].collective, r[i].name), r[i].needs_regions);
        // ops: only a collective with an operation may restrict it, and the words users read
        // (`list algorithms`) say so exactly where the column does
        const cs_coll_props *cp = cs_coll_find(r[i].collective);
        if (r[i].commutative_only) {
            EXPECT_TRUE(cp && cp->op) << r[i].name;
        }
        EXPECT_EQ(r[i].commutative_only,
                  std::string(r[i].restriction).find("commutative operations only") !=
                      std::string::npos)
            << r[i].collective << "/" << r[i].name << ": " << r[i].restriction;
    }
    cs_err e = {};
    EXPECT_EQ(cs_alg_op_check("allreduce", "ring", "sum", &e), 0);
    EXPECT_EQ(cs_alg_op_check("allreduce", "recursive_doubling", "matmul", &e), 0);
    EXPECT_EQ(cs_alg_op_check("allreduce", "native:ompi", "matmul", &e), 0);
    EXPECT_EQ(cs_alg_op_check("reduce_scatter_block", "pairwise", "matmul", &e), -1);
    EXPECT_STREQ(e.msg, "reduce_scatter_block/pairwise takes commutative operations only "
                        "(MPI_ERR_OP otherwise), not matmul: use the operation sum, max or "
                        "bxor, or another algorithm (`./collsim list algorithms`)");
    EXPECT_TRUE(cs_alg_sends_derived("allgather", "sparbit_indexed"));
    EXPECT_TRUE(cs_alg_sends_derived("alltoall", "bruck_zero_copy"));
    EXPECT_FALSE(cs_alg_sends_derived("allgather", "sparbit_packed"));
    EXPECT_FALSE(cs_alg_sends_derived("allgather", "native"));
    EXPECT_EQ(cs_alg_find("allgather", "recursive_doubling")->p_rule, CS_P_POF2_FALLBACK);
    EXPECT_EQ(cs_alg_find("allgather", "neighbor_exchange")->p_rule, CS_P_EVEN_FALLBACK);
    EXPECT_EQ(cs_alg_find("allgather", "sparbit")->p_rule, CS_P_ANY);
    EXPECT_TRUE(cs_alg_locality_aware("allgather", "loc_bruck"));
    EXPECT_TRUE(cs_alg_locality_aware("allgather", "allgather/multilane@socket"));
    EXPECT_FALSE(cs_alg_locality_aware("allgather", "bruck"));
    EXPECT_FALSE(cs_alg_locality_aware("allgather", "native:ompi"));
    EXPECT_EQ(cs_alg_find("allgather", "loc"), nullptr);
}

TEST(Registry, PerRankStateAsTheCodeAllocatesIt)
{
    // two-phase Bruck: a step's sizes out and in (2 floor(p/2) ints), then
    // p sizes of 1, 2 or 4 bytes as the largest block n needs, then SMPI's
    // copies of a step's messages below 64 KiB (the sizes, the data at n/2
    // per block)
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 11, 255),
              4.0 * 10 + 11 + 4.0 * 5 + 5 * 127.5);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 11, 256),
              4.0 * 10 + 22 + 4.0 * 5 + 5 * 128.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 11, 65535),
              4.0 * 10 + 22 + 4.0 * 5); // 5 blocks of n/2: above 64 KiB
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 11, 65536),
              4.0 * 10 + 44 + 4.0 * 5);
    // at 32K ranks no message is eager; at 16K the size message is
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 32768, 16),
              4.0 * 32768 + 32768);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 16384, 64),
              4.0 * 16384 + 16384 + 4.0 * 8192);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "padded_bruck", 16, 8), 8.0 * 8);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "padded_bruck", 32768, 16), 0.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "spread_out", 11, 8), 16.0 * 11 + 10 * 4.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoall", "spread_out", 8, 8), 16.0 * 8);
    // the doubling allgathers: SMPI's copies of the largest step below 64 KiB,
    // min(d, p - d) blocks at step d (p = 11: 1, 2, 4, 3 blocks)
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "bruck", 11, 8), 4 * 8.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "sparbit_packed", 11, 8), 4 * 8.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "bruck", 32768, 8), 4096 * 8.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "recursive_doubling", 32768, 65536), 0.0);
    // per-block Sparbit: its step's blocks are messages of their own, all eager
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "sparbit", 8, 8), 4 * 8.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "ring", 8, 8), 0.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoall", "native", 8, 8), 0.0);
}

// The largest count one MPI call carries (algorithms.def, msg_blocks and
// msg_unit), against values worked out by hand from each schedule.
TEST(Registry, LargestMessageCountPerAlgorithm)
{
    struct { const char *coll, *alg; int p; long long blocks; } cases[] = {
        {"allgather", "ring", 7, 1},
        {"allgather", "ring", 1, 1},
        {"allgather", "bruck", 1, 1},
        {"allgather", "bruck", 3, 1},          // d = 1: 1, d = 2: min(2, 1)
        {"allgather", "bruck", 4, 2},          // 1, 2
        {"allgather", "bruck", 5, 2},          // 1, 2, 1
        {"allgather", "bruck", 7, 3},          // 1, 2, 3
        {"allgather", "bruck", 12, 4},         // 1, 2, 4, 4
        {"allgather", "bruck", 13, 5},         // 1, 2, 4, 5
        {"allgather", "bruck", 4096, 2048},
        {"allgather", "neighbor_exchange", 2, 1},
        {"allgather", "neighbor_exchange", 7, 1}, // the ring
        {"allgather", "neighbor_exchange", 8, 2}, // pairs
        {"allgather", "recursive_doubling", 8, 4},
        {"allgather", "recursive_doubling", 6, 5}, // the post-step: all but one block
        {"allgather", "recursive_doubling", 3, 2},
        {"allgather", "sparbit", 7, 1},            // one message per block
        {"allgather", "sparbit_indexed", 7, 6},    // int displacement of block 6
        {"allgather", "sparbit_packed", 7, 3},
        {"allgather", "sparbit_packed", 12, 6},
        {"allgather", "hierarchical", 7, 7},       // the broadcast of the result
        {"allgather", "loc_bruck", 10, 10},
        {"alltoall", "spread_out", 9, 1},
        {"alltoall", "pairwise", 9, 1},
        {"alltoall", "bruck_basic", 5, 2},         // odd i: 1, 3
        {"alltoall", "bruck_modified", 6, 3},
        {"alltoall", "bruck_zero_copy", 7, 3},
        {"alltoall", "bruck_zero_rotation", 2, 1},
        {"alltoallv", "spread_out", 9, 1},
        {"alltoallv", "two_phase_bruck", 6, 3},
        {"alltoallv", "padded_bruck", 11, 5},
        {"alltoallv", "padded_alltoall", 11, 11},
        {"allgather", "native:ring", 5, 5},        // assumed: p blocks
        {"alltoall", "native:bruck", 6, 6},
    };
    for (auto &c : cases) {
        cs_msg_count m;
        cs_alg_largest_count(c.coll, c.alg, c.p, 4096, 4, &m);
        EXPECT_EQ(m.blocks, c.blocks) << c.coll << "/" << c.alg << " p " << c.p;
        const bool bytes = !strcmp(c.coll, "alltoallv") && strcmp(c.alg, "spread_out");
        EXPECT_STREQ(m.unit, bytes ? "bytes" : "elements") << c.coll << "/" << c.alg;
        EXPECT_EQ(m.block, bytes ? 4096 : 1024) << c.coll << "/" << c.alg;
        EXPECT_EQ(m.assumed, !strncmp(c.alg, "native:", 7)) << c.alg;
    }
}

// Bruck's rules for every p up to 5000, against the steps themselves: the
// allgather's step d sends min(d, p-d) blocks, the alltoalls' step k every
// index below p with bit k set.
TEST(Registry, BruckMessageCountsMatchTheirSteps)
{
    for (int p = 1; p <= 5000; p++) {
        long long ag = 1, a2a = 1;
        for (int d = 1; d < p; d *= 2) {
            ag = std::max(ag, (long long)std::min(d, p - d));
            long long n = 0;
            for (int i = 0; i < p; i++)
                n += (i & d) != 0;
            a2a = std::max(a2a, n);
        }
        cs_msg_count m;
        cs_alg_largest_count("allgather", "bruck", p, 1, 1, &m);
        ASSERT_EQ(m.blocks, ag) << p;
        cs_alg_largest_count("alltoall", "bruck_basic", p, 1, 1, &m);
        ASSERT_EQ(m.blocks, a2a) << p;
    }
}

// The check names the algorithm, np, the size, the count and the limit, and
// lets through a case exactly at the limit.
TEST(Registry, CountCheckRefusesWhatAnIntCannotExpress)
{
    cs_err e;
    EXPECT_EQ(cs_alg_count_check("allgather", "bruck", 4, 1073741823, "byte", &e), 0);
    ASSERT_EQ(cs_alg_count_check("allgather", "bruck", 4, 1073741824, "byte", &e), -1);
    EXPECT_STREQ(e.msg, "allgather/bruck at np 4 with 1 GiB per rank sends 2 x 1073741824 "
                        "elements in one message: more than an MPI count (an int, at most "
                        "2147483647) can express");
    EXPECT_EQ(cs_alg_count_check("allgather", "ring", 4, 2147483647, "byte", &e), 0);
    // SMPI 3.32: a message of 2^31 bytes or more does not make its sender wait
    EXPECT_EQ(cs_alg_count_check("allgather", "ring", 4096, 2147483644, "int", &e), 0);
    ASSERT_EQ(cs_alg_count_check("allgather", "ring", 4096, 2147483648, "int", &e), -1);
    EXPECT_STREQ(e.msg, "allgather/ring at np 4096 with 2 GiB per rank spans up to 1 x 2147483648 "
                        "bytes in one MPI call (the algorithm's bound, algorithms.def msg_blocks): "
                        "SMPI 3.32 sends a message of 2147483648 bytes or more without making its "
                        "sender wait for it, so the predicted time could be wrong");
    ASSERT_EQ(cs_alg_count_check("allgather", "recursive_doubling", 3, 1073741824, "int", &e), -1);
    EXPECT_NE(std::string(e.msg).find("spans up to 2 x 1073741824 bytes"), std::string::npos) << e.msg;
    // the driver's alltoallv layout: p blocks of up to N elements, gaps of up to 3
    EXPECT_EQ(cs_alg_count_check("alltoallv", "spread_out", 2, 1073741819, "byte", &e), 0);
    ASSERT_EQ(cs_alg_count_check("alltoallv", "spread_out", 2, 1073741820, "byte", &e), -1);
    EXPECT_NE(std::string(e.msg).find("displacements up to 2147483649 byte elements"),
              std::string::npos) << e.msg;
}

// The cost column and analysis/cost_model.c agree: a model exactly where
// the registry names one.
TEST(Registry, CostModelsComeFromTheRegistry)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++) {
        const cs_cost_model *m = cs_cost_model_find(r[i].collective, r[i].name);
        const char *model = cs_alg_cost_model(r[i].collective, r[i].name);
        EXPECT_EQ(m != nullptr, model != nullptr) << r[i].collective << "/" << r[i].name;
        if (m) {
            EXPECT_STRNE(m->formula, "") << r[i].name;
        }
    }
    EXPECT_STREQ(cs_alg_cost_model("alltoall", "bruck_zero_copy"), "padded_bruck");
    EXPECT_EQ(cs_alg_cost_model("alltoallv", "padded_alltoall"), nullptr);
    EXPECT_STREQ(cs_alg_with_cost_model("alltoallv", "two_phase_bruck"), "two_phase_bruck");
    EXPECT_STREQ(cs_alg_with_cost_model("alltoallv", "padded_bruck"), "padded_bruck");
    EXPECT_STREQ(cs_alg_with_cost_model("alltoallv", "spread_out_v"), "spread_out");
    EXPECT_STREQ(cs_alg_with_cost_model("allgather", "sparbit"), "sparbit");
    EXPECT_EQ(cs_alg_with_cost_model("allgather", "padded_bruck"), nullptr);
}

// ---- docs/algorithms.md's tables against algorithms.def ----

// The collectives a heading of docs/algorithms.md is about: the backquoted
// collective names in it when it has any, else its words that name one
// ("## gather and scatter (...)": gather, scatter).
std::set<std::string> heading_collectives(const std::string &heading, const std::set<std::string> &colls)
{
    std::set<std::string> quoted, words;
    static const std::regex quote("`([a-z_]+)`"), word("[a-z_]+");
    for (std::sregex_iterator i(heading.begin(), heading.end(), quote), e; i != e; ++i)
        if (colls.count((*i)[1]))
            quoted.insert((*i)[1]);
    for (std::sregex_iterator i(heading.begin(), heading.end(), word), e; i != e; ++i)
        if (colls.count(i->str()))
            words.insert(i->str());
    return quoted.empty() ? words : quoted;
}

// One line per problem of the algorithm tables in doc (the text of
// docs/algorithms.md): an algorithm of algorithms.def that no table row
// names, a row naming COLL/NAME that algorithms.def does not have, a row
// under a "## " heading that is not about its collective. A row names its
// algorithms as `COLL/NAME` in its first cell (`COLL/native:NAME`: SMPI's,
// only its collective is checked).
std::vector<std::string> algorithm_table_problems(const std::string &doc)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    std::set<std::string> want, colls, seen;
    for (size_t i = 0; i < n; i++) {
        want.insert(std::string(r[i].collective) + "/" + r[i].name);
        colls.insert(r[i].collective);
    }
    std::vector<std::string> problems;
    std::string heading = "(no heading)", line;
    std::set<std::string> about;
    std::istringstream in(doc);
    static const std::regex named("`([a-z_]+)/([A-Za-z0-9_:]+)`");
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0) {
            heading = line;
            about = heading_collectives(line, colls);
            continue;
        }
        if (line.rfind("| `", 0) != 0)
            continue;
        const std::string first = line.substr(1, line.find('|', 1) - 1);
        for (std::sregex_iterator i(first.begin(), first.end(), named), e; i != e; ++i) {
            const std::string coll = (*i)[1], name = (*i)[2], full = coll + "/" + name;
            if (name.rfind("native:", 0) != 0) {
                if (want.count(full))
                    seen.insert(full);
                else
                    problems.push_back("'" + heading + "' names " + full + ", which algorithms.def does not have");
            }
            if (!colls.count(coll))
                problems.push_back("'" + heading + "' names " + full + ": " + coll + " is no collective");
            else if (!about.count(coll))
                problems.push_back(full + " is listed under '" + heading + "', not under a heading of " + coll);
        }
    }
    for (const std::string &w : want)
        if (!seen.count(w))
            problems.push_back(w + " of algorithms.def is in no table of docs/algorithms.md");
    return problems;
}

std::string doc_text(const char *rel)
{
    const std::string path = std::string(COLLSIM_TEST_DATA_DIR) + "/../../" + rel;
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(AlgorithmsDoc, TheTablesListEveryAlgorithmOfTheDefUnderItsCollective)
{
    const std::vector<std::string> problems = algorithm_table_problems(doc_text("docs/algorithms.md"));
    std::string all;
    for (const std::string &p : problems)
        all += p + "\n";
    EXPECT_TRUE(problems.empty()) << all;
}

// The check itself: a row dropped, a name the .def does not have, a row
// under another collective's heading, each reported by name.
TEST(AlgorithmsDoc, TheCheckNamesAMissingAnExtraAndAMisplacedRow)
{
    std::string doc = doc_text("docs/algorithms.md");
    const auto drop = [&doc](const std::string &start) {
        const size_t at = doc.find("\n" + start);
        ASSERT_NE(at, std::string::npos) << start;
        doc.erase(at, doc.find('\n', at + 1) - at);
    };
    drop("| `allgather/ring` |");
    drop("| `alltoall/pairwise` |");
    const size_t all = doc.find("\n| `allgather/bruck` |");
    ASSERT_NE(all, std::string::npos);
    doc.insert(all, "\n| `allgather/no_such_one` | x | x | x |\n| `alltoall/pairwise` | x | x | x |");
    const std::vector<std::string> p = algorithm_table_problems(doc);
    std::string text;
    for (const std::string &s : p)
        text += s + "\n";
    EXPECT_EQ(p.size(), 3u) << text;
    EXPECT_NE(text.find("allgather/ring of algorithms.def is in no table"), std::string::npos) << text;
    EXPECT_NE(text.find("'## allgather' names allgather/no_such_one, which algorithms.def does not have"),
              std::string::npos) << text;
    EXPECT_NE(text.find("alltoall/pairwise is listed under '## allgather', not under a heading of alltoall"),
              std::string::npos) << text;
}

} // namespace
