// collsim tune: the decision files written from a sweep's results (analysis/tune.c), read
// back as text: their origin, the threshold, ties, the bounds of the simulated range, and one
// line naming the value for each bad input. That Open MPI and libcollsim_pmpi load them and run
// what they name: tests/realmpi/tune.sh; MPICH: tests/realmpi/tune_mpich.sh (label realmpi).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "cli.h"
extern "C" {
#include "distributions.h"
}

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
    EXPECT_TRUE(has(ompi, "\n10  # collectives\n0  # allgather\n4  # communicator sizes\n1  # below the simulated np")) << ompi;
    EXPECT_TRUE(has(ompi, "\n5  # np 5\n5\n0 0 0 0  # below the simulated sizes: Open MPI's own decision\n80 2 0 0  # 16 B per rank: 2 bruck")) << ompi;
    EXPECT_TRUE(has(ompi, "without an Open MPI 4.1 counterpart")) << ompi;
    EXPECT_TRUE(has(ompi, "allgather/sparbit")) << ompi;
}

// The files of the fixture are the recorded ones, but for the line naming collsim's version (the
// library mappings live in algorithms/algorithms.def). A point whose fastest row the file cannot
// name (an SMPI built-in in collsim's table) says so beside the library's decision:
// "native:ompi_ring_segmented is fastest (65.81 us) but collsim's table cannot name it".
TEST(CliTune, TheOpenMpiRulesAndTheTableAreTheRecordedOnes)
{
    TmpDir d;
    ASSERT_EQ(cli("tune " + fixture + " --scenario tune-small --out " + d.path).code, 0);
    for (auto [file, recorded] : {std::pair{"/ompi-rules.conf", "/tune-ompi-rules.conf"},
                                  std::pair{"/collsim-decisions.txt", "/tune-decisions.txt"}}) {
        Out o = run_shell("sed 2d " + d.path + file + " | cmp - " + std::string(COLLSIM_TEST_DATA_DIR) + recorded);
        EXPECT_EQ(o.code, 0) << file << ": " << o.text;
        EXPECT_TRUE(has(slurp(d.path + file), "\n# written by collsim ")) << file;
    }
}

// MPICH 4.0's selection file: every collective MPICH may select, on intra- and
// intercommunicators; per np and MPICH's message size the algorithm, MPICH's own choice
// outside the simulated range; restricted algorithms behind their test. That MPICH loads it
// and runs what it names: tests/realmpi/tune_mpich.sh.
TEST(CliTune, TheMpichFileNamesAnAlgorithmForEveryCall)
{
    TmpDir d;
    Out o = cli("tune " + fixture + " --scenario tune-small --out " + d.path);
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_TRUE(has(o.text, "/mpich-selection.json, " + d.path + "/mpich-ch4-selection.json\n")) << o.text;
    std::string j = slurp(d.path + "/mpich-selection.json");
    EXPECT_TRUE(has(j, " * scenario tune-small, platform yahoo, mapping cyclic, model network; threshold 5%")) << j;
    // the 44 collectives of MPICH 4.0's csel.c, each once
    Out n = run_shell("grep -o '\"collective=[a-z_]*\"' " + d.path + "/mpich-selection.json | sort -u | wc -l");
    EXPECT_EQ(n.text, "44\n");
    n = run_shell("grep -c '^\"collective=' " + d.path + "/mpich-selection.json");
    EXPECT_EQ(n.text, "44\n");
    // braces balance outside the comments
    n = run_shell("sed 's#/\\*.*\\*/##' " + d.path + "/mpich-selection.json | grep -v '^ \\*\\|^/\\*' | tr -cd '{}' | "
                  "awk '{ for (i = 1; i <= length($0); i++) { d += substr($0, i, 1) == \"{\" ? 1 : -1; if (d < 0) bad = 1 } } END { print d, bad + 0 }'");
    EXPECT_EQ(n.text, "0 0\n");
    // allgather: MPICH compares bytes per rank x np; bruck at np 5 from 16 B (80) to below 1 KiB (5120)
    EXPECT_TRUE(has(j, "\n      \"total_msg_size<=5119\": {\"algorithm=MPIR_Allgather_intra_brucks\": {}} /* 16 B per rank: ")) << j;
    EXPECT_TRUE(has(j, "\n    \"comm_size<=4\": ")) << j;  // below np 5: MPICH's own
    EXPECT_TRUE(has(j, "\n    \"comm_size<=7\": { /* np 5 */\n")) << j;
    EXPECT_TRUE(has(j, "\n  \"comm_type=inter\": {\"algorithm=MPIR_Allgather_inter_local_gather_remote_bcast\": {}}")) << j;
    // alltoall(v): MPI_IN_PLACE calls take MPICH's in-place algorithm
    EXPECT_TRUE(has(j, "\"is_sendbuf_inplace=yes\": {\"algorithm=MPIR_Alltoallv_intra_pairwise_sendrecv_replace\": {}}")) << j;
    // Rabenseifner's allreduce behind MPICH's restriction (built-in operation, count >= pof2)
    EXPECT_TRUE(has(j, "{\"is_op_built_in=yes\": {\"count<pow2\": ")) << j;
    EXPECT_TRUE(has(j, "\"count=any\": {\"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather\": {}}}, \"is_op_built_in=no\": ")) << j;
    // sparbit has no MPICH counterpart: said at the end
    EXPECT_TRUE(has(j, "without an MPICH 4.0 counterpart")) << j;
    EXPECT_TRUE(has(j, " allgather/sparbit")) << j;
    std::string ch4 = slurp(d.path + "/mpich-ch4-selection.json");
    EXPECT_TRUE(has(ch4, "\"collective=allreduce\": {\"comm_type=intra\": {\"composition=MPIDI_Allreduce_intra_composition_beta\": {}}}")) << ch4;
    n = run_shell("grep -c '^\"collective=' " + d.path + "/mpich-ch4-selection.json");
    EXPECT_EQ(n.text, "17\n");
}

// The reductions (tests/data/tune-reductions.xml's rows of the fixture), each in its library's
// measure: Open MPI 4.1 compares a reduce's buffer, a reduce_scatter_block's p blocks and a
// reduce_scatter's blocks summed (coll_tuned_decision_dynamic.c); MPICH 4.0 the same totals as
// total_msg_size (csel.c). That the libraries run what the files name: tests/realmpi/tune*.sh.
TEST(CliTune, TheReductionsInEachLibrarysMeasure)
{
    TmpDir d;
    ASSERT_EQ(cli("tune " + fixture + " --scenario tune-small --out " + d.path).code, 0);
    std::string ompi = slurp(d.path + "/ompi-rules.conf");
    // COLLTYPE_T 11, 12, 13; at np 5: reduce 16 B is 16, reduce_scatter_block's 16 B blocks 80
    EXPECT_TRUE(has(ompi, "\n11  # reduce\n4  # communicator sizes\n")) << ompi;
    EXPECT_TRUE(has(ompi, "\n16 5 0 0  # 16 B per rank: 5 binomial: ")) << ompi;
    EXPECT_TRUE(has(ompi, "\n65536 7 0 0  # 65536 B per rank: 7 rabenseifner: ")) << ompi;
    EXPECT_TRUE(has(ompi, "\n13  # reduce_scatter_block\n4  # communicator sizes\n")) << ompi;
    EXPECT_TRUE(has(ompi, "\n80 3 0 0  # 16 B per rank: 3 recursive_halving: ")) << ompi;
    EXPECT_TRUE(has(ompi, "\n12  # reduce_scatter\n4  # communicator sizes\n")) << ompi;
    EXPECT_TRUE(has(ompi, "\n5120 3 0 0  # 1024 B per rank: 3 ring: ")) << ompi;
    std::string j = slurp(d.path + "/mpich-selection.json");
    // behind MPICH's own test: commutative operations only; MPICH's own choice restated
    EXPECT_TRUE(has(j, "\n      \"total_msg_size<=5119\": {\"is_commutative=yes\": {\"algorithm=MPIR_Reduce_scatter_block_intra_recursive_halving\": {}}, \"is_commutative=no\": {\"is_commutative=yes\": {\"total_msg_size<=524287\": ")) << j;
    EXPECT_TRUE(has(j, "\"is_commutative=no\": {\"is_block_regular=yes\": {\"comm_size=pow2\": {\"algorithm=MPIR_Reduce_scatter_intra_noncommutative\": {}}")) << j;
    // reduce_scatter's blocks as the driver drew them: with --dist uniform the rule is at their sum
    run_shell("sed 's/,reduce_scatter,\\([^,]*\\),,network,int,check,window:0,/,reduce_scatter,\\1,,network,int,check,uniform,/' " +
              fixture + " >" + d.path + "/uniform.csv");
    ASSERT_EQ(cli("tune " + d.path + "/uniform.csv --out " + d.path + "/u").code, 0);
    cs_dist u;
    char err[256];
    ASSERT_EQ(cs_dist_parse("uniform", &u, err, sizeof err), 0);
    long sum = 0;
    for (int r = 0; r < 5; r++)
        sum += cs_dist_block(&u, 1, 0, r, 1024 / 4) * 4;
    EXPECT_LT(sum, 5 * 1024);
    std::string uo = slurp(d.path + "/u/ompi-rules.conf");
    EXPECT_TRUE(has(uo, "\n" + std::to_string(sum) + " 3 0 0  # 1024 B per rank: 3 ring: ")) << sum << uo;
    EXPECT_TRUE(has(slurp(d.path + "/u/mpich-selection.json"), "\"total_msg_size<=" + std::to_string(sum - 1) + "\": ")) << sum;
    // a distribution that does not read: one line naming it
    run_shell("sed 's/,window:0,/,window:200,/' " + fixture + " >" + d.path + "/bad.csv");
    Out o = cli("tune " + d.path + "/bad.csv --out " + d.path + "/b");
    EXPECT_EQ(o.code, 2);
    EXPECT_TRUE(has(o.text, "reduce_scatter at np 5, 16 bytes: dist: ")) << o.text;
    EXPECT_TRUE(has(o.text, "window:200")) << o.text;
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

// tune read a file holding a row twice that report and merge refuse: it refuses it with the
// same line as report (the one reader's check).
TEST(CliTune, ARowGivenTwiceIsRefusedAsReportRefusesIt)
{
    TmpDir d;
    const std::string twice = d.path + "/twice.csv";
    run_shell("(cat " + fixture + "; sed -n 2p " + fixture + ") > " + twice);
    Out tune = cli("tune " + twice + " --out " + d.path + "/t");
    EXPECT_EQ(tune.code, 2) << tune.text;
    EXPECT_TRUE(has(tune.text, "collsim: " + twice + " holds 1 (case, size) key more than once (e.g. "))
        << tune.text;
    EXPECT_TRUE(has(tune.text, "`collsim repair " + twice + "`")) << tune.text;
    EXPECT_EQ(tune.text.find('\n'), tune.text.size() - 1) << tune.text;
    Out report = cli("report " + twice + " --out " + d.path + "/r");
    EXPECT_EQ(report.code, 2) << report.text;
    EXPECT_EQ(tune.text, report.text);
    EXPECT_FALSE(has(slurp(d.path + "/t/collsim-decisions.txt"), "allgather")); // nothing written
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
