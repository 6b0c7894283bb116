// Helpers shared by the data-check suites (test_algorithms.cc, test_alltoall.cc):
// run the driver once through the wrapper and count the rows that passed.
#ifndef COLLSIM_TESTS_DATA_CHECK_H
#define COLLSIM_TESTS_DATA_CHECK_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "wrapper.h"

extern "C" {
#include "numlist.h"
#include "registry.h"
}

struct Checked {
    size_t rows = 0, ok = 0;
    std::string first_problem; // the first row that did not pass, described
    std::vector<cs_result> all; // the rows, in the order the run wrote them
};

inline Checked run_checked(const tw_run_spec &spec)
{
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096];
    Checked c;
    EXPECT_EQ(tw_run(&spec, &rows, &n, err, sizeof err), 0) << err;
    c.rows = n;
    c.all.assign(rows, rows + n);
    for (size_t i = 0; i < n; i++) {
        if (std::string(rows[i].status) == "ok")
            c.ok++;
        else if (c.first_problem.empty())
            c.first_problem = std::string("np=") + std::to_string(rows[i].np) + " bytes=" +
                              std::to_string(rows[i].bytes) + ": " + rows[i].status + ": " +
                              rows[i].note;
    }
    tw_free_rows(rows);
    return c;
}

// Whether a reduction algorithm takes a non-commutative operation (algorithms.def's ops column:
// `commutative` ones return MPI_ERR_OP for it, and the host refuses such a case before it runs).
inline bool takes_non_commutative(const std::string &coll, const std::string &alg)
{
    size_t n;
    const cs_alg_info *r = cs_registry(&n);
    for (size_t i = 0; i < n; i++)
        if (coll == r[i].collective && alg == r[i].name)
            return !r[i].commutative_only;
    ADD_FAILURE() << coll << "/" << alg << " is not in algorithms.def";
    return false;
}

// A case of the non-commutative matmul on an algorithm of commutative operations only: refused
// by the host before anything runs, in one line naming the rule (no row, no smpirun).
inline void expect_refused_non_commutative(tw_run_spec s, const std::string &coll,
                                           const std::string &alg)
{
    s.op = "matmul";
    s.dtype = "int";
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096] = "";
    EXPECT_NE(tw_run(&s, &rows, &n, err, sizeof err), 0) << coll << "/" << alg;
    EXPECT_EQ(n, 0u);
    tw_free_rows(rows);
    const std::string want = coll + "/" + alg +
                             " takes commutative operations only (MPI_ERR_OP otherwise), not matmul";
    EXPECT_NE(std::string(err).find(want), std::string::npos) << err;
    EXPECT_EQ(std::string(err).find('\n'), std::string::npos) << "one line: " << err;
}

// A test parameter as a gtest name: every character but letters and digits '_'.
inline std::string gtest_name(const std::string &s0)
{
    std::string s = s0;
    for (char &ch : s)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return s;
}

// Parses a number list of the scenario language ("1:64:3", "0,1,13,64K").
inline std::vector<long> numbers(const char *text)
{
    cs_numlist l;
    cs_err e;
    std::vector<long> v;
    EXPECT_EQ(cs_numlist_parse(text, "list", 1, 0, &l, &e), 0) << text << ": " << e.msg;
    if (l.v)
        v.assign(l.v, l.v + l.n);
    cs_numlist_free(&l);
    return v;
}

inline std::string joined(const std::vector<long> &v)
{
    std::string s;
    for (long x : v)
        s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

// Which p of an every-p list the network-model sweep runs at a size: every p
// up to 32 (sizes of 16 KiB or more: up to 16), and 37 and 63 above. A
// check's host cost grows much faster than p (p^2 blocks received and
// checked; for the alltoalls p^2 messages in flight for the flow solver), and
// the full-model run below adds 13, 31 and the largest p at every size.
inline bool every_p_keeps(long p, long bytes)
{
    return p <= (bytes >= 16384 ? 16 : 32) || p == 37 || p == 63;
}

// What an algorithm computes does not depend on the cost model, but the full
// model's PMPI layer (sim/driver/cost.c) wraps its receives and waits. So the
// every-p sweeps check the p of s.np_list (every_p_keeps) under the
// network-only model, and the p of `full_ps` (default: 1..8, 13, 31 and s.np)
// under the full model: the full model posts each rank's messages o_s apart,
// so its flow solver has many more distinct dates to solve, 2 to 5 times the
// CPU of a sweep. Each run must give one passing row per (p, size).
inline void expect_every_p_ok(tw_run_spec s, const char *what = "", const char *full_ps = nullptr)
{
    const std::string all_sizes = s.sizes;
    const std::vector<long> ps = numbers(s.np_list ? s.np_list : std::to_string(s.np).c_str());
    std::vector<long> small, large;
    for (long b : numbers(s.sizes))
        (b >= 16384 ? large : small).push_back(b);
    s.model = "network";
    for (const std::vector<long> *sizes : {&small, &large}) {
        if (sizes->empty())
            continue;
        std::vector<long> kept;
        for (long p : ps)
            if (every_p_keeps(p, sizes->front()))
                kept.push_back(p);
        const std::string np_list = joined(kept), size_list = joined(*sizes);
        s.np_list = np_list.c_str();
        s.sizes = size_list.c_str();
        Checked c = run_checked(s);
        EXPECT_EQ(c.rows, kept.size() * sizes->size()) << what << " (network model, sizes " << size_list << ")";
        EXPECT_EQ(c.ok, c.rows) << what << " (network model): " << c.first_problem;
    }

    const std::string dflt = "1:8:1,13,31," + std::to_string(s.np);
    s.model = "full";
    s.np_list = full_ps ? full_ps : dflt.c_str();
    s.sizes = all_sizes.c_str();
    const size_t rows = numbers(s.np_list).size() * (small.size() + large.size());
    Checked c = run_checked(s);
    EXPECT_EQ(c.rows, rows) << what << " (full model)";
    EXPECT_EQ(c.ok, c.rows) << what << " (full model): " << c.first_problem;
}

// Every p in 1..64 on the first p ranks of a 64-rank run on Yahoo.
inline tw_run_spec sweep_spec(const char *coll, const char *alg, const char *mapping,
                              const char *sizes, int timeout_s)
{
    tw_run_spec s{};
    s.platform = "yahoo";
    s.mapping = mapping;
    s.coll = coll;
    s.alg = alg;
    s.np = 64;
    s.np_list = "1:64:1";
    s.sizes = sizes;
    s.iters = 1;
    s.warmup = 1; // the check runs on the first and the last call
    s.timeout_s = timeout_s;
    return s;
}

// SMPI's own implementations: one smpirun per p rather than a sweep over
// sub-communicators (SMPI 3.32's mpich decision logic deadlocks, "free():
// invalid pointer", on the communicator made after a freed 48-rank cyclic one).
template <typename Ps> void expect_each_p_ok(tw_run_spec s, const Ps &ps)
{
    for (int p : ps) {
        s.np = p;
        s.np_list = nullptr;
        Checked c = run_checked(s);
        EXPECT_EQ(c.rows, 4u) << "p=" << p;
        EXPECT_EQ(c.ok, c.rows) << "p=" << p << ": " << c.first_problem;
    }
}

// One case of s at np processes (no sweep) that must not pass, its first problem naming `named`
// (a wrong result, an MPI error, or SMPI's own abort).
inline void expect_case_fails(tw_run_spec s, int np, const char *named)
{
    s.np_list = nullptr;
    s.np = np;
    Checked c = run_checked(s);
    EXPECT_GT(c.rows, 0u) << s.coll << "/" << s.alg;
    EXPECT_EQ(c.ok, 0u) << s.coll << "/" << s.alg;
    EXPECT_NE(c.first_problem.find(named), std::string::npos)
        << s.coll << "/" << s.alg << ": " << c.first_problem;
}

// COLLSIM_FAULT=3:5:7 (or `fault`) flips one received byte: the check must
// name it (at 13 bytes per block; at 4 bytes the offset lies outside the block).
inline void expect_fault_named(tw_run_spec s, const char *fault = "3:5:7",
                               const char *named = "rank 3, block 5, offset 7")
{
    setenv("COLLSIM_FAULT", fault, 1);
    s.np = 8;
    s.np_list = nullptr;
    s.sizes = "4,13";
    cs_result *rows = nullptr;
    size_t n = 0;
    char err[4096];
    int rc = tw_run(&s, &rows, &n, err, sizeof err);
    unsetenv("COLLSIM_FAULT");
    ASSERT_EQ(rc, 0) << err;
    ASSERT_EQ(n, 2u);
    EXPECT_STREQ(rows[0].status, "ok") << s.alg;
    EXPECT_STREQ(rows[1].status, "fail") << s.alg;
    EXPECT_NE(std::string(rows[1].note).find(named), std::string::npos) << rows[1].note;
    tw_free_rows(rows);
}

// Folding buffers changes memory, not predicted times (np 48, cyclic).
inline void expect_fold_same_times(tw_run_spec s, const char *sizes)
{
    cs_result *a, *b;
    size_t na, nb;
    char err[4096];
    s.np = 48;
    s.np_list = nullptr;
    s.sizes = sizes;
    ASSERT_EQ(tw_run(&s, &a, &na, err, sizeof err), 0) << err;
    s.fold = 1;
    ASSERT_EQ(tw_run(&s, &b, &nb, err, sizeof err), 0) << err;
    ASSERT_EQ(na, nb);
    ASSERT_GT(na, 0u);
    for (size_t i = 0; i < na; i++) {
        EXPECT_STREQ(a[i].status, "ok");
        EXPECT_STREQ(b[i].status, "ok");
        EXPECT_STREQ(b[i].mode, "fold");
        EXPECT_DOUBLE_EQ(a[i].avg_us, b[i].avg_us) << s.alg << " bytes " << a[i].bytes;
        EXPECT_DOUBLE_EQ(a[i].max_us, b[i].max_us) << s.alg << " bytes " << a[i].bytes;
    }
    tw_free_rows(a);
    tw_free_rows(b);
}

#endif
