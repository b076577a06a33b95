// ApiCompare (docs/reference/api.md): the all-layer torch ops of each side's operator tree
// (docs/reference/operators.md#operator-tree) grouped by name, with their total duration, self time
// (dur − Σ direct children's dur) and call count per side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/timeline/op_tree.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

// One all-layer op of one side: its name, duration and self time, exactly (int64 ns) and as the
// reference computes them (float µs: dur, and dur minus its children's float durations summed in
// order), for ReferencePolicy::float_us_sums.
struct ApiOp {
  std::string_view name;  // a view into the profile's string pool (a 1 GB trace has millions of ops)
  int64_t dur_ns = 0;
  int64_t self_ns = 0;
  double ref_dur_us = 0;
  double ref_self_us = 0;
};

// Per-side sums for one api name and the values the sheet shows (docs/reference/api.md): total and
// self time in ms rounded to 2 places, avg = round(rounded total / calls, 2) (0 without calls).
struct ApiSide {
  int64_t total_ns = 0;
  int64_t self_ns = 0;
  int64_t calls = 0;
  double ref_total_us = 0;  // the reference's float sums, in op order
  double ref_self_us = 0;
  double total_ms = 0;
  double self_ms = 0;
  double avg_ms = 0;
};

struct ApiRow {
  std::string name;
  ApiSide base;
  ApiSide comparison;
  // comparison − base total, ms: round(c - b, 2) of the displayed totals under
  // rounded_diffs_and_ratios, else the exact difference of the ns sums.
  double diff_total_ms = 0;
  // DiffRatio of the displayed values (rounded under rounded_diffs_and_ratios).
  double diff_total_ratio = 1;
  double diff_self_ratio = 1;
  double diff_avg_ratio = 1;
  double diff_calls_ratio = 1;
};

// Names in first-appearance order on the base side, then comparison-only names in their order,
// with exact sums only (no display values). No rows when either side is empty.
std::vector<ApiRow> CompareApis(const std::vector<ApiOp>& base, const std::vector<ApiOp>& comparison);

// What one side contributed.
struct ApiSideSummary {
  int64_t ops = 0;       // all-layer ops
  int64_t names = 0;     // distinct op names
  int64_t total_ns = 0;  // Σ dur (nested ops counted at every layer, as the sheet does)
  int64_t self_ns = 0;   // Σ self time
};

struct ApiCompareOptions {
  std::optional<int64_t> base_step;        // --base_step (NPU sides only, as the reference)
  std::optional<int64_t> comparison_step;  // --comparison_step
  // The sides' operator trees when the run already built them (the pipeline's shared operator
  // pairing); nullptr: built here. Which kernels a tree attaches does not matter to this comparison.
  const OpTree* base_tree = nullptr;
  const OpTree* comparison_tree = nullptr;
};

struct ApiComparison {
  ApiSideSummary base, comparison;
  std::vector<ApiRow> rows;           // with display values and ratios
  std::vector<std::string> warnings;  // why a side gave nothing (shown on stderr)
};

// The all-layer ops of one side (docs/reference/operators.md#operator-tree): without a step every
// torch-op node but the step nodes, in start order; with a step (NPU only) breadth-first from that
// step's top-layer ops. nullopt when the step is not in the profile.
std::optional<std::vector<ApiOp>> AllLayerApiOps(const Timeline& timeline, const ReferencePolicy& policy,
                                                 std::optional<int64_t> step, const OpTree* tree = nullptr);

ApiComparison CompareApi(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                         const ApiCompareOptions& options);

}  // namespace profdiff::analysis
