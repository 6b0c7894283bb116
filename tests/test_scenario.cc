// Scenario files: the valid one expands as written; each kind of mistake gets
// an error naming the file, the line and what would be valid.
#include <gtest/gtest.h>

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

TEST(Scenario, ShippedScenariosLoad)
{
    for (const char *f : {"quickstart.xml", "regression-small.xml"}) {
        long n;
        char err[4096];
        std::string path = std::string(COLLSIM_SOURCE_DIR) + "/scenarios/" + f;
        EXPECT_EQ(tw_scenario(path.c_str(), &n, err, sizeof err), 0) << err;
        EXPECT_GT(n, 0) << f;
    }
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
        {"malformed-scenario.xml", "malformed-scenario.xml:5:", "malformed XML: Premature end of data"},
        {"no-such-file.xml", "no-such-file.xml", "cannot be read"},
    };
    for (auto &c : cases) {
        std::string e = error_of(c.file);
        EXPECT_NE(e.find(c.where), std::string::npos) << c.file << ": " << e;
        EXPECT_NE(e.find(c.what), std::string::npos) << c.file << ": " << e;
    }
}

} // namespace
