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
  // A UTF-8 string never has more UTF-16 units than bytes (a 4-byte sequence is 2 units): most cells
  // need no counting at all.
  if (s.size() <= kMaxCellChars) return false;
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

bool HasRows(const std::vector<SheetSpec>& sheets) {
  for (const SheetSpec& s : sheets)
    if (!s.rows.empty()) return true;
  return false;
}

SheetSpec BuildEmptyComparisonsSheet(const std::vector<EmptyComparison>& empty) {
  SheetSpec sheet;
  sheet.name = "EmptyComparisons";
  sheet.columns = {{"Comparison", 16, CellFormat::kBoldStr, false},
                   {"Sheets not written", 40, CellFormat::kDefault, false},
                   {"Why", 100, CellFormat::kDefault, false, true}};
  for (const EmptyComparison& e : empty) {
    std::string sheets;
    for (const std::string& name : e.sheets) sheets += (sheets.empty() ? "" : ", ") + name;
    sheet.rows.push_back({{Cell::String(e.comparison), Cell::String(sheets), Cell::String(e.reason)}, kNoFill, 0});
  }
  return sheet;
}

}  // namespace profdiff::report
