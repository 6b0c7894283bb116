// The algorithm registry: names users type, and SMPI's built-in baselines.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

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
        std::string full = std::string(r[i].collective) + "/" + r[i].name;
        for (const std::string &spec : {std::string(r[i].name), full}) {
            ASSERT_EQ(tw_resolve(r[i].collective, spec.c_str(), cfg, sizeof cfg, alg, sizeof alg,
                                 err, sizeof err), 0) << err;
            EXPECT_STREQ(alg, r[i].name);
            EXPECT_STREQ(cfg, "");
        }
        EXPECT_STRNE(r[i].paper, "");
        EXPECT_STRNE(r[i].section, "");
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

// The capability columns as the code has them: MPI_IN_PLACE where the
// driver offers it, derived datatypes where a step is one indexed message,
// regions for the locality-aware algorithms (built before the timing).
TEST(Registry, CapabilitiesAreConsistent)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++) {
        EXPECT_EQ(r[i].in_place, cs_collective_in_place(r[i].collective)) << r[i].name;
        EXPECT_EQ(r[i].needs_regions, r[i].setup_regions) << r[i].name;
        EXPECT_EQ(r[i].needs_groups, 0) << r[i].name;
        EXPECT_EQ(cs_alg_locality_aware(r[i].collective, r[i].name), r[i].needs_regions);
    }
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
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "two_phase_bruck", 11), 4.0 * (11 + 10));
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoallv", "spread_out", 11), 16.0 * 11);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoall", "spread_out", 8), 16.0 * 8);
    EXPECT_EQ(cs_alg_rank_state_bytes("allgather", "sparbit", 8), 0.0);
    EXPECT_EQ(cs_alg_rank_state_bytes("alltoall", "native", 8), 0.0);
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

} // namespace
