#include "profdiff/report/xlsx_writer.h"

#include <sys/stat.h>
#include <fmt/format.h>
#include <xlsxwriter.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "profdiff/base/ordered_parallel.h"
#include "profdiff/base/utf8.h"
#include "profdiff/report/output_file.h"
#include "profdiff/report/xlsx_deflate.h"
#include "profdiff/report/xlsx_rows.h"

namespace profdiff::report {
namespace {

using xlsx_rows::CellStyle;
using xlsx_rows::ExcelLiteral;
using xlsx_rows::PlannedCell;

// Formats are created on demand and cached per (type, fill, indent, red).
class FormatCache {
 public:
  explicit FormatCache(lxw_workbook* wb) : wb_(wb) {}

  // `wrap`: the text wraps at the cell's width (a banner longer than its merged columns).
  lxw_format* Header(uint32_t fill, bool wrap = false) {
    auto it = headers_.find({fill, wrap});
    if (it != headers_.end()) return it->second;
    lxw_format* f = Base();
    format_set_bold(f);
    format_set_bg_color(f, static_cast<lxw_color_t>(fill));
    if (wrap) format_set_text_wrap(f);
    headers_[{fill, wrap}] = f;
    return f;
  }

  // A data cell's format (xlsx_rows::PlanCell decides the style). `wrap`: a multi-line text, shown on
  // as many lines (its row is made tall enough).
  lxw_format* Data(const CellStyle& style) {
    if (style.infinite) return InfiniteRatio();
    const uint64_t key = style.Key();
    auto it = data_.find(key);
    if (it != data_.end()) return it->second;
    lxw_format* f = Base();
    switch (style.type) {
      case CellFormat::kDefault: format_set_num_format(f, "#,##0"); break;
      case CellFormat::kDefaultFloat: format_set_num_format(f, "#,##0.00"); break;
      case CellFormat::kDefaultRatio: format_set_num_format(f, "0.00%"); break;
      case CellFormat::kBoldStr: format_set_bold(f); break;
    }
    if (style.red) format_set_num_format(f, "0.00%");  // RED_RATIO = DEFAULT_RATIO + red fill
    if (style.fill != kNoFill) format_set_bg_color(f, static_cast<lxw_color_t>(style.fill));
    const int indent = style.indent;
    if (indent > 0) format_set_indent(f, static_cast<uint8_t>(indent > 15 ? 15 : indent));
    if (style.wrap) format_set_text_wrap(f);
    data_[key] = f;
    return f;
  }

  // A ratio whose base is 0, written as the largest double: red like every ratio above 1, and shown
  // as "INF" by its number format, so that a number filter ("> 1") keeps it and sorting puts it first.
  lxw_format* InfiniteRatio() {
    if (infinite_ratio_ != nullptr) return infinite_ratio_;
    infinite_ratio_ = Base();
    format_set_num_format(infinite_ratio_, kInfiniteRatioFormat);
    format_set_bg_color(infinite_ratio_, static_cast<lxw_color_t>(kFillRed));
    return infinite_ratio_;
  }

 private:
  lxw_format* Base() {
    lxw_format* f = workbook_add_format(wb_);
    format_set_font_name(f, "Arial");
    format_set_font_size(f, 11);
    format_set_align(f, LXW_ALIGN_LEFT);
    format_set_align(f, LXW_ALIGN_VERTICAL_CENTER);
    format_set_border(f, LXW_BORDER_THIN);
    return f;
  }

  lxw_workbook* wb_;
  lxw_format* infinite_ratio_ = nullptr;
  std::map<std::pair<uint32_t, bool>, lxw_format*> headers_;
  std::map<uint64_t, lxw_format*> data_;
};

// The last row of a sheet cut at Excel's last row: bold, red.
CellStyle CutRowStyle() {
  CellStyle s;
  s.type = CellFormat::kBoldStr;
  s.fill = kFillRed;
  s.red = true;
  return s;
}

Status LxwError(lxw_error e, const std::string& where) {
  return IoError(where + ": " + lxw_strerror(e));
}

// ExcelLiteral returns the whole of a NUL-terminated string (its argument or its buffer): data() is a C string.
lxw_error WriteStringCell(lxw_worksheet* ws, lxw_row_t row, lxw_col_t col, std::string_view text, lxw_format* f) {
  std::string escaped;
  if (text.size() <= kMaxCellChars) {
    const std::string whole(text);
    return worksheet_write_string(ws, row, col, ExcelLiteral(whole, escaped).data(), f);
  }
  std::string cut(text);  // only then can it exceed Excel's limit (copy to cut it)
  TruncateCellText(cut);
  return worksheet_write_string(ws, row, col, ExcelLiteral(cut, escaped).data(), f);
}

Status WriteString(lxw_worksheet* ws, int row, int col, const std::string& text, lxw_format* f,
                   const std::string& where) {
  lxw_error e = WriteStringCell(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col), text, f);
  if (e != LXW_NO_ERROR) return LxwError(e, where);
  return Status::Ok();
}

Status WriteBanner(lxw_worksheet* ws, const Banner& b, lxw_format* f, const std::string& where) {
  if (b.text.empty()) return Status::Ok();
  std::string text = b.text;
  TruncateCellText(text);
  if (b.last_col > b.first_col) {
    std::string escaped;
    lxw_error e = worksheet_merge_range(ws, 0, static_cast<lxw_col_t>(b.first_col), 0,
                                        static_cast<lxw_col_t>(b.last_col), ExcelLiteral(text, escaped).data(), f);
    if (e != LXW_NO_ERROR) return LxwError(e, where + " banner");
    return Status::Ok();
  }
  return WriteString(ws, 0, b.first_col, std::move(text), f, where + " banner");
}

// A sheet people can filter, scroll and print: an autofilter over the header row and the data rows,
// the panes frozen below the header so the column names stay in view, landscape fit-to-width
// printing. None of it changes a cell value or a column width (both modes; --reference-compat keeps
// the reference's widths).
Status AddFilterAndFreeze(lxw_worksheet* ws, const SheetSpec& sheet, const std::string& where) {
  if (sheet.columns.empty()) return Status::Ok();
  const auto last_row = static_cast<lxw_row_t>(kHeaderRow + std::min(sheet.rows.size(), kMaxSheetDataRows));
  const auto last_col = static_cast<lxw_col_t>(sheet.columns.size() - 1);
  lxw_error e = worksheet_autofilter(ws, kHeaderRow, 0, last_row, last_col);
  if (e != LXW_NO_ERROR) return LxwError(e, where + " autofilter");
  worksheet_freeze_panes(ws, static_cast<lxw_row_t>(kFirstDataRow), 0);
  // Printed landscape, every column on one page width (as many pages down as it takes), the header
  // row repeated on each page.
  worksheet_set_landscape(ws);
  worksheet_fit_to_pages(ws, 1, 0);
  e = worksheet_repeat_rows(ws, kHeaderRow, kHeaderRow);
  if (e != LXW_NO_ERROR) return LxwError(e, where + " print titles");
  return Status::Ok();
}


// Lines a banner takes when it wraps in its merged columns (`width`: their total width in characters;
// bold text is about a tenth wider than the width's unit).
size_t BannerLines(std::string_view text, double width) {
  size_t chars = 0;
  for (const char ch : text) chars += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  const double per_line = std::max(1.0, width / 1.1);
  return static_cast<size_t>(std::ceil(static_cast<double>(chars) / per_line));
}

double BannerWidth(const Banner& b, const std::vector<double>& widths) {
  double w = 0;
  for (int c = b.first_col; c <= b.last_col && c < static_cast<int>(widths.size()); ++c) w += widths[c];
  return w;
}

// Row 1: the two banners. With `wrap_banners` (the default mode) a banner longer than its merged
// columns wraps there and the row is made tall enough for it, so the whole path shows (the reference
// cuts it at the merged range's edge, hiding e.g. "rank0" vs "rank1").
Status WriteBanners(lxw_worksheet* ws, FormatCache& formats, const SheetSpec& sheet,
                    const std::vector<double>& widths, bool wrap_banners, const std::string& where) {
  if (wrap_banners) {
    size_t lines = 1;
    for (const Banner* b : {&sheet.base_banner, &sheet.comparison_banner})
      if (!b->text.empty()) lines = std::max(lines, BannerLines(b->text, BannerWidth(*b, widths)));
    if (lines > 1) {
      if (lxw_error e = worksheet_set_row(ws, 0, xlsx_rows::RowHeightPoints(lines), nullptr); e != LXW_NO_ERROR)
        return LxwError(e, where + " banner row height");
    }
  }
  PD_RETURN_IF_ERROR(WriteBanner(ws, sheet.base_banner, formats.Header(kFillGreen, wrap_banners), where));
  return WriteBanner(ws, sheet.comparison_banner, formats.Header(kFillYellow, wrap_banners), where);
}

// One data row written cell by cell through libxlsxwriter (WorkbookOptions::rows_in_library): the
// path the parallel renderer (WriteDataRows) is tested against. A text cell of several lines wraps
// and the row is as tall as its longest cell (xlsx_rows::RowLines), so the lines show instead of
// being drawn over each other.
Status WriteRowInLibrary(lxw_worksheet* ws, FormatCache& formats, const SheetSpec& sheet, size_t r,
                         const std::vector<double>& widths, const WorkbookOptions& options, const std::string& where) {
  const auto xr = static_cast<lxw_row_t>(kFirstDataRow + r);
  if (const size_t lines = xlsx_rows::RowLines(sheet, r, widths, options); lines > 1) {
    if (lxw_error e = worksheet_set_row(ws, xr, xlsx_rows::RowHeightPoints(lines), nullptr); e != LXW_NO_ERROR)
      return LxwError(e, where + " row " + std::to_string(kFirstDataRow + r + 1) + " height");
  }
  for (size_t c = 0; c < sheet.columns.size(); ++c) {
    const PlannedCell p = xlsx_rows::PlanCell(sheet, r, c, options);
    lxw_format* f = formats.Data(p.style);
    const auto xc = static_cast<lxw_col_t>(c);
    lxw_error e = LXW_NO_ERROR;
    switch (p.kind) {
      case PlannedCell::Kind::kBlank: e = worksheet_write_blank(ws, xr, xc, f); break;
      case PlannedCell::Kind::kNumber: e = worksheet_write_number(ws, xr, xc, p.number, f); break;
      case PlannedCell::Kind::kString: e = WriteStringCell(ws, xr, xc, p.text, f); break;
    }
    if (e != LXW_NO_ERROR) return LxwError(e, where + " row " + std::to_string(kFirstDataRow + r + 1));
  }
  return Status::Ok();
}

// Rows rendered together on a worker: small enough that a sheet of a few thousand rows spreads over
// every core (with 2,048 the ResNet50 pair's 3,583-row OperatorCompare sheet was two unequal chunks:
// 40 ms; with 512, 23 ms), big enough that a chunk's overhead stays small (about 1 MB of XML).
constexpr size_t kRowsPerChunk = 512;

// The data rows, rendered in chunks on every core (xlsx_rows.h) and appended in order to the sheet's
// row stream, the bytes WriteRowInLibrary makes libxlsxwriter write. Its formats are numbered first,
// in the order the rows first use them, as libxlsxwriter numbers them when it writes each row; then
// the sheet's dimensions and its current row are where writing the rows cell by cell leaves them.
Status WriteDataRows(lxw_worksheet* ws, FormatCache& formats, const SheetSpec& sheet, size_t rows,
                     const std::vector<double>& widths, const WorkbookOptions& options, const std::string& where) {
  if (rows == 0 || sheet.columns.empty()) return Status::Ok();
  lxw_worksheet_write_single_row(ws);  // the header row: its formats are numbered before the rows'
  const size_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  const size_t window = 2 * ParallelThreads(options.threads, chunks);
  auto range = [&](size_t i) { return std::pair{i * kRowsPerChunk, std::min(rows, (i + 1) * kRowsPerChunk)}; };
  xlsx_rows::XfIndices xf;
  PD_RETURN_IF_ERROR(OrderedParallel<std::vector<CellStyle>>(
      chunks, options.threads, window,
      [&](size_t i) { return xlsx_rows::StylesInOrderOfUse(sheet, range(i).first, range(i).second, options); },
      [&](size_t, std::vector<CellStyle> styles) {
        for (const CellStyle& style : styles)
          if (xf.Of(style) < 0) xf.Add(style, lxw_format_get_xf_index(formats.Data(style)));
        return Status::Ok();
      }));
  std::vector<std::string> column_names;
  for (size_t c = 0; c < sheet.columns.size(); ++c) column_names.push_back(xlsx_rows::ColumnName(c));
  struct Rendered {
    Status status;
    std::string xml;
  };
  BufferPool buffers;
  const Status written = OrderedParallel<Rendered>(
      chunks, options.threads, window,
      [&](size_t i) {
        Rendered out;
        out.xml = buffers.Take();
        out.status = xlsx_rows::RenderRows(sheet, range(i).first, range(i).second, widths, options, xf, column_names,
                                           where, out.xml);
        return out;
      },
      [&](size_t, Rendered chunk) {
        PD_RETURN_IF_ERROR(chunk.status);
        if (std::fwrite(chunk.xml.data(), 1, chunk.xml.size(), ws->file) != chunk.xml.size())
          return IoError(where + ": cannot write its rows to a temporary file: " + std::strerror(errno));
        buffers.Give(std::move(chunk.xml));
        return Status::Ok();
      });
  PD_RETURN_IF_ERROR(written);
  const auto last_row = static_cast<lxw_row_t>(kFirstDataRow + rows - 1);
  ws->dim_rowmin = std::min<lxw_row_t>(ws->dim_rowmin, kFirstDataRow);
  ws->dim_rowmax = std::max(ws->dim_rowmax, last_row);
  ws->dim_colmin = std::min<lxw_col_t>(ws->dim_colmin, 0);
  const auto last_col = static_cast<lxw_col_t>(sheet.columns.size() - 1);
  ws->dim_colmax = std::max(ws->dim_colmax, last_col);
  ws->optimize_row->row_num = last_row;
  return Status::Ok();
}

Status WriteSheet(lxw_workbook* wb, FormatCache& formats, const SheetSpec& sheet,
                  const std::string& path, const WorkbookOptions& options) {
  const std::string where = path + ": sheet '" + sheet.name + "'";
  if (lxw_error e = workbook_validate_sheet_name(wb, sheet.name.c_str()); e != LXW_NO_ERROR) {
    return InvalidArgument(where + ": invalid sheet name: " + lxw_strerror(e));
  }
  lxw_worksheet* ws = workbook_add_worksheet(wb, sheet.name.c_str());
  if (ws == nullptr) return IoError(where + ": cannot add the worksheet");

  std::vector<double> widths;
  if (options.fit_text_columns) {
    widths = FittedColumnWidths(sheet, options.threads);
  } else {
    for (const ColumnSpec& col : sheet.columns) widths.push_back(col.width);
  }
  PD_RETURN_IF_ERROR(WriteBanners(ws, formats, sheet, widths, options.wrap_banners, where));

  const Banner& cb = sheet.comparison_banner;
  for (size_t c = 0; c < sheet.columns.size(); ++c) {
    const ColumnSpec& col = sheet.columns[c];
    bool in_comparison = !cb.text.empty() && static_cast<int>(c) >= cb.first_col &&
                         static_cast<int>(c) <= cb.last_col;
    lxw_error e = worksheet_set_column(ws, static_cast<lxw_col_t>(c), static_cast<lxw_col_t>(c), widths[c], nullptr);
    if (e != LXW_NO_ERROR) return LxwError(e, where + " column width");
    PD_RETURN_IF_ERROR(WriteString(ws, kHeaderRow, static_cast<int>(c), col.header,
                                   formats.Header(in_comparison ? kFillYellow : kFillGreen),
                                   where + " header"));
  }
  PD_RETURN_IF_ERROR(AddFilterAndFreeze(ws, sheet, where));
  const size_t rows = sheet.rows.size() > kMaxSheetDataRows ? kMaxSheetDataRows - 1 : sheet.rows.size();
  if (options.rows_in_library) {
    for (size_t r = 0; r < rows; ++r) PD_RETURN_IF_ERROR(WriteRowInLibrary(ws, formats, sheet, r, widths, options, where));
  } else {
    PD_RETURN_IF_ERROR(WriteDataRows(ws, formats, sheet, rows, widths, options, where));
  }
  if (rows == sheet.rows.size()) return Status::Ok();
  // Past Excel's last row: what is left out, in the sheet's last row and on the caller's list.
  const std::string cut = fmt::format("{} more rows not shown: a sheet holds {} rows; the CSV files (--csv) and the "
                                      "JSON result (--json) hold all {}",
                                      sheet.rows.size() - rows, kMaxSheetDataRows + 3, sheet.rows.size());
  PD_RETURN_IF_ERROR(WriteString(ws, static_cast<int>(kFirstDataRow + rows), 0, cut,
                                 formats.Data(CutRowStyle()), where + " last row"));
  if (options.cut_sheets != nullptr)
    options.cut_sheets->push_back(fmt::format("{}: {} of its {} rows written; {}", where, rows, sheet.rows.size(), cut));
  return Status::Ok();
}

Status WriteWorkbookFile(const std::vector<const SheetSpec*>& sheets, const std::string& file,
                         const std::string& display_path, const WorkbookOptions& options) {
  // Constant-memory mode: each worksheet streams its rows to a temporary file as they are written
  // (rows are written in order), instead of libxlsxwriter keeping every cell of every sheet in memory
  // until the workbook closes; strings are stored inline. On the 1 GB pair with every comparison this
  // is the difference between staying under the inputs' size or not (docs/performance.md).
  lxw_workbook_options workbook_options{};
  workbook_options.constant_memory = LXW_TRUE;
  lxw_workbook* wb = workbook_new_opt(file.c_str(), &workbook_options);
  if (wb == nullptr) return IoError(display_path + ": cannot create the workbook");
  if (options.created != 0) {
    lxw_doc_properties properties{};
    properties.created = options.created;
    workbook_set_properties(wb, &properties);
  }
  FormatCache formats(wb);
  Status st;
  for (const SheetSpec* s : sheets) {
    st = WriteSheet(wb, formats, *s, display_path, options);
    if (!st.ok()) break;
  }
  const ScopedXlsxDeflateThreads deflate_threads(options.threads);  // the parts deflate on every core
  lxw_error e = workbook_close(wb);  // frees the workbook in every case
  PD_RETURN_IF_ERROR(st);
  if (e != LXW_NO_ERROR) return LxwError(e, display_path);
  return Status::Ok();
}

bool EndsWithXlsx(std::string_view s) {
  if (s.size() < 5) return false;
  std::string_view tail = s.substr(s.size() - 5);
  static constexpr std::string_view kXlsx = ".xlsx";
  for (size_t i = 0; i < 5; ++i) {
    char c = tail[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kXlsx[i]) return false;
  }
  return true;
}

}  // namespace

namespace {
// A column's width with fit_text_columns, from the code points of its longest line (xlsx_writer.h).
double WidthOfLongest(const ColumnSpec& spec, size_t longest) {
  return std::max(spec.width, std::min(kMaxFittedWidth, static_cast<double>(longest) + 2));
}
}  // namespace

double FittedColumnWidth(const SheetSpec& sheet, size_t col) {
  const ColumnSpec& spec = sheet.columns.at(col);
  const auto cap = static_cast<size_t>(kMaxFittedWidth);  // no need to look further once reached
  size_t longest = LongestLineCodePoints(spec.header);
  for (size_t r = 0; r < sheet.rows.size() && longest < cap; ++r) {
    const RowSpec& row = sheet.rows[r];
    if (col < row.cells.size() && row.cells[col].kind == Cell::Kind::kString)
      longest = std::max(longest, LongestLineCodePoints(row.cells[col].text));
  }
  return WidthOfLongest(spec, longest);
}

// Rows measured together on a worker when fitting the columns.
constexpr size_t kRowsPerWidthChunk = 8192;

// FittedColumnWidth of every column (xlsx_writer.h), reading the rows once, row by row (a row's
// cells lie together; reading them column by column missed the cache at every cell once a sheet
// outgrew it), in chunks on `threads` workers; a column's cells are measured only until it reaches
// kMaxFittedWidth.
std::vector<double> FittedColumnWidths(const SheetSpec& sheet, size_t threads) {
  const size_t cols = sheet.columns.size();
  const auto cap = static_cast<size_t>(kMaxFittedWidth);
  std::vector<size_t> longest(cols);
  for (size_t c = 0; c < cols; ++c) longest[c] = LongestLineCodePoints(sheet.columns[c].header);
  const size_t chunks = (sheet.rows.size() + kRowsPerWidthChunk - 1) / kRowsPerWidthChunk;
  (void)OrderedParallel<std::vector<size_t>>(
      chunks, threads, 2 * ParallelThreads(threads, chunks),
      [&](size_t i) {
        std::vector<size_t> local(cols, 0);
        const size_t end = std::min(sheet.rows.size(), (i + 1) * kRowsPerWidthChunk);
        for (size_t r = i * kRowsPerWidthChunk; r < end; ++r) {
          const std::vector<Cell>& cells = sheet.rows[r].cells;
          for (size_t c = 0; c < std::min(cols, cells.size()); ++c)
            if (cells[c].kind == Cell::Kind::kString && local[c] < cap)
              local[c] = std::max(local[c], LongestLineCodePoints(cells[c].text));
        }
        return local;
      },
      [&](size_t, std::vector<size_t> local) {
        for (size_t c = 0; c < cols; ++c) longest[c] = std::max(longest[c], local[c]);
        return Status::Ok();
      });
  std::vector<double> widths(cols);
  for (size_t c = 0; c < cols; ++c) widths[c] = WidthOfLongest(sheet.columns[c], longest[c]);
  return widths;
}

Status WriteWorkbook(const std::vector<SheetSpec>& sheets, const std::string& path,
                     const WorkbookOptions& options) {
  std::vector<const SheetSpec*> to_write;
  std::set<std::string> names;
  for (const SheetSpec& s : sheets) {
    if (s.rows.empty()) continue;
    if (!names.insert(s.name).second) {
      return InvalidArgument(path + ": two sheets are named '" + s.name + "'");
    }
    if (s.base_banner.last_col < s.base_banner.first_col ||
        s.comparison_banner.last_col < s.comparison_banner.first_col) {
      return InvalidArgument(path + ": sheet '" + s.name + "' has an inverted banner range");
    }
    to_write.push_back(&s);
  }
  SheetSpec empty_sheet;
  if (to_write.empty()) {
    empty_sheet = BuildEmptyComparisonSheet(options.empty_reason, options.base_path_arg,
                                            options.comparison_path_arg);
    to_write.push_back(&empty_sheet);
  }
  return WriteViaTempFile(path, options.force, [&](const std::string& tmp) {
    return WriteWorkbookFile(to_write, tmp, path, options);
  });
}

std::string DefaultWorkbookName(std::chrono::system_clock::time_point now) {
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return std::string("performance_comparison_result_") + buf + ".xlsx";
}

StatusOr<std::string> ResolveWorkbookPath(std::string_view o_arg,
                                          std::chrono::system_clock::time_point now) {
  const std::string name = DefaultWorkbookName(now);
  if (o_arg.empty()) return name;
  std::string arg(o_arg);
  struct stat st {};
  const bool exists = stat(arg.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    while (arg.size() > 1 && arg.back() == '/') arg.pop_back();
    return arg == "/" ? "/" + name : arg + "/" + name;
  }
  if (EndsWithXlsx(arg)) {
    if (arg.back() == '/') return InvalidArgument("-o " + arg + ": not a directory");
    return arg;
  }
  if (exists) {
    return InvalidArgument("-o " + arg +
                           ": is an existing file without the .xlsx suffix; give a directory or a "
                           "FILE.xlsx path");
  }
  std::string_view last = o_arg;
  while (last.size() > 1 && last.back() == '/') last.remove_suffix(1);
  if (size_t slash = last.find_last_of('/'); slash != std::string_view::npos) {
    last = last.substr(slash + 1);
  }
  if (size_t dot = last.find_last_of('.'); dot != std::string_view::npos && dot > 0 &&
                                            dot + 1 < last.size() && last != "..") {
    return InvalidArgument("-o " + arg + ": unsupported output suffix '" +
                           std::string(last.substr(dot)) +
                           "'; the workbook path must end in .xlsx (or give a directory)");
  }
  while (arg.size() > 1 && arg.back() == '/') arg.pop_back();
  return arg + "/" + name;
}

}  // namespace profdiff::report
