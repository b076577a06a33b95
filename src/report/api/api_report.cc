#include "profdiff/report/api/api_report.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "profdiff/analysis/common/python_numbers.h"

namespace profdiff::report {
namespace {

using json = OrderedJson;

// How many rows "top_by_diff" repeats.
constexpr size_t kTopByDiff = 10;

Cell Num(double v) { return Cell::Number(v); }
Cell Int(int64_t v) { return Cell::Number(static_cast<double>(v)); }

// The 14 columns (docs/reference/workbook.md): the ratio columns are declared as floats, so ratios
// <= 1 show as "0.95" and larger ones in red as percentages.
SheetSpec ApiSheetFrame(std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "ApiCompare";
  s.base_banner = {2, 5, BaseBannerText(b)};
  s.comparison_banner = {6, 9, ComparisonBannerText(c)};
  s.columns = {{"Order Id", 10, CellFormat::kDefault, false}, {"api name", 30, CellFormat::kBoldStr, false}};
  for (int side = 0; side < 2; ++side) {
    for (const char* h : {"Total Duration(ms)", "Self Time(ms)", "Avg Duration(ms)"})
      s.columns.push_back({h, 20, CellFormat::kDefaultFloat, false});
    s.columns.push_back({"Calls", 20, CellFormat::kDefault, false});
  }
  for (const char* h : {"Diff Total Ratio", "Diff Self Ratio", "Diff Avg Ratio", "Diff Calls Ratio"})
    s.columns.push_back({h, 20, CellFormat::kDefaultFloat, true});
  return s;
}

// A side without calls shows zeros, as the reference's empty ApiInfo.
void PutSide(const analysis::ApiSide& side, std::vector<Cell>& cells) {
  cells.insert(cells.end(), {Num(side.total_ms), Num(side.self_ms), Num(side.avg_ms), Int(side.calls)});
}

json Summary(const analysis::ApiSideSummary& s) {
  return {{"ops", s.ops}, {"names", s.names}, {"total_ns", s.total_ns}, {"self_ns", s.self_ns}};
}

json Side(const analysis::ApiSide& s) {
  if (s.calls == 0) return nullptr;
  return {{"calls", s.calls},
          {"total_ns", s.total_ns},
          {"self_ns", s.self_ns},
          {"total_ms", JsonNumber(s.total_ms)},
          {"self_ms", JsonNumber(s.self_ms)},
          {"avg_ms", JsonNumber(s.avg_ms)}};
}

json Row(const analysis::ApiRow& r) {
  return {{"api", r.name},
          {"base", Side(r.base)},
          {"comparison", Side(r.comparison)},
          {"diff_total_ms", JsonNumber(r.diff_total_ms)},
          {"diff_total_ratio", JsonNumber(r.diff_total_ratio)},
          {"diff_self_ratio", JsonNumber(r.diff_self_ratio)},
          {"diff_avg_ratio", JsonNumber(r.diff_avg_ratio)},
          {"diff_calls_ratio", JsonNumber(r.diff_calls_ratio)}};
}

// The rows with the largest total diff (comparison - base), largest first (stable).
json TopByDiff(const json& rows) {
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return rows[a]["diff_total_ms"].get<double>() > rows[b]["diff_total_ms"].get<double>();
  });
  json top = json::array();
  for (size_t i = 0; i < order.size() && i < kTopByDiff; ++i) top.push_back(rows[order[i]]);
  return top;
}

}  // namespace

std::vector<SheetSpec> BuildApiSheets(const analysis::ApiComparison& cmp, std::string_view base_path_arg,
                                      std::string_view comparison_path_arg) {
  SheetSpec s = ApiSheetFrame(base_path_arg, comparison_path_arg);
  int64_t order = 0;
  for (const analysis::ApiRow& r : cmp.rows) {
    RowSpec row;
    row.cells = {Int(++order), r.name.empty() ? Cell::Blank() : Cell::String(r.name)};
    PutSide(r.base, row.cells);
    PutSide(r.comparison, row.cells);
    for (double ratio : {r.diff_total_ratio, r.diff_self_ratio, r.diff_avg_ratio, r.diff_calls_ratio})
      row.cells.push_back(RatioCell(ratio));
    s.rows.push_back(std::move(row));
  }
  std::vector<SheetSpec> sheets;
  sheets.push_back(std::move(s));
  return sheets;
}

OrderedJson ApiJsonSection(const analysis::ApiComparison& cmp) {
  json j;
  j["sheet"] = "ApiCompare";
  j["base"] = Summary(cmp.base);
  j["comparison"] = Summary(cmp.comparison);
  j["rows"] = json::array();
  for (const analysis::ApiRow& r : cmp.rows) j["rows"].push_back(Row(r));
  j["top_by_diff"] = TopByDiff(j["rows"]);
  j["warnings"] = cmp.warnings;
  return j;
}

}  // namespace profdiff::report
