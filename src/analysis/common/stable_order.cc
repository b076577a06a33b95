#include "profdiff/analysis/common/stable_order.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace profdiff::analysis {

namespace {

constexpr unsigned kDigitBits = 11;
constexpr size_t kBuckets = size_t{1} << kDigitBits;
constexpr unsigned kDigits = (64 + kDigitBits - 1) / kDigitBits;
constexpr size_t kSmall = 64;  // below this, std::stable_sort is cheaper than the counting passes

struct Item {
  uint64_t key;
  uint32_t index;
};

unsigned DigitOf(uint64_t key, unsigned d) {
  return static_cast<unsigned>((key >> (d * kDigitBits)) & (kBuckets - 1));
}

// LSD radix sort of `items` by key (stable); passes over digits that all keys share are skipped.
void RadixSort(std::vector<Item>& items) {
  const size_t n = items.size();
  std::vector<std::array<uint32_t, kBuckets>> counts(kDigits);
  for (auto& c : counts) c.fill(0);
  for (const Item& it : items)
    for (unsigned d = 0; d < kDigits; ++d) ++counts[d][DigitOf(it.key, d)];
  std::vector<Item> tmp(n);
  for (unsigned d = 0; d < kDigits; ++d) {
    auto& c = counts[d];
    if (std::find(c.begin(), c.end(), n) != c.end()) continue;  // one digit value: already in order
    uint32_t sum = 0;
    for (uint32_t& v : c) {
      const uint32_t here = v;
      v = sum;
      sum += here;
    }
    for (const Item& it : items) tmp[c[DigitOf(it.key, d)]++] = it;
    items.swap(tmp);
  }
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
