// What the rooted suites share: the gather and scatter algorithms of
// algorithms.def and a bench run of one.
#ifndef COLLSIM_TEST_ROOTED_UTIL_H
#define COLLSIM_TEST_ROOTED_UTIL_H

#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include "cli.h"
#include "wrapper.h"
#include "fits.h"
#include "registry.h"

// internal to each suite that includes it
namespace {

// kandalla-testbed, 296 ranks possible; np 100 sequential = 4 nodes of 16 on
// switch A, 36 ranks on 8-core nodes of B: uneven nodes and switches.
inline tw_run_spec bench_spec(const std::string &coll_alg, const char *mapping)
{
    static std::string coll, alg; // the run description keeps pointers
    coll = coll_alg.substr(0, coll_alg.find('/'));
    alg = coll_alg.substr(coll_alg.find('/') + 1);
    tw_run_spec s{};
    s.platform = "kandalla-testbed";
    s.mapping = mapping;
    s.coll = coll.c_str();
    s.alg = alg.c_str();
    s.region = "switch";
    s.np = 100;
    s.np_list = "71,100";
    s.root = 69; // on B at np 100, a node's first rank under sequential
    s.sizes = "0,8,4104";
    s.dtype = "double";
    s.iters = 2;
    s.warmup = 1;
    s.timeout_s = 300;
    return s;
}

} // namespace

#endif
