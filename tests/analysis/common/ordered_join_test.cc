// Base keys in first-appearance order, each with its comparison partner, then comparison-only keys.
#include "profdiff/analysis/common/ordered_join.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace profdiff::analysis {
namespace {

TEST(OrderedJoin, BaseKeysFirstThenComparisonOnlyKeysInTheirOrder) {
  std::vector<std::string_view> base = {"mm", "add", "relu"};
  std::vector<std::string_view> comparison = {"conv", "relu", "mm", "bias"};
  EXPECT_EQ(OrderedJoin(base, comparison),
            (std::vector<MatchPair>{{0, 2}, {1, kNoIndex}, {2, 1}, {kNoIndex, 0}, {kNoIndex, 3}}));
  EXPECT_EQ(OrderedJoin({}, comparison).size(), 4u);
  EXPECT_EQ(OrderedJoin(base, {}), (std::vector<MatchPair>{{0, kNoIndex}, {1, kNoIndex}, {2, kNoIndex}}));
  // A repeated comparison key joins through its first occurrence; the repeat is not listed.
  std::vector<std::string_view> repeated = {"x", "mm", "x"};
  EXPECT_EQ(OrderedJoin(std::vector<std::string_view>{"x"}, repeated),
            (std::vector<MatchPair>{{0, 0}, {kNoIndex, 1}}));
}

TEST(FirstSeenGroups, GroupsInOrderOfFirstAppearance) {
  FirstSeenGroups<int> counts;
  const std::vector<std::string> names = {"b", "a", "b", "c", "a", "b"};
  for (const std::string& n : names) ++counts[n];
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(std::vector<std::string_view>(counts.keys().begin(), counts.keys().end()),
            (std::vector<std::string_view>{"b", "a", "c"}));
  EXPECT_EQ(counts.values(), (std::vector<int>{3, 2, 1}));
  FirstSeenKeys keys;
  bool inserted = false;
  EXPECT_EQ(keys.Add("k", &inserted), 0u);
  EXPECT_TRUE(inserted);
  EXPECT_EQ(keys.Add("k", &inserted), 0u);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(keys.Find("k"), 0u);
  EXPECT_EQ(keys.Find("other"), std::nullopt);
}

}  // namespace
}  // namespace profdiff::analysis
