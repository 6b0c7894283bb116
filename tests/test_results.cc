// The results CSV: one format, read back exactly as written.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "wrapper.h"

namespace {

TEST(Results, RoundTripIsBitExactAndQuotesTheNote)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = std::string(dir) + "/r.csv";
    cs_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.platform, sizeof r.platform, "yahoo");
    snprintf(r.mapping, sizeof r.mapping, "cyclic");
    r.np = 253;
    snprintf(r.collective, sizeof r.collective, "allgather");
    snprintf(r.algorithm, sizeof r.algorithm, "native:ompi");
    snprintf(r.dtype, sizeof r.dtype, "byte");
    snprintf(r.mode, sizeof r.mode, "check");
    r.bytes = 1048576;
    r.avg_us = 0.1 + 0.2; // not representable in few digits
    r.min_us = 1.0 / 3.0;
    r.max_us = 12345.678901234567;
    r.iterations = 3;
    snprintf(r.status, sizeof r.status, "error");
    snprintf(r.note, sizeof r.note, "rank 3, block \"5\", offset 7\nsecond line");
    FILE *f = fopen(path.c_str(), "w");
    cs_results_write_header(f);
    cs_results_write_row(f, &r);
    fclose(f);

    cs_result *rows;
    size_t n;
    char err[2048];
    ASSERT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 1u);
    EXPECT_STREQ(rows[0].platform, "yahoo");
    EXPECT_STREQ(rows[0].algorithm, "native:ompi");
    EXPECT_EQ(rows[0].np, 253);
    EXPECT_EQ(rows[0].bytes, 1048576);
    EXPECT_EQ(rows[0].avg_us, r.avg_us); // bit for bit
    EXPECT_EQ(rows[0].min_us, r.min_us);
    EXPECT_EQ(rows[0].max_us, r.max_us);
    EXPECT_STREQ(rows[0].note, "rank 3, block \"5\", offset 7 second line");
    tw_free_rows(rows);
    tw_rmtree(dir);
}

TEST(Results, ForeignFilesAreRejected)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = std::string(dir) + "/x.csv";
    FILE *f = fopen(path.c_str(), "w");
    fputs("a,b,c\n1,2,3\n", f);
    fclose(f);
    cs_result *rows;
    size_t n;
    char err[2048];
    EXPECT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("not a collsim results file"), std::string::npos) << err;
    tw_rmtree(dir);
}

} // namespace
