// A sheet's data rows as workbook XML, rendered in parallel by profdiff (xlsx_writer.h).
//
// libxlsxwriter writes a constant-memory sheet's rows one cell at a time through fprintf: on the
// 1 GB pair with every comparison that was most of the run's single-threaded tail (docs/performance.md,
// "Outputs on every core"). The workbook writer now decides every data cell once (PlanCell: its
// kind, text and style, the rules WriteRow always had), renders chunks of rows into XML text on
// worker threads, and appends the text in order to the sheet's row stream, exactly the bytes
// libxlsxwriter 1.1's constant-memory mode writes for the same cells (tests: XlsxRows.*, which write
// every kind of cell both ways and compare the parts). libxlsxwriter still writes everything else
// (banners, header, widths, filters, styles, the package).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"
#include "profdiff/report/sheet.h"
#include "profdiff/report/xlsx_writer.h"

namespace profdiff::report::xlsx_rows {

// What decides a data cell's format (one libxlsxwriter format per distinct style).
struct CellStyle {
  CellFormat type = CellFormat::kDefault;
  uint32_t fill = kNoFill;  // kFillRed when `red`
  int indent = 0;
  bool red = false;
  bool wrap = false;
  bool infinite = false;  // the infinite ratio's number format (kInfiniteRatioFormat); the rest unused

  bool operator==(const CellStyle&) const = default;
  uint64_t Key() const;  // distinct for distinct styles
};

// One data cell as the writer stores it.
struct PlannedCell {
  enum class Kind : uint8_t { kBlank, kNumber, kString };
  Kind kind = Kind::kBlank;
  double number = 0;
  std::string_view text;  // kString: the cell's text, or "INF" / "-INF"
  CellStyle style;
};

// Cell `c` of data row `r` (the rules of the workbook's layout: NaN is blank, ±inf is "INF"/"-INF",
// ratio columns red above 1, ColumnSpec::red_above_zero columns red above 0, "INF" in a ratio column
// a number under infinite_ratio_as_number, text of several lines wraps).
PlannedCell PlanCell(const SheetSpec& sheet, size_t r, size_t c, const WorkbookOptions& options);

// Excel decodes `_xHHHH_` in a cell's text as the character U+HHHH: a literal one (an operator named
// "_x0041_op") is written as `_x005F_xHHHH_` (an escaped underscore), as the reference's XlsxWriter
// does. Text without "_x" is returned as it is (no copy); else the escaped text, kept in `buffer`.
std::string_view ExcelLiteral(std::string_view text, std::string& buffer);

// The height of a row `lines` lines tall: 15 points a line (Arial 11), at most Excel's 409.
double RowHeightPoints(size_t lines);

// How many lines data row `r` is tall (1 for a row of one-line cells).
size_t RowLines(const SheetSpec& sheet, size_t r, const std::vector<double>& widths, const WorkbookOptions& options);

// The styles rows [first, last) use, in the order they are first used (row by row, column by column):
// the order libxlsxwriter numbers formats in (the workbook's styles part depends on it).
std::vector<CellStyle> StylesInOrderOfUse(const SheetSpec& sheet, size_t first, size_t last,
                                          const WorkbookOptions& options);

// The workbook's xf index of every style the rows use.
class XfIndices {
 public:
  void Add(const CellStyle& style, int32_t xf_index);
  int32_t Of(const CellStyle& style) const;  // -1 when absent

 private:
  std::vector<std::pair<uint64_t, int32_t>> sorted_;
};

// Excel's column name of a 0-based column ("A", ..., "Z", "AA", ...).
std::string ColumnName(size_t col);

// libxlsxwriter's "%.16G" of a finite number, without printf.
void AppendNumber(std::string& out, double v);

// Renders data rows [first, last) (0-based data rows, sheet row kFirstDataRow + r) as the XML of
// `<row>` elements. Fails as worksheet_write_string does on a text longer than Excel's limit once
// escaped (`where` names the sheet).
Status RenderRows(const SheetSpec& sheet, size_t first, size_t last, const std::vector<double>& widths,
                  const WorkbookOptions& options, const XfIndices& xf, const std::vector<std::string>& column_names,
                  const std::string& where, std::string& out);

}  // namespace profdiff::report::xlsx_rows
