// The kernel comparison (docs/reference/kernels.md): the KernelCompare rows (kernel_details.csv
// grouped by op type and input shapes) or, with --use_kernel_type, the KernelTypeCompare rows
// (op_statistic.csv keyed by op type and core type). It reads the loaded side tables of both
// profiles, never files.
//
// GPU sides (default mode; ReferencePolicy::kernel_compare_npu_only turns them off, as the reference
// refuses them): KernelCompare groups a Kineto trace's device kernels (kernel, memcpy and memset
// events) by kernel name and the input shapes of the torch op that launched them (kernel-launch
// flow); KernelTypeCompare, and any GPU vs NPU pair, groups both sides by the overall comparison's
// kernel categories (analysis/overall/categorize.h: matmul_cube, flash_attention_fwd_cube,
// vector_no_trans, ...), the only kernel types both devices share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/categorize.h"
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
  std::string type;    // the op type ("Type" column), the sheet's "Kernel"; a GPU side's kernel name
  std::string shapes;  // "Input Shapes" verbatim, "N/A" when empty; GPU: the launching op's Input Dims
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
  std::string op_type;    // "OP Type"; by category: the category's name ("matmul_cube")
  std::string core_type;  // "Core Type"; by category: "cube", "vector" or "" (page_attention, mc2, ...)
  KernelTypeSide base, comparison;
  double diff_total_ratio = 1;
  double diff_avg_ratio = 1;
};

enum class KernelCompareKind : uint8_t {
  kNone,   // a side lacks the data: no rows
  kShape,  // KernelCompare (op type + input shapes)
  kType,   // KernelTypeCompare (op type + core type)
};

// Where a side's rows come from.
enum class KernelSource : uint8_t {
  kNone,              // nothing (no rows)
  kKernelDetails,     // kernel_details.csv (an Ascend side)
  kDeviceKernels,     // a GPU trace's kernel, memcpy and memset events
  kOpStatistic,       // op_statistic.csv (an Ascend side)
  kKernelCategories,  // the overall comparison's kernel categories (either device)
};
std::string_view Name(KernelSource s);  // "none", "kernel_details", "device_kernels", ...

// What one side contributed: the kernels (or op_statistic rows) kept after the filters.
struct KernelSideSummary {
  KernelSource source = KernelSource::kNone;
  bool has_data = false;   // kernel_details.csv (or op_statistic.csv) rows left after the filters
  int64_t kernels = 0;     // kernel_details rows kept (KernelCompare) / Σ Count (KernelTypeCompare)
  int64_t total_ns = 0;    // Σ their durations (op_statistic: Σ Total Time)
  double total_us = 0;     // the same in µs, per the policy (the reference's float sum in compat)
};

struct KernelCompareOptions {
  bool use_kernel_type = false;            // --use_kernel_type
  std::optional<int64_t> base_step;        // --base_step
  std::optional<int64_t> comparison_step;  // --comparison_step
  // Each side's kernels by category, as the overall comparison categorised them (of the selected
  // step): what KernelTypeCompare compares a GPU side by. nullptr: no category rows.
  const CategoryTotals* base_categories = nullptr;
  const CategoryTotals* comparison_categories = nullptr;
};

struct KernelComparison {
  ReferencePolicy policy;
  KernelCompareKind kind = KernelCompareKind::kNone;
  bool use_kernel_type = false;
  // A GPU side is compared by kernel category: with --use_kernel_type, or (automatic_type) a GPU vs
  // NPU pair without it, whose kernel names and op types never match.
  bool by_category = false;
  bool automatic_type = false;
  KernelSideSummary base, comparison;
  std::vector<KernelRow> rows;           // kind kShape: base keys, then comparison-only keys
  std::vector<KernelTypeRow> type_rows;  // kind kType: sorted by diff_total_ratio, descending
  // Why a side gave nothing, and that a GPU vs NPU pair was compared by category (shown on stderr).
  std::vector<std::string> warnings;
  // Why a GPU side (or a side compared by category) has no kernels: on stderr only when the kernel
  // comparison is asked for by name (a trace without device kernels is common, and the overall
  // comparison says so already); in the JSON section's warnings always.
  std::vector<std::string> no_data;

  // The sheet is KernelTypeCompare (else KernelCompare).
  bool ByType() const { return use_kernel_type || automatic_type; }
};

KernelComparison CompareKernels(const Timeline& base, const Timeline& comparison,
                                const ReferencePolicy& policy, const KernelCompareOptions& options);

}  // namespace profdiff::analysis
