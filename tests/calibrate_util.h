// What the calibration suites share: the test data folder and the last
// line of a command's output.
#ifndef COLLSIM_TEST_CALIBRATE_UTIL_H
#define COLLSIM_TEST_CALIBRATE_UTIL_H

#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <set>
#include <utility>
#include <vector>
#include "cli.h"
#include "wrapper.h"

// internal to each suite that includes it
namespace {

inline const std::string kData = COLLSIM_TEST_DATA_DIR;

// The fitted values of one table row, by level and regime.
inline bool row(const std::string &text, const std::string &level, const std::string &regime,
         double *alpha_us, double *beta_ns)
{
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string l, hosts, r, sizes, pa, ea;
        double a = 0, b = 0;
        if (f >> l >> hosts >> r >> sizes >> a >> pa >> ea >> b && l == level && r == regime) {
            *alpha_us = a;
            *beta_ns = b;
            return true;
        }
    }
    return false;
}

inline std::string last_line(const std::string &text)
{
    std::string t = text;
    while (!t.empty() && t.back() == '\n')
        t.pop_back();
    size_t nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

} // namespace

#endif
