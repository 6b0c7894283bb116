// Size lists and process-count lists as users write them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "wrapper.h"

namespace {

std::vector<long> parse(const std::string &text, bool suffix = true, long min = 0)
{
    std::vector<long> v(200000);
    char err[2048];
    int n = tw_numlist(text.c_str(), suffix, min, v.data(), (int)v.size(), err, sizeof err);
    EXPECT_GE(n, 0) << text << ": " << err;
    v.resize(n < 0 ? 0 : n);
    return v;
}

std::string error_of(const std::string &text, bool suffix = true, long min = 0)
{
    long v[8];
    char err[2048] = "";
    int n = tw_numlist(text.c_str(), suffix, min, v, 8, err, sizeof err);
    EXPECT_EQ(n, -1) << "'" << text << "' should be rejected";
    return err;
}

TEST(NumList, PlainListsKeepTheirOrder)
{
    EXPECT_EQ(parse("1,2,4"), (std::vector<long>{1, 2, 4}));
    EXPECT_EQ(parse(" 7  3,\n 5 "), (std::vector<long>{7, 3, 5}));
}

TEST(NumList, OsuDoublingRange)
{
    auto v = parse("1:1048576");
    ASSERT_EQ(v.size(), 21u);
    for (size_t i = 0; i < v.size(); i++)
        EXPECT_EQ(v[i], 1L << i);
    EXPECT_EQ(parse("0:4"), (std::vector<long>{0, 1, 2, 4}));
    EXPECT_EQ(parse("3:20"), (std::vector<long>{3, 6, 12}));
}

TEST(NumList, SparbitPaperProcessCounts)
{
    auto odd = parse("5:253:8", false, 1), even = parse("8:256:8", false, 1);
    ASSERT_EQ(odd.size(), 32u);
    ASSERT_EQ(even.size(), 32u);
    EXPECT_EQ(odd.front(), 5);
    EXPECT_EQ(odd.back(), 253);
    EXPECT_EQ(even.back(), 256);
    EXPECT_EQ(parse("5:253:8 8:256:8", false, 1).size(), 64u);
}

TEST(NumList, GeometricAndSuffixes)
{
    EXPECT_EQ(parse("2:64:x4"), (std::vector<long>{2, 8, 32}));
    EXPECT_EQ(parse("64K,1M,2G,4KiB"),
              (std::vector<long>{65536, 1048576, 2147483648L, 4096}));
    EXPECT_EQ(parse("1K:4K"), (std::vector<long>{1024, 2048, 4096}));
}

TEST(NumList, MalformedListsAreRejectedNamingTheItem)
{
    EXPECT_NE(error_of("abc").find("'abc'"), std::string::npos);
    EXPECT_NE(error_of("4:2").find("ends before it starts"), std::string::npos);
    EXPECT_NE(error_of("1,2,1").find("twice"), std::string::npos);
    EXPECT_NE(error_of("5:10:0").find("'5:10:0'"), std::string::npos);
    EXPECT_NE(error_of("1:2:3:4").find("cannot read"), std::string::npos);
    EXPECT_NE(error_of("").find("empty"), std::string::npos);
    EXPECT_NE(error_of("-1").find("below the minimum"), std::string::npos);
    EXPECT_NE(error_of("0", false, 1).find("below the minimum 1"), std::string::npos);
    EXPECT_NE(error_of("4K", false).find("'4K'"), std::string::npos);
    EXPECT_NE(error_of("4X").find("K, M or G"), std::string::npos);
    EXPECT_NE(error_of("0:1000000000:1").find("more than"), std::string::npos);
}

} // namespace
