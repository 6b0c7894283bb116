// collsim tune: the decision files written from a sweep's results (analysis/tune.c), read
// back as text: their origin, the threshold, ties, the bounds of the simulated range, and one
// line naming the value for each bad input. That Open MPI and libcollsim_pmpi load them and run
// what they name: tests/realmpi/tune.sh (label realmpi).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "cli.h"

namespace {

const std::string fixture = std::string(COLLSIM_TEST_DATA_DIR) + "/tune-results.csv";

std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct TmpDir {
    std::string path;
    TmpDir()
    {
        char t[] = "/tmp/collsim-tune-test-XXXXXX";
        path = mkdtemp(t);
    }
    ~TmpDir() { run_shell("rm -rf '" + path + "'"); }
};

bool has(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

TEST(CliTune, WritesBothFilesWithTheirOrigin)
{
    TmpDir d;
    Out o = cli("tune " + fixture + " --scenario tune-small --out " + d.path);
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_TRUE(has(o.text, "# scenario tune-small, platform yahoo, mapping cyclic, model network, threshold 5%")) << o.text;
    for (const char *file : {"/collsim-decisions.txt", "/ompi-rules.conf"}) {
        std::string t = slurp(d.path + file);
        EXPECT_TRUE(has(t, "# written by collsim 0.1")) << file << t;
        EXPECT_TRUE(has(t, "from " + fixture)) << file;
        EXPECT_TRUE(has(t, "# scenario tune-small, platform yahoo, mapping cyclic, model network; threshold 5%")) << file;
    }
    std::string table = slurp(d.path + "/collsim-decisions.txt");
    // bruck is 21% faster than native:ompi at np 5, 16 B; the simulated range is bounded
    EXPECT_TRUE(has(table, "\nallgather 5 16 bruck  # 97.01 us, 21.18% faster than native:ompi\n")) << table;
    EXPECT_TRUE(has(table, "\nallgather 5 65537 library  # beyond the largest simulated size\n")) << table;
    EXPECT_TRUE(has(table, "\nallgather 9 0 library  # beyond the largest simulated np\n")) << table;
    // alltoallv: one rule per np (decided by the communicator's size only)
    EXPECT_TRUE(has(table, "\nalltoallv 5 0 ")) << table;
    EXPECT_FALSE(has(table, "\nalltoallv 5 16 ")) << table;
    // Open MPI's message size: allgather 16 B per rank x 5 ranks; the first rule at 0
    std::string ompi = slurp(d.path + "/ompi-rules.conf");
    EXPECT_TRUE(has(ompi, "\n7  # collectives\n0  # allgather\n4  # communicator sizes\n1  # below the simulated np")) << ompi;
    EXPECT_TRUE(has(ompi, "\n5  # np 5\n5\n0 0 0 0  # below the simulated sizes: Open MPI's own decision\n80 2 0 0  # 16 B per rank: 2 bruck")) << ompi;
    EXPECT_TRUE(has(ompi, "without an Open MPI 4.1 counterpart")) << ompi;
    EXPECT_TRUE(has(ompi, "allgather/sparbit")) << ompi;
}

TEST(CliTune, TheThresholdAndTiesKeepTheLibrary)
{
    TmpDir d;
    // bruck gains 0.94% over native:ompi at np 8, 16 B: kept at 5%, chosen at 0.5%
    ASSERT_EQ(cli("tune " + fixture + " --out " + d.path).code, 0);
    std::string t5 = slurp(d.path + "/collsim-decisions.txt");
    EXPECT_TRUE(has(t5, "\nallgather 8 16 library  # bruck (107.41 us) gains 0.94% over native:ompi, below 5%\n")) << t5;
    ASSERT_EQ(cli("tune " + fixture + " --threshold 0.5 --out " + d.path).code, 0);
    std::string t05 = slurp(d.path + "/collsim-decisions.txt");
    EXPECT_TRUE(has(t05, "\nallgather 8 16 bruck  # 107.41 us, 0.94% faster than native:ompi\n")) << t05;
    // at 100% nothing gains enough: every rule is the library's, every Open MPI number 0
    ASSERT_EQ(cli("tune " + fixture + " --threshold 100 --out " + d.path).code, 0);
    Out named = run_shell("grep -v '^#' " + d.path + "/collsim-decisions.txt | grep -vc ' library '");
    EXPECT_EQ(named.text, "0\n");
    Out numbers = run_shell("grep -E '^[0-9]+ [1-9][0-9]* 0 0' " + d.path + "/ompi-rules.conf | wc -l");
    EXPECT_EQ(numbers.text, "0\n");
    // a tie (identical times) names no winner
    EXPECT_TRUE(has(t5, "\nscatter 8 65536 library  # linear and native:ompi tie (3848.77 us)\n")) << t5;
}

TEST(CliTune, BadInputGetsOneLineNamingTheValue)
{
    TmpDir d;
    Out o = cli("tune " + d.path + "/none.csv --out " + d.path);
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, d.path + "/none.csv")) << o.text;
    o = cli("tune " + fixture + " --threshold lots --out " + d.path);
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "collsim: tune: --threshold 'lots': a percentage from 0 to 100")) << o.text;
    o = cli("tune " + fixture + " --platform theta --out " + d.path);
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "has no row with status ok of platform theta")) << o.text;
    // two mappings in one file: choose one
    run_shell("(cat " + fixture + "; sed 1d " + fixture + " | sed 's/^yahoo,cyclic,/yahoo,sequential,/') > " +
              d.path + "/two.csv");
    o = cli("tune " + d.path + "/two.csv --out " + d.path);
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "holds several mappings (cyclic, sequential, ...): choose one with --mapping")) << o.text;
    EXPECT_EQ(cli("tune " + d.path + "/two.csv --mapping sequential --out " + d.path).code, 0);
    o = cli("tune");
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "collsim: tune needs a results file")) << o.text;
}

} // namespace
