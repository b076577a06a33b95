#include "profdiff/analysis/common/stable_order.h"

#include <algorithm>
#include <numeric>
#include <span>

namespace profdiff::analysis {

namespace {

constexpr unsigned kMaxDigitBits = 12;  // 4,096 buckets: the counts and the write fronts stay in L1/L2
constexpr size_t kSmall = 64;           // below this, std::stable_sort is cheaper than the counting passes

struct Item {
  uint64_t key;
  uint32_t index;
};

// LSD radix sort of `words` by their bits [low, low + bits) (stable), in digits of equal width of at
// most kMaxDigitBits; a pass over a digit that all words share is skipped.
template <typename Word, typename DigitOf>
void RadixPasses(std::vector<Word>& words, unsigned bits, DigitOf digit_of) {
  const size_t n = words.size();
  const unsigned passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
  const unsigned width = (bits + passes - 1) / passes;
  const uint64_t mask = (uint64_t{1} << width) - 1;
  std::vector<uint32_t> counts(size_t{passes} << width, 0);
  for (const Word& w : words)
    for (unsigned d = 0; d < passes; ++d) ++counts[(size_t{d} << width) + digit_of(w, d * width, mask)];
  std::vector<Word> tmp(n);
  for (unsigned d = 0; d < passes; ++d) {
    const std::span<uint32_t> c(counts.data() + (size_t{d} << width), size_t{1} << width);
    if (std::find(c.begin(), c.end(), n) != c.end()) continue;  // one digit value: already in order
    uint32_t sum = 0;
    for (uint32_t& v : c) {
      const uint32_t here = v;
      v = sum;
      sum += here;
    }
    for (const Word& w : words) tmp[c[digit_of(w, d * width, mask)]++] = w;
    words.swap(tmp);
  }
}

// LSD radix sort of `items` by key (stable), over the keys' range: the smallest key is taken off
// first, so that the passes cover only the bits in which the keys differ (a trace's timestamps span
// 2^32 ns at 140 MB and 2^35 ns at 1 GB; fixed digits of the absolute times took three passes and
// four). When that range and the index fit in 64 bits, the passes move one word per item (the
// offset above the index, which ties keep in index order) instead of a 16-byte item: half the memory
// traffic, which is what a pass costs once the items outgrow the caches. Keys already in order cost
// one read.
void RadixSort(std::vector<Item>& items) {
  const size_t n = items.size();
  uint64_t lo = items[0].key, hi = items[0].key;
  bool ordered = true;
  for (size_t i = 1; i < n; ++i) {
    ordered = ordered && items[i - 1].key <= items[i].key;
    lo = std::min(lo, items[i].key);
    hi = std::max(hi, items[i].key);
  }
  if (ordered) return;
  unsigned bits = 0, index_bits = 0;
  while (bits < 64 && ((hi - lo) >> bits) != 0) ++bits;
  while (index_bits < 32 && (uint64_t{n - 1} >> index_bits) != 0) ++index_bits;
  if (bits + index_bits > 64) {
    RadixPasses(items, bits, [lo](const Item& it, unsigned shift, uint64_t mask) {
      return static_cast<size_t>(((it.key - lo) >> shift) & mask);
    });
    return;
  }
  std::vector<uint64_t> words(n);
  for (size_t i = 0; i < n; ++i) words[i] = ((items[i].key - lo) << index_bits) | items[i].index;
  RadixPasses(words, bits, [index_bits](uint64_t w, unsigned shift, uint64_t mask) {
    return static_cast<size_t>((w >> (index_bits + shift)) & mask);
  });
  const uint64_t index_mask = (uint64_t{1} << index_bits) - 1;
  for (size_t i = 0; i < n; ++i)
    items[i] = {lo + (words[i] >> index_bits), static_cast<uint32_t>(words[i] & index_mask)};
}

SortedRuns RunsOf(std::vector<Item>& items) {
  if (items.size() < kSmall) {
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
  } else {
    RadixSort(items);
  }
  SortedRuns out;
  out.order.resize(items.size());
  out.new_run.resize(items.size());
  for (size_t p = 0; p < items.size(); ++p) {
    out.order[p] = items[p].index;
    out.new_run[p] = p == 0 || items[p].key != items[p - 1].key;
  }
  return out;
}

}  // namespace

SortedRuns StableRunsByKey(std::span<const int64_t> key) {
  std::vector<Item> items(key.size());
  for (size_t i = 0; i < key.size(); ++i) items[i] = {SignedKeyBits(key[i]), static_cast<uint32_t>(i)};
  return RunsOf(items);
}

SortedRuns StableRunsByPair(std::span<const uint32_t> major, std::span<const int64_t> minor) {
  const size_t n = minor.size();
  if (n == 0) return {};
  uint32_t max_major = 0;
  for (uint32_t m : major) max_major = std::max(max_major, m);
  const auto [lo, hi] = std::minmax_element(minor.begin(), minor.end());
  const uint64_t range = SignedKeyBits(*hi) - SignedKeyBits(*lo);
  unsigned major_bits = 0;
  while (major_bits < 32 && (uint64_t{max_major} >> major_bits) != 0) ++major_bits;
  const unsigned minor_bits = 64 - major_bits;
  if (minor_bits < 64 && (range >> minor_bits) != 0) {  // does not pack: compare the pairs
    SortedRuns out;
    out.order.resize(n);
    std::iota(out.order.begin(), out.order.end(), 0u);
    std::stable_sort(out.order.begin(), out.order.end(), [&](uint32_t a, uint32_t b) {
      return major[a] != major[b] ? major[a] < major[b] : minor[a] < minor[b];
    });
    out.new_run.resize(n);
    for (size_t p = 0; p < n; ++p) {
      const uint32_t a = out.order[p];
      out.new_run[p] = p == 0 || major[a] != major[out.order[p - 1]] || minor[a] != minor[out.order[p - 1]];
    }
    return out;
  }
  const uint64_t base = SignedKeyBits(*lo);
  std::vector<Item> items(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t m = major_bits == 0 ? 0 : uint64_t{major[i]} << minor_bits;
    items[i] = {m | (SignedKeyBits(minor[i]) - base), static_cast<uint32_t>(i)};
  }
  return RunsOf(items);
}

std::vector<uint32_t> FirstSeenIds(std::span<const int64_t> key, uint32_t* count) {
  const SortedRuns runs = StableRunsByKey(key);
  std::vector<uint32_t> head(key.size());  // the first index with the same key
  uint32_t run_head = 0;
  for (size_t p = 0; p < runs.order.size(); ++p) {
    if (runs.new_run[p]) run_head = runs.order[p];
    head[runs.order[p]] = run_head;
  }
  std::vector<uint32_t> ids(key.size());
  uint32_t next = 0;
  for (size_t i = 0; i < key.size(); ++i) ids[i] = head[i] == i ? next++ : ids[head[i]];
  if (count != nullptr) *count = next;
  return ids;
}

}  // namespace profdiff::analysis
