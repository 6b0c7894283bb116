// What the sweep suites (emit, resume, memory) share: the small scenario,
// its cases as a results file holds them, a temporary folder, a shell.
#ifndef COLLSIM_TEST_SWEEP_UTIL_H
#define COLLSIM_TEST_SWEEP_UTIL_H

#include <gtest/gtest.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include "cli.h"
#include "wrapper.h"
#include "bench_case.h"

// internal to each suite that includes it
namespace {

inline const std::string scen = std::string(COLLSIM_TEST_DATA_DIR) + "/scaleout-small.xml";
using Case = std::pair<int, std::string>; // np, algorithm

struct TempDir {
    char path[256];
    TempDir() { EXPECT_EQ(tw_tempdir(path, sizeof path), 0); }
    ~TempDir() { tw_rmtree(path); }
    std::string operator/(const std::string &name) const { return std::string(path) + "/" + name; }
};

// the cases a results file holds, and how many rows it has
inline std::multiset<Case> cases_in(const std::string &csv, size_t *rows = nullptr)
{
    cs_result *r;
    size_t n;
    char err[2048];
    std::multiset<Case> out;
    EXPECT_EQ(tw_read_results(csv.c_str(), &r, &n, err, sizeof err), 0) << err;
    for (size_t i = 0; i < n; i++) {
        EXPECT_STREQ(r[i].status, "ok") << csv;
        if (!i || r[i].np != r[i - 1].np || std::string(r[i].algorithm) != r[i - 1].algorithm)
            out.insert({r[i].np, r[i].algorithm});
    }
    if (n)
        tw_free_rows(r);
    if (rows)
        *rows = n;
    return out;
}

inline std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

inline int sh(const std::string &cmd)
{
    int st = system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

} // namespace

#endif
