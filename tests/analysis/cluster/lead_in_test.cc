// Lead-ins to the collectives and what precedes a late arrival (lead_in.h).
#include "profdiff/analysis/cluster/lead_in.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "../../common/profile_builder.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

TEST(LeadIn, BusyIdleAndTheLongestKernelBeforeEachCollective) {
  ProfileBuilder b(DeviceKind::kGpu);
  const TrackId stream = b.Track("0", "7");
  b.Add(stream, SliceKind::kKernel, "gemm", "kernel", 100, 50);     // 100-150
  b.Add(stream, SliceKind::kKernel, "relu", "kernel", 140, 30);     // 140-170 (overlaps gemm)
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllReduce_Sum_f32", "kernel", 200, 40);  // communication
  b.Add(stream, SliceKind::kKernel, "softmax", "kernel", 250, 20);  // 250-270, before the 2nd collective
  RankSummary r;
  r.collectives = {{.group = "pg 0", .name = "ncclDevKernel_AllReduce_Sum_f32", .start_ns = 200, .end_ns = 240},
                   {.group = "pg 0", .name = "ncclDevKernel_AllReduce_Sum_f32", .start_ns = 300, .end_ns = 310}};
  MeasureLeadIns(b.p, r);
  // First: from the first compute work (100) to 200: busy 100-170 = 70, idle 30, gemm longest.
  EXPECT_EQ(r.collectives[0].lead_in_busy_ns, 70);
  EXPECT_EQ(r.collectives[0].lead_in_idle_ns, 30);
  ASSERT_GE(r.collectives[0].lead_in_top, 0);
  EXPECT_EQ(r.kernel_names[static_cast<size_t>(r.collectives[0].lead_in_top)], "gemm");
  EXPECT_EQ(r.collectives[0].lead_in_top_ns, 50);
  // Second: from the first's end (240) to 300: softmax 20 busy, 40 idle.
  EXPECT_EQ(r.collectives[1].lead_in_busy_ns, 20);
  EXPECT_EQ(r.collectives[1].lead_in_idle_ns, 40);
  EXPECT_EQ(r.kernel_names[static_cast<size_t>(r.collectives[1].lead_in_top)], "softmax");
}

MatchedCollective Collective(int64_t last, std::vector<std::array<int64_t, 3>> ranks) {  // rank, busy, idle
  MatchedCollective m;
  m.last_rank = last;
  m.skew_ns = 10;
  for (const auto& [rank, busy, idle] : ranks) {
    CollectiveArrival a;
    a.rank = rank;
    a.lead_in_busy_ns = busy;
    a.lead_in_idle_ns = idle;
    a.lead_in_top = rank == last ? 0 : -1;
    a.lead_in_top_ns = busy;
    m.arrivals.push_back(a);
  }
  return m;
}

TEST(LeadIn, TheCauseIsTheLargerExcessOverTheOtherRanksMedian) {
  CollectiveMatching m;
  m.collectives = {Collective(2, {{0, 100, 5}, {1, 110, 5}, {2, 190, 6}}),   // rank 2 computes +85
                   Collective(1, {{0, 100, 5}, {1, 100, 60}, {2, 101, 5}})};  // rank 1 idles +55
  std::vector<RankSummary> ranks(3);
  for (int64_t i = 0; i < 3; ++i) {
    ranks[static_cast<size_t>(i)].rank = i;
    ranks[static_cast<size_t>(i)].kernel_names = {"k" + std::to_string(i)};
  }
  const std::vector<LateRank> late = {{2, 1, 10}, {1, 1, 10}, {0, 0, 0}};
  const std::vector<LateArrivalCause> c = ExplainLateArrivals(m, late, ranks);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].cause, "computing");
  EXPECT_EQ(c[0].computing_excess_ns, 190 - 100);  // the lower median of 100, 110
  EXPECT_EQ(c[0].idle_excess_ns, 1);
  ASSERT_EQ(c[0].top_kernels.size(), 1u);
  EXPECT_EQ(c[0].top_kernels[0].name, "k2");
  EXPECT_EQ(c[1].cause, "idle");
  EXPECT_EQ(c[1].idle_excess_ns, 55);
  EXPECT_EQ(c[2].cause, "unknown");  // never last
  EXPECT_EQ(c[2].collectives, 0);
}

TEST(LeadIn, LatenessBeforeTheLeadInsIsUnexplained) {
  // Rank 1 arrives 6 ms late at its first collective, but its lead-in is the others': it started
  // 6 ms later (or its host's clock differs). Rank 2 is late by 10 and computes 7 longer.
  CollectiveMatching m;
  m.collectives = {Collective(1, {{0, 100, 5}, {1, 100, 5}, {2, 100, 5}}),
                   Collective(2, {{0, 100, 5}, {1, 100, 5}, {2, 107, 5}})};
  m.collectives[0].skew_ns = 6000000;
  std::vector<RankSummary> ranks(3);
  for (int64_t i = 0; i < 3; ++i) ranks[static_cast<size_t>(i)].rank = i;
  const std::vector<LateArrivalCause> c = ExplainLateArrivals(m, {{1, 1, 6000000}, {2, 1, 10}}, ranks);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].computing_excess_ns, 0);
  EXPECT_EQ(c[0].unexplained_ns, 6000000);
  EXPECT_EQ(c[0].cause, "unexplained");  // neither excess is above 0
  EXPECT_EQ(c[1].cause, "computing");
  EXPECT_EQ(c[1].computing_excess_ns, 7);
  EXPECT_EQ(c[1].unexplained_ns, 3);
}

}  // namespace
}  // namespace profdiff::analysis
