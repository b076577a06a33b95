#include "profdiff/report/csv_writer.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/report/output_file.h"
#include "profdiff/report/python_float.h"

namespace profdiff::report {
std::string FormatCsvNumber(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.16G", v);
  std::string s(buf);
  if (s.find_first_of(".E") == std::string::npos) {
    // An integer as openpyxl reads it back: "-0" becomes 0.
    if (s == "-0") return "0";
    return s;
  }
  return PyFloatRepr(std::strtod(buf, nullptr));
}

std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

namespace {

// Appends one CSV record of `fields` to `out` (`eol` ends it).
void EmitRecord(std::string& out, const std::vector<std::string>& fields, std::string_view eol) {
  // Python's csv writer quotes a row made of one empty field so that it is not an empty line.
  if (fields.size() == 1 && fields[0].empty()) {
    out += "\"\"";
    out += eol;
    return;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += CsvField(fields[i]);
  }
  out += eol;
}

// A text a spreadsheet could take for a formula, with a leading single quote (RenderSheetCsv): one
// that begins with =, +, -, @, a tab or a carriage return (OWASP's list: spreadsheets skip the last
// two before a formula). The tidy table's own labels carry no tab (their depth is a column).
void NeutraliseFormula(std::string& text) {
  if (!text.empty() && std::string_view("=+-@\t\r").find(text[0]) != std::string_view::npos)
    text.insert(text.begin(), '\'');
}

// Fills `fields` with row's cells; `number` formats a number cell, `cut` says whether text is cut at
// Excel's cell limit, `neutralise` whether a formula-like text gets a leading quote, `untab_label`
// whether the first cell loses the label's tab indentation first (the tidy table's indent column).
template <typename FormatNumber>
void RowFields(const RowSpec& row, FormatNumber number, bool cut, bool neutralise, bool untab_label,
               std::vector<std::string>& fields) {
  for (size_t c = 0; c < fields.size(); ++c) {
    if (c >= row.cells.size()) {
      fields[c].clear();
      continue;
    }
    const Cell& cell = row.cells[c];
    switch (cell.kind) {
      case Cell::Kind::kBlank: fields[c].clear(); break;
      case Cell::Kind::kNumber: fields[c] = number(cell.number); break;
      case Cell::Kind::kString:
        fields[c] = cell.text;
        if (cut) TruncateCellText(fields[c]);
        // The workbook's "/" (not applicable, OverallMetrics' Number column) is an empty cell in a
        // table, so that the column stays numeric.
        if (!cut && fields[c] == "/") fields[c].clear();
        if (untab_label && c == 0) fields[c].erase(0, fields[c].find_first_not_of('\t'));
        if (neutralise) NeutraliseFormula(fields[c]);
        break;
    }
  }
}

// The exact double in shortest round-trip form ("0.1", "1234.5678", "100000", "1e-07"); "inf"/"-inf" as the
// workbook's "INF"/"-INF"; NaN empty; never "-0".
std::string TidyNumber(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  if (v == 0) return "0";
  char buf[400];
  // Fixed notation across the range timings live in (a shortest "1e+05" reads badly in a table),
  // the shortest form outside it.
  const double mag = std::fabs(v);
  const auto format = mag >= 1e-6 && mag < 1e16 ? std::chars_format::fixed : std::chars_format::general;
  auto res = std::to_chars(buf, buf + sizeof buf, v, format);
  return std::string(buf, res.ptr);
}

// "Device Duration(us)" -> "device_duration_us"; "Diff Ratio" -> "diff_ratio"; "(%)" -> "pct".
std::string SnakeCase(std::string_view header) {
  std::string out;
  bool gap = false;
  for (size_t i = 0; i < header.size(); ++i) {
    const auto ch = static_cast<unsigned char>(header[i]);
    if (ch == '%') {
      if (!out.empty()) out += '_';
      out += "pct";
      gap = false;
    } else if (std::isalnum(ch) != 0 || ch >= 0x80) {
      if (gap && !out.empty()) out += '_';
      out += static_cast<char>(std::tolower(ch));
      gap = false;
    } else {
      gap = true;
    }
  }
  return out;
}

bool InBanner(const Banner& b, size_t col) {
  return !b.text.empty() && static_cast<int64_t>(col) >= b.first_col && static_cast<int64_t>(col) <= b.last_col;
}

std::string RenderWorkbookGrid(const SheetSpec& sheet, bool neutralise) {
  const size_t ncols = sheet.columns.size();
  std::string out;
  std::vector<std::string> fields(ncols);
  for (const Banner* b : {&sheet.base_banner, &sheet.comparison_banner}) {
    if (!b->text.empty() && b->first_col >= 0 && static_cast<size_t>(b->first_col) < ncols) {
      std::string t = b->text;
      TruncateCellText(t);
      fields[static_cast<size_t>(b->first_col)] = std::move(t);
    }
  }
  EmitRecord(out, fields, "\r\n");
  EmitRecord(out, std::vector<std::string>(ncols), "\r\n");
  for (size_t c = 0; c < ncols; ++c) fields[c] = sheet.columns[c].header;
  EmitRecord(out, fields, "\r\n");
  for (const RowSpec& row : sheet.rows) {
    RowFields(row, FormatCsvNumber, /*cut=*/true, neutralise, /*untab_label=*/false, fields);
    EmitRecord(out, fields, "\r\n");
  }
  return out;
}

std::string RenderTidy(const SheetSpec& sheet, bool neutralise) {
  std::string out;
  std::vector<std::string> names = TidyColumnNames(sheet);
  const bool indent = sheet.tidy_indent_column && !names.empty();
  if (indent) names.insert(names.begin() + 1, "indent");
  EmitRecord(out, names, "\n");
  std::vector<std::string> fields(sheet.columns.size());
  for (const RowSpec& row : sheet.rows) {
    RowFields(row, TidyNumber, /*cut=*/false, neutralise, /*untab_label=*/indent, fields);
    if (indent) {
      std::vector<std::string> with = fields;
      with.insert(with.begin() + 1, std::to_string(row.indent));
      EmitRecord(out, with, "\n");
      continue;
    }
    EmitRecord(out, fields, "\n");
  }
  return out;
}

}  // namespace

std::vector<std::string> TidyColumnNames(const SheetSpec& sheet) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (size_t c = 0; c < sheet.columns.size(); ++c) {
    std::string name = SnakeCase(sheet.columns[c].header);
    if (name.empty()) name = "column_" + std::to_string(c + 1);
    // A header that already names its side ("Base Allocated Memory(MB)") keeps its one prefix.
    const char* side = InBanner(sheet.base_banner, c)         ? "base_"
                       : InBanner(sheet.comparison_banner, c) ? "comparison_"
                                                              : nullptr;
    if (side != nullptr && !name.starts_with(side)) name = side + name;
    std::string unique = name;
    for (int n = 2; taken.count(unique) != 0; ++n) unique = name + "_" + std::to_string(n);
    taken.insert(unique);
    names.push_back(std::move(unique));
  }
  return names;
}

std::string RenderSheetCsv(const SheetSpec& sheet, CsvLayout layout, bool neutralise_formulas) {
  return layout == CsvLayout::kTidy ? RenderTidy(sheet, neutralise_formulas)
                                    : RenderWorkbookGrid(sheet, neutralise_formulas);
}

StatusOr<std::vector<std::string>> WriteCsvDir(const std::vector<SheetSpec>& sheets,
                                               const std::string& dir, bool force, CsvLayout layout,
                                               bool neutralise_formulas) {
  if (dir.empty()) return InvalidArgument("--csv: empty directory");
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) {
    if (mkdir(dir.c_str(), 0755) != 0) {
      return IoError("--csv " + dir + ": cannot create the directory: " + std::strerror(errno));
    }
  } else if (!S_ISDIR(st.st_mode)) {
    return InvalidArgument("--csv " + dir + ": is not a directory");
  }
  std::string prefix = dir.back() == '/' ? dir : dir + "/";
  // Check every target first so that a refusal leaves no half-written set.
  std::vector<std::string> paths;
  for (const SheetSpec& s : sheets) {
    if (s.rows.empty()) continue;
    if (s.name.empty() || s.name.find('/') != std::string::npos || s.name == "." || s.name == "..") {
      return InvalidArgument("--csv: sheet name '" + s.name + "' cannot be a file name");
    }
    paths.push_back(prefix + s.name + ".csv");
    PD_RETURN_IF_ERROR(CheckOutputPath(paths.back(), force));
  }
  size_t i = 0;
  for (const SheetSpec& s : sheets) {
    if (s.rows.empty()) continue;
    PD_RETURN_IF_ERROR(WriteFileAtomically(paths[i++], RenderSheetCsv(s, layout, neutralise_formulas), force));
  }
  return paths;
}

}  // namespace profdiff::report
