// CSV rendering of a SheetSpec (`--csv DIR`), in one of two layouts:
// - workbook grid (--reference-compat): the same grid as the workbook, as the oracle CSVs show it (a
//   workbook read back by openpyxl and written with Python's csv module): row 1 with the banner texts
//   at the first column of their merge ranges, row 2 empty, header row 3, data rows; CRLF line ends,
//   minimal quoting.
// - tidy (default): a table pandas/R/spreadsheets read as is: one header row of unique snake_case
//   names that carry the side and the unit ("base_device_duration_us", "diff_ratio"), then the data
//   rows; numbers in shortest round-trip form (exact), text never cut; LF line ends, minimal quoting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// A number as the workbook stores it and as Python prints it back: the value is first rounded to
// 16 significant digits (what the xlsx XML holds, "%.16G"); a result without '.' or exponent prints
// as an integer ("185", "1", "0", "-5"), otherwise as Python's repr of the double
// ("8.873756000000002", "4.055468648648219e-05", "2e-05", "1e+16"). +inf -> "INF", -inf -> "-INF",
// NaN -> "".
std::string FormatCsvNumber(double v);

// One CSV field with Python csv QUOTE_MINIMAL quoting (quotes when the field holds ',', '"', '\r'
// or '\n'; inner quotes doubled).
std::string CsvField(std::string_view s);

enum class CsvLayout : uint8_t { kWorkbookGrid, kTidy };

// The tidy layout's column names for `sheet`: a column under the base banner gets "base_", one under
// the comparison banner "comparison_"; the header is lower-cased, a unit in parentheses becomes a
// suffix ("Duration(us)" -> "duration_us", "(%)" -> "_pct"), any other run of non-alphanumeric
// characters one '_'. A name already taken gets "_2", "_3", ...; an empty header "column_<n>".
std::vector<std::string> TidyColumnNames(const SheetSpec& sheet);

// The whole sheet as CSV text. `neutralise_formulas`: a text cell beginning with =, +, - or @ (also
// after leading tabs or carriage returns) gets a leading single quote (OWASP's advice on CSV injection: a spreadsheet never
// runs it as a formula); numbers are never changed.
std::string RenderSheetCsv(const SheetSpec& sheet, CsvLayout layout = CsvLayout::kWorkbookGrid,
                           bool neutralise_formulas = false);

// Writes DIR/<sheet name>.csv for every sheet with rows (DIR is created if missing, one level).
// Each file goes through a temporary file; an existing file is refused unless `force`.
// Returns the paths written, in order.
StatusOr<std::vector<std::string>> WriteCsvDir(const std::vector<SheetSpec>& sheets,
                                               const std::string& dir, bool force,
                                               CsvLayout layout = CsvLayout::kWorkbookGrid,
                                               bool neutralise_formulas = false);

}  // namespace profdiff::report
