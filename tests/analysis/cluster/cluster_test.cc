// The cluster analyses: a rank's summary (rank_summary.h), the step table with its stage rows
// (step_table.h) and the rank that holds each step back (slow_ranks.h).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/collectives.h"
#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/cluster/slow_ranks.h"
#include "profdiff/analysis/cluster/step_table.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/loaders/loader.h"
#include "../../common/profile_builder.h"
#include "rank_rows.h"

namespace profdiff::analysis {
namespace {

using testing::kMs;
using testing::Rank;

TEST(RankSummary, AscendRankFromItsStepTraceTimeAndTimeline) {
  LoadOptions load;
  auto p = LoadProfile(std::string(PROFDIFF_SOURCE_DIR) + "/tests/data/ascend_910b_alexnet/rank0_ascend_pt", load);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const Timeline t = BuildTimeline(**p, {});
  const RankSummary r = SummarizeRank(**p, &t, 0, "text", "rank0_ascend_pt", {});
  EXPECT_EQ(r.step_source, RankStepSource::kStepTraceTime);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].step, "50");
  // 8873.756000000001 µs: the exact ns (sub-ns digits rounded), the reference's float beside it.
  EXPECT_EQ(r.steps[0].Value(r.columns, kColComputing), 8'873'756);
  EXPECT_EQ(r.steps[0].values_us_float[0], 8873.756000000001);
  EXPECT_EQ(r.steps[0].Value(r.columns, kColBubble), 0);
  EXPECT_EQ(r.steps[0].step_time_ns, 8'873'756 + 101'963'203 + 25'744'050);
  // The exact communication split of the overall analysis: transmit + wait + idle = uncovered.
  ASSERT_FALSE(r.groups.empty());
  for (const CommunicationGroupSplit& g : r.groups)
    EXPECT_EQ(g.transmit_ns + g.wait_ns + g.idle_ns, g.uncovered_ns) << g.group;
  EXPECT_TRUE(r.missing.empty());
}

TEST(RankSummary, PartialRankSaysWhatIsMissing) {
  Profile p;
  p.meta.device = DeviceKind::kNpu;
  p.meta.files = {"/x/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"};
  p.npu.step_trace.present = true;
  p.npu.step_trace.columns = {"Computing", "Communication(Not Overlapped)", "Free"};
  p.npu.step_trace.steps = {"7"};
  p.npu.step_trace.values_ns = {{10, 20, 30}};
  const RankSummary r = SummarizeRank(p, nullptr, 2, "partial", "/x", {});
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].step_time_ns, 60);
  EXPECT_TRUE(std::isnan(r.steps[0].values_us_float[0]));  // no floats loaded: unknown, never 0
  EXPECT_EQ(r.missing, (std::vector<std::string>{"trace_view.json", "communication.json", "kernel_details.csv"}));
  EXPECT_TRUE(r.groups.empty());
}

TEST(RankSummary, NoStepsIsANoteNotAZero) {
  Profile p;
  p.meta.device = DeviceKind::kNpu;
  const RankSummary r = SummarizeRank(p, nullptr, 0, "partial", "/x", {});
  EXPECT_TRUE(r.steps.empty());
  EXPECT_EQ(r.step_source, RankStepSource::kNone);
  ASSERT_EQ(r.notes.size(), 1u);
}

TEST(ClusterStepTable, RankRowsThenStageRowsOfTheLargestValues) {
  const std::vector<RankSummary> ranks = {Rank(0, {{10, 5, 1}}), Rank(1, {{12, 2, 3}}), Rank(2, {{8, 9, 0}})};
  const ClusterStepTable none = BuildClusterStepTable(ranks, {});
  ASSERT_EQ(none.rows.size(), 3u);  // no groups: no stage rows, as the reference
  EXPECT_EQ(none.rows[2].index, "2");
  const ClusterStepTable t = BuildClusterStepTable(ranks, {{0, 1}});
  ASSERT_EQ(t.rows.size(), 5u);
  EXPECT_TRUE(t.rows[3].stage);
  EXPECT_EQ(t.rows[3].index, "(0, 1)");
  EXPECT_EQ(t.rows[3].values_ns, (std::vector<int64_t>{12 * kMs, 5 * kMs, 3 * kMs}));
  EXPECT_EQ(t.rows[4].index, "()");  // rank 2 is in no group: the reference's empty stage
  EXPECT_EQ(t.rows[4].values_ns, (std::vector<int64_t>{8 * kMs, 9 * kMs, 0}));
  const ClusterStepTable one = BuildClusterStepTable(ranks, {}, std::string("2"));
  EXPECT_TRUE(one.rows.empty());
}

TEST(ClusterStepTable, PythonTuples) {
  EXPECT_EQ(PythonTupleText({}), "()");
  EXPECT_EQ(PythonTupleText({3}), "(3,)");
  EXPECT_EQ(PythonTupleText({0, 1, 2}), "(0, 1, 2)");
}

// The 4-rank case: ranks 2-3 compute 170 ms more, ranks 0-1 wait for them. The slow rank is
// the one with the most computing + free, not the one with the longest step.
TEST(SlowRanks, TheRankThatComputesLongerHoldsTheStepBack) {
  const std::vector<RankSummary> ranks = {Rank(0, {{100, 180, 10}}), Rank(1, {{101, 179, 10}}),
                                          Rank(2, {{270, 8, 12}}), Rank(3, {{268, 12, 10}})};
  const auto s = FindStepStragglers(ranks);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].rank, 2);
  EXPECT_EQ(s[0].cause, SlowCause::kComputing);
  EXPECT_EQ(s[0].work_ns, 282 * kMs);
  EXPECT_EQ(s[0].median_work_ns, 111 * kMs);  // lower median of 110, 111, 278, 282
  EXPECT_EQ(s[0].computing_excess_ns, 169 * kMs);
  ASSERT_EQ(s[0].waiters.size(), 3u);
  EXPECT_EQ(s[0].waiters[0].rank, 0);
  EXPECT_EQ(s[0].waiters[0].extra_wait_ns, 172 * kMs);
  EXPECT_EQ(s[0].waiters[2].rank, 3);
  // Doing the median rank's work (111 ms) it would not hold the others back: the step ~171 ms shorter
  // (its lead), which is no more than the longest extra wait (172 ms).
  EXPECT_EQ(s[0].saving_if_median_ns, 171 * kMs);
}

TEST(SlowRanks, FreeTimeCauseAndEqualWork) {
  const auto free = FindStepStragglers({Rank(0, {{100, 50, 5}}), Rank(1, {{101, 1, 53}})});
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0].rank, 1);
  EXPECT_EQ(free[0].cause, SlowCause::kFree);
  const auto same = FindStepStragglers({Rank(0, {{100, 50, 5}}), Rank(1, {{100, 50, 5}})});
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].cause, SlowCause::kNone);
  EXPECT_TRUE(same[0].waiters.empty());
  EXPECT_TRUE(FindStepStragglers({Rank(0, {{1, 2, 3}})}).empty());  // one rank: nobody to compare
}

}  // namespace
}  // namespace profdiff::analysis

namespace profdiff::analysis {
namespace {

RankSummary WithCollectives(int64_t rank, const std::vector<std::pair<std::string, int64_t>>& ops) {
  RankSummary r;
  r.rank = rank;
  for (const auto& [name, start] : ops)
    r.collectives.push_back({.group = "dp", .name = name, .start_ns = start, .end_ns = start + 10});
  return r;
}

TEST(Collectives, MatchedByGroupAndOrderWithArrivalsWaitsAndSkew) {
  const std::vector<RankSummary> ranks = {WithCollectives(0, {{"allreduce_1", 100}, {"allreduce_2", 500}}),
                                          WithCollectives(1, {{"allreduce_1", 160}, {"allreduce_2", 500}}),
                                          WithCollectives(2, {{"allreduce_1", 130}, {"broadcast", 520}})};
  const CollectiveMatching m = MatchCollectives(ranks);
  ASSERT_EQ(m.collectives.size(), 2u);
  const MatchedCollective& a = m.collectives[0];
  EXPECT_EQ(a.group, "dp");
  EXPECT_EQ(a.index, 0);
  EXPECT_EQ(a.last_rank, 1);
  EXPECT_EQ(a.skew_ns, 60);
  ASSERT_EQ(a.arrivals.size(), 3u);
  EXPECT_EQ(a.arrivals[0].wait_ns, 60);  // rank 0 waited for rank 1
  EXPECT_EQ(a.arrivals[1].wait_ns, 0);
  EXPECT_EQ(a.arrivals[2].wait_ns, 30);
  EXPECT_FALSE(a.names_differ);
  EXPECT_TRUE(m.collectives[1].names_differ);  // rank 2 ran a broadcast at that position
  EXPECT_EQ(m.collectives[1].last_rank, 2);
  const std::vector<LateRank> late = LastArrivals(m);
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0].rank, 1);  // 60 ns of skew beats rank 2's 20 at one collective each
  EXPECT_EQ(late[0].times_last, 1);
  EXPECT_EQ(late[1].rank, 2);
  EXPECT_TRUE(m.notes.empty());
}

TEST(Collectives, WaiterBlockerPairsSumTheWaitsOnTheLastRank) {
  const CollectiveMatching m = MatchCollectives({WithCollectives(0, {{"a", 100}, {"b", 500}, {"c", 900}}),
                                                 WithCollectives(1, {{"a", 160}, {"b", 500}, {"c", 905}}),
                                                 WithCollectives(2, {{"a", 130}, {"b", 520}, {"c", 900}})});
  const std::vector<RankWaitsOn> w = WaitsOn(m);
  // a: ranks 0 and 2 wait 60 and 30 on rank 1; b: ranks 0 and 1 wait 20 on rank 2; c: 0 and 2 wait 5 on 1.
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0].waiter, 0);
  EXPECT_EQ(w[0].blocker, 1);
  EXPECT_EQ(w[0].wait_ns, 65);
  EXPECT_EQ(w[0].collectives, 2);
  EXPECT_EQ(w[1].waiter, 2);
  EXPECT_EQ(w[1].blocker, 1);
  EXPECT_EQ(w[1].wait_ns, 35);
  EXPECT_EQ(w[2].blocker, 2);
  EXPECT_EQ(w[2].wait_ns, 20);
  EXPECT_EQ(w[3].waiter, 1);
  EXPECT_EQ(w[3].blocker, 2);
  EXPECT_TRUE(WaitsOn(MatchCollectives({WithCollectives(0, {{"a", 1}}), WithCollectives(1, {{"a", 1}})})).empty());
}

TEST(Collectives, LatenessIsMeasuredInTimeNotCounted) {
  // Rank 0 is last by 1 ns at three collectives, rank 1 by 5000 ns at one: rank 1 holds the others back.
  const CollectiveMatching m = MatchCollectives({WithCollectives(0, {{"a", 1}, {"b", 101}, {"c", 201}, {"d", 300}}),
                                                 WithCollectives(1, {{"a", 0}, {"b", 100}, {"c", 200}, {"d", 5300}})});
  const std::vector<LateRank> late = LastArrivals(m);
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0].rank, 1);
  EXPECT_EQ(late[0].skew_ns, 5000);
  EXPECT_EQ(late[1].rank, 0);
  EXPECT_EQ(late[1].times_last, 3);
}

TEST(Collectives, DifferentCountsAreMatchedUpToTheShortestWithANote) {
  const CollectiveMatching m =
      MatchCollectives({WithCollectives(0, {{"a", 0}, {"b", 10}}), WithCollectives(1, {{"a", 0}})});
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_EQ(m.collectives[0].skew_ns, 0);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("rank 0: 2, rank 1: 1"), std::string::npos) << m.notes[0];
  EXPECT_TRUE(LastArrivals(m).empty());  // arriving together is nobody's fault
  EXPECT_TRUE(MatchCollectives({WithCollectives(0, {{"a", 0}})}).collectives.empty());  // one rank
}

TEST(Collectives, AnAscendRankGivesItsHcclOpsByGroup) {
  LoadOptions load;
  auto p = LoadProfile(std::string(PROFDIFF_SOURCE_DIR) + "/tests/data/ascend_910b_alexnet/rank0_ascend_pt", load);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const Timeline t = BuildTimeline(**p, {});
  const RankSummary r = SummarizeRank(**p, &t, 0, "text", "rank0_ascend_pt", {});
  ASSERT_EQ(r.collectives.size(), 4u);  // the step's four allreduces, in start order
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r.collectives[i].name, "hcom_allReduce__586_" + std::to_string(i) + "_1");
    EXPECT_EQ(r.collectives[i].group, "Group 0 Communication");
    if (i > 0) {
      EXPECT_GT(r.collectives[i].start_ns, r.collectives[i - 1].start_ns);
    }
  }
  EXPECT_EQ(r.collectives[0].start_ns, 1736408883732241564);
  for (const RankCollective& c : r.collectives) EXPECT_EQ(c.step, r.steps.front().step);  // the one step
  EXPECT_EQ(r.collectives[0].end_ns - r.collectives[0].start_ns, 79089520);  // 79089.52021875 µs, exact ns
}

TEST(Collectives, AGpuRankGivesItsCommunicationKernelsInStartOrder) {
  testing::ProfileBuilder b(DeviceKind::kGpu);
  const TrackId stream = b.Track("0", "stream 7");
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", "kernel", 500, 50);
  b.Add(stream, SliceKind::kKernel, "void at::native::vectorized_elementwise_kernel<4>", "kernel", 100, 20);
  b.Add(stream, SliceKind::kKernel, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", "kernel", 200, 30);
  b.Add(stream, SliceKind::kCpuOp, "nccl:all_reduce", "cpu_op", 90, 5);  // a host op: no collective
  const Timeline t = BuildTimeline(b.p, {});
  const RankSummary r = SummarizeRank(b.p, &t, 3, "kineto", "rank3.json", {});
  ASSERT_EQ(r.collectives.size(), 2u);
  EXPECT_EQ(r.collectives[0].name, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t");
  EXPECT_EQ(r.collectives[0].group, "communication kernels");
  EXPECT_EQ(r.collectives[1].start_ns, 500);
  EXPECT_EQ(r.collectives[1].end_ns, 550);
}

TEST(Collectives, KinetoKernelsOfNamedProcessGroupsAreMatchedPerGroup) {
  // Rank 0 runs the tensor-parallel allreduce before the data-parallel one, rank 1 the other way
  // round: by process group each is matched with its own, not with the other group's by position.
  std::vector<RankSummary> ranks;
  for (int rank : {0, 1}) {
    testing::ProfileBuilder b(DeviceKind::kGpu);
    const TrackId stream = b.Track("0", "stream 7");
    const int64_t tp_at = rank == 0 ? 100 : 300, dp_at = rank == 0 ? 200 : 150;
    b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "kernel", tp_at, 20, {},
          {{ArgKey::kPgName, "1"}});
    b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "kernel", dp_at, 20, {},
          {{ArgKey::kPgName, "0"}});
    const Timeline t = BuildTimeline(b.p, {});
    ranks.push_back(SummarizeRank(b.p, &t, rank, "kineto", "r.json", {}));
  }
  EXPECT_EQ(ranks[0].collectives[0].group, "pg 1");
  const CollectiveMatching m = MatchCollectives(ranks);
  ASSERT_EQ(m.collectives.size(), 2u);
  for (const MatchedCollective& c : m.collectives) EXPECT_FALSE(c.names_differ) << c.group;
  const MatchedCollective& tp = m.collectives[0].group == "pg 1" ? m.collectives[0] : m.collectives[1];
  EXPECT_EQ(tp.last_rank, 1);
  EXPECT_EQ(tp.skew_ns, 200);
}

TEST(Collectives, NumberedCollectivesAreMatchedBySeqAcrossAMissedOne) {
  // Rank 1's capture started one collective later: by order its first op would meet rank 0's first;
  // by their Seq numbers 6 meets 6 and 7 meets 7, and rank 0's 5 is left out with a note.
  auto numbered = [](int64_t rank, const std::vector<std::pair<int64_t, int64_t>>& seq_start) {
    RankSummary r;
    r.rank = rank;
    for (const auto& [seq, start] : seq_start)
      r.collectives.push_back({.group = "pg 0", .name = "nccl", .start_ns = start, .end_ns = start + 10, .seq = seq});
    return r;
  };
  const CollectiveMatching m = MatchCollectives({numbered(0, {{5, 100}, {6, 300}, {7, 500}}), numbered(1, {{6, 320}, {7, 505}})});
  ASSERT_EQ(m.collectives.size(), 2u);
  EXPECT_EQ(m.collectives[0].seq, 6);
  EXPECT_EQ(m.collectives[0].index, 0);
  EXPECT_EQ(m.collectives[0].skew_ns, 20);
  EXPECT_EQ(m.collectives[0].last_rank, 1);
  EXPECT_EQ(m.collectives[1].seq, 7);
  EXPECT_EQ(m.collectives[1].skew_ns, 5);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("1 ops of some ranks only are left out"), std::string::npos) << m.notes[0];
  // One op without a number (or a number twice on a rank): the group falls back to order.
  RankSummary unnumbered = numbered(1, {{6, 320}, {7, 505}});
  unnumbered.collectives[1].seq = -1;
  const CollectiveMatching by_order = MatchCollectives({numbered(0, {{5, 100}, {6, 300}, {7, 500}}), unnumbered});
  ASSERT_EQ(by_order.collectives.size(), 2u);
  EXPECT_EQ(by_order.collectives[0].seq, -1);
  EXPECT_EQ(by_order.collectives[0].skew_ns, 220);  // rank 0's 5th met rank 1's 6th
}

TEST(Collectives, AKernelTakesItsSeqAndGroupFromItsRecordParamCommsHostOp) {
  testing::ProfileBuilder b(DeviceKind::kGpu);
  const TrackId host = b.Track("1", "thread 1");
  const TrackId stream = b.Track("0", "stream 7");
  b.Add(host, SliceKind::kCpuOp, "record_param_comms", "cpu_op", 90, 20,
        {{ArgKey::kExternalId, 41}, {ArgKey::kSeq, 12}}, {{ArgKey::kPgName, "3"}});
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "kernel", 200, 30, {{ArgKey::kExternalId, 41}});
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllGather_RING_LL", "kernel", 300, 30, {{ArgKey::kExternalId, 42}, {ArgKey::kSeq, 13}},
        {{ArgKey::kPgName, "3"}});
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_Broadcast_RING_LL", "kernel", 400, 30);  // no host op, no number
  const Timeline t = BuildTimeline(b.p, {});
  const RankSummary r = SummarizeRank(b.p, &t, 0, "kineto", "r.json", {});
  ASSERT_EQ(r.collectives.size(), 3u);
  EXPECT_EQ(r.collectives[0].group, "pg 3");
  EXPECT_EQ(r.collectives[0].seq, 12);
  EXPECT_EQ(r.collectives[1].group, "pg 3");
  EXPECT_EQ(r.collectives[1].seq, 13);
  EXPECT_EQ(r.collectives[2].group, "communication kernels");
  EXPECT_EQ(r.collectives[2].seq, -1);
}

TEST(Collectives, AKinetoCollectivesAlgorithmBandwidthFromItsMessageSizeAndDtype) {
  testing::ProfileBuilder b(DeviceKind::kGpu);
  const TrackId host = b.Track("1", "thread 1");
  const TrackId stream = b.Track("0", "stream 7");
  // 2,500,000 floats (10 MB) in 4 ms: 2.5 GB/s; the dtype on the host op, the count on the kernel.
  b.Add(host, SliceKind::kCpuOp, "record_param_comms", "cpu_op", 90, 20, {{ArgKey::kExternalId, 7}}, {{ArgKey::kDtype, "Float"}});
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "kernel", 200, 4000000,
        {{ArgKey::kExternalId, 7}, {ArgKey::kInMsgNelems, 2500000}});
  b.Add(stream, SliceKind::kKernel, "ncclDevKernel_AllGather_RING_LL", "kernel", 5000000, 100,
        {{ArgKey::kInMsgNelems, 16}}, {{ArgKey::kDtype, "Float8_e4m3fn_unknown"}});  // an unknown dtype: no size
  const Timeline t = BuildTimeline(b.p, {});
  const RankSummary r = SummarizeRank(b.p, &t, 0, "kineto", "r.json", {});
  ASSERT_EQ(r.collectives.size(), 2u);
  EXPECT_EQ(r.collectives[0].transport, "NCCL");
  EXPECT_DOUBLE_EQ(r.collectives[0].size_mb, 10.0);
  EXPECT_DOUBLE_EQ(r.collectives[0].bandwidth_gbps, 2.5);
  EXPECT_EQ(r.collectives[1].transport, "");
  EXPECT_EQ(r.collectives[1].bandwidth_gbps, -1);
}

}  // namespace
}  // namespace profdiff::analysis
