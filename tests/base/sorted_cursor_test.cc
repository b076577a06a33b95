// SortedCursor gives std::lower_bound's and std::equal_range's answers whatever the order of the
// keys looked up (ascending, descending, random, repeated, out of range).
#include "profdiff/base/sorted_cursor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace profdiff {
namespace {

TEST(SortedCursor, AgreesWithTheStandardAlgorithms) {
  std::mt19937 rng(7);
  for (const size_t n : {0u, 1u, 2u, 3u, 17u, 1000u}) {
    std::vector<int> v(n);
    for (int& x : v) x = static_cast<int>(rng() % 50);  // many repeats
    std::sort(v.begin(), v.end());
    auto id = [](int x) { return x; };
    SortedCursor<int, decltype(id)> cursor(v, id);
    std::vector<int> keys;
    for (int k = -3; k < 55; ++k) keys.push_back(k);       // ascending
    for (int k = 55; k > -3; --k) keys.push_back(k);       // descending
    for (int i = 0; i < 500; ++i) keys.push_back(static_cast<int>(rng() % 60) - 5);  // random
    for (const int k : keys) {
      const auto expect = std::lower_bound(v.begin(), v.end(), k) - v.begin();
      ASSERT_EQ(cursor.LowerBound(k), static_cast<size_t>(expect)) << "n " << n << " key " << k;
      const auto [lo, hi] = std::equal_range(v.begin(), v.end(), k);
      const auto range = cursor.EqualRange(k);
      ASSERT_EQ(range.size(), static_cast<size_t>(hi - lo)) << "n " << n << " key " << k;
      ASSERT_EQ(cursor.Contains(k), lo != hi);
    }
  }
}

TEST(SortedCursor, ReadsAStructFieldAsItsKey) {
  struct Row {
    long id;
    int value;
  };
  const std::vector<Row> rows = {{1, 10}, {3, 30}, {3, 31}, {8, 80}};
  auto key = [](const Row& r) { return r.id; };
  SortedCursor<Row, decltype(key)> cursor(rows, key);
  const auto three = cursor.EqualRange(3L);
  ASSERT_EQ(three.size(), 2u);
  EXPECT_EQ(three[0].value, 30);
  EXPECT_EQ(three[1].value, 31);
  EXPECT_TRUE(cursor.EqualRange(4L).empty());
  EXPECT_EQ(cursor.EqualRange(1L)[0].value, 10);
}

}  // namespace
}  // namespace profdiff
