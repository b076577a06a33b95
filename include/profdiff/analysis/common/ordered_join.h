// The reference's way of lining up two sides' groups (operator statistics, module statistics, the
// operator rows of a module statistic, and the comparisons to come): the base side's keys in order
// of first appearance, each with the comparison group of the same key if there is one, then the
// comparison-only keys in their order of first appearance.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profdiff/analysis/common/sequence_match.h"

namespace profdiff::analysis {

// String keys numbered 0, 1, ... in order of first appearance. Keys are views: the caller keeps
// the strings alive as long as this object.
class FirstSeenKeys {
 public:
  // The key's number; `inserted` (if given) is set when the key is new.
  size_t Add(std::string_view key, bool* inserted = nullptr);
  std::optional<size_t> Find(std::string_view key) const;
  std::span<const std::string_view> keys() const { return keys_; }
  size_t size() const { return keys_.size(); }

 private:
  std::unordered_map<std::string_view, size_t> index_;
  std::vector<std::string_view> keys_;
};

// Values grouped by key, the groups in order of their key's first appearance.
template <typename T>
class FirstSeenGroups {
 public:
  // The group of `key`, default-constructed when the key is new.
  T& operator[](std::string_view key) {
    bool inserted = false;
    const size_t i = keys_.Add(key, &inserted);
    if (inserted) values_.emplace_back();
    return values_[i];
  }
  std::span<const std::string_view> keys() const { return keys_.keys(); }
  std::vector<T>& values() { return values_; }
  const std::vector<T>& values() const { return values_; }
  size_t size() const { return values_.size(); }

 private:
  FirstSeenKeys keys_;
  std::vector<T> values_;
};

// Joins two key lists (each without repeated keys; a repeated key joins by its first occurrence):
// one pair per base key in order, with the index of the equal comparison key or kNoIndex, then one
// (kNoIndex, index) pair per comparison key no base key has, in order.
std::vector<MatchPair> OrderedJoin(std::span<const std::string_view> base_keys,
                                   std::span<const std::string_view> comparison_keys);

}  // namespace profdiff::analysis
