// The results CSV: one format, read back exactly as written.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "wrapper.h"

extern "C" {
#include "regression.h"
}

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

// Writes bytes (NUL bytes too) as a results file and reads it: the row count, or -1 with the
// error (naming the file as F) in *err.
long read_bytes(const std::string &bytes, std::string *err)
{
    char dir[256], buf[2048];
    EXPECT_EQ(tw_tempdir(dir, sizeof dir), 0);
    std::string path = std::string(dir) + "/t.csv";
    std::ofstream(path, std::ios::binary) << bytes;
    cs_result *rows;
    size_t n;
    long rc = tw_read_results(path.c_str(), &rows, &n, buf, sizeof buf) ? -1 : (long)n;
    if (rc > 0)
        tw_free_rows(rows);
    *err = rc < 0 ? std::string(buf).replace(0, path.size(), "F") : "";
    tw_rmtree(dir);
    return rc;
}

// The same for text.
long read_text(const std::string &text, std::string *err) { return read_bytes(text, err); }

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
    // lines that just fit (the long field a user's column, which is ignored), with and without
    // a line break at the end of the file, read
    auto longest = [&](char bytes) { // three cases: one row each
        std::string r = row;
        r[r.find(",1,") + 1] = bytes;
        return r + "," + std::string(8191 - row.size() - 1, 'n');
    };
    EXPECT_EQ(read_text(head + ",mine\n" + longest('1') + "\n" + longest('2') + "\n" + longest('3'),
                        &err),
              3)
        << err;
    // a text longer than its column holds was cut without a word
    EXPECT_EQ(read_text(head + ",note\n" + row + "," + std::string(600, 'n') + "\n", &err), -1);
    EXPECT_EQ(err, "F:2: column note: 600 characters, more than the 511 it holds");
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

// A line starting with NUL bytes (a crash that zero-fills a block) read as an empty line and
// was skipped; NUL bytes after a row's last field cut it there. Each is named with its line.
TEST(Results, NulBytesAnywhereInALineAreNamed)
{
    const std::string head = "np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
                             "iterations,status,note\n";
    const std::string row = "4,allgather,ring,byte,check,1,2.5,2,3,3,ok,\n";
    const std::string nul(3, '\0');
    std::string err;
    struct {
        std::string text, want;
    } cases[] = {
        {head + row + nul + "4,allgather,bruck,byte,check,1,2.5,2,3,3,ok,\n",
         "F:3: 3 NUL bytes from character 1 (what a crash that zero-fills part of a file leaves): "
         "a damaged row; `collsim repair "},
        {head + row + nul + "\n" + row, "F:3: a line of 3 NUL bytes"},
        {head + "4,allgather,ring,byte,check,1,2.5,2,3,3,ok,x" + nul + "y\n",
         "F:2: 3 NUL bytes from character 45"},
        {head + row + nul, "F:3: a line of 3 NUL bytes"}, // a zero-filled tail
        {nul + head + row, "F:1: NUL bytes in the header"},
    };
    for (auto &c : cases) {
        EXPECT_EQ(read_bytes(c.text, &err), -1) << c.want;
        EXPECT_EQ(err.rfind(c.want, 0), 0u) << err;
    }
    EXPECT_EQ(read_bytes(head + row, &err), 1) << err;
}

// What else could make bytes vanish: each line is a row, blank (read as nothing), or named.
TEST(Results, EveryLineIsARowBlankOrNamed)
{
    const std::string head = "np,collective,algorithm,dtype,mode,bytes,avg_us,min_us,max_us,"
                             "iterations,status,note\n";
    const std::string row = "4,allgather,ring,byte,check,1,2.5,2,3,3,ok,",
                      row2 = "4,allgather,bruck,byte,check,1,2.5,2,3,3,ok,";
    std::string err;
    // blank lines, \r\n line ends, a byte-order mark before the header read
    EXPECT_EQ(read_bytes("\xEF\xBB\xBF" + head + row + "\r\n\r\n\n" + row2 + "\r\n", &err), 2) << err;
    struct {
        std::string text, want;
    } cases[] = {
        {head + row + "\n  \t\n", "F:3: a line of spaces or tabs alone"},
        {head + row + "\n\xEF\xBB\xBF" + row2 + "\n",
         "F:3: a byte-order mark (what spreadsheet programs write at the start of a file) at the "
         "start of a row"},
        {head + row + "\n" + head + row2 + "\n", "F:3: the header again: two files joined?"},
        {head + row + "\"a\"b\n", "F:2: a quote out of place"},
        {head + row + "\"ab\n", "F:2: a quote out of place"},
        {head + row + "\r\r\n", "F:2: a carriage return (\\r) inside the row, at character 44"},
        {"np,np,collective\n", "F:1: column 'np' given twice in the header"},
        {head + row + "\n4,allgather,b", "F:3: an incomplete last row (3 fields, the header has 12)"},
    };
    for (auto &c : cases) {
        EXPECT_EQ(read_bytes(c.text, &err), -1) << c.want;
        EXPECT_EQ(err.rfind(c.want, 0), 0u) << err;
    }
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

// A field's valid words for code outside the parsers (<models>, the driver's model lookup) come
// from case_fields.def, in its order.
TEST(Results, CaseWordsAreTheDefinitionsWords)
{
    char valid[256];
    EXPECT_EQ(cs_case_word(CS_F_model, "network", valid, sizeof valid), 2);
    EXPECT_STREQ(valid, "full, full-arith-copy, network");
    EXPECT_EQ(cs_case_word(CS_F_model, "full", NULL, 0), 0);
    EXPECT_EQ(cs_case_word(CS_F_model, "gamma", NULL, 0), -1);
    EXPECT_EQ(cs_case_word(CS_F_model, "", NULL, 0), -1);
    EXPECT_EQ(cs_case_word(CS_F_dtype, "int", valid, sizeof valid), 1);
    EXPECT_STREQ(valid, "byte, int, double");
    EXPECT_EQ(cs_case_word(CS_F_np, "1", valid, sizeof valid), -1); // not a field of words
    EXPECT_STREQ(valid, "");
    EXPECT_EQ(cs_case_word(-1, "full", NULL, 0), -1);
}

TEST(ResultsDeathTest, RowOfAColumnResultsLacksAborts)
{
    cs_result r;
    tw_fields_row_as("np", &r);
    EXPECT_EQ(r.np, 6);
    EXPECT_DEATH(tw_fields_row_as("nprocs", &r), "case_fields.def: np: no results column 'nprocs'");
}

// ---- the schema (core/results_columns.def) ----

const char *role_word(cs_column_role r)
{
    switch (r) {
    case CS_ROLE_KEY: return "KEY";
    case CS_ROLE_POINT: return "POINT";
    case CS_ROLE_AXIS: return "AXIS";
    case CS_ROLE_RATIO: return "RATIO";
    case CS_ROLE_SETTING: return "SETTING";
    case CS_ROLE_VALUE: return "VALUE";
    }
    return "?";
}

// The key's ranks are 1..N, each once, and so are the point's; the point's
// columns are key columns less what tells algorithms apart, its axes last
// (a report group's rows are contiguous).
TEST(ResultsSchema, RanksOfTheKeyAndThePointAreEachGivenOnce)
{
    std::set<int> key, point, axis;
    std::string header;
    for (int i = 0; i < CS_RC_NCOLUMNS; i++) {
        const cs_column_info *c = cs_result_column(i);
        header += std::string(i ? "," : "") + c->name;
        EXPECT_EQ(cs_result_column_index(c->name), i) << c->name;
        bool in_key = c->role != CS_ROLE_VALUE && c->role != CS_ROLE_SETTING;
        bool in_point = in_key && c->role != CS_ROLE_KEY;
        EXPECT_EQ(c->key_rank > 0, in_key) << c->name;
        EXPECT_EQ(c->point_rank > 0, in_point) << c->name;
        EXPECT_TRUE(in_key || !c->site) << c->name << ": site of a column outside the key";
        if (in_key) {
            EXPECT_TRUE(key.insert(c->key_rank).second) << c->name << ": key rank given twice";
        }
        if (in_point) {
            EXPECT_TRUE(point.insert(c->point_rank).second) << c->name << ": point rank given twice";
        }
        if (c->role == CS_ROLE_AXIS)
            axis.insert(c->point_rank);
    }
    EXPECT_EQ(header, CS_RESULTS_HEADER);
    EXPECT_EQ(header.size() + 1, (size_t)CS_RESULTS_HEADER_SIZE);
    EXPECT_EQ(cs_result_column(CS_RC_NCOLUMNS), nullptr);
    EXPECT_EQ(cs_result_column_index("nprocs"), -1);
    ASSERT_FALSE(key.empty());
    EXPECT_EQ(*key.begin(), 1);
    EXPECT_EQ(*key.rbegin(), (int)key.size()) << "a key rank left out";
    ASSERT_FALSE(point.empty());
    EXPECT_EQ(*point.begin(), 1);
    EXPECT_EQ(*point.rbegin(), (int)point.size()) << "a point rank left out";
    ASSERT_EQ(axis.size(), 2u); // np, bytes
    EXPECT_EQ(*axis.begin(), (int)point.size() - 1) << "the axes rank last in the point";
}

// Every case field that writes a column writes one of the key: a parameter
// that changes the case but not its key would make two cases one (resume
// skipping it, merge refusing it, check comparing them). The exceptions say
// why in results_columns.def, as SETTING.
TEST(ResultsSchema, EveryCaseFieldThatIdentifiesACaseIsInTheKey)
{
    const cs_field *t = tw_case_fields();
    int fields = 0;
    for (int k = 0; k < CS_NFIELDS; k++) {
        if (!t[k].csv)
            continue;
        int i = cs_result_column_index(t[k].csv);
        ASSERT_GE(i, 0) << t[k].name << ": " << t[k].csv;
        const cs_column_info *c = cs_result_column(i);
        EXPECT_NE(c->role, CS_ROLE_VALUE)
            << "case field " << t[k].name << " writes column " << t[k].csv
            << ", which is not in the key: make it KEY or POINT in results_columns.def, or "
               "SETTING with the reason it does not identify a case";
        if (c->role != CS_ROLE_SETTING) {
            EXPECT_GT(c->key_rank, 0) << t[k].csv;
        }
        fields++;
    }
    EXPECT_GE(fields, 20);
    // the settings are few, each with its reason in the .def
    std::set<std::string> settings;
    for (int i = 0; i < CS_RC_NCOLUMNS; i++)
        if (cs_result_column(i)->role == CS_ROLE_SETTING)
            settings.insert(cs_result_column(i)->name);
    EXPECT_EQ(settings, (std::set<std::string>{"iterations", "smpi_cfg"}));
}

cs_result case_row()
{
    cs_result r;
    cs_result_init(&r);
    snprintf(r.platform, sizeof r.platform, "yahoo");
    snprintf(r.mapping, sizeof r.mapping, "sequential");
    snprintf(r.collective, sizeof r.collective, "inter_allgather");
    snprintf(r.algorithm, sizeof r.algorithm, "kang_segmented");
    snprintf(r.dtype, sizeof r.dtype, "byte");
    snprintf(r.mode, sizeof r.mode, "check");
    snprintf(r.groups, sizeof r.groups, "50:14");
    snprintf(r.layout, sizeof r.layout, "block");
    snprintf(r.size_unit, sizeof r.size_unit, "process");
    snprintf(r.status, sizeof r.status, "ok");
    r.np = 64;
    r.ppn = 16;
    r.bytes = 1024;
    r.iterations = 3;
    return r;
}

// A sweep per node and one per process can hold the same bytes per process:
// two cases (two series of the report), not one given twice.
TEST(ResultsSchema, RowsDifferingOnlyInSizeUnitAreTwoCases)
{
    cs_result a = case_row(), b = case_row();
    snprintf(b.size_unit, sizeof b.size_unit, "node");
    EXPECT_NE(cs_key_cmp(&a, &b), 0);
    EXPECT_NE(cs_result_cmp_point(&a, &b), 0);
    EXPECT_FALSE(cs_result_same_case(&a, &b));
    cs_result rows[2] = {a, b};
    char example[512];
    EXPECT_EQ(cs_results_dup_keys(rows, 2, example, sizeof example), 0u) << example;
    char ka[512], kb[512];
    cs_key_format(&a, ka, sizeof ka);
    cs_key_format(&b, kb, sizeof kb);
    EXPECT_STRNE(ka, kb);
    EXPECT_NE(std::string(kb).find(" size_unit=node"), std::string::npos) << kb;
}

TEST(ResultsSchema, TheComparatorsKeepTheirOrderAndRules)
{
    cs_result a = case_row(), b = case_row();
    // the key: background before root (the order of merged files and baselines)
    snprintf(b.background, sizeof b.background, "alltoall:inter-switch:4M:96");
    a.root = 1;
    EXPECT_LT(cs_key_cmp(&a, &b), 0);
    EXPECT_GT(cs_key_cmp(&b, &a), 0);
    // the point: root before background
    EXPECT_GT(cs_result_cmp_point(&a, &b), 0);
    // an empty model is "network"; a setting or a value is no part of the key
    a = case_row();
    b = case_row();
    snprintf(b.model, sizeof b.model, "network");
    b.iterations = 5;
    b.avg_us = 7;
    snprintf(b.smpi_cfg, sizeof b.smpi_cfg, "maxmin/precision:1e-2");
    EXPECT_EQ(cs_key_cmp(&a, &b), 0);
    EXPECT_STREQ(cs_result_model(&a), "network");
    snprintf(b.model, sizeof b.model, "full");
    EXPECT_NE(cs_key_cmp(&a, &b), 0);
    // numbers numerically, names alphabetically
    a = case_row();
    b = case_row();
    b.np = 128;
    snprintf(b.groups, sizeof b.groups, "100:28");
    EXPECT_LT(cs_key_cmp(&a, &b), 0);
    // the point and the group compare the groups by ratio: 50:14 at 64 and
    // 100:28 at 128 are one series, np its axis
    EXPECT_LT(cs_result_cmp_point(&a, &b), 0);
    EXPECT_EQ(cs_result_cmp_group(&a, &b), 0);
    b.np = 64;
    EXPECT_EQ(cs_result_cmp_point(&a, &b), 0);
    EXPECT_NE(cs_key_cmp(&a, &b), 0);
    // algorithms compete at a point; dtype and mode make another point
    a = case_row();
    b = case_row();
    snprintf(b.algorithm, sizeof b.algorithm, "kang_ring");
    snprintf(b.region, sizeof b.region, "socket");
    EXPECT_NE(cs_key_cmp(&a, &b), 0);
    EXPECT_EQ(cs_result_cmp_point(&a, &b), 0);
    snprintf(b.dtype, sizeof b.dtype, "int");
    EXPECT_NE(cs_result_cmp_point(&a, &b), 0);
    EXPECT_NE(cs_result_cmp_group(&a, &b), 0);
    // compare: the same case on another machine, under another model or mode,
    // but not at another region
    a = case_row();
    b = case_row();
    snprintf(b.platform, sizeof b.platform, "%s", "");
    snprintf(b.mapping, sizeof b.mapping, "%s", "");
    b.ppn = 0;
    snprintf(b.model, sizeof b.model, "full");
    snprintf(b.mode, sizeof b.mode, "fold");
    snprintf(b.hosts, sizeof b.hosts, "node-0..3");
    EXPECT_TRUE(cs_result_same_case(&a, &b));
    snprintf(b.region, sizeof b.region, "socket");
    EXPECT_FALSE(cs_result_same_case(&a, &b));
}

// docs/running.md's table of the columns is the schema's: every column, in
// file order, with its role and whether compare pairs across it.
TEST(ResultsSchema, TheDocsTableListsEveryColumnWithItsRole)
{
    const std::string path = std::string(COLLSIM_TEST_DATA_DIR) + "/../../docs/running.md";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::string line;
    bool table = false;
    std::vector<std::string> names, roles, compares;
    while (std::getline(in, line)) {
        if (line == "| column | role | compare | meaning |") {
            table = true;
            continue;
        }
        if (!table || line.rfind("| ---", 0) == 0)
            continue;
        if (line.rfind("| `", 0) != 0)
            break;
        std::vector<std::string> cells;
        std::stringstream ss(line.substr(1));
        std::string cell;
        while (std::getline(ss, cell, '|')) {
            size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
            cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
        }
        ASSERT_GE(cells.size(), 3u) << line;
        names.push_back(cells[0].substr(1, cells[0].size() - 2));
        roles.push_back(cells[1]);
        compares.push_back(cells[2]);
    }
    ASSERT_TRUE(table) << path << ": no table '| column | role | compare | meaning |'";
    std::vector<std::string> want_names, want_roles, want_compares;
    for (int i = 0; i < CS_RC_NCOLUMNS; i++) {
        const cs_column_info *c = cs_result_column(i);
        want_names.push_back(c->name);
        want_roles.push_back(role_word(c->role));
        want_compares.push_back(c->key_rank ? (c->site ? "no" : "yes") : "");
    }
    EXPECT_EQ(names, want_names) << "a column missing from, extra in or out of order in " << path;
    EXPECT_EQ(roles, want_roles) << path;
    EXPECT_EQ(compares, want_compares) << path;
}

} // namespace
