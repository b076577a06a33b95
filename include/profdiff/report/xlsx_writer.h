// Workbook writer (libxlsxwriter) for any list of SheetSpec, laid out exactly as
// docs/reference/workbook.md: row 1 merged banners (green base, yellow comparison), row 2 empty,
// header row 3, data from row 4. For people (both modes, no cell value changes): an autofilter and
// frozen panes on the header, landscape one-page-wide printing, and a text cell of several lines
// wraps in a row as tall as its lines (15 points a line, up to Excel's 409). Output safety
// (docs/deviations.md): written to a temporary file in
// the target directory and renamed; an existing file is never replaced unless `force`; on error no
// partial file is left.
#pragma once

#include <chrono>
#include <ctime>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

struct WorkbookOptions {
  bool force = false;  // replace an existing file
  // Used for the explanatory sheet written when no sheet has rows.
  std::string empty_reason = "no comparison produced any rows";
  std::string base_path_arg;
  std::string comparison_path_arg;
  // Widen each text column to its longest line (header included), up to kMaxFittedWidth characters,
  // never below the column's own width (the default mode; --reference-compat keeps the reference's).
  bool fit_text_columns = false;
  // A banner longer than its merged columns wraps there and row 1 is made tall enough for it (the
  // default mode; --reference-compat keeps the reference's one-line banners).
  bool wrap_banners = false;
  // A ratio column's +inf (a row whose base is 0: a new operator) is the number 1.7976931348623157E308
  // shown as "INF" by its number format (kInfiniteRatioFormat), so that a number filter keeps it (the
  // default mode); else the text "INF", as the reference writes it (--reference-compat).
  bool infinite_ratio_as_number = false;
  // Filled with a line for each sheet cut at the most rows a sheet holds (kMaxSheetDataRows data
  // rows; the CSV files and the JSON result keep every row), when not null.
  std::vector<std::string>* cut_sheets = nullptr;
  // Threads that render the data rows and deflate the parts (0: one per core).
  size_t threads = 0;
  // Write the data rows cell by cell through libxlsxwriter instead of rendering them in parallel
  // (the same bytes, slower): what the renderer is tested against.
  bool rows_in_library = false;
  // The creation time the workbook's properties (docProps/core.xml) record; 0: now, as libxlsxwriter
  // does. A fixed time (kFixedWorkbookCreated) makes the same sheets the same bytes.
  std::time_t created = 0;
};

// 1980-01-01T00:00:00Z, the time the package's zip entries carry too: the creation time of a
// workbook meant to be the same bytes for the same sheets (WorkbookOptions::created).
inline constexpr std::time_t kFixedWorkbookCreated = 315532800;

// The data rows a sheet holds: Excel's 1,048,576 rows less the banner, empty and header rows. A
// sheet with more gets its first kMaxSheetDataRows - 1 rows and a last row saying how many are left
// out and where they are.
inline constexpr size_t kMaxSheetDataRows = 1048576 - 3;

inline constexpr double kMaxFittedWidth = 80;

// The most lines a call-stack cell makes its row tall with fit_text_columns (ColumnSpec::call_stack).
inline constexpr size_t kCallStackRowLines = 3;

// The number format of an infinite ratio written as a number: "INF" for it, a percentage otherwise.
inline constexpr const char* kInfiniteRatioFormat = "[>=1E+300]\"INF\";0.00%";

// The width a column gets with fit_text_columns: max(col.width, min(kMaxFittedWidth, longest line + 2))
// where a line's length counts UTF-8 characters; number cells do not widen a column.
double FittedColumnWidth(const SheetSpec& sheet, size_t col);
// FittedColumnWidth of every column, the rows read once on `threads` workers (0: one per core).
std::vector<double> FittedColumnWidths(const SheetSpec& sheet, size_t threads);

// Writes the sheets that have rows, in the given order. When none has rows, writes one explanatory
// sheet (BuildEmptyComparisonSheet) instead of an empty "Sheet1". Sheet names must be unique and at
// most 31 characters. Fails with kAlreadyExists when `path` exists and !force, kNotFound when the
// directory does not exist, kIoError when writing fails.
Status WriteWorkbook(const std::vector<SheetSpec>& sheets, const std::string& path,
                     const WorkbookOptions& options);
inline Status WriteWorkbook(const std::vector<SheetSpec>& sheets, const std::string& path, bool force) {
  WorkbookOptions o;
  o.force = force;
  return WriteWorkbook(sheets, path, o);
}

// "performance_comparison_result_<UTC YYYYMMDDhhmmss>.xlsx".
std::string DefaultWorkbookName(std::chrono::system_clock::time_point now);

// Where the workbook goes for `-o O_ARG` (already '='-stripped and '~'-expanded by the CLI):
//   ""                      -> DefaultWorkbookName(now) in the current directory
//   "X.xlsx" (any case)     -> exactly X.xlsx, unless X.xlsx is an existing directory
//   an existing directory   -> DIR/DefaultWorkbookName(now)
//   a path without a suffix -> DIR/DefaultWorkbookName(now) (the CLI creates DIR)
//   anything else (an existing non-directory, or a last component with another suffix such as
//   "x.txt")                -> kInvalidArgument naming the path.
StatusOr<std::string> ResolveWorkbookPath(std::string_view o_arg,
                                          std::chrono::system_clock::time_point now);

}  // namespace profdiff::report
