// How well the operator pairing worked, and why it failed when it did: a comparison that pairs few
// operators says little, and saying nothing would let a user read an unmatched run as a diff.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "profdiff/analysis/operators/match_quality_types.h"
#include "profdiff/analysis/operators/operator_compare.h"

namespace profdiff::analysis {

// Pairs the operators again with `maps` added to the comparison's --op_name_map and says what that
// pairing matches (TryPairing on the comparison's trees).
using NameMapTrial = std::function<PairingOutcome(const std::vector<NameMapSuggestion>& maps)>;

// The operator comparison's match quality (kind kOperator; other kinds give an empty result).
// A candidate pairs a heavy unmatched base name with the one unmatched comparison name that is the
// same operator once vendor prefixes, separators, case and autograd suffixes are set aside; both
// must have device time, and a rename that only adds or removes '_' (an in-place op against its
// out-of-place twin) is never one. Each candidate, heaviest first, is tried on top of the ones kept
// before it and kept only when it raises the match count: applying every suggestion never lowers
// the match. Without a trial nothing is suggested.
MatchQuality AssessMatchQuality(const OperatorComparison& oc, const NameMapTrial& trial);

// The warning for a low match (one paragraph), or "" when the match is not low.
std::string MatchQualityWarning(const MatchQuality& q);

}  // namespace profdiff::analysis
