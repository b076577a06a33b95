// KernelCompare and KernelTypeCompare rows (docs/reference/kernels.md). Durations are int64 ns from
// the loader; each group's total is a DualSum, so the policy decides between the exact sum and the
// reference's float sum in row order. The displayed values are rounded as the reference rounds
// them.
#include "profdiff/analysis/kernel/kernel_compare.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "profdiff/analysis/common/python_numbers.h"
#include "kernel_type_compare.h"

namespace profdiff::analysis {
namespace {

// "Type" cells the reference drops: empty, "N/A" and what pandas reads as NaN.
bool IsMissingType(std::string_view t) { return t.empty() || t == "N/A" || t == "nan" || t == "NaN"; }

// One (type, shapes) group of one side, before display rounding.
struct Group {
  std::string type;
  std::string shapes;
  KernelGroupSide side;
};

// A side's groups in the reference's order: op types in first-seen order, and within a type its
// shapes in first-seen order. Each group sums its kernels in row order.
struct SideGroups {
  std::vector<Group> groups;
  KernelSideSummary summary;
};

SideGroups GroupKernels(const Profile& p, std::optional<int64_t> step, const ReferencePolicy& policy) {
  struct TypeBucket {
    std::vector<size_t> groups;                      // indexes into `all`, first-seen order
    std::unordered_map<std::string_view, size_t> by_shape;
  };
  std::vector<Group> all;
  std::vector<TypeBucket> types;
  std::unordered_map<std::string_view, size_t> type_index;
  SideGroups out;
  DualSum total;
  for (const KernelDetailRow& r : p.npu.kernel_details.rows) {
    const std::string_view type = p.str(r.type);
    if (IsMissingType(type)) continue;
    if (step && (r.step_id == kNoNumber ? -1 : r.step_id) != *step) continue;
    std::string_view shapes = p.str(r.input_shapes);
    if (shapes.empty()) shapes = "N/A";
    auto [ti, new_type] = type_index.try_emplace(type, types.size());
    if (new_type) types.emplace_back();
    TypeBucket& bucket = types[ti->second];
    auto [si, new_shape] = bucket.by_shape.try_emplace(shapes, all.size());
    if (new_shape) {
      bucket.groups.push_back(all.size());
      all.push_back(Group{std::string(type), std::string(shapes), {}});
    }
    KernelGroupSide& g = all[si->second].side;
    g.max_ns = g.present ? std::max(g.max_ns, r.dur_ns) : r.dur_ns;
    g.min_ns = g.present ? std::min(g.min_ns, r.dur_ns) : r.dur_ns;
    g.present = true;
    g.total.AddNs(r.dur_ns);
    total.AddNs(r.dur_ns);
  }
  for (const TypeBucket& b : types)
    for (size_t gi : b.groups) out.groups.push_back(std::move(all[gi]));
  out.summary.has_data = !out.groups.empty();
  out.summary.kernels = total.count;
  out.summary.total_ns = total.Ns();
  out.summary.total_us = total.Us(policy);
  return out;
}

// The displayed values of a present group (docs/reference/kernels.md#kernelcompare): under
// rounded_diffs_and_ratios totals, max and min rounded to 2 decimals and the average from the
// rounded total (the reference); else the exact values.
void Display(KernelGroupSide& g, const ReferencePolicy& policy) {
  g.total_us = PolicyRound(g.total.Us(policy), 2, policy);
  g.avg_us = PolicyRound(g.total_us / static_cast<double>(g.total.count), 2, policy);
  g.max_us = PolicyRound(static_cast<double>(g.max_ns) / 1e3, 2, policy);
  g.min_us = PolicyRound(static_cast<double>(g.min_ns) / 1e3, 2, policy);
}

// The aggregation key: the reference concatenates type and shapes; the default keeps the pair apart
// (the CSV reader refuses NUL bytes, so "\0" cannot occur in either part).
std::string GroupKey(const Group& g, const ReferencePolicy& policy) {
  if (policy.kernel_keys_concatenated) return g.type + g.shapes;
  std::string key = g.type;
  key += '\0';
  key += g.shapes;
  return key;
}

// Rows: base keys in order, then comparison-only keys. On a key collision within a side the first
// group wins (only possible with concatenated keys).
std::vector<KernelRow> JoinGroups(SideGroups& base, SideGroups& comparison, const ReferencePolicy& policy) {
  std::vector<KernelRow> rows;
  std::unordered_map<std::string, size_t> index;
  auto add = [&](std::vector<Group>& groups, bool is_base) {
    std::unordered_map<std::string, bool> seen;  // keys this side already filled
    for (Group& g : groups) {
      std::string key = GroupKey(g, policy);
      if (!seen.try_emplace(key, true).second) continue;
      Display(g.side, policy);
      auto [it, inserted] = index.try_emplace(std::move(key), rows.size());
      if (inserted) rows.push_back(KernelRow{g.type, g.shapes, {}, {}, 1, 1});
      (is_base ? rows[it->second].base : rows[it->second].comparison) = g.side;
    }
  };
  add(base.groups, true);
  add(comparison.groups, false);
  for (KernelRow& r : rows) {
    r.diff_total_ratio = DiffRatio(r.base.total_us, r.comparison.total_us, policy);
    r.diff_avg_ratio = DiffRatio(r.base.avg_us, r.comparison.avg_us, policy);
  }
  return rows;
}

// Why a side gave no kernel details, or "" when it did.
std::string NoKernelsWarning(const Profile& p, std::string_view side, std::optional<int64_t> step) {
  const bool dir = IsDirectoryInput(p);
  if (p.meta.device == DeviceKind::kGpu) {
    // GPU data never has kernel details; the reference says so only for directory inputs.
    return dir ? fmt::format("{}: kernel compare only supports NPU data against NPU data", side) : "";
  }
  if (!p.npu.kernel_details.present) {
    const SideFileOutcome* file = p.npu.SideFile("kernel_details.csv");
    if (file != nullptr && file->state == SideFileState::kUnreadable) {
      return fmt::format("{}: can't find any valid kernels in {}: kernel_details.csv could not be read ({})",
                         side, p.meta.input_path, file->error);
    }
    return dir ? fmt::format("{}: can't find any valid kernels in {} (no kernel_details.csv; the "
                             "profiling level must be above level0)",
                             side, p.meta.input_path)
               : "";
  }
  if (step) {
    return fmt::format("{}: there is no kernel details information for step {} in {}; the kernel "
                       "comparison has no rows",
                       side, *step, p.npu.kernel_details.file);
  }
  return fmt::format("{}: the kernel comparison is off: {} has no kernel with an op type and a duration",
                     side, p.npu.kernel_details.file);
}

void CompareByShape(const Timeline& base, const Timeline& comparison, const KernelCompareOptions& options,
                    KernelComparison& out) {
  SideGroups b = GroupKernels(base.p(), options.base_step, out.policy);
  SideGroups c = GroupKernels(comparison.p(), options.comparison_step, out.policy);
  out.base = b.summary;
  out.comparison = c.summary;
  for (auto [s, p, name, step] : {std::tuple{&b, &base.p(), "base", options.base_step},
                                  std::tuple{&c, &comparison.p(), "comparison", options.comparison_step}}) {
    if (s->summary.has_data) continue;
    std::string w = NoKernelsWarning(*p, name, step);
    if (!w.empty()) out.warnings.push_back(std::move(w));
  }
  if (!b.summary.has_data || !c.summary.has_data) return;
  out.kind = KernelCompareKind::kShape;
  out.rows = JoinGroups(b, c, out.policy);
}

}  // namespace

KernelComparison CompareKernels(const Timeline& base, const Timeline& comparison,
                                const ReferencePolicy& policy, const KernelCompareOptions& options) {
  KernelComparison out;
  out.policy = policy;
  out.use_kernel_type = options.use_kernel_type;
  if (options.use_kernel_type) {
    CompareByType(base, comparison, out);
  } else {
    CompareByShape(base, comparison, options, out);
  }
  return out;
}

}  // namespace profdiff::analysis
