// CSV rendering of a SheetSpec (`--csv DIR`): the same grid as the workbook, as the oracle CSVs show
// it (a workbook read back by openpyxl and written with Python's csv module): row 1 with the banner
// texts at the first column of their merge ranges, row 2 empty, header row 3, data rows; CRLF line
// ends, minimal quoting.
#pragma once

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

// The whole sheet as CSV text.
std::string RenderSheetCsv(const SheetSpec& sheet);

// Writes DIR/<sheet name>.csv for every sheet with rows (DIR is created if missing, one level).
// Each file goes through a temporary file; an existing file is refused unless `force`.
// Returns the paths written, in order.
StatusOr<std::vector<std::string>> WriteCsvDir(const std::vector<SheetSpec>& sheets,
                                               const std::string& dir, bool force);

}  // namespace profdiff::report
