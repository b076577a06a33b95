// The waterfalls of the HTML page (docs/html-report.md): each is a list of signed parts (ns) that
// add up exactly to its total, built from the JSON result so the page and the JSON never disagree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/report/json_values.h"

namespace profdiff::report::html {

struct WaterfallPart {
  std::string label;  // untrusted when it is an operator or module name
  int64_t delta_ns = 0;
};

struct Waterfall {
  std::string title;
  std::string total_label;          // the last bar, e.g. "ΔE2E"
  std::vector<WaterfallPart> parts;  // in drawing order; Σ delta_ns == total_ns
  int64_t total_ns = 0;
};

// ΔE2E into its categories, from the JSON result's `deltas` (computing, uncovered communication,
// free; "unattributed" only when it is not zero). Should the categories not add up to
// e2e_delta_ns, the difference becomes an explicit "unattributed" part, so the parts always sum.
Waterfall CategoryWaterfall(const OrderedJson& deltas);

// The operator or module comparison's change split into its `top_n` largest items (by |Δ|, largest
// first, ties in row order) and one "other" part holding the rest, from the `operators` section:
// operators by device time (operator_statistic: comparison_ms − base_ms), modules by self time
// (module_statistic: self times never overlap, so they add up). Each item's Δ is taken in whole ns
// (each side's ms rounded to the ns), and the total is the sum of every row's Δ, so the parts sum
// exactly. nullopt when the section is null or has no statistic rows.
std::optional<Waterfall> ItemWaterfall(const OrderedJson& operators, size_t top_n);

}  // namespace profdiff::report::html
