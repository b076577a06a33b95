// The workbook's data rows rendered in parallel (xlsx_rows.h) against libxlsxwriter writing the same
// cells one by one (WorkbookOptions::rows_in_library): every part of the package, read back with
// zlib (its CRC-32 checked), must be the same bytes. Also the number text against printf's %.16G and
// the parts deflated in chunks on several threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>

#include "profdiff/report/sheet.h"
#include "profdiff/report/xlsx_deflate.h"
#include "profdiff/report/xlsx_rows.h"
#include "profdiff/report/xlsx_writer.h"
#include "report_test_util.h"
#include "zip_parts.h"

namespace profdiff::report {
namespace {

using testing::ReadFile;
using testing::ReadParts;
using testing::TempDir;

// A text of a few hundred bytes with bytes to escape on and around 64-byte boundaries.
std::string LongMixed() {
  std::string t(300, 'k');
  for (size_t at : {0, 62, 63, 64, 65, 127, 128, 200, 255, 256, 299}) t[at] = "&<>\x02\x1f"[at % 5];
  t[100] = '\n';
  t[150] = '\t';
  return t;
}

// Every kind of cell the layout has, over enough rows for several chunks.
SheetSpec EveryKindOfCell(const std::string& name, size_t rows) {
  SheetSpec s;
  s.name = name;
  s.base_banner = {0, 2, "Base Profiling: /a & <b>.json"};
  s.comparison_banner = {3, 5, "Comparison Profiling: a path long enough to wrap in its merged columns, surely"};
  s.columns = {{"Name", 20, CellFormat::kBoldStr, false},
               {"Count", 10, CellFormat::kDefault, false},
               {"Time", 10, CellFormat::kDefaultFloat, false},
               {"Diff Ratio", 10, CellFormat::kDefaultRatio, true},
               {"Stack", 30, CellFormat::kDefault, false, false, true},
               {"Wrapped", 12, CellFormat::kDefault, false, true}};
  const std::string texts[] = {"aten::add", " lead", "trail ", "\ttab", "new\nline", "a & b < c > d", "_x0041_op",
                               std::string("nul\0cut", 7), "", "ctl\x01\x1b\x7f", "x\r\ny", "héllo wörld ✓",
                               "=1+2", "INF", LongMixed()};
  const double numbers[] = {0, -0.0, 1, -1, 1234567, 0.1, 1.0 / 3, 2.5e-7, 1e16, 1e20, -3.75e300,
                            std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(), 1.5, 0.9999999999999999, 123456789012345.6};
  for (size_t r = 0; r < rows; ++r) {
    RowSpec row;
    row.fill = r % 7 == 0 ? kFillBlue : (r % 11 == 0 ? kFillLightBlue : kNoFill);
    row.indent = static_cast<int>(r % 4);
    const std::string& t = texts[r % std::size(texts)];
    row.cells.push_back(Cell::String(t));
    row.cells.push_back(Cell::Number(static_cast<double>(r)));
    row.cells.push_back(Cell::Number(numbers[r % std::size(numbers)]));
    if (r % 5 == 0) row.cells.push_back(Cell::String("INF"));
    else row.cells.push_back(Cell::Number(numbers[(r * 3) % std::size(numbers)]));
    if (r % 3 == 0) row.cells.push_back(Cell::String("frame 1\nframe 2\nframe 3\nframe 4\nframe 5"));
    else if (r % 3 == 1) row.cells.push_back(Cell::Blank());
    if (r % 13 != 0) row.cells.push_back(Cell::String(texts[(r + 3) % std::size(texts)]));
    s.rows.push_back(std::move(row));
  }
  if (rows > 1) s.rows[1].cells[5] = Cell::String(std::string(40000, 'w') + "\nlast line");  // cut at Excel's limit
  return s;
}

void ExpectSameParts(const std::map<std::string, std::string>& want, const std::map<std::string, std::string>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (const auto& [name, bytes] : want) {
    if (name == "docProps/core.xml") continue;  // its creation time
    auto it = got.find(name);
    ASSERT_NE(it, got.end()) << name;
    if (it->second == bytes) continue;
    size_t i = 0;
    while (i < bytes.size() && i < it->second.size() && bytes[i] == it->second[i]) ++i;
    ADD_FAILURE() << name << " differs at byte " << i << ":\n library: " << bytes.substr(i > 80 ? i - 80 : 0, 200)
                  << "\nrendered: " << it->second.substr(i > 80 ? i - 80 : 0, 200);
  }
}

TEST(XlsxRows, RenderedRowsAreTheLibrarysBytes) {
  const std::vector<SheetSpec> sheets = {EveryKindOfCell("First", 5000), EveryKindOfCell("Second", 3),
                                         EveryKindOfCell("Third", 2049)};
  for (int mode = 0; mode < 8; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    WorkbookOptions o;
    o.fit_text_columns = (mode & 1) != 0;
    o.infinite_ratio_as_number = (mode & 2) != 0;
    o.wrap_banners = (mode & 4) != 0;
    TempDir d;
    o.rows_in_library = true;
    ASSERT_TRUE(WriteWorkbook(sheets, d / "library.xlsx", o).ok());
    o.rows_in_library = false;
    o.threads = mode % 2 == 0 ? 2 : 1;
    ASSERT_TRUE(WriteWorkbook(sheets, d / "rendered.xlsx", o).ok());
    ExpectSameParts(ReadParts(d / "library.xlsx"), ReadParts(d / "rendered.xlsx"));
  }
}

TEST(XlsxRows, TooLongOnceEscapedFailsAsTheLibraryDoes) {
  SheetSpec s = EveryKindOfCell("Long", 1);
  std::string text;
  while (text.size() + 7 <= kMaxCellChars) text += "_x0041_";  // each grows by 6 once escaped
  s.rows[0].cells[0] = Cell::String(text);
  TempDir d, e;
  WorkbookOptions o;
  o.rows_in_library = true;
  const Status library = WriteWorkbook({s}, d / "t.xlsx", o);
  o.rows_in_library = false;
  const Status rendered = WriteWorkbook({s}, e / "t.xlsx", o);
  ASSERT_FALSE(library.ok());
  EXPECT_EQ(library.ToString().substr(library.ToString().find("t.xlsx")),
            rendered.ToString().substr(rendered.ToString().find("t.xlsx")));
  EXPECT_TRUE(d.List().empty());
  EXPECT_TRUE(e.List().empty());
}

TEST(XlsxRows, NumbersArePrintfsG16) {
  std::mt19937_64 rng(7);
  std::vector<double> values = {0.0, -0.0, 1e15, 1e16, 9.999999999999999e15, 1e-4, 9.9999e-5, 1e-5, 5e-324,
                                std::numeric_limits<double>::max(), std::numeric_limits<double>::min(), 0.5,
                                123456.75, 1.0 / 3, 2.0 / 3, 100, 1e21, 4503599627370497.0};
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v)) values.push_back(v);
    values.push_back(static_cast<double>(static_cast<int64_t>(rng() % 2000000000000) - 1000000000000) / 1000);
  }
  for (double v : values) {
    char want[64];
    std::snprintf(want, sizeof want, "%.16G", v);
    std::string got;
    xlsx_rows::AppendNumber(got, v);
    ASSERT_EQ(got, want) << v;
  }
}

TEST(XlsxRows, ColumnNames) {
  EXPECT_EQ(xlsx_rows::ColumnName(0), "A");
  EXPECT_EQ(xlsx_rows::ColumnName(25), "Z");
  EXPECT_EQ(xlsx_rows::ColumnName(26), "AA");
  EXPECT_EQ(xlsx_rows::ColumnName(701), "ZZ");
  EXPECT_EQ(xlsx_rows::ColumnName(702), "AAA");
  EXPECT_EQ(xlsx_rows::ColumnName(16383), "XFD");
}

// A part of several MiB deflates in chunks on worker threads; one thread and two give the same parts,
// each read back whole with its CRC-32.
TEST(XlsxDeflate, BigPartsDeflateInChunksOnEveryThreadCount) {
  if (!XlsxFastDeflateBuilt()) GTEST_SKIP() << "built without PROFDIFF_XLSX_FAST_DEFLATE";
  const std::vector<SheetSpec> sheets = {EveryKindOfCell("Big", 40000)};
  TempDir d;
  std::map<std::string, std::string> first;
  for (size_t threads : {1, 2, 3}) {
    WorkbookOptions o;
    o.threads = threads;
    const std::string path = d / ("t" + std::to_string(threads) + ".xlsx");
    ASSERT_TRUE(WriteWorkbook(sheets, path, o).ok());
    std::map<std::string, std::string> parts = ReadParts(path);
    ASSERT_GT(parts["xl/worksheets/sheet1.xml"].size(), 4 * kXlsxDeflateChunk);
    if (first.empty()) first = parts;
    else ExpectSameParts(first, parts);
  }
}

}  // namespace
}  // namespace profdiff::report
