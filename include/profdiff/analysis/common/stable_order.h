// Stable orderings of items by integer keys in linear time (issue 35): the analyses group events
// by (track, timestamp), by flow id or by timestamp, and a hash map of millions of nodes costs a
// few cache misses (and an allocation) per event, more as the trace grows. These sort the keys
// instead, with an LSD radix sort (11-bit digits; a digit equal in every key costs no pass), which
// reads and writes memory in order.
//
// `order` is the permutation of 0..n-1 that sorts the items ascending by their key, items with
// equal keys in index order: exactly what std::stable_sort of iota(n) with the key comparison gives.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace profdiff::analysis {

struct SortedRuns {
  std::vector<uint32_t> order;
  std::vector<uint8_t> new_run;  // new_run[p]: the key of order[p] differs from that of order[p-1] (1 at 0)
};

// By key[i] (signed).
SortedRuns StableRunsByKey(std::span<const int64_t> key);
// By (major[i], minor[i]) lexicographically, minor compared as signed integers. Packs both into
// one 64-bit key when the minor keys' range leaves room for the major ones; otherwise (minor keys
// spread over more than 2^(64 - bits of the largest major) values) falls back to std::stable_sort.
SortedRuns StableRunsByPair(std::span<const uint32_t> major, std::span<const int64_t> minor);

// Numbers the distinct keys 0, 1, ... in order of first appearance: ids[i] is key[i]'s number;
// *count (if given) receives the number of distinct keys. What a hash map from key to the next
// free number gives, in linear time.
std::vector<uint32_t> FirstSeenIds(std::span<const int64_t> key, uint32_t* count = nullptr);

// Reorders `items` stably by key(item) (an int64_t): what std::stable_sort with key(a) < key(b)
// does, in linear time and reading each item once (a comparator that looks the key up elsewhere
// misses the cache about n log n times).
template <typename T, typename KeyOf>
void StableSortByKey(std::vector<T>& items, KeyOf key_of) {
  std::vector<int64_t> keys;
  keys.reserve(items.size());
  for (const T& x : items) keys.push_back(static_cast<int64_t>(key_of(x)));
  const SortedRuns runs = StableRunsByKey(keys);
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (uint32_t i : runs.order) sorted.push_back(std::move(items[i]));
  items = std::move(sorted);
}

// Order-preserving map of a signed key to an unsigned one.
inline uint64_t SignedKeyBits(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63); }

}  // namespace profdiff::analysis
