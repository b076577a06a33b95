// KernelTypeCompare rows: op_statistic.csv rows keyed "{OP Type}-{Core Type}", values as written.
#include "kernel_type_compare.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "profdiff/analysis/common/python_numbers.h"

namespace profdiff::analysis {
namespace {

// A DB side has no written average: the reference divides its total (a float sum, kept by the loader
// for `float_sums`) by the count without rounding.
KernelTypeSide SideOf(const OpStatisticRow& r, bool float_sums) {
  KernelTypeSide s;
  s.present = true;
  s.total_ns = r.total_ns;
  s.avg_ns = r.avg_ns;
  s.max_ns = r.max_ns;
  s.min_ns = r.min_ns;
  s.count = r.count;
  s.total_us = float_sums && r.has_float_total ? r.float_total_us : static_cast<double>(r.total_ns) / 1e3;
  s.avg_us = static_cast<double>(r.avg_ns) / 1e3;
  if (r.has_float_total && r.count != 0) s.avg_us = s.total_us / static_cast<double>(r.count);
  s.max_us = static_cast<double>(r.max_ns) / 1e3;
  s.min_us = static_cast<double>(r.min_ns) / 1e3;
  return s;
}

KernelSideSummary Summary(const Profile& p) {
  KernelSideSummary s;
  s.has_data = p.npu.has_op_statistic && !p.npu.op_statistic.empty();
  for (const OpStatisticRow& r : p.npu.op_statistic) {
    s.kernels += r.count;
    s.total_ns += r.total_ns;
  }
  s.total_us = static_cast<double>(s.total_ns) / 1e3;
  return s;
}

// Why a side gave no op_statistic rows ("" for an input whose side files were not looked for).
std::string NoStatisticWarning(const Profile& p, std::string_view side) {
  if (!IsDirectoryInput(p)) return "";
  if (!p.npu.has_op_statistic) {
    return fmt::format("{}: no op_statistic.csv in {}: the kernel type comparison has no rows", side,
                       p.meta.input_path);
  }
  return fmt::format("{}: op_statistic.csv of {} has no rows: the kernel type comparison has no rows",
                     side, p.meta.input_path);
}

// Base keys in order, then comparison-only keys. A later row with the same key replaces the values
// of the earlier one and keeps its place (a dictionary update).
std::vector<KernelTypeRow> JoinStatistics(const Profile& base, const Profile& comparison,
                                          const ReferencePolicy& policy) {
  const bool float_sums = policy.float_us_sums;
  std::vector<KernelTypeRow> rows;
  std::unordered_map<std::string, size_t> index;
  auto add = [&](const Profile& p, bool is_base) {
    for (const OpStatisticRow& r : p.npu.op_statistic) {
      const std::string_view type = p.str(r.op_type), core = p.str(r.core_type);
      auto [it, inserted] = index.try_emplace(fmt::format("{}-{}", type, core), rows.size());
      if (inserted) rows.push_back(KernelTypeRow{std::string(type), std::string(core), {}, {}, 1, 1});
      (is_base ? rows[it->second].base : rows[it->second].comparison) = SideOf(r, float_sums);
    }
  };
  add(base, true);
  add(comparison, false);
  for (KernelTypeRow& r : rows) {
    r.diff_total_ratio = DiffRatio(r.base.total_us, r.comparison.total_us, policy);
    r.diff_avg_ratio = DiffRatio(r.base.avg_us, r.comparison.avg_us, policy);
  }
  // Stable, largest ratio first (+inf before every number).
  std::stable_sort(rows.begin(), rows.end(), [](const KernelTypeRow& a, const KernelTypeRow& b) {
    return a.diff_total_ratio > b.diff_total_ratio;
  });
  return rows;
}

}  // namespace

void CompareByType(const Timeline& base, const Timeline& comparison, KernelComparison& out) {
  out.base = Summary(base.p());
  out.comparison = Summary(comparison.p());
  for (auto [summary, p, name] : {std::tuple{&out.base, &base.p(), "base"},
                                  std::tuple{&out.comparison, &comparison.p(), "comparison"}}) {
    if (summary->has_data) continue;
    std::string w = NoStatisticWarning(*p, name);
    if (!w.empty()) out.warnings.push_back(std::move(w));
  }
  if (!out.base.has_data || !out.comparison.has_data) return;
  out.kind = KernelCompareKind::kType;
  out.type_rows = JoinStatistics(base.p(), comparison.p(), out.policy);
}

}  // namespace profdiff::analysis
