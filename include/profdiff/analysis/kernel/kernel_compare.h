// The kernel comparison (docs/reference/kernels.md): the KernelCompare rows (kernel_details.csv
// grouped by op type and input shapes) or, with --use_kernel_type, the KernelTypeCompare rows
// (op_statistic.csv keyed by op type and core type). It reads the loaded side tables of both
// profiles, never files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

// One side of a KernelCompare row: the kernels of one (type, shapes) group.
struct KernelGroupSide {
  bool present = false;
  DualSum total;  // Σ durations (exact and as the reference's float sum); total.count = calls
  int64_t max_ns = 0;
  int64_t min_ns = 0;
  // The displayed values (docs/reference/kernels.md#kernelcompare): round(total, 2),
  // round(round(total, 2) / calls, 2), round(max, 2), round(min, 2), in µs. A missing side shows
  // total 0 and avg 0 (max/min/calls blank).
  double total_us = 0;
  double avg_us = 0;
  double max_us = 0;
  double min_us = 0;
};

struct KernelRow {
  std::string type;    // the op type ("Type" column), the sheet's "Kernel"
  std::string shapes;  // "Input Shapes" verbatim, "N/A" when empty
  KernelGroupSide base, comparison;
  double diff_total_ratio = 1;  // DiffRatio of the displayed totals
  double diff_avg_ratio = 1;    // DiffRatio of the displayed averages
};

// One side of a KernelTypeCompare row: an op_statistic.csv row, values as written.
struct KernelTypeSide {
  bool present = false;
  int64_t total_ns = 0, avg_ns = 0, max_ns = 0, min_ns = 0;
  int64_t count = 0;
  double total_us = 0, avg_us = 0, max_us = 0, min_us = 0;  // the ns values in µs (0 when absent)
};

struct KernelTypeRow {
  std::string op_type;    // "OP Type"
  std::string core_type;  // "Core Type"
  KernelTypeSide base, comparison;
  double diff_total_ratio = 1;
  double diff_avg_ratio = 1;
};

enum class KernelCompareKind : uint8_t {
  kNone,   // a side lacks the data: no rows
  kShape,  // KernelCompare (op type + input shapes)
  kType,   // KernelTypeCompare (op type + core type)
};

// What one side contributed: the kernels (or op_statistic rows) kept after the filters.
struct KernelSideSummary {
  bool has_data = false;   // kernel_details.csv (or op_statistic.csv) rows left after the filters
  int64_t kernels = 0;     // kernel_details rows kept (KernelCompare) / Σ Count (KernelTypeCompare)
  int64_t total_ns = 0;    // Σ their durations (op_statistic: Σ Total Time)
  double total_us = 0;     // the same in µs, per the policy (the reference's float sum in compat)
};

struct KernelCompareOptions {
  bool use_kernel_type = false;            // --use_kernel_type
  std::optional<int64_t> base_step;        // --base_step
  std::optional<int64_t> comparison_step;  // --comparison_step
};

struct KernelComparison {
  ReferencePolicy policy;
  KernelCompareKind kind = KernelCompareKind::kNone;
  bool use_kernel_type = false;
  KernelSideSummary base, comparison;
  std::vector<KernelRow> rows;           // kind kShape: base keys, then comparison-only keys
  std::vector<KernelTypeRow> type_rows;  // kind kType: sorted by diff_total_ratio, descending
  std::vector<std::string> warnings;     // why a side gave nothing (shown on stderr)
};

KernelComparison CompareKernels(const Timeline& base, const Timeline& comparison,
                                const ReferencePolicy& policy, const KernelCompareOptions& options);

}  // namespace profdiff::analysis
