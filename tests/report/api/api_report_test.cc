// The API comparison's sheet and JSON section, from hand-made comparison results.
#include "profdiff/report/api/api_report.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace profdiff::report {
namespace {

using analysis::ApiComparison;
using analysis::ApiRow;
using analysis::ApiSide;

ApiSide Side(int64_t calls, int64_t total_ns, int64_t self_ns) {
  ApiSide s;
  s.calls = calls;
  s.total_ns = total_ns;
  s.self_ns = self_ns;
  s.total_ms = static_cast<double>(total_ns) / 1e6;
  s.self_ms = static_cast<double>(self_ns) / 1e6;
  s.avg_ms = s.total_ms / static_cast<double>(calls);
  return s;
}

// "aten::mm" on both sides (2 ms -> 3 ms), "aten::add" only on the comparison side.
ApiComparison TwoRows() {
  ApiComparison cmp;
  ApiRow mm{.name = "aten::mm", .base = Side(2, 2000000, 1000000), .comparison = Side(2, 3000000, 1000000)};
  mm.diff_total_ms = 1.0;  // the analysis's diff (exact in the default mode); the report prints it
  mm.diff_total_ratio = 1.5;
  mm.diff_avg_ratio = 1.5;
  ApiRow add{.name = "aten::add", .base = {}, .comparison = Side(1, 5000000, 5000000)};
  add.diff_total_ms = 5.0;
  const double inf = std::numeric_limits<double>::infinity();
  add.diff_total_ratio = add.diff_self_ratio = add.diff_avg_ratio = add.diff_calls_ratio = inf;
  cmp.rows = {mm, add};
  cmp.base = {.ops = 2, .names = 1, .total_ns = 2000000, .self_ns = 1000000};
  return cmp;
}

TEST(ApiReport, SheetLayoutAndMissingSide) {
  std::vector<SheetSpec> sheets = BuildApiSheets(TwoRows(), "b_dir", "c_dir");
  ASSERT_EQ(sheets.size(), 1u);
  const SheetSpec& s = sheets[0];
  EXPECT_EQ(s.name, "ApiCompare");
  EXPECT_EQ(s.base_banner.first_col, 2);  // C1:F1
  EXPECT_EQ(s.base_banner.last_col, 5);
  EXPECT_EQ(s.comparison_banner.first_col, 6);  // G1:J1
  EXPECT_EQ(s.comparison_banner.last_col, 9);
  EXPECT_EQ(s.comparison_banner.text, "Comparison Profiling: c_dir");
  ASSERT_EQ(s.columns.size(), 14u);
  EXPECT_EQ(s.columns[1].header, "api name");
  EXPECT_EQ(s.columns[1].format, CellFormat::kBoldStr);
  EXPECT_EQ(s.columns[3].header, "Self Time(ms)");
  EXPECT_EQ(s.columns[3].format, CellFormat::kDefaultFloat);
  EXPECT_EQ(s.columns[5].header, "Calls");
  EXPECT_EQ(s.columns[5].format, CellFormat::kDefault);
  EXPECT_EQ(s.columns[13].header, "Diff Calls Ratio");
  for (int c = 10; c < 14; ++c) EXPECT_TRUE(s.columns[c].ratio && s.columns[c].format == CellFormat::kDefaultFloat);
  ASSERT_EQ(s.rows.size(), 2u);
  const std::vector<Cell>& r0 = s.rows[0].cells;
  ASSERT_EQ(r0.size(), 14u);
  EXPECT_EQ(r0[0], Cell::Number(1));
  EXPECT_EQ(r0[1], Cell::String("aten::mm"));
  EXPECT_EQ(r0[2], Cell::Number(2));
  EXPECT_EQ(r0[3], Cell::Number(1));
  EXPECT_EQ(r0[4], Cell::Number(1));
  EXPECT_EQ(r0[6], Cell::Number(3));
  EXPECT_EQ(r0[10], Cell::Number(1.5));
  // A side without calls shows zeros, as the reference's empty ApiInfo.
  const std::vector<Cell>& r1 = s.rows[1].cells;
  for (int c = 2; c < 6; ++c) EXPECT_EQ(r1[c], Cell::Number(0));
  EXPECT_EQ(r1[9], Cell::Number(1));
  EXPECT_EQ(r1[13], Cell::String("INF"));
}

TEST(ApiReport, JsonRowsNullSidesAndTopByDiff) {
  OrderedJson j = ApiJsonSection(TwoRows());
  EXPECT_EQ(j["sheet"], "ApiCompare");
  EXPECT_EQ(j["base"]["ops"], 2);
  EXPECT_EQ(j["base"]["self_ns"], 1000000);
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["api"], "aten::mm");
  EXPECT_EQ(j["rows"][0]["base"]["calls"], 2);
  EXPECT_EQ(j["rows"][0]["comparison"]["total_ns"], 3000000);
  EXPECT_EQ(j["rows"][0]["diff_total_ms"], 1.0);
  EXPECT_TRUE(j["rows"][1]["base"].is_null());
  EXPECT_EQ(j["rows"][1]["diff_calls_ratio"], "INF");
  EXPECT_EQ(j["rows"][1]["diff_total_ms"], 5.0);
  ASSERT_EQ(j["top_by_diff"].size(), 2u);
  EXPECT_EQ(j["top_by_diff"][0]["api"], "aten::add");
  EXPECT_EQ(j["top_by_diff"][1]["api"], "aten::mm");
}

}  // namespace
}  // namespace profdiff::report
