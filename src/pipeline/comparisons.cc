#include "profdiff/pipeline/comparisons.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "profdiff/analysis/api/api_compare.h"
#include "profdiff/analysis/communication/communication_compare.h"
#include "profdiff/analysis/kernel/kernel_compare.h"
#include "profdiff/analysis/memory/memory_compare.h"
#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/report/api/api_report.h"
#include "profdiff/report/communication/communication_report.h"
#include "profdiff/report/kernel/kernel_json.h"
#include "profdiff/report/kernel/kernel_sheets.h"
#include "profdiff/report/memory/memory_json.h"
#include "profdiff/report/memory/memory_sheets.h"
#include "profdiff/report/operators/operator_sheets.h"
#include "profdiff/report/operators/operators_json.h"
#include "profdiff/report/overall/overall_sheet.h"

namespace profdiff::pipeline {

analysis::OperatorCompareOptions OperatorOptionsFor(const CompareRequest& request) {
  analysis::OperatorCompareOptions options;
  options.disable_details = request.disable_details;
  options.disable_module = request.disable_module;
  options.max_kernel_num = request.max_kernel_num;
  options.op_name_map = request.op_name_map;
  options.use_input_shape = request.use_input_shape;
  options.overall_or_communication_runs = request.enabled.communication || request.enabled.profiling;
  if (request.base_step != kVoidStep) options.base_step = request.base_step;
  if (request.comparison_step != kVoidStep) options.comparison_step = request.comparison_step;
  return options;
}

namespace {


// ---- Run functions
// -------------------------------------------------------------------------------

// Why the operator, memory and API comparisons have no rows when a side has no torch ops; empty
// when both sides have some. A MindSpore profile is the common case: its framework events are not
// PyTorch's `cpu_op` events (docs/reference/inputs.md#mindspore).
std::string NoTorchOpsReason(const ComparisonInputs& in) {
  const analysis::OperatorPairing& pairing = in.pairing.Get();
  const bool base_none = pairing.base_tree.size() <= 1;  // the root only
  const bool comparison_none = pairing.comparison_tree.size() <= 1;
  if (!base_none && !comparison_none) return {};
  const std::string who =
      base_none && comparison_none
          ? fmt::format("neither side has torch operators ({} and {})", in.request.base_path,
                        in.request.comparison_path)
          : fmt::format("the {} side ({}) has no torch operators", base_none ? "base" : "comparison",
                        base_none ? in.request.base_path : in.request.comparison_path);
  return who + ": the operator, memory and API comparisons need PyTorch's `cpu_op` events, which a "
               "MindSpore (or other non-PyTorch) profile does not record; the reference writes no rows for "
               "it either";
}

// Overall (docs/reference/overall.md): the comparison itself ran before the table; this renders its
// sheet.
ComparisonOutput RunOverallRow(const ComparisonInputs& in) {
  ComparisonOutput out;
  out.sheets.push_back(report::BuildOverallMetricsSheet(in.overall, in.request.base_path,
                                                        in.request.comparison_path, in.gate.incomparable_reasons));
  return out;
}

// The operator comparison's part of the summary: the operators (or modules, by self time) that
// moved most, exactly, and the match rate.
// Per step when the captures hold different numbers of steps and none was selected: each item's
// total over its side's step count (a 3-step capture against a 6-step one is not "everything improved").
struct SummarySteps {
  int64_t base = 1, comparison = 1;
  bool per_step() const { return base != comparison; }
};

SummarySteps StepsForSummary(const ComparisonInputs& in) {
  if (in.request.base_step != kVoidStep) return {};
  const std::optional<int64_t> b = analysis::CountProfilerSteps(in.base);
  const std::optional<int64_t> c = analysis::CountProfilerSteps(in.comparison);
  if (!b || !c || *b <= 0 || *c <= 0) return {};
  return {*b, *c};
}

report::SummaryPart OperatorsSummary(const analysis::OperatorComparison& cmp, const SummarySteps& steps) {
  report::SummaryPart part;
  std::vector<report::SummaryItem> items;
  auto diff = [&](int64_t base_ns, int64_t comparison_ns) {
    return comparison_ns / steps.comparison - base_ns / steps.base;
  };
  if (cmp.kind == analysis::OperatorCompareKind::kModule) {
    part.what = "modules";
    for (const analysis::ModuleStatBlock& b : cmp.module_stats)
      items.push_back({b.display_name, diff(b.base.self.Ns(), b.comparison.self.Ns())});
  } else {
    part.what = "operators";
    for (const analysis::OperatorStatRow& r : cmp.operator_stats)
      items.push_back({std::string(r.name), diff(r.base.Ns(), r.comparison.Ns())});
  }
  if (steps.per_step())
    part.note = fmt::format("per step: base totals / {}, comparison totals / {}", steps.base, steps.comparison);
  report::PickLargestMoves(std::move(items), part);
  if (cmp.details && cmp.base_items > 0)
    part.base_match = static_cast<double>(cmp.matched) / static_cast<double>(cmp.base_items);
  if (cmp.details && cmp.comparison_items > 0)
    part.comparison_match = static_cast<double>(cmp.matched) / static_cast<double>(cmp.comparison_items);
  return part;
}

// Operators and modules (docs/reference/operators.md, #module-comparison).
ComparisonOutput RunOperatorsRow(const ComparisonInputs& in) {
  // Shared: the JSON section's rows are written from it after the row has returned.
  const auto shared = std::make_shared<const analysis::OperatorComparison>(
      analysis::CompareOperators(in.base, in.comparison, in.policy, in.pairing));
  const analysis::OperatorComparison& cmp = *shared;
  ComparisonOutput out;
  out.sheets = report::BuildOperatorSheets(cmp, in.request.base_path, in.request.comparison_path);
  // Built only for a JSON result: on the ResNet50 pair the section costs about as much as the
  // operator sheets themselves (docs/performance.md, "House restructure").
  if (in.request.wants_json()) out.json = report::OperatorsJsonBody(shared);
  out.warnings = cmp.warnings;
  if (cmp.kind != analysis::OperatorCompareKind::kNone) out.summary = OperatorsSummary(cmp, StepsForSummary(in));
  if (!report::HasRows(out.sheets)) out.empty_reason = NoTorchOpsReason(in);
  return out;
}

// Memory records under the operators, paired as the operator comparison pairs them
// (docs/reference/memory.md).
ComparisonOutput RunMemoryRow(const ComparisonInputs& in) {
  const auto shared = std::make_shared<const analysis::MemoryComparison>(
      analysis::CompareMemory(in.base, in.comparison, in.policy, in.pairing));
  const analysis::MemoryComparison& cmp = *shared;
  ComparisonOutput out;
  out.sheets = report::BuildMemorySheets(cmp, in.request.base_path, in.request.comparison_path);
  if (in.request.wants_json()) out.json = report::MemoryJsonBody(shared);
  // The pairing's warnings are the operator comparison's too: said once. Why a side has no records
  // is said on stderr when the comparison was asked for by name (traces without memory events are
  // common); the JSON section always has it.
  if (!in.request.enabled.operators) out.warnings = cmp.warnings;
  if (in.request.requested.memory)
    out.warnings.insert(out.warnings.end(), cmp.no_records.begin(), cmp.no_records.end());
  if (!report::HasRows(out.sheets)) {
    out.empty_reason = NoTorchOpsReason(in);
    if (out.empty_reason.empty() && !cmp.no_records.empty()) out.empty_reason = cmp.no_records.front();
  }
  return out;
}

// The kernel comparison's part of the summary: the kernel groups (or types) whose total moved most,
// exactly (per step when the captures hold different numbers of steps, as the operators'), and the
// share of each side's rows the other side has.
// `s` cut to at most `max` bytes at a character boundary, "…" marking a cut.
std::string CutEnd(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t cut = max > 3 ? max - 3 : 0;  // room for the 3-byte "…"
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "…";
}

// A kernel row's name in the summary (which fits a line to 100 columns by keeping its end): the
// start of the kernel's name (a templated name's namespace and kernel say what it is), then the start
// of its shapes, each cut to fit.
std::string SummaryKernelName(const std::string& name, const std::string& shapes) {
  constexpr size_t kWidth = 78, kName = 40;
  if (shapes == "N/A") return CutEnd(name, kWidth);
  const std::string n = CutEnd(name, std::max(kName, kWidth - std::min(kWidth, shapes.size() + 1)));
  return n + " " + CutEnd(shapes, kWidth - std::min(kWidth, n.size() + 1));
}

report::SummaryPart KernelsSummary(const analysis::KernelComparison& cmp, const SummarySteps& steps) {
  report::SummaryPart part;
  part.what = cmp.kind == analysis::KernelCompareKind::kType ? "kernel types" : "kernels";
  std::vector<report::SummaryItem> items;
  int64_t base_rows = 0, comparison_rows = 0, both = 0;
  auto add = [&](std::string name, bool b, bool c, int64_t base_ns, int64_t comparison_ns) {
    base_rows += b;
    comparison_rows += c;
    both += b && c;
    items.push_back({std::move(name), comparison_ns / steps.comparison - base_ns / steps.base});
  };
  for (const analysis::KernelRow& r : cmp.rows)
    add(SummaryKernelName(r.type, r.shapes), r.base.present, r.comparison.present,
        r.base.total.Ns(), r.comparison.total.Ns());
  for (const analysis::KernelTypeRow& r : cmp.type_rows)
    add(r.core_type.empty() ? r.op_type : r.op_type + " (" + r.core_type + ")", r.base.present,
        r.comparison.present, r.base.total_ns, r.comparison.total_ns);
  if (steps.per_step())
    part.note = fmt::format("per step: base totals / {}, comparison totals / {}", steps.base, steps.comparison);
  report::PickLargestMoves(std::move(items), part);
  if (base_rows > 0) part.base_match = static_cast<double>(both) / static_cast<double>(base_rows);
  if (comparison_rows > 0) part.comparison_match = static_cast<double>(both) / static_cast<double>(comparison_rows);
  return part;
}

// Kernels by op type and input shapes, or by op type and core type (docs/reference/kernels.md); a GPU
// side's kernels by name and launching op's shapes, or by the overall comparison's categories.
ComparisonOutput RunKernelRow(const ComparisonInputs& in) {
  analysis::KernelCompareOptions options;
  options.use_kernel_type = in.request.use_kernel_type;
  if (in.request.base_step != kVoidStep) options.base_step = in.request.base_step;
  if (in.request.comparison_step != kVoidStep) options.comparison_step = in.request.comparison_step;
  options.base_categories = &in.overall.base.kernel_categories;
  options.comparison_categories = &in.overall.comparison.kernel_categories;
  analysis::KernelComparison cmp = analysis::CompareKernels(in.base, in.comparison, in.policy, options);
  ComparisonOutput out;
  out.sheets = report::BuildKernelSheets(cmp, in.request.base_path, in.request.comparison_path);
  if (in.request.wants_json()) out.json.value = report::KernelsJsonSection(cmp);
  out.warnings = cmp.warnings;
  if (in.request.requested.kernel) out.warnings.insert(out.warnings.end(), cmp.no_data.begin(), cmp.no_data.end());
  if (cmp.kind != analysis::KernelCompareKind::kNone) out.summary = KernelsSummary(cmp, StepsForSummary(in));
  if (!report::HasRows(out.sheets)) {
    if (!cmp.no_data.empty()) out.empty_reason = cmp.no_data.back();
    else if (!cmp.warnings.empty()) out.empty_reason = cmp.warnings.back();
  }
  return out;
}

// Communication ops and their tasks per op name (docs/reference/communication.md).
ComparisonOutput RunCommunicationRow(const ComparisonInputs& in) {
  analysis::CommunicationCompareOptions options;
  if (in.request.base_step != kVoidStep) options.base_step = in.request.base_step;
  if (in.request.comparison_step != kVoidStep) options.comparison_step = in.request.comparison_step;
  analysis::CommunicationComparison cmp =
      analysis::CompareCommunication(in.base, in.comparison, in.policy, options);
  ComparisonOutput out;
  out.sheets = report::BuildCommunicationSheets(cmp, in.request.base_path, in.request.comparison_path);
  if (in.request.wants_json()) out.json.value = report::CommunicationJsonSection(cmp);
  out.warnings = cmp.warnings;
  return out;
}

// All-layer torch ops per name (docs/reference/api.md).
ComparisonOutput RunApiRow(const ComparisonInputs& in) {
  analysis::ApiCompareOptions options;
  if (in.request.base_step != kVoidStep) options.base_step = in.request.base_step;
  if (in.request.comparison_step != kVoidStep) options.comparison_step = in.request.comparison_step;
  const analysis::OperatorPairing& pairing = in.pairing.Get();
  options.base_tree = &pairing.base_tree;
  options.comparison_tree = &pairing.comparison_tree;
  analysis::ApiComparison cmp = analysis::CompareApi(in.base, in.comparison, in.policy, options);
  ComparisonOutput out;
  out.sheets = report::BuildApiSheets(cmp, in.request.base_path, in.request.comparison_path);
  if (in.request.wants_json()) out.json.value = report::ApiJsonSection(cmp);
  out.warnings = cmp.warnings;
  if (!report::HasRows(out.sheets)) out.empty_reason = NoTorchOpsReason(in);
  return out;
}

// ---- The table
// -----------------------------------------------------------------------------------

constexpr std::string_view kOverallSheets[] = {"OverallMetrics"};
constexpr std::string_view kOperatorSheets[] = {"ModuleCompareStatistic", "ModuleCompare",
                                                "OperatorCompareStatistic", "OperatorCompare"};
constexpr std::string_view kMemorySheets[] = {"MemoryCompare", "MemoryCompareStatistic"};
constexpr std::string_view kCommunicationSheets[] = {"CommunicationCompare"};
constexpr std::string_view kApiSheets[] = {"ApiCompare"};
constexpr std::string_view kKernelSheets[] = {"KernelCompare", "KernelTypeCompare"};

// `sheet_order` follows the workbook order of docs/reference/workbook.md: OverallMetrics (0),
// CommunicationCompare (1),
// Module*/Operator* (2), Memory* (3), ApiCompare (4), Kernel* (5).
// clang-format off
const ComparisonEntry kComparisons[] = {
    {.name = "overall", .flag = "--enable_profiling_compare",
     .help = "Enable overall performance comparison",
     .enabled = &EnabledComparisons::profiling, .sheets = kOverallSheets, .sheet_order = 0,
     .json_key = "",
     .empty_reason = "the overall comparison needs an end-to-end time on both sides (no kernels or "
                     "device tasks were found on a side)",
     .run = &RunOverallRow, .weight = 1, .reads_gate = true},
    {.name = "operators", .flag = "--enable_operator_compare",
     .help = "Enable operator performance comparison",
     .enabled = &EnabledComparisons::operators, .sheets = kOperatorSheets, .sheet_order = 2,
     .json_key = "operators",
     .empty_reason = "the operator comparison found no operators on either side",
     .run = &RunOperatorsRow, .weight = 3},
    {.name = "memory", .flag = "--enable_memory_compare",
     .help = "Enable operator memory comparison",
     .enabled = &EnabledComparisons::memory, .sheets = kMemorySheets, .sheet_order = 3,
     .json_key = "memory",
     .empty_reason = "the memory comparison found no torch operators on either side (memory records "
                     "are shown under operators)",
     .run = &RunMemoryRow, .weight = 3},
    {.name = "communication", .flag = "--enable_communication_compare",
     .help = "Enable communication performance comparison",
     .enabled = &EnabledComparisons::communication, .sheets = kCommunicationSheets, .sheet_order = 1,
     .json_key = "communication",
     .empty_reason = "the communication comparison found no communication ops (NCCL kernels or HCCL "
                     "ops) on either side",
     .run = &RunCommunicationRow, .weight = 1},
    {.name = "api", .flag = "--enable_api_compare",
     .help = "Enable API performance comparison",
     .enabled = &EnabledComparisons::api, .sheets = kApiSheets, .sheet_order = 4,
     .json_key = "api",
     .empty_reason = "the API comparison needs torch ops on both sides (and, with --base_step/"
                     "--comparison_step, that step's ops on an NPU side)",
     .run = &RunApiRow, .weight = 1},
    {.name = "kernel", .flag = "--enable_kernel_compare",
     .help = "Enable kernel performance comparison",
     .enabled = &EnabledComparisons::kernel, .sheets = kKernelSheets, .sheet_order = 5,
     .json_key = "kernels",
     .empty_reason = "the kernel comparison needs kernels on both sides (an Ascend profile directory's "
                     "kernel_details.csv, or op_statistic.csv with --use_kernel_type; a GPU trace's kernels; "
                     "for a GPU vs NPU pair, kernels the overall comparison categorised); "
                     "--reference-compat compares Ascend profile directories only",
     .run = &RunKernelRow, .weight = 4},
};
// clang-format on

}  // namespace

std::span<const ComparisonEntry> Comparisons() { return kComparisons; }

std::string SheetNames(const ComparisonEntry& entry) {
  std::string out;
  for (std::string_view s : entry.sheets) {
    if (!out.empty()) out += '/';
    out += s;
  }
  return out;
}

EnabledComparisons AllComparisons() {
  EnabledComparisons all;
  for (const ComparisonEntry& e : Comparisons()) all.*e.enabled = true;
  return all;
}

analysis::OverallComparison RunOverallComparison(
    const analysis::Timeline& base, const analysis::Timeline& comparison,
    const analysis::ReferencePolicy& policy, const std::optional<analysis::KernelMasks>& masks,
    std::optional<int64_t> base_step, std::optional<int64_t> comparison_step) {
  analysis::OverallOptions options;
  options.masks = masks;
  options.base_step = base_step;
  options.comparison_step = comparison_step;
  return analysis::CompareOverall(base, comparison, policy, options);
}

}  // namespace profdiff::pipeline
