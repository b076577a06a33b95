// Generic sheet model shared by the xlsx and CSV writers (docs/reference/workbook.md). A SheetSpec
// is everything a writer needs: the name, the two row-1 banners with their merge ranges, the
// columns (header, width, number format, ratio flag) and the data rows. Builders for individual
// sheets (report/<comparison>/) fill a SheetSpec; writers never know which sheet they write.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace profdiff::report {

// Column format types of the reference (docs/reference/workbook.md).
enum class CellFormat : uint8_t {
  kDefault,       // Arial 11, left/vcenter, thin border, "#,##0"
  kDefaultFloat,  // same, "#,##0.00"
  kDefaultRatio,  // same, "0.00%"
  kBoldStr,       // Arial 11 bold, left/vcenter, border, general format
};

// Fill colours (0xRRGGBB) used by the writers.
inline constexpr uint32_t kFillGreen = 0x00FF00;      // base header
inline constexpr uint32_t kFillYellow = 0xFFFF00;     // comparison header
inline constexpr uint32_t kFillRed = 0xFF0000;        // ratio > 1 / INF
inline constexpr uint32_t kFillBlue = 0x00BFFF;       // OverallMetrics top-level rows
inline constexpr uint32_t kFillLightBlue = 0x87CEFA;  // OverallMetrics first-level rows
inline constexpr uint32_t kNoFill = 0xFFFFFFFFu;

// Longest string a cell may hold (Excel's limit); longer strings are cut and end with kTruncatedMarker.
inline constexpr size_t kMaxCellChars = 32767;
inline constexpr std::string_view kTruncatedMarker = "...[truncated by profdiff]";

struct ColumnSpec {
  std::string header;
  double width = 10;  // Excel character units
  CellFormat format = CellFormat::kDefault;
  // Ratio column (Diff Ratio, Diff Total Ratio, ...): a number > 1 gets the red ratio format and +inf
  // is written as the string "INF" in red.
  bool ratio = false;
  // A text column whose long cells wrap at its width (their rows made tall enough), not only the
  // cells of several lines.
  bool wrap = false;
  // A call-stack column: with WorkbookOptions::fit_text_columns its cells make their row at most
  // kCallStackRowLines lines tall (the whole stack stays in the cell); else as tall as every line.
  bool call_stack = false;
  // A DIFF column (comparison − base of a time: more is worse): a number above 0 gets the red fill,
  // keeping the column's number format (a ratio column's red also makes it a percentage).
  bool red_above_zero = false;
};

struct Cell {
  enum class Kind : uint8_t { kBlank, kNumber, kString };
  Kind kind = Kind::kBlank;
  double number = 0;
  std::string text;

  static Cell Blank() { return Cell{}; }
  static Cell Number(double v) {
    Cell c;
    c.kind = Kind::kNumber;
    c.number = v;
    return c;
  }
  static Cell String(std::string s) {
    Cell c;
    c.kind = Kind::kString;
    c.text = std::move(s);
    return c;
  }
  bool operator==(const Cell&) const = default;
};

struct RowSpec {
  std::vector<Cell> cells;     // one per column (missing trailing cells are blank)
  uint32_t fill = kNoFill;     // background of every cell of the row (0xRRGGBB), kNoFill for none
  int indent = 0;              // indent level of the first cell (OverallMetrics Index column)
};

// A row-1 merged banner over columns [first_col, last_col] (0-based, inclusive).
struct Banner {
  int first_col = 0;
  int last_col = 0;
  std::string text;
};

struct SheetSpec {
  std::string name;
  Banner base_banner;        // green, "Base Profiling: {path}"
  Banner comparison_banner;  // yellow, "Comparison Profiling: {path}"
  std::vector<ColumnSpec> columns;
  std::vector<RowSpec> rows;
  // The tidy CSV writes each row's `indent` as an "indent" column after the first one, whose text
  // loses its leading tabs there (OverallMetrics: "\t\tTransmit" -> "Transmit", 2). The workbook
  // and the grid CSV keep the reference's tabs.
  bool tidy_indent_column = false;
};

// Row index (0-based) of the header and of the first data row in every sheet
// (docs/reference/workbook.md).
inline constexpr int kHeaderRow = 2;
inline constexpr int kFirstDataRow = 3;

// The banner texts of the reference.
std::string BaseBannerText(std::string_view base_path_arg);
std::string ComparisonBannerText(std::string_view comparison_path_arg);

// The cell a ratio column gets for `ratio`: +inf -> "INF", NaN -> blank, else the number.
Cell RatioCell(double ratio);

// Truncates `s` to kMaxCellChars characters (UTF-8 aware, never splitting a code point), ending it
// with kTruncatedMarker when it was cut. Returns true when it cut.
bool TruncateCellText(std::string& s);

// The sheet written when a comparison produced no sheet at all (instead of an empty "Sheet1").
SheetSpec BuildEmptyComparisonSheet(std::string_view reason, std::string_view base_path_arg,
                                    std::string_view comparison_path_arg);

// Whether any of `sheets` has a row (a sheet without rows is not written).
bool HasRows(const std::vector<SheetSpec>& sheets);

// A comparison that ran and has no rows, so that it wrote no sheet: its table name ("operators"),
// the sheets it writes when it has rows, and why it has none.
struct EmptyComparison {
  std::string comparison;
  std::vector<std::string> sheets;  // "OperatorCompareStatistic", "OperatorCompare"
  std::string reason;
};

// The default mode's last sheet, "EmptyComparisons": one row per comparison that ran without rows
// (policy field workbook_silent_on_empty_comparisons leaves it out).
SheetSpec BuildEmptyComparisonsSheet(const std::vector<EmptyComparison>& empty);

}  // namespace profdiff::report
