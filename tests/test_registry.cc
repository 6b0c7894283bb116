// The algorithm registry: names users type, and SMPI's built-in baselines.
#include <gtest/gtest.h>

#include <string>

extern "C" {
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

} // namespace
