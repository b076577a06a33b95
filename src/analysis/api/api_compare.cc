// ApiCompare (docs/reference/api.md): all-layer torch ops of both operator trees grouped by name.
// Sums are exact int64 ns; ReferencePolicy::float_us_sums shows the reference's float µs sums
// instead (its durations are Python floats added in op order).
#include "profdiff/analysis/api/api_compare.h"

#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/analysis/timeline/op_tree.h"

namespace profdiff::analysis {

namespace {

// One side's ops summed per name, names in first-appearance order (the reference adds each name's
// float durations in op order, so the order of Add calls is kept per name).
class SideAggregate {
 public:
  void Add(const ApiOp& op) { AddTo(IndexOf(op.name), op); }
  // The same for an op whose name is `name` in its profile's string pool: an op is found by the id
  // (hashing the name's text for each of a million ops missed the cache once the trace outgrew it).
  void Add(StringId name, const ApiOp& op) {
    const auto [it, added] = index_by_id_.try_emplace(name, 0);
    if (added) it->second = IndexOf(op.name);
    AddTo(it->second, op);
  }
  const std::vector<std::pair<std::string_view, ApiSide>>& names() const { return names_; }
  ApiSideSummary Summary() const {
    ApiSideSummary s;
    for (const auto& [name, side] : names_) {
      s.ops += side.calls;
      s.total_ns += side.total_ns;
      s.self_ns += side.self_ns;
    }
    s.names = static_cast<int64_t>(names_.size());
    return s;
  }

 private:
  size_t IndexOf(std::string_view name) {
    const auto [it, added] = index_.try_emplace(name, names_.size());
    if (added) names_.push_back({name, {}});
    return it->second;
  }
  void AddTo(size_t index, const ApiOp& op) {
    ApiSide& side = names_[index].second;
    side.total_ns += op.dur_ns;
    side.self_ns += op.self_ns;
    side.calls += 1;
    side.ref_total_us += op.ref_dur_us;
    side.ref_self_us += op.ref_self_us;
  }

  std::vector<std::pair<std::string_view, ApiSide>> names_;
  std::unordered_map<std::string_view, size_t> index_;
  std::unordered_map<StringId, size_t> index_by_id_;
};

// The rows: base names in first-appearance order, then comparison-only names; none when a side is
// empty (docs/reference/api.md).
std::vector<ApiRow> RowsOf(const SideAggregate& base, const SideAggregate& comparison) {
  std::vector<ApiRow> rows;
  if (base.names().empty() || comparison.names().empty()) return rows;
  std::unordered_map<std::string_view, size_t> index;
  for (const auto& [name, side] : base.names()) {
    index.emplace(name, rows.size());
    rows.push_back(ApiRow{.name = std::string(name), .base = side, .comparison = {}});
  }
  for (const auto& [name, side] : comparison.names()) {
    auto [it, inserted] = index.try_emplace(name, rows.size());
    if (inserted) rows.push_back(ApiRow{.name = std::string(name), .base = {}, .comparison = {}});
    rows[it->second].comparison = side;
  }
  return rows;
}

// The displayed values of one side: under rounded_diffs_and_ratios ms rounded to 2 places and the
// average from the rounded total (the reference); else the exact values.
void Display(ApiSide& s, const ReferencePolicy& policy) {
  const double total_ms =
      policy.float_us_sums ? s.ref_total_us / 1000.0 : static_cast<double>(s.total_ns) / 1e6;
  const double self_ms = policy.float_us_sums ? s.ref_self_us / 1000.0 : static_cast<double>(s.self_ns) / 1e6;
  s.total_ms = PolicyRound(total_ms, 2, policy);
  s.self_ms = PolicyRound(self_ms, 2, policy);
  s.avg_ms = s.calls ? PolicyRound(s.total_ms / static_cast<double>(s.calls), 2, policy) : 0.0;
}

// One node as an ApiOp: exact self time from the slices' int64 durations, the reference's from
// their float µs values (dur − Σ children's dur, the sum taken first, in child order).
ApiOp MakeOp(const Profile& p, const OpTree& tree, NodeId id) {
  const Slice& s = p.slices[tree.node(id).slice];
  ApiOp op{.name = p.str(s.name),
           .dur_ns = s.dur_ns,
           .self_ns = s.dur_ns,
           .ref_dur_us = E5ToUs(s.dur_e5()),
           .ref_self_us = 0};
  double children_us = 0;
  for (NodeId c : tree.children(id)) {
    const Slice& cs = p.slices[tree.node(c).slice];
    op.self_ns -= cs.dur_ns;
    children_us += E5ToUs(cs.dur_e5());
  }
  op.ref_self_us = op.ref_dur_us - children_us;
  return op;
}

// A directory input (its side files were looked for): the reference's "no torch op" warning is
// only logged for these (docs/reference/messages.md#messages).
bool IsDirectoryInput(const Profile& p) {
  return p.meta.format == SourceFormat::kAscendProfileDir || p.meta.format == SourceFormat::kAscendOutputDir;
}

// One side's all-layer ops summed per name, streamed from the tree (a 1 GB trace has millions of
// ops: no list of them is kept); a warning when the step is missing or (directory inputs) there is
// no torch op.
SideAggregate AggregateSide(const Timeline& t, const ReferencePolicy& policy, std::optional<int64_t> step,
                            const OpTree* given, std::string_view side, std::vector<std::string>& warnings) {
  const Profile& p = t.p();
  if (p.meta.device != DeviceKind::kNpu && policy.step_selection_npu_sides_only) step.reset();
  std::optional<OpTree> built;
  if (given == nullptr) built = BuildOpTree(t, policy);
  const OpTree& tree = given != nullptr ? *given : *built;
  const std::vector<NodeId> ids = tree.AllLayerOps(step);
  SideAggregate agg;
  if (step && ids.empty()) {
    warnings.push_back(fmt::format("{}: there is no operator event data for step {} in {}; the API "
                                   "comparison has no rows",
                                   side, *step, p.meta.input_path));
    return agg;
  }
  for (NodeId id : ids) agg.Add(p.slices[tree.node(id).slice].name, MakeOp(p, tree, id));
  if (ids.empty() && IsDirectoryInput(p))
    warnings.push_back(fmt::format("{}: can't find any torch op in {}; the API comparison has no rows", side,
                                   p.meta.input_path));
  return agg;
}

}  // namespace

std::vector<ApiRow> CompareApis(const std::vector<ApiOp>& base, const std::vector<ApiOp>& comparison) {
  SideAggregate b, c;
  for (const ApiOp& op : base) b.Add(op);
  for (const ApiOp& op : comparison) c.Add(op);
  return RowsOf(b, c);
}

std::optional<std::vector<ApiOp>> AllLayerApiOps(const Timeline& timeline, const ReferencePolicy& policy,
                                                 std::optional<int64_t> step, const OpTree* given) {
  std::optional<OpTree> built;
  if (given == nullptr) built = BuildOpTree(timeline, policy);
  const OpTree& tree = given != nullptr ? *given : *built;
  const std::vector<NodeId> ids = tree.AllLayerOps(step);
  if (step && ids.empty()) return std::nullopt;
  std::vector<ApiOp> ops;
  ops.reserve(ids.size());
  for (NodeId id : ids) ops.push_back(MakeOp(timeline.p(), tree, id));
  return ops;
}

ApiComparison CompareApi(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                         const ApiCompareOptions& options) {
  ApiComparison out;
  const SideAggregate b =
      AggregateSide(base, policy, options.base_step, options.base_tree, "base", out.warnings);
  const SideAggregate c =
      AggregateSide(comparison, policy, options.comparison_step, options.comparison_tree, "comparison", out.warnings);
  out.base = b.Summary();
  out.comparison = c.Summary();
  out.rows = RowsOf(b, c);
  for (ApiRow& r : out.rows) {
    Display(r.base, policy);
    Display(r.comparison, policy);
    r.diff_total_ms = policy.rounded_diffs_and_ratios
                          ? DiffMs(r.base.total_ms, r.comparison.total_ms)
                          : static_cast<double>(r.comparison.total_ns - r.base.total_ns) / 1e6;
    r.diff_total_ratio = DiffRatio(r.base.total_ms, r.comparison.total_ms, policy);
    r.diff_self_ratio = DiffRatio(r.base.self_ms, r.comparison.self_ms, policy);
    r.diff_avg_ratio = DiffRatio(r.base.avg_ms, r.comparison.avg_ms, policy);
    r.diff_calls_ratio =
        DiffRatio(static_cast<double>(r.base.calls), static_cast<double>(r.comparison.calls), policy);
  }
  return out;
}

}  // namespace profdiff::analysis
