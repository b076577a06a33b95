// "Did you mean ...?" for a mistyped command or option.
#include "profdiff/cli/suggest.h"

#include <algorithm>
#include <vector>

namespace profdiff::cli {
namespace {

// Optimal string alignment distance (Levenshtein with adjacent transpositions), so "comapre" is one
// edit from "compare".
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// '-' and '_' are interchangeable in a typo ("--enable-kernel-compare").
std::string Canonical(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

}  // namespace

std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string w = Canonical(word);
  // Close enough to be a typo: at most 2 edits, and at most a third of the word.
  const size_t limit = std::min<size_t>(2, std::max<size_t>(1, w.size() / 3));
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    const size_t dist = EditDistance(w, Canonical(c));
    if (dist < best_distance) {
      best_distance = dist;
      best = c;
    }
  }
  return best;
}

}  // namespace profdiff::cli
