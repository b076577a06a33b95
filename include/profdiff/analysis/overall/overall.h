// Overall ("profiling") comparison: how each side's step time splits into computing, uncovered
// communication and free time (docs/reference/overall.md), and the rows/cells that the screen table
// (docs/reference/overall.md#screen-table), the OverallMetrics sheet
// (docs/reference/overall.md#overallmetrics-sheet) and the JSON result are rendered from. Analysis
// computes; report renders.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// python_numbers.h: PyRound, DiffMs, DiffRatio (docs/reference/numbers.md); callers of the rows use
// them too.
#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/categorize.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/overall/step_split.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// Fill of an OverallMetrics row (docs/reference/overall.md#overallmetrics-sheet): top-level rows
// blue, first-level rows light blue.
enum class RowFill { kNone, kBlue, kLightBlue };

// One side's value in an OverallMetrics row.
struct MetricCell {
  bool present = true;            // false: the side lacks this row (rendered 0, 0, "/")
  double duration_ms = 0;
  double duration_ratio = 0;      // duration / side's e2e
  std::optional<int64_t> number;  // nullopt renders as "/"
};

struct OverallRow {
  std::string label;   // with the reference's leading TAB characters ("\t\tTransmit")
  int indent = 0;      // number of leading TABs
  RowFill fill = RowFill::kNone;
  MetricCell base;
  MetricCell comparison;
  double diff_ms = 0;     // round(comp - base, 2)
  double diff_ratio = 1;  // 1.0 if both 0; +inf if base 0; else round(comp/base, 4)
};

// One column of the screen table (docs/reference/overall.md#screen-table): header and both sides'
// formatted cells.
struct ScreenColumn {
  std::string header;
  std::string base_cell;
  std::string comparison_cell;
};

// Headline categories of one side, in ns (for JSON and gates). Categories sum to e2e:
// e2e = computing + uncovered_communication + free. `computing_ns` includes LCCL kernel time (the
// reference subtracts LCCL from free time but shows it under neither computing nor communication).
// One NPU communication group's uncovered communication (the overlap lane's "Communication(Not
// Overlapped)" within the group's ops), split exactly over the group's HCCL planes, every instant
// counted once (docs/deviations.md row 12): transmit while a data-moving task runs, wait while a
// Notify_Wait runs and nothing transmits, idle otherwise. transmit + wait + idle = uncovered.
struct CommunicationGroupSplit {
  std::string group;  // HCCL thread name, e.g. "Group 0 Communication"
  int64_t uncovered_ns = 0;
  int64_t transmit_ns = 0;
  int64_t wait_ns = 0;
  int64_t idle_ns = 0;
};

struct SideSummary {
  DeviceKind device = DeviceKind::kUnknown;
  std::string label;  // "GPU" / "NPU"
  bool has_overall = false;  // e2e could be computed
  int64_t e2e_ns = 0;
  int64_t computing_ns = 0;
  int64_t uncovered_communication_ns = 0;
  int64_t wait_ns = 0;
  int64_t free_ns = 0;
  int64_t sdma_ns = 0;
  // Computing split (ns) and counts, keys: "flash_attention_fwd", "flash_attention_bwd",
  // "conv_fwd", "conv_bwd", "matmul", "page_attention", "vector", "cube", "sdma_tensor_move",
  // "mc2", "lccl", "other".
  std::vector<std::pair<std::string, int64_t>> computing_split_ns;
  std::vector<std::pair<std::string, int64_t>> computing_split_count;
  // Each kernel category's kernels (categorize.h): Σ, calls, longest and shortest, as categorised
  // for the split above (empty without a categorisation: a GPU side without a compute stream, an
  // Ascend trace_view.json alone). The kernel comparison compares GPU sides by them.
  CategoryTotals kernel_categories;
  double memory_used_gib = 0;
  bool memory_known = false;  // memory_used_gib is a measurement (else unknown, not 0)
  std::optional<double> rdma_bandwidth_gb_s;
  std::optional<double> sdma_bandwidth_gb_s;
  bool hide_op_details = false;  // no usable kernel details: computing split unknown
  // NPU: the exact split of each communication group (thread-sort order), in every mode.
  std::vector<CommunicationGroupSplit> communication_groups;
  std::vector<std::string> warnings;
  // Each step window's exact split (step_split.h), by step id; empty without step markers. The
  // windows are the device's where the side has device work (timeline/device_steps.h).
  std::vector<StepSplit> steps;
  StepWindowSource step_source = StepWindowSource::kNone;
  StepCoverage step_coverage;  // busy time inside and outside the step windows
};

struct OverallComparison {
  ReferencePolicy policy;  // what the numbers were computed with (reports label the mode from it)
  SideSummary base;
  SideSummary comparison;
  // empty when a side has e2e == 0 (no sheet, docs/reference/overall.md#overallmetrics-sheet)
  std::vector<OverallRow> rows;
  std::vector<ScreenColumn> screen;    // Columns of docs/reference/overall.md#screen-table in order
  std::string screen_title = "Model Profiling Time Distribution";
};

struct OverallOptions {
  // Kernel-categorisation keyword masks; nullopt = the built-in defaults (KernelMasks::Defaults()).
  std::optional<KernelMasks> masks;
  // --base_step / --comparison_step. An Ascend DB side's tasks, communication ops and memory records
  // are restricted to that STEP_TIME range, as the reference's DB queries are; a GPU side's device
  // events to those starting in that ProfilerStep window (default mode only:
  // policy.gpu_ignores_step_selection). An Ascend text side ignores them.
  std::optional<int64_t> base_step;
  std::optional<int64_t> comparison_step;
};

// Both timelines' profiles must outlive the call. The policy decides every behaviour that differs
// between profdiff's exact default and the reference (docs/deviations.md).
OverallComparison CompareOverall(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                                 const OverallOptions& options);

}  // namespace profdiff::analysis
