#include "profdiff/analysis/common/ordered_join.h"

namespace profdiff::analysis {

size_t FirstSeenKeys::Add(std::string_view key, bool* inserted) {
  auto [it, is_new] = index_.try_emplace(key, keys_.size());
  if (is_new) keys_.push_back(key);
  if (inserted != nullptr) *inserted = is_new;
  return it->second;
}

std::optional<size_t> FirstSeenKeys::Find(std::string_view key) const {
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

std::vector<MatchPair> OrderedJoin(std::span<const std::string_view> base_keys,
                                   std::span<const std::string_view> comparison_keys) {
  FirstSeenKeys comparison;
  for (std::string_view k : comparison_keys) comparison.Add(k);
  std::vector<bool> joined(comparison_keys.size(), false);
  std::vector<MatchPair> out;
  out.reserve(base_keys.size() + comparison_keys.size());
  for (size_t b = 0; b < base_keys.size(); ++b) {
    MatchPair p{static_cast<int32_t>(b), kNoIndex};
    if (std::optional<size_t> c = comparison.Find(base_keys[b])) {
      p.comparison = static_cast<int32_t>(*c);
      joined[*c] = true;
    }
    out.push_back(p);
  }
  for (size_t c = 0; c < comparison_keys.size(); ++c) {
    // A repeated comparison key is joined through its first occurrence only.
    if (!joined[c] && comparison.Find(comparison_keys[c]) == c) out.push_back({kNoIndex, static_cast<int32_t>(c)});
  }
  return out;
}

}  // namespace profdiff::analysis
