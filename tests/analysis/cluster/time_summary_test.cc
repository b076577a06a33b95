// The reference's ClusterTimeSummary and ClusterTimeCompareSummary from rank summaries (time_summary.h).
#include "profdiff/analysis/cluster/time_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis {
namespace {

constexpr auto kMem = OverlapInterval::kMemory;
constexpr auto kComp = OverlapInterval::kComputing;
constexpr auto kComm = OverlapInterval::kCommunication;

TEST(ClusterTimeSummary, MemoryNotOverlapIsTheReferencesSweep) {
  EXPECT_EQ(MemoryNotOverlapNs({}), 0);
  std::vector<OverlapInterval> alone = {{10, 30, kMem}};
  EXPECT_EQ(MemoryNotOverlapNs(alone), 20);
  // A copy that computing starts inside: only the part before the computing counts; the block then
  // ends with the computing (it ends last), so the copy's tail under it does not count.
  std::vector<OverlapInterval> covered = {{0, 50, kMem}, {20, 60, kComp}};
  EXPECT_EQ(MemoryNotOverlapNs(covered), 20);
  // A copy that outlasts the communication it starts under: the block becomes a memory block from the
  // communication's end, and that tail counts.
  std::vector<OverlapInterval> tail = {{0, 40, kComm}, {10, 70, kMem}};
  EXPECT_EQ(MemoryNotOverlapNs(tail), 30);
  // Disjoint copies and a copy inside computing (no time of its own).
  std::vector<OverlapInterval> mixed = {{0, 100, kComp}, {10, 20, kMem}, {200, 210, kMem}, {300, 305, kMem}};
  EXPECT_EQ(MemoryNotOverlapNs(mixed), 15);
}

RankSummary DbRank(int64_t rank, std::vector<RankCommOpTime> ops, bool groups = true) {
  RankSummary r;
  r.rank = rank;
  r.step_source = RankStepSource::kAnalysisDb;
  r.columns = {std::string(kColComputing), std::string(kColCommNotOverlapped), std::string(kColOverlapped),
               std::string(kColCommunication), std::string(kColFree)};
  RankStep s;
  s.step = "5";
  s.values_ns = {1'000'001, 2'000'000, 300, 2'000'300, 500'000};
  s.values_us_float = {1000.001, 2000.0, 0.3, 2000.3, 500.0};
  r.steps.push_back(s);
  r.time.present = true;
  r.time.has_comm_ops = !ops.empty();
  r.time.has_comm_groups = groups;
  r.time.steps.push_back({5, 4'000'000 + rank, 900 + rank, 100});
  r.time.comm_ops = std::move(ops);
  return r;
}

size_t M(TimeMetric m) { return static_cast<size_t>(m); }

TEST(ClusterTimeSummary, TransmitIsTheShortestRankWaitTheRest) {
  std::vector<RankSummary> ranks;
  ranks.push_back(DbRank(0, {{7, "ar_1", 5, 1'500}, {7, "ar_2", 5, 100}, {7, "ar_1", 4, 9}}));
  ranks.push_back(DbRank(1, {{7, "ar_1", 5, 1'000}, {7, "ar_2", 5, 700}}));
  const ClusterTimeSummary s = BuildClusterTimeSummary(ranks, std::nullopt);
  ASSERT_TRUE(s.empty_reason.empty()) << s.empty_reason;
  // Rows: rank 0 steps 4 (an op launched there only) and 5, rank 1 step 5.
  ASSERT_EQ(s.rows.size(), 3u);
  const TimeSummaryRow& r0 = s.rows[1];
  EXPECT_EQ(r0.rank, 0);
  EXPECT_EQ(r0.step, 5);
  EXPECT_EQ(r0.ns[M(TimeMetric::kTransmitStage)], 1'000 + 100);
  EXPECT_EQ(r0.ns[M(TimeMetric::kWaitStage)], 500);
  EXPECT_EQ(s.rows[2].ns[M(TimeMetric::kWaitStage)], 600);
  EXPECT_DOUBLE_EQ(r0.us[M(TimeMetric::kTransmitStage)], 1.1);
  EXPECT_EQ(r0.ns[M(TimeMetric::kStepTime)], 4'000'000);
  EXPECT_EQ(r0.us[M(TimeMetric::kStepTime)], 4000.0);
  EXPECT_EQ(r0.ns[M(TimeMetric::kComputation)], 1'000'001);
  // Free less the memory copies' uncovered part (100 ns).
  EXPECT_EQ(r0.ns[M(TimeMetric::kFree)], 500'000 - 100);
  EXPECT_EQ(r0.us[M(TimeMetric::kFree)], 500.0 - 0.1);
  EXPECT_EQ(r0.ns[M(TimeMetric::kMemory)], 900);
  // Step 4 has neither a step time nor a step trace row: zeros but its wait and transmit.
  const TimeSummaryRow& r04 = s.rows[0];
  EXPECT_EQ(r04.step, 4);
  EXPECT_EQ(r04.ns[M(TimeMetric::kStepTime)], 0);
  EXPECT_EQ(r04.ns[M(TimeMetric::kTransmitStage)], 9);

  const ClusterTimeSummary one = BuildClusterTimeSummary(ranks, std::string("5"));
  ASSERT_EQ(one.rows.size(), 2u);
  EXPECT_EQ(one.rows[0].step, 5);
}

TEST(ClusterTimeSummary, SumsLikePandasKahan) {
  // 0.1 µs waits: plain float sums drift, pandas' compensated sum does not.
  std::vector<RankCommOpTime> ops0, ops1;
  for (int i = 0; i < 10; ++i) {
    ops0.push_back({7, "op" + std::to_string(i), 5, 200});
    ops1.push_back({7, "op" + std::to_string(i), 5, 100});
  }
  std::vector<RankSummary> ranks;
  ranks.push_back(DbRank(0, ops0));
  ranks.push_back(DbRank(1, ops1));
  const ClusterTimeSummary s = BuildClusterTimeSummary(ranks, std::nullopt);
  ASSERT_EQ(s.rows.size(), 2u);
  double naive = 0;
  for (int i = 0; i < 10; ++i) naive += 0.2 - 0.1;
  EXPECT_NE(naive, 1.0);
  EXPECT_EQ(s.rows[0].us[M(TimeMetric::kWaitStage)], 1.0);  // 10 x (0.2 - 0.1), compensated
  EXPECT_EQ(s.rows[0].ns[M(TimeMetric::kWaitStage)], 1'000);
}

TEST(ClusterTimeSummary, OneCommunicatingRankWaitsForNobody) {
  std::vector<RankSummary> ranks;
  ranks.push_back(DbRank(0, {{7, "ar", 5, 1'500}}));
  ranks.push_back(DbRank(1, {}));
  const ClusterTimeSummary s = BuildClusterTimeSummary(ranks, std::nullopt);
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.rows[0].ns[M(TimeMetric::kTransmitStage)], 0);
  EXPECT_EQ(s.rows[0].us[M(TimeMetric::kWaitStage)], 0.0);
}

TEST(ClusterTimeSummary, NoSummaryWithoutGroupsOrStepTrace) {
  std::vector<RankSummary> ranks;
  ranks.push_back(DbRank(0, {{7, "ar", 5, 1'500}}, /*groups=*/false));
  EXPECT_NE(BuildClusterTimeSummary(ranks, std::nullopt).empty_reason.find("CommAnalyzerTime"), std::string::npos);
  ranks[0].time.has_comm_groups = true;
  ranks[0].step_source = RankStepSource::kTimeline;
  EXPECT_NE(BuildClusterTimeSummary(ranks, std::nullopt).empty_reason.find("StepTraceTime"), std::string::npos);
  EXPECT_NE(BuildClusterTimeSummary({}, std::nullopt).empty_reason.find("DB export"), std::string::npos);
}

TEST(ClusterTimeSummary, CompareKeepsTheRanksAndStepsOfBoth) {
  std::vector<RankSummary> cur, base;
  cur.push_back(DbRank(0, {{7, "ar", 5, 1'500}}));
  cur.push_back(DbRank(1, {{7, "ar", 5, 1'000}}));
  base.push_back(DbRank(1, {{7, "ar", 5, 800}}));
  base.push_back(DbRank(2, {{7, "ar", 5, 900}}));
  const auto rows = CompareClusterTimeSummaries(BuildClusterTimeSummary(cur, std::nullopt),
                                                BuildClusterTimeSummary(base, std::nullopt));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[0].current.ns[M(TimeMetric::kStepTime)] - rows[0].base.ns[M(TimeMetric::kStepTime)], 0);
  EXPECT_EQ(rows[0].base.ns[M(TimeMetric::kTransmitStage)], 800);
}

}  // namespace
}  // namespace profdiff::analysis
