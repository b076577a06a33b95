#include "profdiff/report/xlsx_rows.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace profdiff::report::xlsx_rows {
namespace {

CellStyle StyleOf(CellFormat type, uint32_t fill, int indent, bool red, bool wrap = false) {
  CellStyle s;
  s.type = type;
  s.fill = red ? kFillRed : fill;
  s.indent = indent;
  s.red = red;
  s.wrap = wrap;
  return s;
}

// A line of Arial 11 takes 15 points; Excel's tallest row is 409.
constexpr double kPointsPerLine = 15;
constexpr double kMaxRowPoints = 409;

// UTF-8 code points (bytes that do not continue a sequence); a loop the compiler vectorizes.
size_t CodePointsOf(std::string_view text) {
  size_t n = 0;
  for (const char ch : text) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

// Lines a text takes in a wrapping cell `width` characters wide: each of its lines, and the lines a
// line longer than the cell wraps into.
size_t WrappedLines(std::string_view text, double width) {
  const auto per_line = static_cast<size_t>(std::max(1.0, std::floor(width)));
  size_t lines = 0;
  for (;;) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    const size_t chars = CodePointsOf(line);
    lines += std::max<size_t>(1, (chars + per_line - 1) / per_line);  // a trailing "\n" shows an empty line
    if (end == std::string_view::npos) return lines;
    text.remove_prefix(end + 1);
  }
}

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

void AppendUnsigned(std::string& out, uint64_t v) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out.append(buf, end);
}

// What libxlsxwriter does to a string cell's text: control characters other than tab and newline
// become _xHHHH_ (lxw_escape_control_characters), then &, < and > their entities (lxw_escape_data).
// A byte libxlsxwriter changes: a control character other than tab and newline, or &, < and >.
constexpr bool IsEscaped(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n') || c == '&' || c == '<' || c == '>';
}

void AppendEscapedBytes(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  size_t plain = 0;  // start of the run not yet copied
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!IsEscaped(c)) continue;
    out.append(text.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: {
        const char esc[7] = {'_', 'x', '0', '0', kHex[c >> 4], kHex[c & 0xF], '_'};
        out.append(esc, sizeof esc);
      }
    }
  }
  out.append(text.data() + plain, text.size() - plain);
}

// Whether any byte of a block is escaped: no early exit, so that the compiler vectorizes it.
constexpr size_t kEscapeBlock = 64;
bool AnyEscaped(const char* p) {
  bool any = false;
  for (size_t j = 0; j < kEscapeBlock; ++j) any |= IsEscaped(static_cast<unsigned char>(p[j]));
  return any;
}

// What libxlsxwriter does to a string cell's text: control characters other than tab and newline
// become _xHHHH_ (lxw_escape_control_characters), then &, < and > their entities (lxw_escape_data).
// Blocks without such a byte (nearly all) are copied whole.
void AppendEscaped(std::string& out, std::string_view text) {
  size_t plain = 0;  // blocks [plain, i) hold no escaped byte
  size_t i = 0;
  for (; i + kEscapeBlock <= text.size(); i += kEscapeBlock) {
    if (!AnyEscaped(text.data() + i)) continue;
    out.append(text.data() + plain, i - plain);
    AppendEscapedBytes(out, text.substr(i, kEscapeBlock));
    plain = i + kEscapeBlock;
  }
  out.append(text.data() + plain, i - plain);
  AppendEscapedBytes(out, text.substr(i));
}

// The first and last characters of the escaped text that make libxlsxwriter keep the spaces
// (xml:space="preserve"): isspace() of a character that is not escaped.
bool KeepsSpace(char c) { return c == ' ' || c == '\t' || c == '\n'; }

struct RowWriter {
  std::string& out;
  const std::vector<std::string>& column_names;
  std::string row_number;  // the row's 1-based number as text

  void CellStart(size_t c, int32_t xf) {
    out += "<c r=\"";
    out += column_names[c];
    out += row_number;
    if (xf != 0) {
      out += "\" s=\"";
      AppendUnsigned(out, static_cast<uint32_t>(xf));
    }
    out += '"';
  }
  void Blank(size_t c, int32_t xf) {
    CellStart(c, xf);
    out += "/>";
  }
  void Number(size_t c, int32_t xf, double v) {
    CellStart(c, xf);
    out += "><v>";
    AppendNumber(out, v);
    out += "</v></c>";
  }
  // The text as worksheet_write_string takes it: cut to Excel's limit, a literal _xHHHH_ escaped,
  // ended at a NUL (a C string). Returns false when it is too long once escaped.
  bool String(size_t c, int32_t xf, std::string_view text) {
    std::string cut, literal;
    if (text.size() > kMaxCellChars) {
      cut = text;
      TruncateCellText(cut);
      text = cut;
    }
    text = ExcelLiteral(text, literal);
    text = text.substr(0, text.find('\0'));
    if (text.empty()) {  // libxlsxwriter writes an empty string as a blank cell with its format
      Blank(c, xf);
      return true;
    }
    if (text.size() > kMaxCellChars && CodePointsOf(text) > kMaxCellChars) return false;
    CellStart(c, xf);
    out += KeepsSpace(text.front()) || KeepsSpace(text.back()) ? " t=\"inlineStr\"><is><t xml:space=\"preserve\">"
                                                               : " t=\"inlineStr\"><is><t>";
    AppendEscaped(out, text);
    out += "</t></is></c>";
    return true;
  }
};

}  // namespace

uint64_t CellStyle::Key() const {
  if (infinite) return 1u << 4;
  return static_cast<uint64_t>(type) | (static_cast<uint64_t>(red) << 2) | (static_cast<uint64_t>(wrap) << 3) |
         (static_cast<uint64_t>(static_cast<uint16_t>(indent)) << 8) | (static_cast<uint64_t>(fill) << 32);
}

std::string_view ExcelLiteral(std::string_view text, std::string& buffer) {
  if (text.find("_x") == std::string_view::npos) return text;
  buffer.clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '_' && i + 6 < text.size() && text[i + 1] == 'x' && IsHex(text[i + 2]) &&
        IsHex(text[i + 3]) && IsHex(text[i + 4]) && IsHex(text[i + 5]) && text[i + 6] == '_')
      buffer += "_x005F";
    buffer += text[i];
  }
  return buffer;
}

PlannedCell PlanCell(const SheetSpec& sheet, size_t r, size_t c, const WorkbookOptions& options) {
  static const Cell kBlankCell;
  const RowSpec& row = sheet.rows[r];
  const ColumnSpec& col = sheet.columns[c];
  const Cell& cell = c < row.cells.size() ? row.cells[c] : kBlankCell;
  const int indent = c == 0 ? row.indent : 0;
  PlannedCell p;
  p.style = StyleOf(col.format, row.fill, indent, false);
  switch (cell.kind) {
    case Cell::Kind::kBlank: break;
    case Cell::Kind::kNumber: {
      const double v = cell.number;
      if (std::isnan(v)) break;  // blank
      if (std::isinf(v)) {       // Excel cannot store infinities; the reference writes "INF" (red in ratio columns)
        p.kind = PlannedCell::Kind::kString;
        p.text = v > 0 ? "INF" : "-INF";
        p.style = StyleOf(col.format, row.fill, indent, col.ratio && v > 0);
        break;
      }
      p.kind = PlannedCell::Kind::kNumber;
      p.number = v;
      p.style = StyleOf(col.format, col.red_above_zero && v > 0 ? kFillRed : row.fill, indent, col.ratio && v > 1);
      break;
    }
    case Cell::Kind::kString: {
      const bool red = col.ratio && cell.text == "INF";
      if (red && options.infinite_ratio_as_number) {
        p.kind = PlannedCell::Kind::kNumber;
        p.number = std::numeric_limits<double>::max();
        p.style = CellStyle{};
        p.style.infinite = true;
        break;
      }
      const bool wrap = col.wrap || cell.text.find('\n') != std::string::npos;
      p.kind = PlannedCell::Kind::kString;
      p.text = cell.text;
      p.style = StyleOf(col.format, row.fill, indent, red, wrap);
      break;
    }
  }
  return p;
}

double RowHeightPoints(size_t lines) { return std::min(kMaxRowPoints, kPointsPerLine * static_cast<double>(lines)); }

size_t RowLines(const SheetSpec& sheet, size_t r, const std::vector<double>& widths, const WorkbookOptions& options) {
  const RowSpec& row = sheet.rows[r];
  size_t lines = 1;
  for (size_t c = 0; c < row.cells.size() && c < widths.size(); ++c) {
    const Cell& cell = row.cells[c];
    if (cell.kind != Cell::Kind::kString) continue;
    if (!sheet.columns[c].wrap && cell.text.find('\n') == std::string::npos) continue;
    size_t cell_lines = WrappedLines(cell.text, widths[c]);
    // A long call stack (often at the far right, out of view) would make a row whose visible cells
    // hold one line dozens of lines tall: the default layout shows its first lines only.
    if (options.fit_text_columns && sheet.columns[c].call_stack) cell_lines = std::min(cell_lines, kCallStackRowLines);
    lines = std::max(lines, cell_lines);
  }
  return lines;
}

std::vector<CellStyle> StylesInOrderOfUse(const SheetSpec& sheet, size_t first, size_t last,
                                          const WorkbookOptions& options) {
  std::vector<CellStyle> styles;
  std::vector<uint64_t> seen;
  for (size_t r = first; r < last; ++r) {
    for (size_t c = 0; c < sheet.columns.size(); ++c) {
      const CellStyle style = PlanCell(sheet, r, c, options).style;
      const uint64_t key = style.Key();
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(key);
      styles.push_back(style);
    }
  }
  return styles;
}

void XfIndices::Add(const CellStyle& style, int32_t xf_index) {
  const uint64_t key = style.Key();
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<uint64_t, int32_t>{key, INT32_MIN});
  if (it != sorted_.end() && it->first == key) return;
  sorted_.insert(it, {key, xf_index});
}

int32_t XfIndices::Of(const CellStyle& style) const {
  const uint64_t key = style.Key();
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<uint64_t, int32_t>{key, INT32_MIN});
  return it != sorted_.end() && it->first == key ? it->second : -1;
}

std::string ColumnName(size_t col) {
  std::string name;
  for (size_t n = col + 1; n > 0; n = (n - 1) / 26) name.insert(name.begin(), static_cast<char>('A' + (n - 1) % 26));
  return name;
}

void AppendNumber(std::string& out, double v) {
  // An integer below 10^15 (counts, most times) prints as its digits, as %.16G does; -0 keeps its sign.
  if (v > -1e15 && v < 1e15 && !(v == 0 && std::signbit(v))) {
    if (const auto i = static_cast<int64_t>(v); static_cast<double>(i) == v) {
      char buf[24];
      out.append(buf, std::to_chars(buf, buf + sizeof buf, i).ptr);
      return;
    }
  }
  char buf[40];
  const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 16).ptr;
  for (char* p = buf; p != end; ++p)
    if (*p == 'e') *p = 'E';  // printf's %G
  out.append(buf, end);
}

Status RenderRows(const SheetSpec& sheet, size_t first, size_t last, const std::vector<double>& widths,
                  const WorkbookOptions& options, const XfIndices& xf, const std::vector<std::string>& column_names,
                  const std::string& where, std::string& out) {
  RowWriter w{out, column_names, {}};
  for (size_t r = first; r < last; ++r) {
    if (sheet.columns.empty()) continue;  // a row without cells is not written
    w.row_number.clear();
    AppendUnsigned(w.row_number, kFirstDataRow + r + 1);
    out += "<row r=\"";
    out += w.row_number;
    const size_t lines = RowLines(sheet, r, widths, options);
    if (lines > 1) {
      out += "\" ht=\"";
      AppendNumber(out, RowHeightPoints(lines));
      out += "\" customHeight=\"1";
    }
    out += "\">";
    for (size_t c = 0; c < sheet.columns.size(); ++c) {
      const PlannedCell p = PlanCell(sheet, r, c, options);
      const int32_t index = xf.Of(p.style);
      switch (p.kind) {
        case PlannedCell::Kind::kBlank: w.Blank(c, index); break;
        case PlannedCell::Kind::kNumber: w.Number(c, index, p.number); break;
        case PlannedCell::Kind::kString:
          if (!w.String(c, index, p.text))
            return IoError(where + " row " + std::to_string(kFirstDataRow + r + 1) + ": " +
                           lxw_strerror(LXW_ERROR_MAX_STRING_LENGTH_EXCEEDED));
          break;
      }
    }
    out += "</row>";
  }
  return Status::Ok();
}

}  // namespace profdiff::report::xlsx_rows
