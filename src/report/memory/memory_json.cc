#include "profdiff/report/memory/memory_json.h"

#include <algorithm>
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

json Rows(const analysis::MemoryComparison& cmp) {
  json rows = json::array();
  for (const analysis::MemoryRow& r : cmp.rows) {
    json j;
    j["base"] = Side(r.base, cmp.policy);
    j["comparison"] = Side(r.comparison, cmp.policy);
    j["diff_size_kb"] = JsonNumber(r.diff_kb);
    j["diff_ratio"] = JsonNumber(r.ratio);
    rows.push_back(std::move(j));
  }
  return rows;
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
json TopByDiff(const json& rows) {
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return rows[a]["diff_size_kb"].get<double>() > rows[b]["diff_size_kb"].get<double>();
  });
  json top = json::array();
  for (size_t i = 0; i < order.size() && i < kTopByDiff; ++i) top.push_back(rows[order[i]]);
  return top;
}

}  // namespace

OrderedJson MemoryJsonSection(const analysis::MemoryComparison& cmp) {
  json j;
  j["details"] = cmp.details;
  j["base"] = Summary(cmp.base_summary);
  j["comparison"] = Summary(cmp.comparison_summary);
  j["rows"] = Rows(cmp);
  j["statistics"] = Statistics(cmp);
  j["top_by_diff"] = TopByDiff(j["rows"]);
  json warnings = cmp.warnings;
  for (const std::string& w : cmp.no_records) warnings.push_back(w);
  j["warnings"] = std::move(warnings);
  return j;
}

}  // namespace profdiff::report
