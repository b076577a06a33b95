#include "profdiff/report/kernel/kernel_json.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <vector>

#include "profdiff/analysis/common/python_numbers.h"

namespace profdiff::report {
namespace {

using json = OrderedJson;

// How many rows "top_by_diff" repeats.
constexpr size_t kTopByDiff = 10;

std::string_view KindName(analysis::KernelCompareKind k) {
  switch (k) {
    case analysis::KernelCompareKind::kShape: return "shape";
    case analysis::KernelCompareKind::kType: return "type";
    case analysis::KernelCompareKind::kNone: return "none";
  }
  return "none";
}

json Summary(const analysis::KernelSideSummary& s) {
  return {{"has_data", s.has_data},
          {"source", analysis::Name(s.source)},
          {"kernels", s.kernels},
          {"total_ns", s.total_ns},
          {"total_us", JsonNumber(s.total_us)}};
}

json GroupSide(const analysis::KernelGroupSide& g) {
  if (!g.present) return nullptr;
  return {{"calls", g.total.count},        {"total_ns", g.total.Ns()},
          {"total_us", JsonNumber(g.total_us)}, {"avg_us", JsonNumber(g.avg_us)},
          {"max_ns", g.max_ns},            {"max_us", JsonNumber(g.max_us)},
          {"min_ns", g.min_ns},            {"min_us", JsonNumber(g.min_us)}};
}

json TypeSide(const analysis::KernelTypeSide& t) {
  if (!t.present) return nullptr;
  return {{"calls", t.count},         {"total_ns", t.total_ns}, {"total_us", JsonNumber(t.total_us)},
          {"avg_ns", t.avg_ns},       {"avg_us", JsonNumber(t.avg_us)}, {"max_ns", t.max_ns},
          {"max_us", JsonNumber(t.max_us)}, {"min_ns", t.min_ns}, {"min_us", JsonNumber(t.min_us)}};
}

// One row of either sheet: the key columns, both sides, the diff of the displayed totals and the ratios.
template <typename Row>
json RowJson(json key, json base, json comparison, double base_total_us, double comparison_total_us,
             const Row& r, const analysis::ReferencePolicy& policy) {
  json j = std::move(key);
  j["base"] = std::move(base);
  j["comparison"] = std::move(comparison);
  j["diff_total_us"] = JsonNumber(analysis::DiffMs(base_total_us, comparison_total_us, policy));
  j["diff_total_ratio"] = JsonNumber(r.diff_total_ratio);
  j["diff_avg_ratio"] = JsonNumber(r.diff_avg_ratio);
  return j;
}

json Rows(const analysis::KernelComparison& cmp) {
  json rows = json::array();
  for (const analysis::KernelRow& r : cmp.rows)
    rows.push_back(RowJson(json{{"kernel", r.type}, {"input_shape", r.shapes}}, GroupSide(r.base),
                           GroupSide(r.comparison), r.base.total_us, r.comparison.total_us, r, cmp.policy));
  for (const analysis::KernelTypeRow& r : cmp.type_rows)
    rows.push_back(RowJson(json{{"kernel_type", r.op_type}, {"core_type", r.core_type}}, TypeSide(r.base),
                           TypeSide(r.comparison), r.base.total_us, r.comparison.total_us, r, cmp.policy));
  return rows;
}

// The rows with the largest total diff (comparison - base), largest first (stable).
json TopByDiff(const json& rows) {
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return rows[a]["diff_total_us"].get<double>() > rows[b]["diff_total_us"].get<double>();
  });
  json top = json::array();
  for (size_t i = 0; i < order.size() && i < kTopByDiff; ++i) top.push_back(rows[order[i]]);
  return top;
}

}  // namespace

OrderedJson KernelsJsonSection(const analysis::KernelComparison& cmp) {
  json j;
  j["kind"] = KindName(cmp.kind);
  j["sheet"] = cmp.ByType() ? "KernelTypeCompare" : "KernelCompare";
  j["by_category"] = cmp.by_category;
  j["automatic_type"] = cmp.automatic_type;
  j["base"] = Summary(cmp.base);
  j["comparison"] = Summary(cmp.comparison);
  j["rows"] = Rows(cmp);
  j["top_by_diff"] = TopByDiff(j["rows"]);
  std::vector<std::string> warnings = cmp.warnings;
  warnings.insert(warnings.end(), cmp.no_data.begin(), cmp.no_data.end());
  j["warnings"] = warnings;
  return j;
}

}  // namespace profdiff::report
