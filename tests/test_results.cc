// The results CSV: one format, read back exactly as written.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "wrapper.h"

namespace {

TEST(Results, RoundTripIsBitExactAndQuotesTheNote)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = std::string(dir) + "/r.csv";
    cs_result r;
    cs_result_init(&r);
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
    r.ppn = 4;
    snprintf(r.region, sizeof r.region, "socket");
    snprintf(r.dist, sizeof r.dist, "window:50");
    r.seed = 18446744073709551615ul;
    r.data_bytes = 123456789012345ll;
    r.nonlocal_max_msgs = 4;
    r.nonlocal_total_bytes = 1ll << 40;
    snprintf(r.account, sizeof r.account, "socket:1:4:16:64;node:4:15:48:180");
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
    EXPECT_EQ(rows[0].ppn, 4);
    EXPECT_STREQ(rows[0].region, "socket");
    EXPECT_STREQ(rows[0].dist, "window:50");
    EXPECT_EQ(rows[0].seed, r.seed);
    EXPECT_EQ(rows[0].data_bytes, r.data_bytes);
    EXPECT_EQ(rows[0].nonlocal_max_msgs, 4);
    EXPECT_EQ(rows[0].nonlocal_max_bytes, -1); // not measured
    EXPECT_EQ(rows[0].nonlocal_total_bytes, 1ll << 40);
    EXPECT_STREQ(rows[0].account, "socket:1:4:16:64;node:4:15:48:180");
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

// Writes text as a results file and reads it: the row count, or -1 with the
// error (naming the file as F) in *err.
long read_text(const std::string &text, std::string *err)
{
    char dir[256], buf[2048];
    EXPECT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = std::string(dir) + "/t.csv";
    FILE *f = fopen(path.c_str(), "w");
    fputs(text.c_str(), f);
    fclose(f);
    cs_result *rows;
    size_t n;
    long rc = tw_read_results(path.c_str(), &rows, &n, buf, sizeof buf) ? -1 : (long)n;
    if (rc > 0)
        tw_free_rows(rows);
    *err = rc < 0 ? std::string(buf).replace(0, path.size(), "F") : "";
    tw_rmtree(dir);
    return rc;
}

// A row with status ok must hold times: nan, inf or a negative value would be
// "best" or skew every comparison. Rows that did not pass hold no measurement
// and keep reading whatever their time columns say.
TEST(Results, TimesOfAnOkRowAreFiniteAndNotNegative)
{
    std::string head = "np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
                       "iterations,status\n4,allgather,ring,byte,check,1,2.5,2,3,3,ok\n";
    std::string err;
    std::pair<std::string, std::string> bad[] = {
        {"-5,2,3,3,ok", "F:3: column avg_us: '-5' is not a time"},
        {"2,nan,3,3,ok", "F:3: column min_us: 'nan' is not a time"},
        {"2,1,inf,3,ok", "F:3: column max_us: 'inf' is not a time"},
        {"2,1,-inf,3,ok", "F:3: column max_us: '-inf' is not a time"},
    };
    for (auto &b : bad) {
        EXPECT_EQ(read_text(head + "4,allgather,bruck,byte,check,1," + b.first + "\n", &err), -1);
        EXPECT_EQ(err.rfind(b.second, 0), 0u) << err;
    }
    // error, timeout and fail rows are read as they are
    EXPECT_EQ(read_text(head + "4,allgather,a,byte,check,1,nan,nan,nan,0,error\n"
                               "4,allgather,b,byte,check,1,-1,-1,-1,0,timeout\n"
                               "4,allgather,c,byte,check,1,0,0,inf,3,fail\n",
                        &err),
              4)
        << err;
}

// A header of more than 64 columns made the reader index past its column
// table (found reviewing the reader for its fuzz target; the input is in
// tests/fuzz/regressions/results/); a line longer than
// the reader's buffer was read as two rows; an integer column kept the low
// 32 bits of a larger value (np 4294967297 read as 1).
TEST(Results, WideHeadersLongLinesAndLargeIntegersAreErrors)
{
    std::string head = "np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
                       "iterations,status";
    std::string row = "4,allgather,ring,byte,check,1,2.5,2,3,3,ok";
    std::string wide = head, wide_row = row, err;
    for (int i = 0; i < 60; i++) {
        wide += ",x" + std::to_string(i);
        wide_row += ",0";
    }
    EXPECT_EQ(read_text(wide + "\n" + wide_row + "\n", &err), -1);
    EXPECT_EQ(err, "F:1: more than 64 columns in the header");
    EXPECT_EQ(read_text(head + ",note\n" + row + "," + std::string(9000, 'n') + "\n", &err), -1);
    EXPECT_EQ(err, "F:2: line longer than 8191 characters");
    EXPECT_EQ(read_text(head + "\n" + "4294967297" + row.substr(1) + "\n", &err), -1);
    EXPECT_EQ(err, "F:2: column np: '4294967297' is out of range");
    // lines that just fit, with and without a line break at the end of the file, read
    std::string longest = row + "," + std::string(8191 - row.size() - 1, 'n');
    EXPECT_EQ(read_text(head + ",note\n" + longest + "\n" + longest + "\n" + longest, &err), 3)
        << err;
}

// A carriage return inside a row would be written back as a space (cs_csv_write_field), so a
// key read from it would change when resume, repair or merge rewrites the file; one just before
// the line break (a file with \r\n line ends) is fine.
TEST(Results, ACarriageReturnInsideARowIsAnError)
{
    std::string head = "np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
                       "iterations,status";
    std::string err;
    EXPECT_EQ(read_text(head + "\r\n4,allgather,ring,byte,check,1,2.5,2,3,3,ok\r\n", &err), 1) << err;
    EXPECT_EQ(read_text(head + "\n4,allgat\rher,ring,byte,check,1,2.5,2,3,3,ok\n", &err), -1);
    EXPECT_EQ(err, "F:2: a carriage return (\\r) inside the row, at character 9: a results file has "
                   "one only just before a line break (edit or remove that line)");
    EXPECT_EQ(read_text(head + "\n4,\"allgather\r\",ring,byte,check,1,2.5,2,3,3,ok\r\n", &err), -1);
    EXPECT_NE(err.find("F:2: a carriage return (\\r) inside the row, at character 13"),
              std::string::npos) << err;
}

// Files are read by column name: a file from before a column existed reads
// with that column at its default, and a column a user added is ignored.
TEST(Results, ColumnsAreReadByNameOldAndExtendedFilesRead)
{
    char dir[256];
    ASSERT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = std::string(dir) + "/old.csv";
    FILE *f = fopen(path.c_str(), "w");
    fputs("platform,mapping,np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
          "iterations,status,note\n"
          "yahoo,sequential,13,allgather,bruck,byte,check,64,10.5,9,12,5,ok,\n",
          f);
    fclose(f);
    cs_result *rows;
    size_t n;
    char err[2048];
    ASSERT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(rows[0].np, 13);
    EXPECT_EQ(rows[0].avg_us, 10.5);
    EXPECT_EQ(rows[0].ppn, 0);
    EXPECT_STREQ(rows[0].dist, "");
    EXPECT_EQ(rows[0].data_bytes, -1);
    EXPECT_EQ(rows[0].nonlocal_max_msgs, -1);
    tw_free_rows(rows);

    f = fopen(path.c_str(), "w"); // reordered, plus a user's column
    fputs("status,bytes,np,my_label,collective,algorithm,dtype,mode,avg_us,min_us,max_us,iterations\n"
          "ok,8,5,x,allgather,ring,byte,fold,1.25,1,2,1\n",
          f);
    fclose(f);
    ASSERT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), 0) << err;
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(rows[0].bytes, 8);
    EXPECT_EQ(rows[0].np, 5);
    EXPECT_STREQ(rows[0].algorithm, "ring");
    EXPECT_EQ(rows[0].avg_us, 1.25);
    tw_free_rows(rows);

    f = fopen(path.c_str(), "w"); // a required column missing; a bad number
    fputs("platform,np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,status\n", f);
    fclose(f);
    EXPECT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find("no column 'iterations'"), std::string::npos) << err;
    f = fopen(path.c_str(), "w");
    fputs("np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,iterations,status\n"
          "5,allgather,ring,byte,fold,8,fast,1,2,1,ok\n",
          f);
    fclose(f);
    EXPECT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), -1);
    EXPECT_NE(std::string(err).find(":2: column avg_us: 'fast' is not a number"), std::string::npos)
        << err;
    tw_rmtree(dir);
}

// A column case_fields.def names must be one results.c has: cs_fields_row
// would otherwise lose the value (it now aborts on one).
TEST(Results, EveryCaseFieldColumnIsAResultsColumn)
{
    const cs_field *t = tw_case_fields();
    std::string header = std::string(",") + CS_RESULTS_HEADER + ",";
    int columns = 0;
    for (int k = 0; k < CS_NFIELDS; k++) {
        if (!t[k].csv)
            continue;
        cs_result r;
        cs_result_init(&r);
        EXPECT_EQ(cs_result_set(&r, t[k].csv, "1"), 0) << t[k].name << ": " << t[k].csv;
        EXPECT_NE(header.find(std::string(",") + t[k].csv + ","), std::string::npos) << t[k].csv;
        columns++;
    }
    EXPECT_GE(columns, 10);
}

TEST(ResultsDeathTest, RowOfAColumnResultsLacksAborts)
{
    cs_result r;
    tw_fields_row_as("np", &r);
    EXPECT_EQ(r.np, 6);
    EXPECT_DEATH(tw_fields_row_as("nprocs", &r), "case_fields.def: np: no results column 'nprocs'");
}

} // namespace
