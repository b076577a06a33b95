// The summary after the screen table (default mode): which run is which, how the E2E time changed
// and how that change splits into computing, uncovered communication and free time, the operators
// or modules that moved most, the match rate, and how many warnings were printed. As text that fits
// 100 columns, or as Markdown for a pull-request comment (--format md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/overall/overall.h"

namespace profdiff::report {

struct SummaryItem {
  std::string name;
  int64_t diff_ns = 0;  // comparison − base (exact)
};

// What one comparison adds to the summary (the operator comparison: its largest moves and match rate).
struct SummaryPart {
  std::string what;                     // "operators" | "modules"
  std::string note;                     // how the moves were measured ("per step: ..."), or ""
  std::vector<SummaryItem> regressed;   // largest diff first (diff > 0), at most kSummaryItems
  std::vector<SummaryItem> improved;    // most negative first (diff < 0), at most kSummaryItems
  std::optional<double> base_match;     // matched / base items
  std::optional<double> comparison_match;
};

inline constexpr size_t kSummaryItems = 5;

struct SummaryInput {
  std::string base_path;
  std::string comparison_path;
  const analysis::OverallComparison* overall = nullptr;
  int64_t base_steps = 0;  // ProfilerStep markers in the capture (0: none)
  int64_t comparison_steps = 0;
  // The median ProfilerStep duration per side, when both sides have steps (the gate's per-step E2E).
  std::optional<int64_t> base_median_step_ns;
  std::optional<int64_t> comparison_median_step_ns;
  int64_t base_median_of = 0, comparison_median_of = 0;  // how many steps each median is of
  // --base_step / --comparison_step: the one step each side's per-step numbers read.
  std::optional<int64_t> base_selected_step, comparison_selected_step;
  std::vector<SummaryPart> parts;
  std::vector<std::string> incomparable;  // why the pair is not a fair comparison (GateResult)
  int64_t warnings = 0;  // warnings printed on stderr so far
};

// Plain text, every line at most 100 columns (long names and paths are shortened with "…").
std::string RenderSummaryText(const SummaryInput& in);
// Markdown: a heading, the E2E change, a table of the categories, the lists of operators.
std::string RenderSummaryMarkdown(const SummaryInput& in);

// The largest moves of a list of (name, diff) items: regressed (diff > 0, largest first) and
// improved (diff < 0, most negative first), at most kSummaryItems each.
void PickLargestMoves(std::vector<SummaryItem> items, SummaryPart& part);

}  // namespace profdiff::report
