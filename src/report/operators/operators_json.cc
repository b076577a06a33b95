#include "profdiff/report/operators/operators_json.h"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profdiff/analysis/operators/match_quality.h"
#include "profdiff/report/operators/operator_sheets.h"

namespace profdiff::report {
namespace {

using json = OrderedJson;

// How many statistic rows "top_by_diff" repeats.
constexpr size_t kTopByDiff = 10;

std::string_view AlgorithmName(analysis::MatchAlgorithm a) {
  switch (a) {
    case analysis::MatchAlgorithm::kLcs:
      return "lcs";
    case analysis::MatchAlgorithm::kReferenceCompat:
      return "reference-compat";
    case analysis::MatchAlgorithm::kSequenceMatcher:
      return "sequence-matcher";
    case analysis::MatchAlgorithm::kNone:
      return "none";
  }
  return "none";
}

std::string_view KindName(analysis::OperatorCompareKind k) {
  switch (k) {
    case analysis::OperatorCompareKind::kModule:
      return "module";
    case analysis::OperatorCompareKind::kOperator:
      return "operator";
    case analysis::OperatorCompareKind::kNone:
      return "none";
  }
  return "none";
}

json OpSide(OpArgTextCache& args, const analysis::OperatorSide& s, const analysis::ReferencePolicy& policy) {
  if (!s.present) return nullptr;
  return {{"name", std::string(s.name)},
          {"input_shape", args.Get(s.slice, ArgKey::kInputDims)},
          {"input_type", args.Get(s.slice, ArgKey::kInputType)},
          {"kernels", s.kernels.size()},
          {"device_ns", analysis::E5ToNs(s.device.e5)},
          {"device_us", JsonNumber(s.device.Us(policy))}};
}

json ModSide(const analysis::ModuleSide& m, const analysis::ReferencePolicy& policy) {
  if (!m.present) return nullptr;
  return {{"module_class", m.module_class},    {"module_level", m.level},
          {"module_name", m.display_name},     {"self_ns", analysis::E5ToNs(m.self.e5)},
          {"self_us", JsonNumber(m.self.Us(policy))},  {"total_ns", analysis::E5ToNs(m.total.e5)},
          {"total_us", JsonNumber(m.total.Us(policy))}};
}

json ModOpSide(const analysis::ModuleOpSide& s, const analysis::ReferencePolicy& policy) {
  if (!s.present) return nullptr;
  return {{"name", std::string(s.name)},
          {"kernels", s.kernels.size()},
          {"self_ns", analysis::E5ToNs(s.device.e5)},
          {"self_us", JsonNumber(s.device.Us(policy))}};
}

// "operator_statistic" and the first rows of the statistic as "top_by_diff".
void PutOperatorStatistic(const analysis::OperatorComparison& oc, json& j, json& top) {
  json stats = json::array();
  for (const analysis::OperatorStatRow& r : oc.operator_stats)
    stats.push_back({{"name", std::string(r.name)},
                     {"base_ms", JsonNumber(r.base.Ms(oc.policy))},
                     {"base_ns", r.base.Ns()},
                     {"base_count", r.base_count},
                     {"comparison_ms", JsonNumber(r.comparison.Ms(oc.policy))},
                     {"comparison_ns", r.comparison.Ns()},
                     {"comparison_count", r.comparison_count},
                     {"diff_ms", JsonNumber(r.diff_ms)},
                     {"diff_ns", r.comparison.Ns() - r.base.Ns()},
                     {"diff_ratio", JsonNumber(r.ratio)}});
  for (size_t i = 0; i < stats.size() && i < kTopByDiff; ++i) top.push_back(stats[i]);
  j["operator_statistic"] = std::move(stats);
}

// Each side's arg texts, converted once per distinct text over all the rows (as the sheet does).
struct RowArgTexts {
  OpArgTextCache base, comparison;
};

json OperatorRowJson(const analysis::OperatorComparison& oc, const analysis::OperatorRow& r, RowArgTexts& args) {
  return {{"base", OpSide(args.base, r.base, oc.policy)},
          {"comparison", OpSide(args.comparison, r.comparison, oc.policy)},
          {"diff_us", JsonNumber(r.diff_us)},
          {"diff_ratio", JsonNumber(r.ratio)}};
}

json ModuleStatistic(const analysis::ModuleStatBlock& b, const analysis::ReferencePolicy& policy) {
  json ops = json::array();
  for (const analysis::ModuleStatOpRow& r : b.ops)
    ops.push_back({{"name", std::string(r.name)},
                   {"base_self_ms", JsonNumber(r.base.device.Ms(policy))},
                   {"base_self_ns", r.base.device.Ns()},
                   {"base_count", r.base.count},
                   {"comparison_self_ms", JsonNumber(r.comparison.device.Ms(policy))},
                   {"comparison_self_ns", r.comparison.device.Ns()},
                   {"comparison_count", r.comparison.count},
                   {"self_diff_ms", JsonNumber(r.self_diff_ms)},
                   {"self_diff_ns", r.comparison.device.Ns() - r.base.device.Ns()},
                   {"diff_ratio", JsonNumber(r.ratio)}});
  return {{"module_class", b.module_class},
          {"module_level", b.level},
          {"module_name", b.display_name},
          {"base_self_ms", JsonNumber(b.base.self.Ms(policy))},
          {"base_self_ns", b.base.self.Ns()},
          {"base_total_ms", JsonNumber(b.base.total.Ms(policy))},
          {"base_total_ns", b.base.total.Ns()},
          {"base_count", b.base.count},
          {"comparison_self_ms", JsonNumber(b.comparison.self.Ms(policy))},
          {"comparison_self_ns", b.comparison.self.Ns()},
          {"comparison_total_ms", JsonNumber(b.comparison.total.Ms(policy))},
          {"comparison_total_ns", b.comparison.total.Ns()},
          {"comparison_count", b.comparison.count},
          {"total_diff_ms", JsonNumber(b.total_diff_ms)},
          {"total_diff_ns", b.comparison.total.Ns() - b.base.total.Ns()},
          {"self_diff_ms", JsonNumber(b.self_diff_ms)},
          {"self_diff_ns", b.comparison.self.Ns() - b.base.self.Ns()},
          {"diff_total_ratio", JsonNumber(b.total_ratio)},
          {"operators", std::move(ops)}};
}

json ModuleRow(const analysis::ModuleBlock& b, const analysis::ReferencePolicy& policy) {
  json ops = json::array();
  for (const analysis::ModuleOpRow& r : b.ops)
    ops.push_back({{"base", ModOpSide(r.base, policy)},
                   {"comparison", ModOpSide(r.comparison, policy)},
                   {"self_diff_us", JsonNumber(r.self_diff_us)},
                   {"diff_ratio", JsonNumber(r.ratio)}});
  return {{"base", ModSide(b.base, policy)},
          {"comparison", ModSide(b.comparison, policy)},
          {"total_diff_us", JsonNumber(b.total_diff_us)},
          {"self_diff_us", JsonNumber(b.self_diff_us)},
          {"diff_total_ratio", JsonNumber(b.total_ratio)},
          {"operators", std::move(ops)}};
}

// "module_statistic" and, as "top_by_diff", the statistic blocks (without their operators) with the
// largest total diff.
void PutModuleStatistic(const analysis::OperatorComparison& oc, json& j, json& top) {
  json stats = json::array();
  std::vector<std::pair<double, size_t>> order;
  for (const analysis::ModuleStatBlock& b : oc.module_stats) {
    order.push_back({b.total_diff_ms, stats.size()});
    stats.push_back(ModuleStatistic(b, oc.policy));
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < order.size() && i < kTopByDiff; ++i) {
    json t = stats[order[i].second];
    t.erase("operators");
    top.push_back(std::move(t));
  }
  j["module_statistic"] = std::move(stats);
}

json MatchRate(const analysis::OperatorComparison& oc) {
  auto rate = [](uint64_t m, uint64_t n) {
    return n ? json(static_cast<double>(m) / static_cast<double>(n)) : json(nullptr);
  };
  return {{"base_items", oc.base_items},
          {"comparison_items", oc.comparison_items},
          {"matched", oc.matched},
          {"base", rate(oc.matched, oc.base_items)},
          {"comparison", rate(oc.matched, oc.comparison_items)}};
}

json MatchQualityJson(const analysis::OperatorComparison& oc) {
  const analysis::MatchQuality& q = oc.match_quality;
  auto names = [](const std::vector<analysis::UnmatchedName>& v) {
    json a = json::array();
    for (const analysis::UnmatchedName& u : v)
      a.push_back({{"name", u.name}, {"count", u.count}, {"device_ns", u.device_ns}});
    return a;
  };
  json suggestions = json::array();
  for (const analysis::NameMapSuggestion& s : q.suggestions)
    suggestions.push_back({{"base", s.base},
                           {"comparison", s.comparison},
                           {"matched_gain", s.matched_gain},
                           {"wrappers_no_longer_drilled", s.wrappers_no_longer_drilled}});
  return {{"low", q.low},
          {"reason", q.low ? json(q.reason) : json(nullptr)},
          {"base_unmatched", names(q.base_unmatched)},
          {"comparison_unmatched", names(q.comparison_unmatched)},
          {"op_name_map_suggestions", std::move(suggestions)},
          {"wrappers_drilled", {{"base", oc.wrappers_drilled.base}, {"comparison", oc.wrappers_drilled.comparison}}}};
}

}  // namespace

JsonBody OperatorsJsonBody(std::shared_ptr<const analysis::OperatorComparison> cmp) {
  const analysis::OperatorComparison& oc = *cmp;
  JsonBody body;
  json& j = body.value;
  j["kind"] = std::string(KindName(oc.kind));
  j["matching"] = std::string(AlgorithmName(oc.algorithm));
  j["details"] = oc.details;
  j["match_rate"] = MatchRate(oc);
  j["match_quality"] = MatchQualityJson(oc);
  json top = json::array();
  // The rows (one per operator pair or module instance: 100,000s on big traces) are written one at
  // a time from the comparison, which the closure keeps alive.
  if (oc.kind == analysis::OperatorCompareKind::kOperator) {
    PutOperatorStatistic(oc, j, top);
    j["operator_rows"] = nullptr;
    auto args = std::make_shared<RowArgTexts>(RowArgTexts{OpArgTextCache(*oc.base), OpArgTextCache(*oc.comparison)});
    body.rows.push_back({"operator_rows", JsonRows{oc.operator_rows.size(), [cmp, args](size_t i) {
                                                     return OperatorRowJson(*cmp, cmp->operator_rows[i], *args);
                                                   }}});
  } else if (oc.kind == analysis::OperatorCompareKind::kModule) {
    PutModuleStatistic(oc, j, top);
    j["module_rows"] = nullptr;
    body.rows.push_back({"module_rows", JsonRows{oc.module_blocks.size(), [cmp](size_t i) {
                                                   return ModuleRow(cmp->module_blocks[i], cmp->policy);
                                                 }}});
  }
  j["top_by_diff"] = std::move(top);
  j["warnings"] = oc.warnings;
  return body;
}

OrderedJson OperatorsJsonSection(const analysis::OperatorComparison& oc) {
  // Not owned: the rows are made before this returns.
  return MaterializeJsonBody(OperatorsJsonBody(std::shared_ptr<const analysis::OperatorComparison>(
      std::shared_ptr<const analysis::OperatorComparison>(), &oc)));
}

}  // namespace profdiff::report
