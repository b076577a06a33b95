// The xlsx writer's safety rules (docs/deviations.md): text is never written as a formula, an
// existing file is never replaced without `force`, and a failed write leaves nothing behind. The
// workbook is inspected with `unzip` (skipped when it is not installed); styles are checked with
// openpyxl by tests/oracle/test_overall_workbook.py.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <random>
#include <string>

#include "profdiff/report/sheet.h"
#include "profdiff/report/xlsx_deflate.h"
#include "profdiff/report/xlsx_writer.h"
#include "profdiff/report/xlsx_rows.h"
#include "report_test_util.h"
#include "zip_parts.h"

namespace profdiff::report {
namespace {

using testing::RunCommand;
using testing::TempDir;

SheetSpec FormulaLikeSheet() {
  SheetSpec s;
  s.name = "Texts";
  s.base_banner = {1, 1, "Base Profiling: =base"};
  s.comparison_banner = {2, 2, "Comparison Profiling: cmp"};
  s.columns = {{"Name", 30, CellFormat::kBoldStr, false},
               {"Value", 10, CellFormat::kDefaultFloat, false},
               {"Diff Ratio", 10, CellFormat::kDefaultRatio, true}};
  for (const char* text : {"=1+2", "=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)", "+cmd", "-2+3"}) {
    s.rows.push_back({{Cell::String(text), Cell::Number(1), Cell::String("INF")}, kNoFill, 0});
  }
  return s;
}

bool HaveUnzip() {
  std::string out;
  return RunCommand("unzip -v >/dev/null 2>&1 && echo yes", &out) == 0 && out.find("yes") != std::string::npos;
}

// The widths the writer fits in one pass over the rows, on any number of workers, are each column's
// FittedColumnWidth: ragged rows, number cells, several lines, UTF-8, columns that reach the cap
// early or late, and more rows than a worker's chunk.
TEST(XlsxWriter, FittedWidthsInOnePassEqualEachColumnsWidth) {
  std::mt19937_64 rng(35);
  for (size_t rows : {0, 1, 7, 9000, 20000}) {
    SheetSpec s;
    s.name = "Widths";
    for (int c = 0; c < 6; ++c) s.columns.push_back({"col" + std::string(static_cast<size_t>(c) * 3, 'h'), 8.0 + c, CellFormat::kDefault, false});
    for (size_t r = 0; r < rows; ++r) {
      RowSpec row;
      const size_t cells = rng() % 7;
      for (size_t c = 0; c < cells; ++c) {
        if (rng() % 4 == 0) {
          row.cells.push_back(Cell::Number(static_cast<double>(rng() % 100000)));
          continue;
        }
        // Column c's texts grow rarely past the cap: late in the sheet for some columns.
        size_t len = rng() % (10 + c * 5);
        if (rng() % (rows / 2 + 2) == 0) len += c * 20;
        std::string text;
        for (size_t k = 0; k < len; ++k) text += rng() % 9 == 0 ? "\n" : rng() % 7 == 0 ? "\xc3\xa9" : "x";
        row.cells.push_back(Cell::String(text));
      }
      s.rows.push_back(std::move(row));
    }
    for (size_t threads : {1, 2, 5}) {
      const std::vector<double> widths = FittedColumnWidths(s, threads);
      ASSERT_EQ(widths.size(), s.columns.size());
      for (size_t c = 0; c < s.columns.size(); ++c)
        EXPECT_EQ(widths[c], FittedColumnWidth(s, c)) << rows << " rows, column " << c << ", " << threads << " threads";
    }
  }
}

TEST(XlsxWriter, TextCellsAreNeverFormulas) {
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  TempDir d;
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, d / "t.xlsx", false).ok());
  std::string sheet, strings;
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "t.xlsx") + "' xl/worksheets/sheet1.xml", &sheet), 0);
  // Constant-memory workbooks store strings inline, in the sheet itself.
  strings = sheet;
  EXPECT_EQ(sheet.find("<f>"), std::string::npos) << sheet;  // no formula element anywhere
  EXPECT_EQ(sheet.find("<f "), std::string::npos) << sheet;
  for (const char* text : {"=1+2", "@SUM(A1)", "+cmd", "-2+3", "=HYPERLINK(\"http://x\",\"y\")"}) {
    EXPECT_NE(strings.find(std::string("<t>") + text + "</t>"), std::string::npos) << text << "\n" << strings;
  }
}

// Every part of the workbook goes through the forwarder (xlsx_deflate.h) and is deflated at the fast
// level; the workbook stays a valid zip whose sheet reads back.
TEST(XlsxWriter, PartsAreDeflatedAtTheFastLevel) {
  if (!XlsxFastDeflateBuilt()) GTEST_SKIP() << "built without PROFDIFF_XLSX_FAST_DEFLATE";
  TempDir d;
  const uint64_t before = XlsxPartsDeflatedFast();
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, d / "t.xlsx", false).ok());
  const uint64_t parts = XlsxPartsDeflatedFast() - before;
  EXPECT_GE(parts, 9u);  // [Content_Types].xml, two .rels, docProps x2, workbook, styles, theme, sheet1
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot read the workbook back";
  std::string listing, sheet;
  ASSERT_EQ(RunCommand("unzip -tqq '" + (d / "t.xlsx") + "' && unzip -Z1 '" + (d / "t.xlsx") + "'", &listing), 0)
      << listing;
  size_t entries = 0;
  for (char ch : listing) entries += ch == '\n';
  EXPECT_EQ(entries, parts) << listing;
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "t.xlsx") + "' xl/worksheets/sheet1.xml", &sheet), 0);
  EXPECT_NE(sheet.find("<t>+cmd</t>"), std::string::npos) << sheet;
}

TEST(XlsxWriter, NeverReplacesWithoutForceAndLeavesNoTemporaryFiles) {
  TempDir d;
  const std::string path = d / "t.xlsx";
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, path, false).ok());
  struct stat before {};
  ASSERT_EQ(stat(path.c_str(), &before), 0);
  Status s = WriteWorkbook({FormulaLikeSheet()}, path, false);
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists) << s.ToString();
  EXPECT_NE(s.message().find("--force"), std::string::npos);
  struct stat after {};
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_mtime, before.st_mtime);
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, path, true).ok());
  ASSERT_EQ(stat(path.c_str(), &after), 0);
  EXPECT_NE(after.st_ino, before.st_ino);  // a new file renamed into place, not rewritten in place
  EXPECT_EQ(d.List(), std::vector<std::string>{"t.xlsx"});
  // A sheet that cannot be written (invalid name) fails and leaves nothing behind.
  SheetSpec bad = FormulaLikeSheet();
  bad.name = "bad[name]";
  EXPECT_FALSE(WriteWorkbook({bad}, d / "bad.xlsx", false).ok());
  EXPECT_EQ(d.List(), std::vector<std::string>{"t.xlsx"});
}

TEST(XlsxWriter, NoRowsGivesTheExplanatorySheet) {
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  TempDir d;
  SheetSpec empty = FormulaLikeSheet();
  empty.rows.clear();
  WorkbookOptions o;
  o.empty_reason = "nothing to compare here";
  ASSERT_TRUE(WriteWorkbook({empty}, d / "e.xlsx", o).ok());
  std::string wb, strings;
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "e.xlsx") + "' xl/workbook.xml", &wb), 0);
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "e.xlsx") + "' xl/worksheets/sheet1.xml", &strings), 0);
  EXPECT_NE(wb.find("name=\"NoComparisonData\""), std::string::npos) << wb;
  EXPECT_EQ(wb.find("Sheet1"), std::string::npos);
  EXPECT_NE(strings.find("nothing to compare here"), std::string::npos) << strings;
}

}  // namespace
}  // namespace profdiff::report

namespace profdiff::report {
namespace {

// Row `r` (1-based) of the sheet XML: its <row ...> start tag.
std::string RowTag(const std::string& sheet, int r) {
  const std::string open = "<row r=\"" + std::to_string(r) + "\"";
  const size_t a = sheet.find(open);
  if (a == std::string::npos) return "";
  return sheet.substr(a, sheet.find('>', a) - a + 1);
}

SheetSpec MultiLineSheet(std::string banner) {
  SheetSpec s;
  s.name = "Lines";
  s.base_banner = {0, 1, std::move(banner)};
  s.columns = {{"Name", 10, CellFormat::kBoldStr, false}, {"Kernels", 10, CellFormat::kDefault, false}};
  s.rows.push_back({{Cell::String("one line"), Cell::Number(1)}, kNoFill, 0});
  s.rows.push_back({{Cell::String("op"), Cell::String("k1\nk2\nk3")}, kNoFill, 0});
  std::string many;
  for (int i = 0; i < 40; ++i) many += "kernel\n";
  s.rows.push_back({{Cell::String(many), Cell::Number(2)}, kNoFill, 0});
  // Two lines, the second 25 characters in a 10-character column: it wraps into 3, 4 lines in all.
  s.rows.push_back({{Cell::String("a"), Cell::String("k1\n" + std::string(25, 'x'))}, kNoFill, 0});
  return s;
}

// A sheet with more rows than a sheet holds: its first rows up to Excel's last row, the last of
// them saying how many are left out and where they are, and a line on the caller's list; the
// workbook is written (not an error after the whole comparison ran).
TEST(XlsxWriter, RowsPastExcelsLastRowAreLeftOutAndSaidSo) {
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  TempDir d;
  SheetSpec s;
  s.name = "Many";
  s.columns = {{"Value", 10, CellFormat::kDefault, false}};
  s.rows.assign(kMaxSheetDataRows + 2, RowSpec{{Cell::Number(7)}, kNoFill, 0});
  std::vector<std::string> cut;
  WorkbookOptions options;
  options.cut_sheets = &cut;
  const Status written = WriteWorkbook({s}, d / "many.xlsx", options);
  ASSERT_TRUE(written.ok()) << written.ToString();
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_NE(cut[0].find("sheet 'Many': 1048572 of its 1048575 rows written; 3 more rows not shown"),
            std::string::npos) << cut[0];
  std::string tail;
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "many.xlsx") + "' xl/worksheets/sheet1.xml | tail -c 1500", &tail), 0);
  EXPECT_NE(tail.find("<row r=\"1048576\""), std::string::npos) << tail;  // Excel's last row
  EXPECT_EQ(tail.find("<row r=\"1048577\""), std::string::npos) << tail;
  EXPECT_NE(tail.find("3 more rows not shown: a sheet holds 1048576 rows"), std::string::npos) << tail;
  // One row fewer fits whole.
  s.rows.resize(kMaxSheetDataRows);
  cut.clear();
  options.force = true;
  ASSERT_TRUE(WriteWorkbook({s}, d / "many.xlsx", options).ok());
  EXPECT_TRUE(cut.empty());
}

TEST(XlsxWriter, MultiLineCellsWrapInRowsTallEnough) {
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  TempDir d;
  ASSERT_TRUE(WriteWorkbook({MultiLineSheet("Base Profiling: x")}, d / "m.xlsx", false).ok());
  std::string sheet, styles;
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "m.xlsx") + "' xl/worksheets/sheet1.xml", &sheet), 0);
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "m.xlsx") + "' xl/styles.xml", &styles), 0);
  EXPECT_EQ(RowTag(sheet, 4).find("ht="), std::string::npos) << RowTag(sheet, 4);  // one line: default
  EXPECT_NE(RowTag(sheet, 5).find("ht=\"45\""), std::string::npos) << RowTag(sheet, 5);  // 3 lines
  EXPECT_NE(RowTag(sheet, 6).find("ht=\"409\""), std::string::npos) << RowTag(sheet, 6);  // Excel's tallest
  EXPECT_NE(RowTag(sheet, 7).find("ht=\"60\""), std::string::npos) << RowTag(sheet, 7);  // a long line wraps
  EXPECT_NE(styles.find("wrapText=\"1\""), std::string::npos) << styles;
  EXPECT_EQ(RowTag(sheet, 1).find("ht="), std::string::npos) << RowTag(sheet, 1);  // short banner
}

// A wrapping column (ColumnSpec::wrap) wraps a long single-line text at its width, row made tall
// enough; the same text in a plain column stays on one line.
TEST(XlsxWriter, WrappingColumnWrapsLongText) {
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  SheetSpec s;
  s.name = "Wrap";
  s.columns = {{"Plain", 10, CellFormat::kDefault, false}, {"Why", 10, CellFormat::kDefault, false, true}};
  const std::string long_text(25, 'x');  // 3 lines of a 10-character column
  s.rows.push_back({{Cell::String("short"), Cell::String("short")}, kNoFill, 0});
  s.rows.push_back({{Cell::String("short"), Cell::String(long_text)}, kNoFill, 0});
  s.rows.push_back({{Cell::String(long_text), Cell::String("short")}, kNoFill, 0});
  TempDir d;
  ASSERT_TRUE(WriteWorkbook({s}, d / "w.xlsx", false).ok());
  std::string sheet;
  ASSERT_EQ(RunCommand("unzip -p '" + (d / "w.xlsx") + "' xl/worksheets/sheet1.xml", &sheet), 0);
  EXPECT_EQ(RowTag(sheet, 4).find("ht="), std::string::npos) << RowTag(sheet, 4);
  EXPECT_NE(RowTag(sheet, 5).find("ht=\"45\""), std::string::npos) << RowTag(sheet, 5);
  EXPECT_EQ(RowTag(sheet, 6).find("ht="), std::string::npos) << RowTag(sheet, 6);
}

TEST(XlsxWriter, LongBannersWrapInTheDefaultMode) {
  if (!HaveUnzip()) GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  const std::string banner = "Base Profiling: /data/profiles/job_20261124/node3/rank0_ascend_pt";  // 66 chars
  for (const bool wrap : {false, true}) {
    TempDir d;
    WorkbookOptions o;
    o.wrap_banners = wrap;
    ASSERT_TRUE(WriteWorkbook({MultiLineSheet(banner)}, d / "b.xlsx", o).ok());
    std::string sheet;
    ASSERT_EQ(RunCommand("unzip -p '" + (d / "b.xlsx") + "' xl/worksheets/sheet1.xml", &sheet), 0);
    // 66 characters in 20 columns' width at 1.1 per character: 4 lines.
    if (wrap) {
      EXPECT_NE(RowTag(sheet, 1).find("ht=\"60\""), std::string::npos) << RowTag(sheet, 1);
    } else {
      EXPECT_EQ(RowTag(sheet, 1).find("ht="), std::string::npos) << RowTag(sheet, 1);
    }
    EXPECT_NE(sheet.find(banner), std::string::npos);  // the same text either way
  }
}

// A red_above_zero column (a DIFF: more time is worse) fills its numbers above 0 red in its own number
// format; 0 and below keep the row's fill; a ratio column's rule is unchanged.
TEST(XlsxWriter, RedAboveZeroColumnsFillDegradationsRed) {
  SheetSpec s;
  s.name = "Diff";
  s.columns = {{"Diff(us)", 10, CellFormat::kDefaultFloat, false}, {"Diff Ratio", 10, CellFormat::kDefaultRatio, true}};
  s.columns[0].red_above_zero = true;
  s.rows.push_back({{Cell::Number(2.5), Cell::Number(1.5)}, kNoFill, 0});
  s.rows.push_back({{Cell::Number(0), Cell::Number(0.5)}, kNoFill, 0});
  s.rows.push_back({{Cell::Number(-3), Cell::Number(1)}, kFillBlue, 0});
  const WorkbookOptions o;
  const auto up = xlsx_rows::PlanCell(s, 0, 0, o);
  EXPECT_EQ(up.style.fill, kFillRed);
  EXPECT_FALSE(up.style.red);  // not turned into a percentage
  EXPECT_EQ(up.style.type, CellFormat::kDefaultFloat);
  EXPECT_EQ(xlsx_rows::PlanCell(s, 1, 0, o).style.fill, kNoFill);
  EXPECT_EQ(xlsx_rows::PlanCell(s, 2, 0, o).style.fill, kFillBlue);
  EXPECT_TRUE(xlsx_rows::PlanCell(s, 0, 1, o).style.red);  // ratio > 1
  EXPECT_FALSE(xlsx_rows::PlanCell(s, 1, 1, o).style.red);
  TempDir d;
  ASSERT_TRUE(WriteWorkbook({s}, d / "d.xlsx", false).ok());
  const auto parts = testing::ReadParts(d / "d.xlsx");
  EXPECT_NE(parts.at("xl/styles.xml").find("FFFF0000"), std::string::npos);
}

// WorkbookOptions::created: the properties record that time instead of now, so the same sheets are
// the same bytes (the cluster workbook's golden checks).
TEST(XlsxWriter, FixedCreationTimeGivesTheSameBytes) {
  TempDir d;
  WorkbookOptions o;
  o.created = kFixedWorkbookCreated;
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, d / "a.xlsx", o).ok());
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, d / "b.xlsx", o).ok());
  std::string a, b;
  ASSERT_TRUE(testing::ReadFile(d / "a.xlsx", &a));
  ASSERT_TRUE(testing::ReadFile(d / "b.xlsx", &b));
  EXPECT_EQ(a, b);
  const auto parts = testing::ReadParts(d / "a.xlsx");
  EXPECT_NE(parts.at("docProps/core.xml").find("1980-01-01T00:00:00Z"), std::string::npos)
      << parts.at("docProps/core.xml");
  ASSERT_TRUE(WriteWorkbook({FormulaLikeSheet()}, d / "now.xlsx", false).ok());  // the default: now
  EXPECT_EQ(testing::ReadParts(d / "now.xlsx").at("docProps/core.xml").find("1980-01-01"), std::string::npos);
}

}  // namespace
}  // namespace profdiff::report
