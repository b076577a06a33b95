// STRING_IDS of an Ascend DB export: id -> interned text, looked up several times per row of tables
// of millions of rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profdiff/base/string_pool.h"

namespace profdiff::db {

// The ids as read (a later row of an id wins). Exports tag an id with its kind in the high bits
// (API names from 0x10000000, memory components from 0x20000000, ...): a few runs of nearby ids far
// apart. Each run is an array indexed by id - its first id, found by a binary search over the runs'
// first ids (the last run found is tried first); ids too scattered for that (more runs than
// kMaxRuns, or arrays more than about twice the rows) go to a hash map.
class StringIds {
 public:
  void Set(int64_t id, StringId text) { rows_.emplace_back(id, text); }
  // Called once every row is in.
  void Index() {
    std::vector<std::pair<int64_t, StringId>> sorted = rows_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.first < b.first;
    });                         // a later row last
    std::vector<int64_t> ends;  // each run's last id
    uint64_t slots = 0;
    for (size_t i = 0; i < sorted.size(); ++i) {
      const int64_t id = sorted[i].first;
      if (i > 0 && Distance(ends.back(), id) <= kGap) {
        ends.back() = id;
        continue;
      }
      if (i > 0) slots += Distance(starts_.back(), ends.back()) + 1;
      starts_.push_back(id);
      ends.push_back(id);
    }
    if (!ends.empty()) slots += Distance(starts_.back(), ends.back()) + 1;
    if (starts_.size() > kMaxRuns || slots > 2 * rows_.size() + 4096) {
      starts_.clear();
      for (const auto& [id, text] : rows_) sparse_[id] = text;
      return;
    }
    for (size_t r = 0; r < starts_.size(); ++r)
      runs_.emplace_back(Distance(starts_[r], ends[r]) + 1, kMissing);
    for (const auto& [id, text] : sorted) {
      const size_t r = RunOf(id);
      runs_[r][Distance(starts_[r], id)] = text;
    }
  }
  const StringId* Find(int64_t id) const {
    if (!sparse_.empty()) {
      auto it = sparse_.find(id);
      return it == sparse_.end() ? nullptr : &it->second;
    }
    if (starts_.empty() || id < starts_[0]) return nullptr;
    // The run of the last id found first: a table's rows mostly name ids of one or two runs.
    size_t r = last_run_;
    if (id < starts_[r] || Distance(starts_[r], id) >= runs_[r].size()) r = last_run_ = RunOf(id);
    const uint64_t at = Distance(starts_[r], id);
    if (at >= runs_[r].size()) return nullptr;
    const StringId& text = runs_[r][at];
    return text == kMissing ? nullptr : &text;
  }
  // Every (id, text), in table order.
  const std::vector<std::pair<int64_t, StringId>>& rows() const { return rows_; }

 private:
  static constexpr StringId kMissing = ~StringId{0};
  static constexpr uint64_t kGap = 4096;  // ids further apart start a new run
  static constexpr size_t kMaxRuns = 64;
  // b - a for a <= b, without overflow.
  static uint64_t Distance(int64_t a, int64_t b) {
    return static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
  }
  // The run whose first id is the last one <= id (id >= starts_[0]).
  size_t RunOf(int64_t id) const {
    return static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), id) -
                               starts_.begin()) -
           1;
  }
  std::vector<std::pair<int64_t, StringId>> rows_;
  std::vector<int64_t> starts_;  // each run's first id, ascending
  mutable size_t last_run_ = 0;  // Find's last run (a StringIds is read by one thread)
  std::vector<std::vector<StringId>> runs_;
  std::unordered_map<int64_t, StringId> sparse_;
};

}  // namespace profdiff::db
