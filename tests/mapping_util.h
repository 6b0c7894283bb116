// What the mapping, hosts and platform suites share: a case's rank-to-node
// mapping (tests/wrapper.h, tw_case_map) and the test data folder.
#ifndef COLLSIM_TEST_MAPPING_UTIL_H
#define COLLSIM_TEST_MAPPING_UTIL_H

#include <gtest/gtest.h>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>
#include "wrapper.h"

// internal to each suite that includes it
namespace {

inline std::vector<int> map(const char *platform, const char *mapping, int np, bool over = false)
{
    std::vector<int> v(np);
    char err[2048];
    EXPECT_EQ(tw_map(platform, mapping, np, over, v.data(), err, sizeof err), 0) << err;
    return v;
}

inline const std::string data = COLLSIM_TEST_DATA_DIR;

// Kandalla et al. 2010, Section 5.1: 4 nodes of switch A (16 cores) and 29 of switch B (8 cores),
// one process per core; the file lists those 33 nodes first (node-0..3 on A, node-4..32 on B),
// then A's other 4 and B's other 3, so the sequential mapping of 296 ranks is the paper's run.
inline bool testbed_on_a(int node) { return node < 4 || (node >= 33 && node < 37); }

inline std::vector<int> seq(int a, int b) // a..b, either way
{
    std::vector<int> v;
    for (int i = a;; i += a <= b ? 1 : -1) {
        v.push_back(i);
        if (i == b)
            return v;
    }
}

} // namespace

#endif
