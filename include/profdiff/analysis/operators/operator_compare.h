// Operator and module comparison (docs/reference/operators.md, #module-comparison): the data behind
// the OperatorCompare, OperatorCompareStatistic, ModuleCompare and ModuleCompareStatistic sheets
// and the "operators" section of the JSON result. Durations are DualSums (exact 1e-5 ns sums and
// the reference's float sums together); the value shown is Us(policy) / Ms(policy) with the
// result's policy, and the rounded diffs and ratios are computed from those. Rendering (kernel
// lines, Python-style shapes) is done in report/operators.
//
// Which comparison runs (docs/reference/operators.md#which-comparison-runs): the module comparison
// when !disable_module and both sides have python_function events and it yields at least one pair;
// otherwise the operator comparison.
//
// How far it imitates the reference is the ReferencePolicy's business: `matching`
// (docs/reference/operators.md#sequence-matching: a true longest common subsequence by default, the
// reference's recurrence or SequenceMatcher under --reference-compat; --disable_details replaces it
// by "no matching"), `attach_kernels_by_start_ts` (the quirk of
// docs/reference/loading.md#kernel-linking), `hccl_ops_attach_only_with_comm`,
// `old_memcpy_not_kernel` and `float_us_sums` (which sums the shown durations are). See
// docs/deviations.md, "Operator and module comparison".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/common/sequence_match.h"
#include "profdiff/analysis/operators/match_quality_types.h"
#include "profdiff/analysis/operators/operator_pairing.h"
#include "profdiff/analysis/timeline/op_tree.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// Device durations are summed exactly in units of 1e-5 ns ("e5", Slice::dur_e5(); common/dual_sum.h):
// Ascend writes kernel durations with sub-ns digits and the reference sums them as written.
// OperatorCompareOptions is in operators/operator_pairing.h.

enum class OperatorCompareKind : uint8_t {
  kNone,      // nothing to compare (no torch ops on either side)
  kModule,    // ModuleCompareStatistic (+ ModuleCompare)
  kOperator,  // OperatorCompareStatistic (+ OperatorCompare)
};

// ---- Operator comparison ------------------------------------------------------------------------
// See docs/reference/operators.md#operatorcompare-sheet, #operatorcomparestatistic-sheet.

// One side of an OperatorCompare row. `present` false: the other side's op is unmatched.
struct OperatorSide {
  bool present = false;
  SliceId slice = kNoSlice;
  std::string_view name;
  std::vector<SliceId> kernels;  // every kernel of the op's subtree, breadth-first
  DualSum device;                // Σ kernel durations, in kernel order
};

struct OperatorRow {
  OperatorSide base;
  OperatorSide comparison;
  double diff_us = 0;  // round(comp − base, 2) in µs
  double ratio = 1;    // 1.0 both 0, +inf base 0, else round(comp/base, 4)
};

struct OperatorStatRow {
  std::string_view name;  // raw op name (the map is not applied)
  DualSum base;           // Σ over the ops of the name of their device durations (shown: Ms)
  DualSum comparison;
  int64_t base_count = 0;  // ops of the name
  int64_t comparison_count = 0;
  double diff_ms = 0;  // round(comp_ms − base_ms, 2)
  double ratio = 1;
};

// ---- Module comparison (docs/reference/operators.md#module-comparison) --------------------------

struct ModuleSide {
  bool present = false;
  std::string module_class;  // "nn.Module: Linear"
  int64_t level = 0;         // root 1, top-level modules 2
  std::string path;          // raw module path ("/nn.Module: A_0/nn.Module: Linear_2")
  std::string display_name;  // path with "nn.Module:" removed
  int64_t start_ns = 0;
  DualSum self;   // kernels whose launch lies in the module itself (shown: Us)
  DualSum total;  // kernels of the module's subtree
  std::string call_stack;
};

// One operator row inside a ModuleCompare block: the module's top-level ops matched by name.
struct ModuleOpSide {
  bool present = false;
  SliceId slice = kNoSlice;
  std::string_view name;
  std::vector<SliceId> kernels;  // the op's own kernels (the module's kernel groups it received)
  DualSum device;                // shown: Us
  std::string_view call_stack;   // the op's "Call stack" arg, "N/A" when absent
};
struct ModuleOpRow {
  ModuleOpSide base;
  ModuleOpSide comparison;
  double self_diff_us = 0;
  double ratio = 1;
};

struct ModuleBlock {  // ModuleCompare: a TOTAL row, then one row per op pair
  ModuleSide base;
  ModuleSide comparison;
  double total_diff_us = 0;
  double self_diff_us = 0;
  double total_ratio = 1;
  std::vector<ModuleOpRow> ops;
};

struct ModuleStatKernel {
  std::string_view name;
  DualSum total;  // the kernels of that name (total.count of them; shown: Ms)
};
struct ModuleStatOpSide {
  std::vector<ModuleStatKernel> kernels;  // per kernel name, first-seen order
  DualSum device;                         // shown: Ms
  int64_t count = 0;                      // ops
};
struct ModuleStatOpRow {
  std::string_view name;
  ModuleStatOpSide base;
  ModuleStatOpSide comparison;
  double self_diff_ms = 0;
  double ratio = 1;
};
struct ModuleStatSide {
  DualSum self;            // Σ over the instances (each instance's µs sum converted to ms; shown: Ms)
  DualSum total;
  int64_t count = 0;       // module instances
  std::string call_stack;  // the first instance's
};
struct ModuleStatBlock {  // ModuleCompareStatistic: a "[ TOTAL ]" row, then one row per op name
  std::string path;          // raw path
  std::string display_name;  // without "nn.Module:"
  std::string module_class;
  int64_t level = 0;         // number of '/' in the path (the reference's quirk)
  ModuleStatSide base;
  ModuleStatSide comparison;
  double total_diff_ms = 0;
  double self_diff_ms = 0;
  double total_ratio = 1;
  std::vector<ModuleStatOpRow> ops;
};

// ---- Result --------------------------------------------------------------------------------------------

struct OperatorComparison {
  OperatorCompareKind kind = OperatorCompareKind::kNone;
  bool details = true;  // !disable_details: the detail sheets are produced
  ReferencePolicy policy;                            // the policy it was computed with
  MatchAlgorithm algorithm = MatchAlgorithm::kLcs;  // the matching actually used (kNone: no details)
  const Profile* base = nullptr;
  const Profile* comparison = nullptr;

  std::vector<OperatorRow> operator_rows;      // kOperator, in matching order
  std::vector<OperatorStatRow> operator_stats;  // kOperator, sorted by diff_ms descending (stable)
  std::vector<ModuleBlock> module_blocks;       // kModule, in ModuleCompare order
  std::vector<ModuleStatBlock> module_stats;    // kModule

  // Match rate over the compared items (top-level operators after drill-down, or modules).
  uint64_t base_items = 0;
  uint64_t comparison_items = 0;
  uint64_t matched = 0;
  // Default mode: unmatched wrappers the pairing replaced by their children, per side.
  WrapperDrillStats wrappers_drilled;
  // kOperator with details: how well the pairing worked, the --op_name_map suggestions tried
  // (match_quality.h).
  MatchQuality match_quality;

  // NPU: kernel start -> kernel_details.csv "Input Shapes"
  // (docs/reference/loading.md#kernel-linking step 2), per side.
  std::unordered_map<int64_t, StringId> base_kernel_shapes;
  std::unordered_map<int64_t, StringId> comparison_kernel_shapes;

  OpTreeStats base_tree_stats;
  OpTreeStats comparison_tree_stats;
  std::vector<std::string> warnings;  // e.g. a step without operators
};

// The whole operator/module comparison. The timelines' profiles must outlive the result (it keeps
// views into their strings); the timelines themselves need not.
OperatorComparison CompareOperators(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                                    const OperatorCompareOptions& options);
// The same with the run's shared pairing (its options are the comparison's): the pairing is built
// only if the operators are compared (not the modules).
OperatorComparison CompareOperators(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                                    SharedOperatorPairing& pairing);

// The module comparison alone (docs/reference/operators.md#module-comparison): fills kind =
// kModule, module_blocks, module_stats and the match rate, and returns true, when both sides have
// nn.Module events and the matching yields a pair.
bool CompareModules(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                    const OperatorCompareOptions& options, OperatorComparison& out);

// The module class of a name or path (docs/reference/operators.md#module-tree): the last
// '/'-segment with a trailing "_<digits>" removed.
std::string ModuleClassOf(std::string_view name);

}  // namespace profdiff::analysis
