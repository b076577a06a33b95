#include "profdiff/report/csv_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "profdiff/base/diagnostics.h"
#include "profdiff/io/csv_reader.h"
#include "profdiff/report/output_file.h"
#include "profdiff/report/overall/overall_sheet.h"
#include "profdiff/report/sheet.h"
#include "report_test_util.h"

namespace profdiff::report {
namespace {

using testing::ReadFile;
using testing::SharedDir;
using testing::TempDir;

TEST(CsvNumber, PrintsLikeTheOracle) {
  EXPECT_EQ(FormatCsvNumber(185), "185");
  EXPECT_EQ(FormatCsvNumber(1.0), "1");
  EXPECT_EQ(FormatCsvNumber(0.0), "0");
  EXPECT_EQ(FormatCsvNumber(-0.0), "0");
  EXPECT_EQ(FormatCsvNumber(-5.6), "-5.6");
  EXPECT_EQ(FormatCsvNumber(1.0005), "1.0005");
  EXPECT_EQ(FormatCsvNumber(0.06497064317338586), "0.06497064317338586");
  EXPECT_EQ(FormatCsvNumber(8.873756000000002), "8.873756000000002");
  EXPECT_EQ(FormatCsvNumber(4.055468648648219e-05), "4.055468648648219e-05");
  EXPECT_EQ(FormatCsvNumber(2e-05), "2e-05");
  EXPECT_EQ(FormatCsvNumber(1e16), "1e+16");
  EXPECT_EQ(FormatCsvNumber(1.5e16), "1.5e+16");
  EXPECT_EQ(FormatCsvNumber(123456789012345.6), "123456789012345.6");
  EXPECT_EQ(FormatCsvNumber(0.0001), "0.0001");
  // The xlsx keeps 16 significant digits: 0.1+0.2 (0.30000000000000004) is stored as 0.3.
  EXPECT_EQ(FormatCsvNumber(0.1 + 0.2), "0.3");
  EXPECT_EQ(FormatCsvNumber(std::numeric_limits<double>::infinity()), "INF");
  EXPECT_EQ(FormatCsvNumber(std::nan("")), "");
}

TEST(CsvField, MinimalQuoting) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("\tTab stays"), "\tTab stays");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("\"32,3\""), "\"\"\"32,3\"\"\"");
  EXPECT_EQ(CsvField("line\nbreak"), "\"line\nbreak\"");
  EXPECT_EQ(CsvField("=SUM(A1)"), "=SUM(A1)");
}

// Splits one CSV line of the oracle (no quoted fields in OverallMetrics).
std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

analysis::MetricCell ParseSide(const std::vector<std::string>& f, size_t at) {
  analysis::MetricCell m;
  m.duration_ms = std::strtod(f[at].c_str(), nullptr);
  m.duration_ratio = std::strtod(f[at + 1].c_str(), nullptr);
  if (f[at + 2] != "/") m.number = std::strtoll(f[at + 2].c_str(), nullptr, 10);
  return m;
}

// Builds the OverallComparison whose rows hold the values of an oracle OverallMetrics.csv, renders it
// and expects the same bytes back (banner row, empty row, header, number formatting, CRLF).
void RoundTripOracle(const std::string& oracle_case, const std::string& base_arg,
                     const std::string& comparison_arg) {
  std::string expected;
  const std::string path = SharedDir() + "/oracle/" + oracle_case + "/csv/OverallMetrics.csv";
  if (!ReadFile(path, &expected)) GTEST_SKIP() << "oracle " << path << " not found";
  analysis::OverallComparison cmp;
  cmp.policy = analysis::ReferenceCompatPolicy(analysis::kCurrentReferenceLine);  // the oracle's banners
  std::istringstream in(expected);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lineno <= 3) continue;
    std::vector<std::string> f = Split(line);
    ASSERT_EQ(f.size(), 9u) << path << ":" << lineno;
    analysis::OverallRow r;
    r.label = f[0];
    r.indent = static_cast<int>(r.label.find_first_not_of('\t'));
    r.base = ParseSide(f, 1);
    r.comparison = ParseSide(f, 4);
    r.diff_ms = std::strtod(f[7].c_str(), nullptr);
    r.diff_ratio = f[8] == "INF" ? std::numeric_limits<double>::infinity()
                                 : std::strtod(f[8].c_str(), nullptr);
    cmp.rows.push_back(r);
  }
  ASSERT_FALSE(cmp.rows.empty());
  EXPECT_EQ(RenderSheetCsv(BuildOverallMetricsSheet(cmp, base_arg, comparison_arg)), expected);
}

TEST(CsvOverallMetrics, MatchesOracleNpuTextR0R1) {
  RoundTripOracle("npu_text_r0_r1", "corpus/msinsight_pt_text_2025_level1/rank0_ascend_pt",
                  "corpus/msinsight_pt_text_2025_level1/rank1_ascend_pt");
}

TEST(CsvOverallMetrics, MatchesOracleGpuVsGpuH100) {
  RoundTripOracle("gpu_vs_gpu_h100", "corpus/kineto_h100_2026_tiny_uncompressed/before_fix_trace.json",
                  "corpus/kineto_h100_2026_tiny_uncompressed/after_fix_trace.json");
}

TEST(CsvSheet, LayoutBlankCellsInfAndMissingSide) {
  analysis::OverallComparison cmp;
  cmp.policy = analysis::ReferenceCompatPolicy(analysis::kCurrentReferenceLine);
  analysis::OverallRow r;
  r.label = "\tMC2 kernel";
  r.indent = 1;
  r.base.present = false;
  r.comparison.duration_ms = 2.5;
  r.comparison.duration_ratio = 0.25;
  r.comparison.number = 3;
  r.diff_ms = 2.5;
  r.diff_ratio = std::numeric_limits<double>::infinity();
  cmp.rows.push_back(r);
  EXPECT_EQ(RenderSheetCsv(BuildOverallMetricsSheet(cmp, "a,b", "c")),
            ",\"Base Profiling: a,b\",,,Comparison Profiling: c,,,,\r\n"
            ",,,,,,,,\r\n"
            "Index,Duration(ms),Duration Ratio,Number,Duration(ms),Duration Ratio,Number,"
            "Diff Duration(ms),Diff Ratio\r\n"
            "\tMC2 kernel,0,0,/,2.5,0.25,3,2.5,INF\r\n");
}

// The default layout of --csv: one header row of unique names with side and unit, exact numbers,
// uncut text, "/" as an empty cell; it reads back as a rectangular table.
TEST(CsvTidy, OneUniqueHeaderRowThenRectangularRows) {
  SheetSpec s;
  s.name = "OperatorCompare";
  s.base_banner = {1, 2, "Base Profiling: a"};
  s.comparison_banner = {3, 4, "Comparison Profiling: b"};
  s.columns = {{"Order Id", 10, CellFormat::kDefault, false},     {"Operator Name", 10, CellFormat::kDefault, false},
               {"Device Duration(us)", 10, CellFormat::kDefault, false},
               {"Operator Name", 10, CellFormat::kDefault, false}, {"Device Duration(us)", 10, CellFormat::kDefault, false},
               {"Diff Ratio", 10, CellFormat::kDefault, true},     {"Size(%)", 10, CellFormat::kDefault, false},
               {"", 10, CellFormat::kDefault, false},              {"Diff Ratio", 10, CellFormat::kDefault, true}};
  const std::string long_name(kMaxCellChars + 10, 'x');
  s.rows.push_back({{Cell::Number(1), Cell::String("aten::mm, \"q\"\nline 2"), Cell::Number(100000),
                     Cell::String(long_name), Cell::Number(0.1 + 0.2), Cell::String("INF"), Cell::String("/"),
                     Cell::Number(-0.0), Cell::Number(1e-9)},
                    kNoFill, 0});
  s.rows.push_back({{Cell::Number(2)}, kNoFill, 0});
  EXPECT_EQ(TidyColumnNames(s),
            (std::vector<std::string>{"order_id", "base_operator_name", "base_device_duration_us",
                                      "comparison_operator_name", "comparison_device_duration_us", "diff_ratio",
                                      "size_pct", "column_8", "diff_ratio_2"}));
  {  // a header that already names its side gets no second prefix
    SheetSpec m = s;
    m.columns[2].header = "Base Allocated Memory(MB)";
    m.columns[4].header = "Comparison Allocated Memory(MB)";
    const std::vector<std::string> names = TidyColumnNames(m);
    EXPECT_EQ(names[2], "base_allocated_memory_mb");
    EXPECT_EQ(names[4], "comparison_allocated_memory_mb");
  }
  const std::string text = RenderSheetCsv(s, CsvLayout::kTidy);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_NE(text.find("\n1,\"aten::mm, \"\"q\"\"\nline 2\",100000," + long_name + ",0.30000000000000004,INF,,0,1e-09\n"),
            std::string::npos)
      << text.substr(0, 300);
  Diagnostics diags;
  auto reader = CsvReader::FromString("tidy.csv", text, &diags);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->header(), TidyColumnNames(s));
  CsvRecord rec;
  int rows = 0;
  while (true) {
    auto more = (*reader)->Next(rec);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
    EXPECT_EQ(rec.size(), s.columns.size());
    ++rows;
  }
  EXPECT_EQ(rows, 2);
  EXPECT_EQ((*reader)->rows_skipped(), 0u);
}

TEST(CsvSheet, SingleEmptyFieldRowIsQuotedLikePython) {
  SheetSpec s;
  s.name = "One";
  s.columns = {{"H", 10, CellFormat::kDefault, false}};
  s.rows.push_back({{Cell::Blank()}, kNoFill, 0});
  EXPECT_EQ(RenderSheetCsv(s), "\"\"\r\n\"\"\r\nH\r\n\"\"\r\n");
}

TEST(CsvDir, WritesOneFilePerSheetRefusesOverwriteUnlessForced) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  SheetSpec a;
  a.name = "Alpha";
  a.columns = {{"X", 10, CellFormat::kDefault, false}};
  a.rows.push_back({{Cell::Number(1)}, kNoFill, 0});
  SheetSpec empty = a;
  empty.name = "Empty";
  empty.rows.clear();
  const std::string dir = tmp / "csv";
  auto written = WriteCsvDir({a, empty}, dir, false);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  ASSERT_EQ(written->size(), 1u);
  EXPECT_EQ((*written)[0], dir + "/Alpha.csv");
  std::string content;
  ASSERT_TRUE(ReadFile(dir + "/Alpha.csv", &content));
  EXPECT_EQ(content, "\"\"\r\n\"\"\r\nX\r\n1\r\n");
  EXPECT_FALSE(testing::Exists(dir + "/Empty.csv"));

  a.rows[0].cells[0] = Cell::Number(2);
  auto again = WriteCsvDir({a}, dir, false);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(ReadFile(dir + "/Alpha.csv", &content));
  EXPECT_EQ(content, "\"\"\r\n\"\"\r\nX\r\n1\r\n");

  auto forced = WriteCsvDir({a}, dir, true);
  ASSERT_TRUE(forced.ok()) << forced.status().ToString();
  ASSERT_TRUE(ReadFile(dir + "/Alpha.csv", &content));
  EXPECT_EQ(content, "\"\"\r\n\"\"\r\nX\r\n2\r\n");
}

TEST(CsvDir, RefusesAFileAsDirectory) {
  TempDir tmp;
  const std::string file = tmp / "file";
  ASSERT_TRUE(WriteFileAtomically(file, "x", false).ok());
  SheetSpec a;
  a.name = "A";
  a.columns = {{"X", 10, CellFormat::kDefault, false}};
  a.rows.push_back({{Cell::Number(1)}, kNoFill, 0});
  auto r = WriteCsvDir({a}, file, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find(file), std::string::npos);
}

}  // namespace
}  // namespace profdiff::report
