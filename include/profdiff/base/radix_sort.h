// A stable sort of a big array by an integer key, in a few linear passes (LSD radix sort, 11 bits a
// pass, only over the bits in which the keys differ): what std::stable_sort gives, without its
// n log n comparisons. The Ascend DB loader sorts millions of (id, row) links by id: 0.5 G
// instructions through std::sort at 500 k tasks (docs/performance.md), a few tens of millions this
// way. Costs a second array of the same size while it sorts.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace profdiff {

// Sorts `v` by `key(element)` (an int64_t), keeping the order of elements with equal keys.
template <typename T, typename Key>
void StableRadixSort(std::vector<T>& v, Key key) {
  if (v.size() < 2) return;
  // Keys as unsigned, order kept (the sign bit flipped), less the smallest: only the bits that vary.
  auto unsigned_key = [&](const T& e) {
    return static_cast<uint64_t>(static_cast<int64_t>(key(e))) ^ (uint64_t{1} << 63);
  };
  uint64_t lo = UINT64_MAX, hi = 0;
  bool sorted = true;
  uint64_t prev = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const uint64_t k = unsigned_key(v[i]);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
    if (i > 0 && k < prev) sorted = false;
    prev = k;
  }
  if (sorted) return;
  constexpr int kBits = 11;
  constexpr size_t kBuckets = size_t{1} << kBits;
  const int width = std::bit_width(hi - lo);
  std::vector<T> other(v.size());
  std::vector<T>* from = &v;
  std::vector<T>* to = &other;
  for (int shift = 0; shift < width; shift += kBits) {
    std::array<size_t, kBuckets> count{};
    auto digit = [&](const T& e) { return static_cast<size_t>(((unsigned_key(e) - lo) >> shift) & (kBuckets - 1)); };
    for (const T& e : *from) ++count[digit(e)];
    size_t at = 0;
    for (size_t& c : count) {
      const size_t n = c;
      c = at;
      at += n;
    }
    for (const T& e : *from) (*to)[count[digit(e)]++] = e;
    std::swap(from, to);
  }
  if (from != &v) v.swap(other);
}

}  // namespace profdiff
