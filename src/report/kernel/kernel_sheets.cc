#include "profdiff/report/kernel/kernel_sheets.h"

#include <string>

namespace profdiff::report {
namespace {

Cell Num(double v) { return Cell::Number(v); }
Cell Int(int64_t v) { return Cell::Number(static_cast<double>(v)); }
Cell Str(const std::string& s) { return s.empty() ? Cell::Blank() : Cell::String(s); }

// The 15 columns shared by both sheets; `name`/`second` are the two key columns. The reference
// declares the ratio columns as floats (quirk of docs/reference/workbook.md): ratios <= 1 show as
// "0.95", larger ones in red as percentages.
SheetSpec KernelSheetFrame(std::string name, std::string key, std::string second, std::string_view b,
                           std::string_view c) {
  SheetSpec s;
  s.name = std::move(name);
  s.base_banner = {3, 7, BaseBannerText(b)};
  s.comparison_banner = {8, 12, ComparisonBannerText(c)};
  s.columns = {{"Order Id", 10, CellFormat::kDefault, false},
               {std::move(key), 30, CellFormat::kBoldStr, false},
               {std::move(second), 20, CellFormat::kDefault, false}};
  for (int side = 0; side < 2; ++side) {
    for (const char* h : {"Total Duration(us)", "Avg Duration(us)", "Max Duration(us)", "Min Duration(us)"})
      s.columns.push_back({h, 20, CellFormat::kDefaultFloat, false});
    s.columns.push_back({"Calls", 20, CellFormat::kDefault, false});
  }
  s.columns.push_back({"Diff Total Ratio", 20, CellFormat::kDefaultFloat, true});
  s.columns.push_back({"Diff Avg Ratio", 20, CellFormat::kDefaultFloat, true});
  return s;
}

// A KernelCompare side: a missing side shows 0.0 totals and averages and blank max/min/calls.
void PutGroupSide(const analysis::KernelGroupSide& g, std::vector<Cell>& cells) {
  if (!g.present) {
    cells.insert(cells.end(), {Num(0), Num(0), Cell::Blank(), Cell::Blank(), Cell::Blank()});
    return;
  }
  cells.insert(cells.end(), {Num(g.total_us), Num(g.avg_us), Num(g.max_us), Num(g.min_us), Int(g.total.count)});
}

// A KernelTypeCompare side: the op_statistic values (zeros when missing).
void PutTypeSide(const analysis::KernelTypeSide& t, std::vector<Cell>& cells) {
  cells.insert(cells.end(), {Num(t.total_us), Num(t.avg_us), Num(t.max_us), Num(t.min_us), Int(t.count)});
}

SheetSpec KernelCompareSheet(const analysis::KernelComparison& cmp, std::string_view b, std::string_view c) {
  SheetSpec s = KernelSheetFrame("KernelCompare", "Kernel", "Input Shape", b, c);
  int64_t order = 0;
  for (const analysis::KernelRow& r : cmp.rows) {
    RowSpec row;
    row.cells = {Int(++order), Str(r.type), Str(r.shapes)};
    PutGroupSide(r.base, row.cells);
    PutGroupSide(r.comparison, row.cells);
    row.cells.push_back(RatioCell(r.diff_total_ratio));
    row.cells.push_back(RatioCell(r.diff_avg_ratio));
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec KernelTypeCompareSheet(const analysis::KernelComparison& cmp, std::string_view b,
                                 std::string_view c) {
  SheetSpec s = KernelSheetFrame("KernelTypeCompare", "Kernel Type", "Core Type", b, c);
  int64_t order = 0;
  for (const analysis::KernelTypeRow& r : cmp.type_rows) {
    RowSpec row;
    row.cells = {Int(++order), Str(r.op_type), Str(r.core_type)};
    PutTypeSide(r.base, row.cells);
    PutTypeSide(r.comparison, row.cells);
    row.cells.push_back(RatioCell(r.diff_total_ratio));
    row.cells.push_back(RatioCell(r.diff_avg_ratio));
    s.rows.push_back(std::move(row));
  }
  return s;
}

}  // namespace

std::vector<SheetSpec> BuildKernelSheets(const analysis::KernelComparison& cmp, std::string_view base_path_arg,
                                         std::string_view comparison_path_arg) {
  std::vector<SheetSpec> sheets;
  if (cmp.ByType()) {
    sheets.push_back(KernelTypeCompareSheet(cmp, base_path_arg, comparison_path_arg));
  } else {
    sheets.push_back(KernelCompareSheet(cmp, base_path_arg, comparison_path_arg));
  }
  return sheets;
}

}  // namespace profdiff::report
