#include "profdiff/report/overall/overall_sheet.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/report/overall/screen.h"

namespace profdiff::report {
namespace {

uint32_t FillOf(analysis::RowFill f) {
  switch (f) {
    case analysis::RowFill::kBlue: return kFillBlue;
    case analysis::RowFill::kLightBlue: return kFillLightBlue;
    case analysis::RowFill::kNone: return kNoFill;
  }
  return kNoFill;
}

void AppendSide(std::vector<Cell>& cells, const analysis::MetricCell& m) {
  if (!m.present) {
    cells.push_back(Cell::Number(0));
    cells.push_back(Cell::Number(0));
    cells.push_back(Cell::String("/"));
    return;
  }
  cells.push_back(Cell::Number(m.duration_ms));
  cells.push_back(Cell::Number(m.duration_ratio));
  cells.push_back(m.number ? Cell::Number(static_cast<double>(*m.number)) : Cell::String("/"));
}

}  // namespace

SheetSpec BuildOverallMetricsSheet(const analysis::OverallComparison& cmp,
                                   std::string_view base_path_arg,
                                   std::string_view comparison_path_arg,
                                   const std::vector<std::string>& incomparable) {
  SheetSpec sheet;
  sheet.name = "OverallMetrics";
  sheet.base_banner = {1, 3, BaseBannerText(base_path_arg)};
  sheet.comparison_banner = {4, 6, ComparisonBannerText(comparison_path_arg)};
  if (!cmp.policy.overall_hides_step_coverage) {  // the default mode says what each side covers
    sheet.base_banner.text += " [" + StepCoverageText(cmp.base) + "]";
    sheet.comparison_banner.text += " [" + StepCoverageText(cmp.comparison) + "]";
    for (const std::string& why : incomparable) sheet.comparison_banner.text += " [NOT COMPARABLE: " + why + "]";
  }
  sheet.columns = {
      {"Index", 40, CellFormat::kDefault, false},
      {"Duration(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Duration Ratio", 20, CellFormat::kDefaultRatio, false},
      {"Number", 10, CellFormat::kDefault, false},
      {"Duration(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Duration Ratio", 20, CellFormat::kDefaultRatio, false},
      {"Number", 10, CellFormat::kDefault, false},
      {"Diff Duration(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Ratio", 10, CellFormat::kDefaultRatio, true},
  };
  sheet.tidy_indent_column = true;
  sheet.rows.reserve(cmp.rows.size());
  for (const analysis::OverallRow& r : cmp.rows) {
    RowSpec row;
    row.fill = FillOf(r.fill);
    row.indent = r.indent;
    row.cells.reserve(9);
    row.cells.push_back(Cell::String(r.label));
    AppendSide(row.cells, r.base);
    AppendSide(row.cells, r.comparison);
    row.cells.push_back(Cell::Number(r.diff_ms));
    row.cells.push_back(RatioCell(r.diff_ratio));
    sheet.rows.push_back(std::move(row));
  }
  return sheet;
}

}  // namespace profdiff::report
