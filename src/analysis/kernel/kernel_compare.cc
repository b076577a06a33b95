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
#include "kernel_groups.h"
#include "kernel_type_compare.h"

namespace profdiff::analysis {

void GroupBuilder::Add(std::string_view type, std::string_view shapes, int64_t dur_ns) {
  auto [ti, new_type] = type_index_.try_emplace(type, types_.size());
  if (new_type) types_.emplace_back();
  TypeBucket& bucket = types_[ti->second];
  auto [si, new_shape] = bucket.by_shape.try_emplace(shapes, all_.size());
  if (new_shape) {
    bucket.groups.push_back(all_.size());
    all_.push_back(Group{std::string(type), std::string(shapes), {}});
  }
  KernelGroupSide& g = all_[si->second].side;
  g.max_ns = g.present ? std::max(g.max_ns, dur_ns) : dur_ns;
  g.min_ns = g.present ? std::min(g.min_ns, dur_ns) : dur_ns;
  g.present = true;
  g.total.AddNs(dur_ns);
  total_.AddNs(dur_ns);
}

SideGroups GroupBuilder::Finish(KernelSource source, const ReferencePolicy& policy) && {
  SideGroups out;
  for (const TypeBucket& b : types_)
    for (size_t gi : b.groups) out.groups.push_back(std::move(all_[gi]));
  out.summary.has_data = !out.groups.empty();
  out.summary.source = out.summary.has_data ? source : KernelSource::kNone;
  out.summary.kernels = total_.count;
  out.summary.total_ns = total_.Ns();
  out.summary.total_us = total_.Us(policy);
  return out;
}

std::string_view Name(KernelSource s) {
  switch (s) {
    case KernelSource::kNone: return "none";
    case KernelSource::kKernelDetails: return "kernel_details";
    case KernelSource::kDeviceKernels: return "device_kernels";
    case KernelSource::kOpStatistic: return "op_statistic";
    case KernelSource::kKernelCategories: return "kernel_categories";
  }
  return "none";
}

namespace {

// "Type" cells the reference drops: empty, "N/A" and what pandas reads as NaN.
bool IsMissingType(std::string_view t) { return t.empty() || t == "N/A" || t == "nan" || t == "NaN"; }

// An Ascend side's kernel_details.csv rows (of the selected step), by op type and input shapes.
SideGroups GroupKernelDetails(const Profile& p, std::optional<int64_t> step, const ReferencePolicy& policy) {
  GroupBuilder groups;
  for (const KernelDetailRow& r : p.npu.kernel_details.rows) {
    const std::string_view type = p.str(r.type);
    if (IsMissingType(type)) continue;
    if (step && (r.step_id == kNoNumber ? -1 : r.step_id) != *step) continue;
    std::string_view shapes = p.str(r.input_shapes);
    if (shapes.empty()) shapes = "N/A";
    groups.Add(type, shapes, r.dur_ns);
  }
  return std::move(groups).Finish(KernelSource::kKernelDetails, policy);
}

SideGroups GroupSide(const Timeline& t, std::optional<int64_t> step, const ReferencePolicy& policy) {
  return IsGpuSide(t.p()) && !policy.kernel_compare_npu_only ? GroupGpuKernels(t, step, policy)
                                                             : GroupKernelDetails(t.p(), step, policy);
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
std::string NoKernelsWarning(const Profile& p, std::string_view side, std::optional<int64_t> step,
                             const ReferencePolicy& policy) {
  const bool dir = IsDirectoryInput(p);
  if (IsGpuSide(p) && !policy.kernel_compare_npu_only) {
    if (step) return fmt::format("{}: {} has no device kernel in step {}; the kernel comparison has no rows",
                                 side, p.meta.input_path, *step);
    return fmt::format("{}: {} has no device kernel (kernel, memcpy or memset event); the kernel "
                       "comparison has no rows", side, p.meta.input_path);
  }
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
  SideGroups b = GroupSide(base, options.base_step, out.policy);
  SideGroups c = GroupSide(comparison, options.comparison_step, out.policy);
  out.base = b.summary;
  out.comparison = c.summary;
  for (auto [s, p, name, step] : {std::tuple{&b, &base.p(), "base", options.base_step},
                                  std::tuple{&c, &comparison.p(), "comparison", options.comparison_step}}) {
    if (s->summary.has_data) continue;
    std::string w = NoKernelsWarning(*p, name, step, out.policy);
    if (w.empty()) continue;
    (IsGpuSide(*p) && !out.policy.kernel_compare_npu_only ? out.no_data : out.warnings).push_back(std::move(w));
  }
  if (!b.summary.has_data || !c.summary.has_data) return;
  out.kind = KernelCompareKind::kShape;
  out.rows = JoinGroups(b, c, out.policy);
}

// Kernel names of the two sides cannot match: two device kinds (GPU kernels against NPU op types),
// or GPUs of two vendors (CUDA against HIP kernels: cuBLAS' and cutlass' GEMMs against Tensile's).
bool NamesCannotMatch(const Timeline& base, const Timeline& comparison) {
  if (IsGpuSide(base.p()) != IsGpuSide(comparison.p())) return true;
  const std::string& b = base.identity.vendor;
  const std::string& c = comparison.identity.vendor;
  return !b.empty() && !c.empty() && b != c;
}

}  // namespace

KernelComparison CompareKernels(const Timeline& base, const Timeline& comparison,
                                const ReferencePolicy& policy, const KernelCompareOptions& options) {
  KernelComparison out;
  out.policy = policy;
  out.use_kernel_type = options.use_kernel_type;
  const bool base_gpu = IsGpuSide(base.p()), comparison_gpu = IsGpuSide(comparison.p());
  if ((base_gpu || comparison_gpu) && !policy.kernel_compare_npu_only &&
      (options.use_kernel_type || NamesCannotMatch(base, comparison))) {
    // Kernel names and op types of two devices never match: by the overall comparison's categories.
    out.by_category = true;
    out.automatic_type = !options.use_kernel_type;
    CompareByCategory(base, comparison, options, out);
  } else if (options.use_kernel_type) {
    CompareByType(base, comparison, out);
  } else {
    CompareByShape(base, comparison, options, out);
  }
  return out;
}

}  // namespace profdiff::analysis
