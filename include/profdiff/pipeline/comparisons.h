// The table of comparisons: one row per comparison of the reference, in the order of its --enable_*
// flags (docs/reference/command-line.md#default-comparison-set). The pipeline runs the enabled rows
// in this order, writes their sheets in the workbook order of docs/reference/workbook.md
// (`sheet_order`) and puts their JSON sections in the result in this order.
//
// Adding a comparison means: one analysis folder (src/analysis/<x>/), one report folder
// (src/report/<x>/: its sheets and its JSON section), one row here (with its run function) and one
// golden folder (tests/golden/compare/<case>/). Nothing else names the comparison: the CLI's
// --enable_* flags and the explanatory sheet read this table.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/operators/operator_pairing.h"
#include "profdiff/analysis/overall/gate.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/pipeline/compare_request.h"
#include "profdiff/report/json_values.h"
#include "profdiff/report/summary.h"
#include "profdiff/report/sheet.h"

namespace profdiff::pipeline {

// What a row's run function reads. Everything is built once per run, before any row runs.
struct ComparisonInputs {
  const analysis::Timeline& base;
  const analysis::Timeline& comparison;
  const analysis::ReferencePolicy& policy;
  const CompareRequest& request;
  // The overall comparison is first-class (the screen table and the gate read it): it is computed
  // before the table runs, and its row only renders it.
  const analysis::OverallComparison& overall;
  // The operator pairing (trees and pairs), built by the first row that needs it and shared by the
  // operator, memory and API rows.
  analysis::SharedOperatorPairing& pairing;
  // The gate and the comparability of the pair (the workbook's banner says when the pair is not
  // comparable): evaluated beside the rows, before the rows that read it (ComparisonEntry::reads_gate).
  const analysis::GateResult& gate;
};

// The options of the operator pairing and comparison from the request (the policy is separate).
analysis::OperatorCompareOptions OperatorOptionsFor(const CompareRequest& request);

struct ComparisonOutput {
  std::vector<report::SheetSpec> sheets;  // workbook order; a sheet without rows is not written
  report::JsonBody json;  // the value of the row's JSON key (only when request.wants_json())
  std::vector<std::string> warnings;      // shown on stderr as "profdiff: warning: ..."
  std::optional<report::SummaryPart> summary;  // what the row adds to the summary after the table
  // Why it has no rows, when the row knows better than its table entry's empty_reason.
  std::string empty_reason;
};

using RunComparisonFn = ComparisonOutput (*)(const ComparisonInputs& inputs);

struct ComparisonEntry {
  std::string_view name;  // "overall", "operators", ...
  std::string_view flag;  // "--enable_profiling_compare"
  std::string_view help;  // the flag's --help text
  bool EnabledComparisons::*enabled;
  std::span<const std::string_view> sheets;  // the sheet names it can write
  // position of its sheets in the workbook (docs/reference/workbook.md)
  int sheet_order;
  // Its key in the JSON result ("operators"); empty: no section of its own (the overall comparison,
  // whose keys are part of every result, see report/overall/overall_json.h).
  std::string_view json_key;
  // Why its sheets can all be empty, for the explanatory sheets (EmptyComparisons, and
  // NoComparisonData when no sheet has rows) and the JSON's "empty_comparisons".
  std::string_view empty_reason;
  RunComparisonFn run;
  // The enabled rows run side by side (--threads) and start heaviest first, so that the workers finish
  // together: the row's share of the work, as measured on the 1 GB pair (docs/performance.md,
  // "Every comparison on every core"). It changes no output.
  int weight = 1;
  // It reads ComparisonInputs::gate (the overall row's banner): it runs once the gate has run.
  bool reads_gate = false;

};

std::span<const ComparisonEntry> Comparisons();

// The row's sheet names joined with '/' ("MemoryCompare/MemoryCompareStatistic").
std::string SheetNames(const ComparisonEntry& entry);

// The overall comparison of both sides. It is first-class (always computed: the screen table and
// the gate read it); the "overall" row only decides whether its OverallMetrics sheet is written.
analysis::OverallComparison RunOverallComparison(const analysis::Timeline& base,
                                                 const analysis::Timeline& comparison,
                                                 const analysis::ReferencePolicy& policy,
                                                 const std::optional<analysis::KernelMasks>& masks,
                                                 std::optional<int64_t> base_step = std::nullopt,
                                                 std::optional<int64_t> comparison_step = std::nullopt);

// Every comparison of the table enabled (the reference's default when no --enable_* flag is given).
EnabledComparisons AllComparisons();

}  // namespace profdiff::pipeline
