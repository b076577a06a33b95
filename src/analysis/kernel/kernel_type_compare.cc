// KernelTypeCompare rows: op_statistic.csv rows keyed "{OP Type}-{Core Type}", values as written; or
// (a GPU side) each side's kernel categories as the overall comparison counted them.
#include "kernel_type_compare.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "kernel_groups.h"
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
  if (s.has_data) s.source = KernelSource::kOpStatistic;
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

// The ratios of the shown values, then a stable sort, largest total ratio first (+inf before every
// number).
void SortByRatio(std::vector<KernelTypeRow>& rows, const ReferencePolicy& policy) {
  for (KernelTypeRow& r : rows) {
    r.diff_total_ratio = DiffRatio(r.base.total_us, r.comparison.total_us, policy);
    r.diff_avg_ratio = DiffRatio(r.base.avg_us, r.comparison.avg_us, policy);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const KernelTypeRow& a, const KernelTypeRow& b) {
    return a.diff_total_ratio > b.diff_total_ratio;
  });
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
  SortByRatio(rows, policy);
  return rows;
}

// What the sheet's Core Type says of a category: "cube", "vector", or "" for those that are neither
// or both (paged attention, SDMA tensor moves, MC2).
std::string_view CoreTypeOf(KernelCategory c) {
  const std::string_view name = Name(c);
  if (name == "cube" || name.ends_with("_cube")) return "cube";
  if (name.starts_with("vector") || name.ends_with("_vector")) return "vector";
  return "";
}

KernelTypeSide CategorySide(const CategoryTotals& t, KernelCategory c, const ReferencePolicy& policy) {
  KernelTypeSide s;
  s.present = true;
  s.count = t.Count(c);
  s.total_ns = t.Ns(c);
  s.avg_ns = s.total_ns / s.count;
  s.max_ns = t.MaxNs(c);
  s.min_ns = t.MinNs(c);
  s.total_us = t.Sum(c).Us(policy);
  s.avg_us = s.total_us / static_cast<double>(s.count);
  s.max_us = static_cast<double>(s.max_ns) / 1e3;
  s.min_us = static_cast<double>(s.min_ns) / 1e3;
  return s;
}

KernelSideSummary CategorySummary(const CategoryTotals* t, const ReferencePolicy& policy) {
  KernelSideSummary s;
  if (t == nullptr) return s;
  DualSum total;
  for (const DualSum& c : t->sums) total += c;
  s.kernels = total.count;
  s.has_data = s.kernels > 0;
  s.source = s.has_data ? KernelSource::kKernelCategories : KernelSource::kNone;
  s.total_ns = total.Ns();
  s.total_us = total.Us(policy);
  return s;
}

// The categories either side has, in the categories' order (base and comparison alike: one key
// each), then sorted as the op_statistic rows are.
std::vector<KernelTypeRow> JoinCategories(const CategoryTotals& base, const CategoryTotals& comparison,
                                          const ReferencePolicy& policy) {
  std::vector<KernelTypeRow> rows;
  for (size_t i = 0; i < kKernelCategoryCount; ++i) {
    const KernelCategory c = static_cast<KernelCategory>(i);
    if (base.Count(c) == 0 && comparison.Count(c) == 0) continue;
    KernelTypeRow r{std::string(Name(c)), std::string(CoreTypeOf(c)), {}, {}, 1, 1};
    if (base.Count(c) > 0) r.base = CategorySide(base, c, policy);
    if (comparison.Count(c) > 0) r.comparison = CategorySide(comparison, c, policy);
    rows.push_back(std::move(r));
  }
  SortByRatio(rows, policy);
  return rows;
}

// Why a side has no categorised kernel.
std::string NoCategoriesWarning(const Profile& p, std::string_view side) {
  return fmt::format("{}: no kernel of {} was categorised by the overall comparison (a GPU trace without "
                     "compute kernels; an Ascend trace_view.json alone, or a kernel_details.csv without the "
                     "columns the categorisation reads); the kernel type comparison has no rows",
                     side, p.meta.input_path);
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

void CompareByCategory(const Timeline& base, const Timeline& comparison, const KernelCompareOptions& options,
                       KernelComparison& out) {
  out.base = CategorySummary(options.base_categories, out.policy);
  out.comparison = CategorySummary(options.comparison_categories, out.policy);
  for (auto [summary, p, name] : {std::tuple{&out.base, &base.p(), "base"},
                                  std::tuple{&out.comparison, &comparison.p(), "comparison"}}) {
    if (!summary->has_data) out.no_data.push_back(NoCategoriesWarning(*p, name));
  }
  if (!out.base.has_data || !out.comparison.has_data) return;
  if (out.automatic_type) {  // said when there are rows: the sheet is not the one asked for
    auto device = [](const Timeline& t) {
      const bool gpu = IsGpuSide(t.p());
      return t.identity.vendor.empty() ? std::string(gpu ? "GPU" : "NPU")
                                       : fmt::format("{} ({})", gpu ? "GPU" : "NPU", t.identity.vendor);
    };
    out.warnings.push_back(fmt::format(
        "kernel comparison: the base side is {} and the comparison side {}: kernel names and op types "
        "differ between the devices, so both sides are compared by kernel category (KernelTypeCompare, as "
        "with --use_kernel_type; the categories of the overall comparison)",
        device(base), device(comparison)));
  }
  out.kind = KernelCompareKind::kType;
  out.type_rows = JoinCategories(*options.base_categories, *options.comparison_categories, out.policy);
}

}  // namespace profdiff::analysis
