// StableRadixSort gives std::stable_sort's order: equal keys keep their order, negative and
// extreme keys sort as integers, narrow and wide key ranges, sorted and reversed input.
#include "profdiff/base/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace profdiff {
namespace {

struct Row {
  int64_t key;
  uint32_t order;  // the position before sorting: equal keys must keep it
  bool operator==(const Row&) const = default;
};

void ExpectAsStableSort(std::vector<Row> v, int threads = 1) {
  std::vector<Row> expect = v;
  std::stable_sort(expect.begin(), expect.end(), [](const Row& a, const Row& b) { return a.key < b.key; });
  StableRadixSort(v, [](const Row& r) { return r.key; }, threads);
  ASSERT_EQ(v, expect);
}

std::vector<Row> Rows(const std::vector<int64_t>& keys) {
  std::vector<Row> v;
  for (const int64_t k : keys) v.push_back({k, static_cast<uint32_t>(v.size())});
  return v;
}

TEST(StableRadixSort, AgreesWithStableSort) {
  std::mt19937_64 rng(11);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  for (const size_t n : {0u, 1u, 2u, 3u, 100u, 5000u}) {
    // Key ranges of one value, a few, one pass's digits, 23 and 40 bits, and every int64 (0).
    for (const uint64_t range : {uint64_t{1}, uint64_t{7}, uint64_t{2048}, uint64_t{1} << 23, uint64_t{1} << 40,
                                 uint64_t{0}}) {
      std::vector<int64_t> keys;
      for (size_t i = 0; i < n; ++i) {
        const uint64_t r = rng();
        const auto offset = static_cast<int64_t>(range / 3);  // negative keys too
        keys.push_back(range == 0 ? static_cast<int64_t>(r) : static_cast<int64_t>(r % range) - offset);
      }
      ExpectAsStableSort(Rows(keys));
      std::sort(keys.begin(), keys.end());
      ExpectAsStableSort(Rows(keys));  // sorted already
      std::reverse(keys.begin(), keys.end());
      ExpectAsStableSort(Rows(keys));  // reversed
    }
  }
  ExpectAsStableSort(Rows({kMax, kMin, 0, -1, 1, kMin, kMax, kMax - 1, kMin + 1, 0}));
  // Nearly sorted, as the DB export's links are: ascending ids, some pairs further back.
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 20000; ++i) keys.push_back(i % 10 == 3 ? i - 500 : i);
  ExpectAsStableSort(Rows(keys));
}

// On two threads (an array big enough to be split): the same order, equal keys on both sides of the
// split kept in order, for narrow and wide key ranges, an odd size and a nearly sorted array.
TEST(StableRadixSort, TwoThreadsAgreeWithStableSort) {
  std::mt19937_64 rng(5);
  for (const uint64_t range : {uint64_t{3}, uint64_t{1} << 27, uint64_t{0}}) {
    std::vector<int64_t> keys;
    for (size_t i = 0; i < kRadixSortTwoThreadsMin + 1001; ++i) {
      const uint64_t r = rng();
      keys.push_back(range == 0 ? static_cast<int64_t>(r) : static_cast<int64_t>(r % range) - 1);
    }
    ExpectAsStableSort(Rows(keys), 2);
  }
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < static_cast<int64_t>(kRadixSortTwoThreadsMin) + 7; ++i)
    keys.push_back(i % 10 == 3 ? i - 500 : i);
  ExpectAsStableSort(Rows(keys), 2);
}

}  // namespace
}  // namespace profdiff
