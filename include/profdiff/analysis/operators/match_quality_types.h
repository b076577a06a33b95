// The operator comparison's match quality as data (the OperatorComparison holds one; how it is
// assessed is match_quality.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/analysis/timeline/op_tree.h"

namespace profdiff::analysis {

struct UnmatchedName {
  std::string name;
  int64_t count = 0;      // unmatched operators of that name
  int64_t device_ns = 0;  // their device time (exact, rounded to ns)
};

// An --op_name_map pair (base name -> comparison name) that was tried: applied on top of the ones
// before it (and the user's own map), it raised the match count by `matched_gain`. When the mapped
// names are wrappers that the pairing had drilled into, the mapping matches them as one row each and
// their operators are no longer compared one by one: `wrappers_no_longer_drilled` of them.
struct NameMapSuggestion {
  std::string base;
  std::string comparison;
  uint64_t matched_gain = 0;
  uint64_t wrappers_no_longer_drilled = 0;
};

struct MatchQuality {
  bool low = false;  // fewer than half of either side's operators matched
  uint64_t base_items = 0, comparison_items = 0, matched = 0;
  std::vector<UnmatchedName> base_unmatched;        // heaviest first, at most kHeaviestUnmatched
  std::vector<UnmatchedName> comparison_unmatched;
  std::vector<NameMapSuggestion> suggestions;       // tried pairs that raise the match count
  uint64_t suggestions_refused = 0;                 // candidate pairs tried that did not
  std::string reason;                               // why, in words ("" when not low)
  WrapperDrillStats wrappers_drilled;               // default mode: wrappers the pairing drilled into
};

inline constexpr size_t kHeaviestUnmatched = 5;

}  // namespace profdiff::analysis
