// Operator comparison (docs/reference/operators.md): top-layer operators of both torch-operator
// trees, matched by segment (docs/reference/operators.md#fwd-bwd-segmentation) and sequence
// matching (docs/reference/operators.md#sequence-matching), drilled down
// (docs/reference/operators.md#drill-down), turned into OperatorCompare and
// OperatorCompareStatistic rows (docs/reference/operators.md#operatorcompare-sheet,
// #operatorcomparestatistic-sheet). The module comparison
// (docs/reference/operators.md#module-comparison) is in module_compare.cc.
#include "profdiff/analysis/operators/operator_compare.h"

#include <algorithm>
#include <unordered_map>

#include "profdiff/analysis/common/ordered_join.h"
#include "profdiff/analysis/operators/match_quality.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/base/time.h"

namespace profdiff::analysis {

namespace {

std::unordered_map<int64_t, StringId> KernelShapesIndex(const Profile& p) {
  std::unordered_map<int64_t, StringId> out;
  if (p.meta.device != DeviceKind::kNpu || !p.npu.kernel_details.present) return out;
  out.reserve(p.npu.kernel_details.rows.size());
  for (const KernelDetailRow& r : p.npu.kernel_details.rows) out[r.start_ns] = r.input_shapes;
  return out;
}

OperatorSide MakeSide(const Profile& p, const OpTree& tree, NodeId id) {
  OperatorSide side;
  if (id == kNoNode) return side;
  side.present = true;
  side.slice = tree.node(id).slice;
  side.name = p.str(p.slices[side.slice].name);
  side.kernels = tree.SubtreeKernels(id);
  for (SliceId k : side.kernels) side.device.AddE5(p.slices[k].dur_e5());
  return side;
}

// OperatorCompareStatistic rows (docs/reference/operators.md#operatorcomparestatistic-sheet),
// unsorted: the rows grouped by raw op name per side, base names first (first appearance), then
// comparison-only names.
std::vector<OperatorStatRow> OperatorStatistics(const std::vector<OperatorRow>& rows, const ReferencePolicy& policy) {
  struct NameGroup {
    DualSum device;
    int64_t ops = 0;
  };
  FirstSeenGroups<NameGroup> base_groups, comparison_groups;
  for (const OperatorRow& r : rows) {
    if (r.base.present) {
      NameGroup& g = base_groups[r.base.name];
      g.device += r.base.device;
      ++g.ops;
    }
    if (r.comparison.present) {
      NameGroup& g = comparison_groups[r.comparison.name];
      g.device += r.comparison.device;
      ++g.ops;
    }
  }
  std::vector<OperatorStatRow> out;
  for (const MatchPair& j : OrderedJoin(base_groups.keys(), comparison_groups.keys())) {
    OperatorStatRow row;
    if (j.base != kNoIndex) {
      row.name = base_groups.keys()[j.base];
      row.base = base_groups.values()[j.base].device;
      row.base_count = base_groups.values()[j.base].ops;
    }
    if (j.comparison != kNoIndex) {
      row.name = comparison_groups.keys()[j.comparison];
      row.comparison = comparison_groups.values()[j.comparison].device;
      row.comparison_count = comparison_groups.values()[j.comparison].ops;
    }
    const double base_ms = row.base.Ms(policy), comparison_ms = row.comparison.Ms(policy);
    row.diff_ms = DiffMs(row.base, row.comparison, policy);
    row.ratio = DiffRatio(base_ms, comparison_ms, policy);
    out.push_back(row);
  }
  return out;
}

}  // namespace

std::string ModuleClassOf(std::string_view name) {
  size_t slash = name.rfind('/');
  std::string_view last = slash == std::string_view::npos ? name : name.substr(slash + 1);
  size_t end = last.size();
  size_t d = end;
  while (d > 0 && last[d - 1] >= '0' && last[d - 1] <= '9') --d;
  if (d < end && d > 0 && last[d - 1] == '_') return std::string(last.substr(0, d - 1));
  return std::string(last);
}

OperatorComparison CompareOperators(const Timeline& base_timeline, const Timeline& comparison_timeline,
                                    const ReferencePolicy& policy, const OperatorCompareOptions& options) {
  SharedOperatorPairing pairing(base_timeline, comparison_timeline, policy, options);
  return CompareOperators(base_timeline, comparison_timeline, policy, pairing);
}

OperatorComparison CompareOperators(const Timeline& base_timeline, const Timeline& comparison_timeline,
                                    const ReferencePolicy& policy, SharedOperatorPairing& shared) {
  const OperatorCompareOptions& options = shared.options();
  const Profile& base = base_timeline.p();
  const Profile& comparison = comparison_timeline.p();
  OperatorComparison out;
  out.details = !options.disable_details;
  out.policy = policy;
  out.algorithm = options.disable_details ? MatchAlgorithm::kNone : policy.matching;
  out.base = &base;
  out.comparison = &comparison;
  out.base_kernel_shapes = KernelShapesIndex(base);
  out.comparison_kernel_shapes = KernelShapesIndex(comparison);

  if (!options.disable_module && base.HasPythonFunctions() && comparison.HasPythonFunctions() &&
      CompareModules(base_timeline, comparison_timeline, policy, options, out))
    return out;

  out.kind = OperatorCompareKind::kOperator;
  const OperatorPairing& pairing = shared.Get();
  out.base_tree_stats = pairing.base_tree.stats();
  out.comparison_tree_stats = pairing.comparison_tree.stats();
  out.warnings.insert(out.warnings.end(), pairing.warnings.begin(), pairing.warnings.end());
  const OpTree& bt = pairing.base_tree;
  const OpTree& ct = pairing.comparison_tree;
  const std::vector<NodePair>& node_pairs = pairing.OperatorPairs();
  out.wrappers_drilled = pairing.wrappers_drilled;

  // Rows.
  out.operator_rows.reserve(node_pairs.size());
  for (const NodePair& np : node_pairs) {
    OperatorRow row;
    row.base = MakeSide(base, bt, np.base);
    row.comparison = MakeSide(comparison, ct, np.comparison);
    const double base_us = row.base.device.Us(policy), comparison_us = row.comparison.device.Us(policy);
    row.diff_us = DiffUs(row.base.device, row.comparison.device, policy);
    row.ratio = DiffRatio(base_us, comparison_us, policy);
    out.base_items += row.base.present ? 1 : 0;
    out.comparison_items += row.comparison.present ? 1 : 0;
    out.matched += (row.base.present && row.comparison.present) ? 1 : 0;
    out.operator_rows.push_back(std::move(row));
  }

  out.operator_stats = OperatorStatistics(out.operator_rows, policy);
  std::stable_sort(out.operator_stats.begin(), out.operator_stats.end(),
                   [](const OperatorStatRow& a, const OperatorStatRow& b) { return a.diff_ms > b.diff_ms; });
  const NameMapTrial trial = [&](const std::vector<NameMapSuggestion>& maps) {
    OperatorCompareOptions tried = options;
    for (const NameMapSuggestion& m : maps) tried.op_name_map[m.base] = m.comparison;
    return TryPairing(base_timeline, comparison_timeline, pairing, policy, tried);
  };
  out.match_quality = AssessMatchQuality(out, trial);
  if (std::string w = MatchQualityWarning(out.match_quality); !w.empty()) out.warnings.push_back(std::move(w));
  return out;
}

}  // namespace profdiff::analysis
