// ApiCompare (docs/reference/api.md): all-layer torch ops of both operator trees grouped by name.
// Sums are exact int64 ns; ReferencePolicy::float_us_sums shows the reference's float µs sums
// instead (its durations are Python floats added in op order).
#include "profdiff/analysis/api/api_compare.h"

#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/analysis/timeline/op_tree.h"

namespace profdiff::analysis {

namespace {

// Adds one side's ops to the rows, creating a row the first time a name is seen.
void Accumulate(const std::vector<ApiOp>& ops, bool base_side, std::vector<ApiRow>& rows,
                std::unordered_map<std::string, size_t>& index) {
  for (const ApiOp& op : ops) {
    auto [it, inserted] = index.try_emplace(op.name, rows.size());
    if (inserted) rows.push_back(ApiRow{.name = op.name, .base = {}, .comparison = {}});
    ApiSide& side = base_side ? rows[it->second].base : rows[it->second].comparison;
    side.total_ns += op.dur_ns;
    side.self_ns += op.self_ns;
    side.calls += 1;
    side.ref_total_us += op.ref_dur_us;
    side.ref_self_us += op.ref_self_us;
  }
}

// The displayed values of one side: ms rounded to 2 places, the average from the rounded total.
void Display(ApiSide& s, const ReferencePolicy& policy) {
  const double total_ms =
      policy.float_us_sums ? s.ref_total_us / 1000.0 : static_cast<double>(s.total_ns) / 1e6;
  const double self_ms = policy.float_us_sums ? s.ref_self_us / 1000.0 : static_cast<double>(s.self_ns) / 1e6;
  s.total_ms = PyRound(total_ms, 2);
  s.self_ms = PyRound(self_ms, 2);
  s.avg_ms = s.calls ? PyRound(s.total_ms / static_cast<double>(s.calls), 2) : 0.0;
}

// One node as an ApiOp: exact self time from the slices' int64 durations, the reference's from
// their float µs values (dur − Σ children's dur, the sum taken first, in child order).
ApiOp MakeOp(const Profile& p, const OpTree& tree, NodeId id) {
  const Slice& s = p.slices[tree.node(id).slice];
  ApiOp op{.name = std::string(p.str(s.name)),
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

ApiSideSummary Summarize(const std::vector<ApiOp>& ops) {
  ApiSideSummary s;
  std::unordered_map<std::string_view, bool> names;
  for (const ApiOp& op : ops) {
    ++s.ops;
    s.total_ns += op.dur_ns;
    s.self_ns += op.self_ns;
    names.try_emplace(op.name, true);
  }
  s.names = static_cast<int64_t>(names.size());
  return s;
}

// A directory input (its side files were looked for): the reference's "no torch op" warning is
// only logged for these (docs/reference/messages.md#messages).
bool IsDirectoryInput(const Profile& p) {
  return p.meta.format == SourceFormat::kAscendProfileDir || p.meta.format == SourceFormat::kAscendOutputDir;
}

// One side's ops; a warning when the step is missing or (directory inputs) there is no torch op.
std::vector<ApiOp> SideOps(const Timeline& t, const ReferencePolicy& policy, std::optional<int64_t> step,
                           std::string_view side, std::vector<std::string>& warnings) {
  const Profile& p = t.p();
  if (p.meta.device != DeviceKind::kNpu) step.reset();  // the reference filters NPU sides only
  std::optional<std::vector<ApiOp>> ops = AllLayerApiOps(t, policy, step);
  if (!ops) {
    warnings.push_back(fmt::format("{}: there is no operator event data for step {} in {}; the API "
                                   "comparison has no rows",
                                   side, *step, p.meta.input_path));
    return {};
  }
  if (ops->empty() && IsDirectoryInput(p))
    warnings.push_back(fmt::format("{}: can't find any torch op in {}; the API comparison has no rows", side,
                                   p.meta.input_path));
  return std::move(*ops);
}

}  // namespace

std::vector<ApiRow> CompareApis(const std::vector<ApiOp>& base, const std::vector<ApiOp>& comparison) {
  std::vector<ApiRow> rows;
  if (base.empty() || comparison.empty()) return rows;
  std::unordered_map<std::string, size_t> index;
  Accumulate(base, true, rows, index);
  Accumulate(comparison, false, rows, index);
  return rows;
}

std::optional<std::vector<ApiOp>> AllLayerApiOps(const Timeline& timeline, const ReferencePolicy& policy,
                                                 std::optional<int64_t> step) {
  const OpTree tree = BuildOpTree(timeline, policy);
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
  const std::vector<ApiOp> b = SideOps(base, policy, options.base_step, "base", out.warnings);
  const std::vector<ApiOp> c = SideOps(comparison, policy, options.comparison_step, "comparison", out.warnings);
  out.base = Summarize(b);
  out.comparison = Summarize(c);
  out.rows = CompareApis(b, c);
  for (ApiRow& r : out.rows) {
    Display(r.base, policy);
    Display(r.comparison, policy);
    r.diff_total_ratio = DiffRatio(r.base.total_ms, r.comparison.total_ms);
    r.diff_self_ratio = DiffRatio(r.base.self_ms, r.comparison.self_ms);
    r.diff_avg_ratio = DiffRatio(r.base.avg_ms, r.comparison.avg_ms);
    r.diff_calls_ratio =
        DiffRatio(static_cast<double>(r.base.calls), static_cast<double>(r.comparison.calls));
  }
  return out;
}

}  // namespace profdiff::analysis
