// Suggestions for mistyped command-line words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace profdiff::cli {

// The candidate closest to `word` when it is close enough to be a typo of it (at most two edits,
// counting an adjacent swap as one and '-' as '_', and at most a third of the word), else "".
std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace profdiff::cli
