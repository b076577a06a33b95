// Linear stable orderings (issue 35): the radix sort must give exactly std::stable_sort's order,
// and FirstSeenIds exactly what a hash map numbering keys on first sight gives.
#include "profdiff/analysis/common/stable_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <random>
#include <unordered_map>

namespace profdiff::analysis {
namespace {

std::vector<uint32_t> ReferenceOrder(std::span<const uint32_t> major, std::span<const int64_t> minor) {
  std::vector<uint32_t> order(minor.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return major[a] != major[b] ? major[a] < major[b] : minor[a] < minor[b];
  });
  return order;
}

void ExpectRuns(const SortedRuns& runs, std::span<const uint32_t> major, std::span<const int64_t> minor) {
  ASSERT_EQ(runs.order, ReferenceOrder(major, minor));
  ASSERT_EQ(runs.new_run.size(), runs.order.size());
  for (size_t p = 0; p < runs.order.size(); ++p) {
    const uint32_t a = runs.order[p];
    const bool fresh = p == 0 || major[a] != major[runs.order[p - 1]] || minor[a] != minor[runs.order[p - 1]];
    ASSERT_EQ(runs.new_run[p] != 0, fresh) << "at " << p;
  }
}

// Keys of several shapes: few distinct values (long runs), timestamps, negatives, the int64 edges.
std::vector<int64_t> RandomKeys(std::mt19937_64& rng, size_t n, int shape) {
  std::vector<int64_t> k(n);
  for (size_t i = 0; i < n; ++i) {
    switch (shape) {
      case 0: k[i] = static_cast<int64_t>(rng() % 7); break;
      case 1: k[i] = 1'700'000'000'000'000'000 + static_cast<int64_t>(rng() % 30'000'000'000ULL); break;
      case 2: k[i] = static_cast<int64_t>(rng() % 2001) - 1000; break;
      case 3: k[i] = static_cast<int64_t>(rng()); break;  // any 64 bits: the pair falls back
      default:
        k[i] = (rng() & 1) ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    }
  }
  return k;
}

TEST(StableOrder, ByKeyEqualsStableSort) {
  std::mt19937_64 rng(35);
  for (size_t n : {0, 1, 2, 5, 63, 64, 65, 1000, 50'000})
    for (int shape = 0; shape < 5; ++shape) {
      const std::vector<int64_t> k = RandomKeys(rng, n, shape);
      const std::vector<uint32_t> zeros(n, 0);
      ExpectRuns(StableRunsByKey(k), zeros, k);
    }
}

TEST(StableOrder, ByPairEqualsStableSort) {
  std::mt19937_64 rng(36);
  for (size_t n : {0, 1, 3, 64, 200, 20'000})
    for (int shape = 0; shape < 5; ++shape)
      for (uint32_t tracks : {1u, 2u, 40u, 1u << 24}) {
        const std::vector<int64_t> minor = RandomKeys(rng, n, shape);
        std::vector<uint32_t> major(n);
        for (uint32_t& m : major) m = static_cast<uint32_t>(rng() % tracks);
        ExpectRuns(StableRunsByPair(major, minor), major, minor);
      }
}

TEST(StableOrder, FirstSeenIdsNumberKeysOnFirstSight) {
  std::mt19937_64 rng(37);
  for (size_t n : {0, 1, 10, 100, 30'000})
    for (int shape = 0; shape < 5; ++shape) {
      const std::vector<int64_t> k = RandomKeys(rng, n, shape);
      std::unordered_map<int64_t, uint32_t> seen;
      std::vector<uint32_t> expected;
      for (int64_t v : k) expected.push_back(seen.try_emplace(v, static_cast<uint32_t>(seen.size())).first->second);
      uint32_t count = 0;
      EXPECT_EQ(FirstSeenIds(k, &count), expected);
      EXPECT_EQ(count, seen.size());
    }
}

// Linear: 16x the keys take far less than 256x the time of the smaller sort (std::stable_sort's
// n log n would also pass; the check is for a quadratic slip). Timestamps as the analyses sort them.
TEST(StableOrder, ScalesLinearly) {
  std::mt19937_64 rng(38);
  auto time_of = [&](size_t n) {
    const std::vector<int64_t> k = RandomKeys(rng, n, 1);
    double best = 1e9;  // the fastest of a few: a busy machine only ever makes a run slower
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      EXPECT_EQ(StableRunsByKey(k).order.size(), n);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
  };
  time_of(1 << 12);  // warm up
  const double small = time_of(1 << 14), big = time_of(1 << 18);
  // 16x the keys outgrow the caches (4 MB of items against 256 KB), which costs a few times per key;
  // a quadratic slip would be 256x.
  EXPECT_LT(big, 100 * small + 0.1) << small << " s vs " << big << " s";
}

}  // namespace
}  // namespace profdiff::analysis
