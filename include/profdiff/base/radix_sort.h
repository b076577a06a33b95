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
#include <thread>
#include <vector>

namespace profdiff {

// Sorts `v` by `key(element)` (an int64_t), keeping the order of elements with equal keys. With
// `threads` 2 and an array of kRadixSortTwoThreadsMin elements or more, each pass's counting and
// moving is split between this thread and one more (the first half's elements of a digit go before
// the second half's: the same order).
inline constexpr size_t kRadixSortTwoThreadsMin = size_t{1} << 20;

template <typename T, typename Key>
void StableRadixSort(std::vector<T>& v, Key key, int threads = 1) {
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
  using Counts = std::array<size_t, kBuckets>;
  const int width = std::bit_width(hi - lo);
  // The parts moved on their own (the second on a thread of its own when there are two).
  const size_t parts = threads >= 2 && v.size() >= kRadixSortTwoThreadsMin ? 2 : 1;
  const size_t mid = parts == 2 ? v.size() / 2 : v.size();
  auto in_parts = [&](auto&& work) {
    if (parts == 1) {
      work(size_t{0}, size_t{0}, v.size());
      return;
    }
    std::thread second([&] { work(size_t{1}, mid, v.size()); });
    work(size_t{0}, size_t{0}, mid);
    second.join();
  };
  std::vector<T> other(v.size());
  std::vector<T>* from = &v;
  std::vector<T>* to = &other;
  for (int shift = 0; shift < width; shift += kBits) {
    std::array<Counts, 2> count{};
    auto digit = [&](const T& e) { return static_cast<size_t>(((unsigned_key(e) - lo) >> shift) & (kBuckets - 1)); };
    in_parts([&](size_t part, size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) ++count[part][digit((*from)[i])];
    });
    // Where each part's elements of each digit go: digit by digit, the first part's before the second's.
    size_t at = 0;
    for (size_t d = 0; d < kBuckets; ++d) {
      for (size_t part = 0; part < parts; ++part) {
        const size_t n = count[part][d];
        count[part][d] = at;
        at += n;
      }
    }
    in_parts([&](size_t part, size_t begin, size_t end) {
      Counts& next = count[part];
      for (size_t i = begin; i < end; ++i) {
        const T& e = (*from)[i];
        (*to)[next[digit(e)]++] = e;
      }
    });
    std::swap(from, to);
  }
  if (from != &v) v.swap(other);
}

}  // namespace profdiff
