// The cluster workbook's sheets (report/cluster/cluster_workbook.h) built from a small result
// (cluster_fixture.h): names, headers, banners, key cells and the DIFF columns' red; the workbook
// written twice is the same bytes, and never replaced without force.
#include "profdiff/report/cluster/cluster_workbook.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cluster_fixture.h"
#include "profdiff/report/xlsx_rows.h"
#include "profdiff/report/xlsx_writer.h"
#include "report_test_util.h"
#include "zip_parts.h"

namespace profdiff::report {
namespace {

using testing::ClusterFixture;

std::vector<std::string> Headers(const SheetSpec& s) {
  std::vector<std::string> out;
  for (const ColumnSpec& c : s.columns) out.push_back(c.header);
  return out;
}

size_t Column(const SheetSpec& s, const std::string& header) {
  for (size_t c = 0; c < s.columns.size(); ++c)
    if (s.columns[c].header == header) return c;
  ADD_FAILURE() << s.name << " has no column " << header;
  return 0;
}

const Cell& At(const SheetSpec& s, size_t row, const std::string& header) { return s.rows.at(row).cells.at(Column(s, header)); }

TEST(ClusterWorkbook, StepSheetHasTheReferenceColumnsInMicroseconds) {
  const ClusterResult r = ClusterFixture(false);
  const SheetSpec s = BuildClusterStepSheet(r);
  EXPECT_EQ(s.name, "ClusterStepTraceTime");
  EXPECT_EQ(Headers(s), (std::vector<std::string>{"Step", "Type", "Index", "Computing", "Communication(Not Overlapped)",
                                                  "Free"}));
  ASSERT_EQ(s.rows.size(), 3u);
  EXPECT_EQ(At(s, 0, "Step"), Cell::Number(7));
  EXPECT_EQ(At(s, 1, "Type"), Cell::String("rank"));
  EXPECT_EQ(At(s, 1, "Index"), Cell::Number(1));
  EXPECT_EQ(At(s, 1, "Computing"), Cell::Number(30000));
  EXPECT_EQ(At(s, 2, "Type"), Cell::String("stage"));
  EXPECT_EQ(At(s, 2, "Index"), Cell::String("(0, 1)"));
  // One run: a green banner naming it over every column.
  EXPECT_EQ(s.base_banner.text, "Cluster Profiling: runs/slow");
  EXPECT_EQ(s.base_banner.last_col, 5);
  EXPECT_TRUE(s.comparison_banner.text.empty());
  // --reference-compat: the reference's floats where it has them.
  ClusterResult compat = r;
  compat.policy = analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k26_1);
  compat.step_table.rows[0].values_us_float = {10000.000000000002, 25000.0, 5000.0};
  EXPECT_EQ(At(BuildClusterStepSheet(compat), 0, "Computing"), Cell::Number(10000.000000000002));
  EXPECT_EQ(At(BuildClusterStepSheet(compat), 1, "Computing"), Cell::Number(30000));  // no float: the ns
}

TEST(ClusterWorkbook, SlowRanksSayWhoByHowMuchWhyAndWhoWaits) {
  ClusterResult r = ClusterFixture(false);
  analysis::StepStraggler same;
  same.step = "8";
  same.ranks = 2;
  same.cause = analysis::SlowCause::kNone;
  r.stragglers.push_back(same);
  const SheetSpec s = BuildSlowRanksSheet(r);
  EXPECT_EQ(s.name, "SlowRanks");
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(At(s, 0, "Slow Rank"), Cell::Number(1));
  EXPECT_EQ(At(s, 0, "Cause"), Cell::String("computing"));
  EXPECT_EQ(At(s, 0, "Lead(us)"), Cell::Number(20000));
  EXPECT_FALSE(s.columns[Column(s, "Lead(us)")].red_above_zero);  // red is for what grew against a base
  EXPECT_EQ(At(s, 0, "Waiters"), Cell::String("0"));
  EXPECT_EQ(At(s, 0, "Longest Extra Wait(us)"), Cell::Number(20000));
  EXPECT_EQ(At(s, 0, "Saving If Median(us)"), Cell::Number(20000));
  EXPECT_EQ(At(s, 1, "Slow Rank"), Cell::Blank());  // nobody holds step 8 back
  EXPECT_EQ(At(s, 1, "Cause"), Cell::String("none"));
}

TEST(ClusterWorkbook, CollectivesTheirArrivalsLateRanksAndTheWaitMatrix) {
  const ClusterResult r = ClusterFixture(false);
  const SheetSpec skew = BuildCollectiveSkewSheet(r);
  ASSERT_EQ(skew.rows.size(), 2u);
  EXPECT_EQ(At(skew, 1, "Index"), Cell::Number(1));
  EXPECT_EQ(At(skew, 0, "First Rank"), Cell::Number(0));
  EXPECT_EQ(At(skew, 0, "Last Rank"), Cell::Number(1));
  EXPECT_EQ(At(skew, 0, "Skew(us)"), Cell::Number(20000));
  const SheetSpec arrivals = BuildCollectiveArrivalsSheet(r);
  ASSERT_EQ(arrivals.rows.size(), 4u);  // two collectives x two ranks
  EXPECT_EQ(At(arrivals, 0, "Arrival After First(us)"), Cell::Number(0));
  EXPECT_EQ(At(arrivals, 1, "Rank"), Cell::Number(1));
  EXPECT_EQ(At(arrivals, 1, "Arrival After First(us)"), Cell::Number(20000));
  EXPECT_EQ(At(arrivals, 1, "Duration(us)"), Cell::Number(10000));
  EXPECT_EQ(At(arrivals, 0, "Wait(us)"), Cell::Number(20000));
  // Beyond the row limit: the collectives of largest skew whose arrivals fit, said in the banner.
  const SheetSpec capped = BuildCollectiveArrivalsSheet(r, 3);
  ASSERT_EQ(capped.rows.size(), 2u);
  EXPECT_NE(capped.base_banner.text.find("the 1 collectives of largest skew, of 2"), std::string::npos)
      << capped.base_banner.text;
  EXPECT_EQ(BuildCollectiveArrivalsSheet(r, 4).rows.size(), 4u);
  const SheetSpec late = BuildLateRanksSheet(r);
  ASSERT_EQ(late.rows.size(), 1u);
  EXPECT_EQ(late.rows[0].cells, (std::vector<Cell>{Cell::Number(1), Cell::Number(2), Cell::Number(40000)}));
  const SheetSpec m = BuildWaitMatrixSheet(r);
  EXPECT_EQ(m.name, "WaitMatrix");
  EXPECT_EQ(Headers(m), (std::vector<std::string>{"Waiter Rank", "Waits On Rank 1(us)", "Total Wait(us)", "Collectives"}));
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_EQ(m.rows[0].cells, (std::vector<Cell>{Cell::Number(0), Cell::Number(40000), Cell::Number(40000), Cell::Number(2)}));
}

TEST(ClusterWorkbook, SheetsOfOneRunAndOfTwo) {
  std::vector<std::string> names;
  for (const SheetSpec& s : BuildClusterSheets(ClusterFixture(false))) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ClusterStepTraceTime", "SlowRanks", "CollectiveSkew", "CollectiveArrivals",
                                             "LateRanks", "WaitMatrix", "SlowRankVote", "ClusterTimeSummary"}));
  names.clear();
  const ClusterResult two = ClusterFixture(true);
  for (const SheetSpec& s : BuildClusterSheets(two)) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ClusterStepTraceTime", "SlowRanks", "CollectiveSkew", "CollectiveArrivals",
                                             "LateRanks", "WaitMatrix", "SlowRankVote", "RunCompare", "StepCompare", "RankCompare",
                                             "SlowRankChanges", "CollectiveCompare", "TopCollectiveChanges",
                                             "StageCompare", "RankPercentiles", "ClusterTimeSummary",
                                             "ClusterTimeCompareSummary"}));
  // With -bp the run is the comparison: its sheets' banner is the yellow one.
  const SheetSpec step = BuildClusterStepSheet(two);
  EXPECT_EQ(step.comparison_banner.text, "Comparison Profiling: runs/slow");
  EXPECT_TRUE(step.base_banner.text.empty());
}

TEST(ClusterWorkbook, RunCompareHasTheTotalsTheGateAndTheVerdict) {
  const ClusterResult r = ClusterFixture(true);
  const SheetSpec s = BuildRunCompareSheet(r);
  EXPECT_EQ(s.base_banner.text, "Base Profiling: runs/base");
  EXPECT_EQ(s.comparison_banner.text, "Comparison Profiling: runs/slow");
  ASSERT_EQ(s.rows.size(), 6u);
  EXPECT_EQ(At(s, 0, "Index"), Cell::String("Job Step (slowest rank, median step)"));
  EXPECT_EQ(At(s, 0, "Diff(us)"), Cell::Number(20000));
  EXPECT_EQ(At(s, 0, "Diff Ratio"), Cell::Number(2));
  EXPECT_EQ(At(s, 0, "Gate Threshold(%)"), Cell::Number(5));
  EXPECT_EQ(At(s, 0, "Result"), Cell::String("regression"));
  EXPECT_EQ(At(s, 1, "Result"), Cell::Blank());  // no --gate-compute
  EXPECT_EQ(At(s, 4, "Index"), Cell::String("Slow Rank Lead (mean)"));
  EXPECT_EQ(At(s, 5, "Result"), Cell::String("REGRESSION"));
  const Cell& why = At(s, 5, "Reason");
  EXPECT_NE(why.text.find("rank 1 is a new straggler"), std::string::npos) << why.text;
  // The Diff column is red above 0, in its own number format.
  const size_t diff = Column(s, "Diff(us)");
  EXPECT_EQ(xlsx_rows::PlanCell(s, 0, diff, {}).style.fill, kFillRed);
  EXPECT_EQ(xlsx_rows::PlanCell(s, 3, diff, {}).style.fill, kNoFill);  // free: unchanged
}

TEST(ClusterWorkbook, StepAndRankDeltasAndSlowRankChanges) {
  const ClusterResult r = ClusterFixture(true);
  const SheetSpec steps = BuildStepCompareSheet(r);
  ASSERT_EQ(steps.rows.size(), 1u);
  ASSERT_EQ(steps.columns.size(), 22u);
  EXPECT_EQ(steps.rows[0].cells[6], Cell::Blank());  // base: nobody slow
  EXPECT_EQ(steps.rows[0].cells[15], Cell::Number(1));  // comparison: rank 1
  EXPECT_EQ(At(steps, 0, "Diff Step(us)"), Cell::Number(20000));
  const SheetSpec ranks = BuildRankCompareSheet(r);
  ASSERT_EQ(ranks.rows.size(), 2u);
  EXPECT_EQ(At(ranks, 0, "Diff Communication(Not Overlapped)(us)"), Cell::Number(20000));
  EXPECT_EQ(At(ranks, 1, "Diff Computing(us)"), Cell::Number(20000));
  EXPECT_TRUE(ranks.columns[Column(ranks, "Diff Free(us)")].red_above_zero);
  EXPECT_EQ(ranks.base_banner.first_col, 2);
  EXPECT_EQ(ranks.comparison_banner.last_col, 9);
  const SheetSpec slow = BuildSlowRankChangesSheet(r);
  ASSERT_EQ(slow.rows.size(), 1u);
  EXPECT_EQ(slow.rows[0].cells, (std::vector<Cell>{Cell::Number(1), Cell::String("new"), Cell::Number(0), Cell::Number(1)}));
}

TEST(ClusterWorkbook, CollectiveStageAndPercentileDeltas) {
  const ClusterResult r = ClusterFixture(true);
  const SheetSpec kinds = BuildCollectiveCompareSheet(r);
  ASSERT_EQ(kinds.rows.size(), 1u);
  EXPECT_EQ(Headers(kinds), (std::vector<std::string>{"Group", "Kind", "Count", "Transfer(us)", "Skew(us)", "Wait(us)",
                                                      "Count", "Transfer(us)", "Skew(us)", "Wait(us)", "Diff Count",
                                                      "Diff Transfer(us)", "Diff Skew(us)", "Diff Wait(us)"}));
  EXPECT_EQ(kinds.rows[0].cells[1], Cell::String("allreduce"));
  EXPECT_EQ(At(kinds, 0, "Diff Skew(us)"), Cell::Number(40000));  // 20 ms more at each of the two
  EXPECT_EQ(At(kinds, 0, "Diff Transfer(us)"), Cell::Number(0));
  EXPECT_TRUE(kinds.columns[Column(kinds, "Diff Skew(us)")].red_above_zero);
  EXPECT_FALSE(kinds.columns[Column(kinds, "Diff Count")].red_above_zero);
  EXPECT_EQ(kinds.base_banner.first_col, 2);
  EXPECT_EQ(kinds.comparison_banner.last_col, 9);
  const SheetSpec top = BuildTopCollectiveChangesSheet(r);
  ASSERT_EQ(top.rows.size(), 2u);
  EXPECT_EQ(At(top, 0, "Diff Transfer+Skew(us)"), Cell::Number(20000));
  EXPECT_EQ(top.rows[0].cells[10], Cell::Number(1));  // the comparison's last rank
  EXPECT_EQ(top.comparison_banner.last_col, 13);
  const SheetSpec stages = BuildStageCompareSheet(r);
  ASSERT_EQ(stages.rows.size(), 1u);
  EXPECT_EQ(stages.rows[0].cells[2], Cell::String("(0, 1)"));
  EXPECT_EQ(At(stages, 0, "Diff Computing(us)"), Cell::Number(20000));
  EXPECT_EQ(At(stages, 0, "Diff Communication(Not Overlapped)(us)"), Cell::Number(20000));
  EXPECT_EQ(At(stages, 0, "Diff Free(us)"), Cell::Number(0));
  EXPECT_EQ(stages.comparison_banner.first_col, 6);
  const SheetSpec pct = BuildRankPercentilesSheet(r);
  ASSERT_EQ(pct.rows.size(), 16u);
  // Computing's max: rank 0's 10 ms in the base, rank 1's 30 ms in the comparison.
  EXPECT_EQ(pct.rows[7].cells, (std::vector<Cell>{Cell::String("Computing"), Cell::String("max"), Cell::Number(10000),
                                                  Cell::Number(0), Cell::Number(30000), Cell::Number(1),
                                                  Cell::Number(20000)}));
  // One run: none of them has a row.
  const ClusterResult one = ClusterFixture(false);
  for (const SheetSpec& s : {BuildCollectiveCompareSheet(one), BuildTopCollectiveChangesSheet(one),
                             BuildStageCompareSheet(one), BuildRankPercentilesSheet(one)})
    EXPECT_TRUE(s.rows.empty()) << s.name;
}

TEST(ClusterWorkbook, TimeSummariesHaveTheReferenceTablesColumns) {
  ClusterResult r = ClusterFixture(true);
  analysis::TimeSummaryRow row;
  row.rank = 3;
  row.step = 50;
  row.ns.fill(1'000);
  row.us.fill(1.0000000000000002);
  r.time_summary.rows.push_back(row);
  analysis::TimeCompareRow cmp;
  cmp.rank = 3;
  cmp.step = 50;
  cmp.current = row;
  cmp.base = row;
  cmp.base.ns[0] = 3'000;
  r.time_compare.push_back(cmp);
  const SheetSpec sum = BuildClusterTimeSummarySheet(r);
  EXPECT_EQ(sum.columns.at(2).header, "stepTime");
  EXPECT_EQ(sum.columns.back().header, "memoryNotOverlapComputationCommunication");
  EXPECT_EQ(sum.rows.at(0).cells.at(2), Cell::Number(1));
  const SheetSpec c = BuildClusterTimeCompareSheet(r);
  const std::vector<std::string> headers = Headers(c);
  EXPECT_EQ(std::vector<std::string>(headers.begin(), headers.begin() + 5),
            (std::vector<std::string>{"rank", "step", "stepTime", "stepTimeBase", "stepTimeDiff"}));
  EXPECT_EQ(c.columns.size(), 2u + 3 * analysis::kTimeMetricCount);
  EXPECT_TRUE(c.columns[4].red_above_zero);
  EXPECT_FALSE(c.columns[3].red_above_zero);
  EXPECT_EQ(c.rows.at(0).cells.at(4), Cell::Number(-2));  // 1 µs - 3 µs
  r.policy = analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k26_1);
  EXPECT_EQ(BuildClusterTimeSummarySheet(r).rows.at(0).cells.at(2), Cell::Number(1.0000000000000002));
}

TEST(ClusterWorkbook, SameResultSameBytesAndNeverReplacedWithoutForce) {
  testing::TempDir d;
  const ClusterResult r = ClusterFixture(true);
  ASSERT_TRUE(WriteClusterWorkbook(r, d / "a.xlsx", false, 1).ok());
  ASSERT_TRUE(WriteClusterWorkbook(r, d / "b.xlsx", false, 2).ok());
  std::string a, b;
  ASSERT_TRUE(testing::ReadFile(d / "a.xlsx", &a));
  ASSERT_TRUE(testing::ReadFile(d / "b.xlsx", &b));
  EXPECT_EQ(a, b);
  const auto parts = testing::ReadParts(d / "a.xlsx");
  EXPECT_NE(parts.at("xl/workbook.xml").find("name=\"RunCompare\""), std::string::npos);
  EXPECT_EQ(parts.count("xl/worksheets/sheet14.xml"), 1u);  // the time summaries have no rows: 14 sheets
  EXPECT_EQ(parts.count("xl/worksheets/sheet15.xml"), 0u);
  const Status again = WriteClusterWorkbook(r, d / "a.xlsx", false, 1);
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists) << again.ToString();
  EXPECT_TRUE(WriteClusterWorkbook(r, d / "a.xlsx", true, 1).ok());
}

}  // namespace
}  // namespace profdiff::report
