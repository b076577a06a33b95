#include "profdiff/report/sheet.h"

#include <cmath>
#include <string>

namespace profdiff::report {

std::string BaseBannerText(std::string_view base_path_arg) {
  return "Base Profiling: " + std::string(base_path_arg);
}

std::string ComparisonBannerText(std::string_view comparison_path_arg) {
  return "Comparison Profiling: " + std::string(comparison_path_arg);
}

Cell RatioCell(double ratio) {
  if (std::isnan(ratio)) return Cell::Blank();
  if (std::isinf(ratio) && ratio > 0) return Cell::String("INF");
  return Cell::Number(ratio);
}

bool TruncateCellText(std::string& s) {
  // Count UTF-8 code points (what Excel counts, near enough: it counts UTF-16 units; a code point
  // outside the BMP is two units, so count those twice to stay under the limit).
  size_t units = 0;
  size_t i = 0;
  const size_t keep_units = kMaxCellChars - kTruncatedMarker.size();
  size_t cut_at = std::string::npos;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = 1;
    size_t u = 1;
    if (c >= 0xF0 && c < 0xF8) {
      len = 4;
      u = 2;
    } else if (c >= 0xE0) {
      len = (c < 0xF0) ? 3 : 1;
    } else if (c >= 0xC0) {
      len = 2;
    }
    if (i + len > s.size()) len = s.size() - i;
    if (cut_at == std::string::npos && units + u > keep_units) cut_at = i;
    units += u;
    if (units > kMaxCellChars) {
      s.resize(cut_at);
      s += kTruncatedMarker;
      return true;
    }
    i += len;
  }
  return false;
}

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
                                   std::string_view comparison_path_arg) {
  SheetSpec sheet;
  sheet.name = "OverallMetrics";
  sheet.base_banner = {1, 3, BaseBannerText(base_path_arg)};
  sheet.comparison_banner = {4, 6, ComparisonBannerText(comparison_path_arg)};
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

SheetSpec BuildEmptyComparisonSheet(std::string_view reason, std::string_view base_path_arg,
                                    std::string_view comparison_path_arg) {
  SheetSpec sheet;
  sheet.name = "NoComparisonData";
  // One column: the banners cannot be merged ranges, so they become plain rows below the header.
  sheet.columns = {{"Message", 120, CellFormat::kDefault, false}};
  sheet.rows.push_back(
      {{Cell::String("profdiff produced no comparison sheet: " + std::string(reason))}, kNoFill, 0});
  sheet.rows.push_back({{Cell::String(BaseBannerText(base_path_arg))}, kNoFill, 0});
  sheet.rows.push_back({{Cell::String(ComparisonBannerText(comparison_path_arg))}, kNoFill, 0});
  return sheet;
}

}  // namespace profdiff::report
