// How well the operator pairing worked, and why it failed when it did: a comparison that pairs few
// operators says little, and saying nothing would let a user read an unmatched run as a diff.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/analysis/operators/operator_compare.h"

namespace profdiff::analysis {

struct UnmatchedName {
  std::string name;
  int64_t count = 0;      // unmatched operators of that name
  int64_t device_ns = 0;  // their device time (exact, rounded to ns)
};

struct NameMapSuggestion {  // an --op_name_map pair: base name -> comparison name
  std::string base;
  std::string comparison;
};

struct MatchQuality {
  bool low = false;  // fewer than half of either side's operators matched
  uint64_t base_items = 0, comparison_items = 0, matched = 0;
  std::vector<UnmatchedName> base_unmatched;        // heaviest first, at most kHeaviest
  std::vector<UnmatchedName> comparison_unmatched;
  std::vector<NameMapSuggestion> suggestions;       // confident pairs only
  std::string reason;                               // why, in words ("" when not low)
  WrapperDrillStats wrappers_drilled;               // default mode: wrappers the pairing drilled into
};

inline constexpr size_t kHeaviestUnmatched = 5;

// The operator comparison's match quality (kind kOperator; other kinds give an empty result). A
// suggestion pairs a heavy unmatched base name with the one unmatched comparison name that is the
// same operator once vendor prefixes, separators, case and autograd suffixes are set aside.
MatchQuality AssessMatchQuality(const OperatorComparison& oc);

// The warning for a low match (one paragraph), or "" when the match is not low.
std::string MatchQualityWarning(const MatchQuality& q);

}  // namespace profdiff::analysis
