// The command line as users meet it: listings, a single bench run, and a
// one-line error naming the value and the valid choices for each bad input.
#include <gtest/gtest.h>

#include <string>

#include "cli.h"

namespace {

TEST(Cli, ListsAlgorithmsAndPlatforms)
{
    Out a = cli("list algorithms");
    EXPECT_EQ(a.code, 0);
    for (const char *name : {"allgather/ring", "allgather/neighbor_exchange",
                             "allgather/recursive_doubling", "allgather/bruck", "allgather/sparbit",
                             "native:{ompi,mpich,mvapich2,impi}"})
        EXPECT_NE(a.text.find(name), std::string::npos) << name;
    Out p = cli("list platforms");
    EXPECT_EQ(p.code, 0);
    for (const char *name : {"yahoo", "cervino", "fattree-32k"})
        EXPECT_NE(p.text.find(name), std::string::npos) << name;
    EXPECT_NE(p.text.find("32768"), std::string::npos);
}

TEST(Cli, BenchPrintsAnOsuTable)
{
    Out o = cli("bench --platform yahoo --np 13 --map cyclic --alg sparbit --sizes 1:1024 --iters 2");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("# Size"), std::string::npos);
    EXPECT_NE(o.text.find("Avg Latency(us)"), std::string::npos);
    size_t passes = 0;
    for (size_t at = 0; (at = o.text.find("Pass", at)) != std::string::npos; at++)
        passes++;
    EXPECT_EQ(passes, 11u) << o.text; // 1, 2, 4, ..., 1024
}

TEST(Cli, BenchFailsWhenTheDataCheckFails)
{
    setenv("COLLSIM_FAULT", "2:1:0", 1);
    Out f = cli("bench --platform yahoo --np 6 --alg ring --sizes 16 --iters 1");
    unsetenv("COLLSIM_FAULT");
    EXPECT_EQ(f.code, 1) << f.text;
    EXPECT_NE(f.text.find("FAIL"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("rank 2, block 1, offset 0"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("re-run by hand"), std::string::npos) << f.text;
}

TEST(Cli, BadInputGetsOneLineNamingTheValueAndTheChoices)
{
    struct { const char *args, *want; } cases[] = {
        {"bench --platform yahooo --np 4 --alg ring", "unknown platform 'yahooo' (valid: cervino, cori, cori-knl, fattree-32k, "},
        {"bench --platform yahoo --np 4 --alg rign", "unknown allgather algorithm 'rign' (valid: ring,"},
        {"bench --platform yahoo --np 129 --alg ring", "129 processes do not fit on platform 'yahoo' (16 nodes, 128 cores in all)"},
        {"bench --platform yahoo --np 4 --alg ring --sizes 1:x", "size list: cannot read '1:x'"},
        {"bench --platform yahoo --np 4 --alg ring --map block", "unknown mapping 'block' (valid: sequential, cyclic)"},
        {"bench --platform yahoo --np 4 --alg ring --coll gather", "unknown collective 'gather' (valid: allgather, alltoall, alltoallv)"},
        {"bench --platform yahoo --np 4 --alg ring --dtype int --sizes 6", "size 6 is not a multiple of the int size"},
        {"bench --platform yahoo --np 0 --alg ring", "--np needs an integer >= 1"},
        {"bench --platform fattree-32k --np 32768 --alg ring --sizes 1M", "use --fold"},
        {"run /nonexistent.xml", "scenario file '/nonexistent.xml' cannot be read"},
        {"list things", "valid: algorithms, platforms"},
        {"frobnicate", "unknown command 'frobnicate'"},
    };
    for (auto &c : cases) {
        Out o = cli(c.args);
        EXPECT_EQ(o.code, 2) << c.args << "\n" << o.text;
        EXPECT_NE(o.text.find(c.want), std::string::npos) << c.args << "\n" << o.text;
        EXPECT_EQ(o.text.find('\n'), o.text.size() - 1) << c.args << ": not one line:\n" << o.text;
    }
}

} // namespace
