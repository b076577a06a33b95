// The kernel comparison's sheets and JSON section, from hand-made comparison results.
#include "profdiff/report/kernel/kernel_sheets.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "profdiff/report/kernel/kernel_json.h"

namespace profdiff::report {
namespace {

using analysis::KernelComparison;
using analysis::KernelGroupSide;
using analysis::KernelRow;

KernelGroupSide Present(int64_t total_ns, int calls, double total_us, double avg_us) {
  KernelGroupSide g;
  g.present = true;
  for (int i = 0; i < calls; ++i) g.total.AddNs(total_ns / calls);
  g.max_ns = g.min_ns = total_ns / calls;
  g.total_us = total_us;
  g.avg_us = avg_us;
  g.max_us = g.min_us = avg_us;
  return g;
}

KernelComparison TwoRows() {
  KernelComparison cmp;
  cmp.kind = analysis::KernelCompareKind::kShape;
  KernelRow a{"MatMul", "\"2,2\"", Present(4000, 2, 4, 2), Present(2000, 1, 2, 2), 0.5, 1};
  KernelRow b{"Add", "N/A", {}, Present(3000, 3, 3, 1), std::numeric_limits<double>::infinity(),
              std::numeric_limits<double>::infinity()};
  cmp.rows = {a, b};
  return cmp;
}

TEST(KernelSheets, KernelCompareLayoutAndMissingSide) {
  std::vector<SheetSpec> sheets = BuildKernelSheets(TwoRows(), "b_dir", "c_dir");
  ASSERT_EQ(sheets.size(), 1u);
  const SheetSpec& s = sheets[0];
  EXPECT_EQ(s.name, "KernelCompare");
  EXPECT_EQ(s.base_banner.first_col, 3);  // D1:H1
  EXPECT_EQ(s.base_banner.last_col, 7);
  EXPECT_EQ(s.comparison_banner.first_col, 8);  // I1:M1
  EXPECT_EQ(s.comparison_banner.last_col, 12);
  EXPECT_EQ(s.base_banner.text, "Base Profiling: b_dir");
  ASSERT_EQ(s.columns.size(), 15u);
  EXPECT_EQ(s.columns[1].header, "Kernel");
  EXPECT_EQ(s.columns[1].format, CellFormat::kBoldStr);
  EXPECT_EQ(s.columns[8].header, "Total Duration(us)");
  // The ratio columns are float columns that still turn red above 1 (quirk of
  // docs/reference/workbook.md).
  EXPECT_EQ(s.columns[13].format, CellFormat::kDefaultFloat);
  EXPECT_TRUE(s.columns[13].ratio && s.columns[14].ratio);
  ASSERT_EQ(s.rows.size(), 2u);
  const std::vector<Cell>& r0 = s.rows[0].cells;
  EXPECT_EQ(r0[0], Cell::Number(1));
  EXPECT_EQ(r0[3], Cell::Number(4));
  EXPECT_EQ(r0[7], Cell::Number(2));  // calls
  const std::vector<Cell>& r1 = s.rows[1].cells;
  ASSERT_EQ(r1.size(), 15u);
  // Missing base: total and avg 0, max/min/calls blank; INF ratios.
  EXPECT_EQ(r1[3], Cell::Number(0));
  EXPECT_EQ(r1[4], Cell::Number(0));
  EXPECT_EQ(r1[5], Cell::Blank());
  EXPECT_EQ(r1[7], Cell::Blank());
  EXPECT_EQ(r1[12], Cell::Number(3));
  EXPECT_EQ(r1[13], Cell::String("INF"));
}

TEST(KernelSheets, TypeSheetWhenAskedForEvenWithoutRows) {
  KernelComparison cmp;
  cmp.use_kernel_type = true;
  std::vector<SheetSpec> sheets = BuildKernelSheets(cmp, "b", "c");
  ASSERT_EQ(sheets.size(), 1u);
  EXPECT_EQ(sheets[0].name, "KernelTypeCompare");
  EXPECT_EQ(sheets[0].columns[1].header, "Kernel Type");
  EXPECT_EQ(sheets[0].columns[2].header, "Core Type");
  EXPECT_TRUE(sheets[0].rows.empty());  // not written by the pipeline
}

TEST(KernelJson, RowsNullSidesAndTopByDiff) {
  OrderedJson j = KernelsJsonSection(TwoRows());
  EXPECT_EQ(j["kind"], "shape");
  EXPECT_EQ(j["sheet"], "KernelCompare");
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["base"]["total_ns"], 4000);
  EXPECT_EQ(j["rows"][0]["diff_total_us"], -2.0);
  EXPECT_TRUE(j["rows"][1]["base"].is_null());
  EXPECT_EQ(j["rows"][1]["diff_total_ratio"], "INF");
  EXPECT_EQ(j["rows"][1]["diff_total_us"], 3.0);
  // The largest increase first.
  ASSERT_EQ(j["top_by_diff"].size(), 2u);
  EXPECT_EQ(j["top_by_diff"][0]["kernel"], "Add");
  EXPECT_EQ(j["top_by_diff"][1]["kernel"], "MatMul");
}

}  // namespace
}  // namespace profdiff::report
