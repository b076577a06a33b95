#include "profdiff/report/memory/memory_json.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace profdiff::report {
namespace {

using json = OrderedJson;

// How many rows "top_by_diff" repeats.
constexpr size_t kTopByDiff = 10;

json Summary(const analysis::MemorySideSummary& s) {
  return {{"has_data", s.has_data}, {"records", s.records},         {"placed", s.placed},
          {"shown", s.shown},       {"size_kb", JsonNumber(s.size_kb)}, {"duration_ns", s.duration_ns}};
}

json Side(const analysis::MemorySide& s, const analysis::ReferencePolicy& policy) {
  if (!s.present) return nullptr;
  return {{"name", s.name},
          {"records", s.records.size()},
          {"size_kb", JsonNumber(s.size_kb)},
          {"duration_ns", s.duration.Ns()},
          {"duration_us", JsonNumber(s.duration.Us(policy))}};
}

json RowJson(const analysis::MemoryRow& r, const analysis::ReferencePolicy& policy) {
  json j;
  j["base"] = Side(r.base, policy);
  j["comparison"] = Side(r.comparison, policy);
  j["diff_size_kb"] = JsonNumber(r.diff_kb);
  j["diff_ratio"] = JsonNumber(r.ratio);
  return j;
}

json StatSide(const analysis::MemoryStatSide& s, const analysis::ReferencePolicy& policy) {
  return {{"operators", s.count},
          {"duration_ns", s.duration.Ns()},
          {"duration_ms", JsonNumber(s.duration.Ms(policy))},
          {"size_mb", JsonNumber(s.size_mb)}};
}

json Statistics(const analysis::MemoryComparison& cmp) {
  json rows = json::array();
  for (const analysis::MemoryStatRow& r : cmp.stats) {
    rows.push_back({{"name", r.name},
                    {"base", StatSide(r.base, cmp.policy)},
                    {"comparison", StatSide(r.comparison, cmp.policy)},
                    {"diff_mb", JsonNumber(r.diff_mb)},
                    {"diff_ratio", JsonNumber(r.ratio)}});
  }
  return rows;
}

// The rows with the largest size diff (comparison - base), largest first (stable).
json TopByDiff(const analysis::MemoryComparison& cmp) {
  std::vector<size_t> order(cmp.rows.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return cmp.rows[a].diff_kb > cmp.rows[b].diff_kb; });
  json top = json::array();
  for (size_t i = 0; i < order.size() && i < kTopByDiff; ++i) top.push_back(RowJson(cmp.rows[order[i]], cmp.policy));
  return top;
}

}  // namespace

JsonBody MemoryJsonBody(std::shared_ptr<const analysis::MemoryComparison> shared) {
  const analysis::MemoryComparison& cmp = *shared;
  JsonBody body;
  json& j = body.value;
  j["details"] = cmp.details;
  j["base"] = Summary(cmp.base_summary);
  j["comparison"] = Summary(cmp.comparison_summary);
  // One row per operator pair (100,000s on big traces): written one at a time from the comparison.
  j["rows"] = nullptr;
  body.rows.push_back({"rows", JsonRows{cmp.rows.size(), [shared](size_t i) {
                                          return RowJson(shared->rows[i], shared->policy);
                                        }}});
  j["statistics"] = Statistics(cmp);
  j["top_by_diff"] = TopByDiff(cmp);
  json warnings = cmp.warnings;
  for (const std::string& w : cmp.no_records) warnings.push_back(w);
  j["warnings"] = std::move(warnings);
  return body;
}

OrderedJson MemoryJsonSection(const analysis::MemoryComparison& cmp) {
  // Not owned: the rows are made before this returns.
  return MaterializeJsonBody(MemoryJsonBody(
      std::shared_ptr<const analysis::MemoryComparison>(std::shared_ptr<const analysis::MemoryComparison>(), &cmp)));
}

}  // namespace profdiff::report
