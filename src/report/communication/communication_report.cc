#include "profdiff/report/communication/communication_report.h"

#include <algorithm>
#include <string>
#include <vector>

namespace profdiff::report {
namespace {

using json = OrderedJson;

Cell Num(double v) { return Cell::Number(v); }
Cell Int(int64_t v) { return Cell::Number(static_cast<double>(v)); }

// One side: name, task, calls, total, avg, max, min; a missing side is blank except Total = 0.
void PutSide(const analysis::CommRow& r, bool base, std::vector<Cell>& cells) {
  const analysis::CommStats& s = base ? r.base : r.comparison;
  const std::string& name = base ? r.base_name : r.comparison_name;
  if (!s.present) {
    cells.insert(cells.end(), {Cell::Blank(), Cell::Blank(), Cell::Blank(), Num(0), Cell::Blank(), Cell::Blank(),
                               Cell::Blank()});
    return;
  }
  if (r.is_task) {
    cells.insert(cells.end(), {Cell::String("|"), Cell::String(name)});
  } else {
    cells.insert(cells.end(), {Cell::String(name), Cell::Blank()});
  }
  cells.insert(cells.end(), {Int(s.total.count), Num(s.total_us), Num(s.avg_us), Num(s.max_us), Num(s.min_us)});
}

SheetSpec Frame(std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "CommunicationCompare";
  s.base_banner = {1, 7, BaseBannerText(b)};
  s.comparison_banner = {8, 14, ComparisonBannerText(c)};
  s.columns = {{"Order Id", 10, CellFormat::kDefault, false}};
  for (int side = 0; side < 2; ++side) {
    s.columns.push_back({"Communication OP Name", 25, CellFormat::kBoldStr, false});
    s.columns.push_back({"Task Name", 20, CellFormat::kDefault, false});
    s.columns.push_back({"Calls", 10, CellFormat::kDefault, false});
    for (const char* h : {"Total Duration(us)", "Avg Duration(us)", "Max Duration(us)", "Min Duration(us)"})
      s.columns.push_back({h, 17, CellFormat::kDefaultFloat, false});
  }
  s.columns.push_back({"Diff Duration(us)", 20, CellFormat::kDefaultFloat, false});
  s.columns.push_back({"Diff Ratio", 20, CellFormat::kDefaultRatio, true});
  return s;
}

json StatsJson(const analysis::CommStats& s) {
  if (!s.present) return nullptr;
  return {{"calls", s.total.count},         {"total_ns", s.total.Ns()},
          {"total_us", JsonNumber(s.total_us)}, {"avg_us", JsonNumber(s.avg_us)},
          {"max_us", JsonNumber(s.max_us)},     {"min_us", JsonNumber(s.min_us)}};
}

// How many op rows "top_by_diff" repeats.
constexpr size_t kTopByDiff = 10;

// A side's counts and the exact total of its communication ops (each op counted once: one op row
// per op name).
json SummaryJson(const analysis::CommunicationComparison& cmp, bool base) {
  const analysis::CommSideSummary& s = base ? cmp.base : cmp.comparison;
  int64_t total_ns = 0;
  for (const analysis::CommRow& r : cmp.rows) {
    const analysis::CommStats& st = base ? r.base : r.comparison;
    if (!r.is_task && st.present) total_ns += st.total.Ns();
  }
  return {{"has_data", s.has_data}, {"ops", s.ops}, {"tasks", s.tasks}, {"total_ns", total_ns}};
}

// The op rows with the largest diff (comparison - base), largest first (stable).
json TopByDiff(const json& rows) {
  std::vector<size_t> ops;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i]["kind"] == "op") ops.push_back(i);
  std::stable_sort(ops.begin(), ops.end(), [&](size_t a, size_t b) {
    return rows[a]["diff_us"].get<double>() > rows[b]["diff_us"].get<double>();
  });
  json top = json::array();
  for (size_t i = 0; i < ops.size() && i < kTopByDiff; ++i) top.push_back(rows[ops[i]]);
  return top;
}

}  // namespace

std::vector<SheetSpec> BuildCommunicationSheets(const analysis::CommunicationComparison& cmp,
                                                std::string_view base_path_arg, std::string_view comparison_path_arg) {
  SheetSpec s = Frame(base_path_arg, comparison_path_arg);
  int64_t order = 0;
  for (const analysis::CommRow& r : cmp.rows) {
    RowSpec row;
    row.cells = {Int(++order)};
    PutSide(r, true, row.cells);
    PutSide(r, false, row.cells);
    if (r.is_task) {
      row.cells.insert(row.cells.end(), {Cell::Blank(), Cell::Blank()});
    } else {
      row.cells.push_back(Num(r.diff_us));
      row.cells.push_back(RatioCell(r.diff_ratio));
    }
    s.rows.push_back(std::move(row));
  }
  return {std::move(s)};
}

OrderedJson CommunicationJsonSection(const analysis::CommunicationComparison& cmp) {
  json rows = json::array();
  for (const analysis::CommRow& r : cmp.rows) {
    json j = {{"kind", r.is_task ? "task" : "op"},
              {"base_name", r.base_name.empty() ? json(nullptr) : json(r.base_name)},
              {"comparison_name", r.comparison_name.empty() ? json(nullptr) : json(r.comparison_name)},
              {"base", StatsJson(r.base)},
              {"comparison", StatsJson(r.comparison)}};
    if (!r.is_task) {
      j["diff_us"] = JsonNumber(r.diff_us);
      j["diff_ratio"] = JsonNumber(r.diff_ratio);
    }
    rows.push_back(std::move(j));
  }
  json top = TopByDiff(rows);
  return {{"base", SummaryJson(cmp, true)},
          {"comparison", SummaryJson(cmp, false)},
          {"rows", std::move(rows)},
          {"top_by_diff", std::move(top)},
          {"warnings", cmp.warnings}};
}

}  // namespace profdiff::report
