// What the check, merge and expectation suites share: result rows built by
// hand, written and read back, a temporary folder, and the test data.
#ifndef COLLSIM_TEST_RESULTS_UTIL_H
#define COLLSIM_TEST_RESULTS_UTIL_H

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "cli.h"
#include "wrapper.h"
#include "expect.h"

// internal to each suite that includes it
namespace {

inline const std::string data = COLLSIM_TEST_DATA_DIR;

struct TempDir {
    char path[256];
    TempDir() { EXPECT_EQ(tw_tempdir(path, sizeof path), 0); }
    ~TempDir() { tw_rmtree(path); }
    std::string operator/(const std::string &name) const { return std::string(path) + "/" + name; }
};

inline cs_result row(const char *alg, int np, long bytes, double avg)
{
    cs_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.platform, sizeof r.platform, "yahoo");
    snprintf(r.mapping, sizeof r.mapping, "sequential");
    snprintf(r.collective, sizeof r.collective, "allgather");
    snprintf(r.algorithm, sizeof r.algorithm, "%s", alg);
    snprintf(r.dtype, sizeof r.dtype, "byte");
    snprintf(r.mode, sizeof r.mode, "check");
    snprintf(r.status, sizeof r.status, "ok");
    r.np = np;
    r.bytes = bytes;
    r.avg_us = avg;
    r.min_us = avg / 3; // not short decimals: the round trip must keep every bit
    r.max_us = avg * 1.5;
    r.iterations = 3;
    return r;
}

// in key order: np numerically, then algorithm, then bytes
inline std::vector<cs_result> base_rows()
{
    return {row("bruck", 4, 1, 1.4275), row("ring", 4, 1, 2.1355), row("ring", 4, 1024, 3.67),
            row("bruck", 13, 1024, 2.962)};
}

inline void write_rows(const std::string &path, const std::vector<cs_result> &rows)
{
    FILE *f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr) << path;
    cs_results_write_header(f);
    for (auto &r : rows)
        cs_results_write_row(f, &r);
    fclose(f);
}

inline std::vector<cs_result> read_rows(const std::string &path)
{
    cs_result *rows;
    size_t n;
    char err[2048];
    EXPECT_EQ(tw_read_results(path.c_str(), &rows, &n, err, sizeof err), 0) << err;
    std::vector<cs_result> v(rows, rows + n);
    if (n)
        tw_free_rows(rows);
    return v;
}

inline std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// the lines of text that contain every one of the given pieces
inline std::vector<std::string> lines_with(const std::string &text, std::vector<std::string> pieces)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        bool all = true;
        for (auto &p : pieces)
            all = all && line.find(p) != std::string::npos;
        if (all)
            out.push_back(line);
    }
    return out;
}

} // namespace

#endif
