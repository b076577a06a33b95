// The slow-rank vote's judges, grouping and exact statistics (slow_rank_vote.h). The reference's own
// results on random cases are checked in tests/report/cluster/slow_rank_csv_test.cc.
#include "profdiff/analysis/cluster/slow_rank_vote.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "profdiff/analysis/common/numpy_numbers.h"

namespace profdiff::analysis {
namespace {

TEST(SlowRankVote, DixonAtItsCriticalValueIsNotAnOutlier) {
  // n = 4: (s1 - s0) / (s3 - s0) must exceed 0.920.
  EXPECT_TRUE(JudgeSlowRankExact({92, 0, 95, 100}).empty());  // exactly 0.92
  EXPECT_EQ(JudgeSlowRankExact({93, 95, 0, 100}), std::vector<size_t>{2});
  EXPECT_TRUE(JudgeSlowRankFloat({0.092, 0.0, 0.095, 0.1}).empty());
  EXPECT_EQ(JudgeSlowRankFloat({0.093, 0.095, 0.0, 0.1}), std::vector<size_t>{2});
  // Three distinct values or fewer: no test (its denominator could be 0); fewer than 3 values: none.
  EXPECT_TRUE(JudgeSlowRankExact({1, 100, 100, 101, 101}).empty());
  EXPECT_TRUE(JudgeSlowRankExact({1, 100}).empty());
  // The first of equal minima is the one voted for.
  EXPECT_EQ(JudgeSlowRankExact({500, 1, 900, 1000, 1, 950, 990, 980}), std::vector<size_t>{});
  EXPECT_EQ(JudgeSlowRankExact({990, 1, 900, 1000, 910, 950, 995, 980}), std::vector<size_t>{1});
}

TEST(SlowRankVote, ThreeSigmaAboveOneHundredRanks) {
  std::vector<int64_t> d(120, 1000);
  for (size_t i = 0; i < d.size(); ++i) d[i] += static_cast<int64_t>(i % 7);
  EXPECT_TRUE(JudgeSlowRankExact(d).empty());
  d[42] = 10;  // far below: an outlier
  EXPECT_EQ(JudgeSlowRankExact(d), std::vector<size_t>{42});
  d[42] = 1000;
  d[7] = 100000;  // far above: the fastest rank (the first minimum) is voted for
  EXPECT_EQ(JudgeSlowRankExact(d), std::vector<size_t>{0});
  std::vector<double> us;
  for (int64_t v : d) us.push_back(static_cast<double>(v) / 1000.0);
  EXPECT_EQ(JudgeSlowRankFloat(us), std::vector<size_t>{0});
}

std::vector<VoteOp> Ops(const std::vector<std::vector<int64_t>>& durations, const std::string& name = "allreduce") {
  std::vector<VoteOp> ops;
  for (size_t r = 0; r < durations.size(); ++r)
    for (size_t k = 0; k < durations[r].size(); ++k)
      ops.push_back({static_cast<int64_t>(r), "g", name + "_" + std::to_string(k), static_cast<int64_t>(k * 1000000 + r),
                     durations[r][k]});
  return ops;
}

TEST(SlowRankVote, VotesStatisticsAndOrder) {
  // Rank 3 is late at collective 1 (it waits least there), rank 1 at collective 0.
  const auto ops = Ops({{900, 800}, {100, 810}, {905, 805}, {910, 20}, {920, 815}});
  for (bool reference : {false, true}) {
    ReferencePolicy policy = ExactPolicy();
    policy.slow_rank_vote_as_reference = reference;
    const SlowRankVote v = VoteSlowRanks(ops, policy);
    ASSERT_EQ(v.ranks.size(), 2u);
    EXPECT_EQ(v.ranks[0].rank, 1);  // voted first (collective 0 comes first)
    EXPECT_EQ(v.ranks[1].rank, 3);
    ASSERT_EQ(v.ops.size(), 2u);
    EXPECT_EQ(v.ops[0].slow_ranks, std::vector<int64_t>{1});
    EXPECT_EQ(v.ops[0].timestamp_ns, 1);
    EXPECT_EQ(v.ops[1].timestamp_ns, 1000003);
    EXPECT_EQ(v.ops[0].stats.count, 5);
  }
  const SlowRankVote exact = VoteSlowRanks(ops, ExactPolicy());
  const VoteStats& s = exact.ops[0].stats;  // 100, 900, 905, 910, 920
  EXPECT_EQ(s.min_q4, 400);
  EXPECT_EQ(s.q1_q4, 3600);
  EXPECT_EQ(s.median_q4, 3620);
  EXPECT_EQ(s.q3_q4, 3640);
  EXPECT_EQ(s.max_q4, 3680);
  EXPECT_EQ(s.sum_q4, 4 * 3735);
  EXPECT_EQ(s.mean_q4, 4 * 747);  // 747 ns
  EXPECT_EQ(s.std_q4, 4 * 362);   // sample sd 361.6... rounded
}

TEST(SlowRankVote, PointToPointAndUnevenGroupsAreLeftOut) {
  auto ops = Ops({{900}, {100}, {905}, {910}, {920}}, "hcom_send");
  EXPECT_TRUE(VoteSlowRanks(ops, ExactPolicy()).ranks.empty());
  ops = Ops({{900}, {100}, {905}, {910}, {920}}, "ncclDevKernel_SendRecv");
  EXPECT_TRUE(VoteSlowRanks(ops, ExactPolicy()).ranks.empty());
  // The reference only leaves out names with "send" or "receive" as written.
  ReferencePolicy reference = ExactPolicy();
  reference.slow_rank_vote_as_reference = true;
  EXPECT_EQ(VoteSlowRanks(ops, reference).ranks.size(), 1u);
  // A rank without the group's second op: the group's ops do not line up, it is left out.
  ops = Ops({{900, 1}, {100, 2}, {905, 3}, {910, 4}, {920}});
  const SlowRankVote v = VoteSlowRanks(ops, ExactPolicy());
  EXPECT_TRUE(v.ranks.empty());
  EXPECT_EQ(v.excluded_groups, std::vector<std::string>{"g"});
}

TEST(SlowRankVote, DefaultMatchesOpsByPositionNotByName) {
  // GPU kernels repeat their names: by name they would be one "collective" of 10 ops.
  std::vector<VoteOp> ops;
  const std::vector<std::vector<int64_t>> d = {{900, 800}, {100, 810}, {905, 805}, {910, 20}, {920, 815}};
  for (size_t r = 0; r < d.size(); ++r)
    for (size_t k = 0; k < 2; ++k)
      ops.push_back({static_cast<int64_t>(r), "pg 0", "ncclKernel_AllReduce", static_cast<int64_t>(k * 100000), d[r][k]});
  const SlowRankVote v = VoteSlowRanks(ops, ExactPolicy());
  ASSERT_EQ(v.ops.size(), 2u);
  EXPECT_EQ(v.ranks.size(), 2u);
}

TEST(SlowRankVote, StepIdKeepsTheOpsThatCountInThatStep) {
  std::vector<RankSummary> ranks(2);
  for (int64_t r = 0; r < 2; ++r) {
    ranks[static_cast<size_t>(r)].rank = r;
    ranks[static_cast<size_t>(r)].collectives = {{.group = "g", .name = "a", .start_ns = 0, .end_ns = 5, .step = "1"},
                                                 {.group = "g", .name = "b", .start_ns = 9, .end_ns = 15, .step = "2"},
                                                 {.group = "g", .name = "c", .start_ns = 20, .end_ns = 25}};
  }
  EXPECT_EQ(VoteOpsOf(ranks).size(), 6u);
  const std::vector<VoteOp> two = VoteOpsOf(ranks, std::string("2"));
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].name, "b");
  EXPECT_EQ(two[1].rank, 1);
  EXPECT_EQ(two[1].dur_ns, 6);
  EXPECT_TRUE(VoteOpsOf(ranks, std::string("3")).empty());
}

TEST(NumpyNumbers, QuantilesMediansSumsAndDeviations) {
  const std::vector<double> s = {1.0, 2.0, 4.0, 8.0};
  EXPECT_EQ(NumpyQuantileSorted(s, 0.25), 1.75);
  EXPECT_EQ(NumpyQuantileSorted(s, 0.75), 5.0);
  EXPECT_EQ(BottleneckMedianSorted(s), 3.0);
  EXPECT_EQ(NumpySum(s), 15.0);
  EXPECT_EQ(NumpyMean(s), 3.75);
  // Pairwise summation differs from the naive loop: 1e16 + 1 + ... loses the ones one by one.
  std::vector<double> big(16, 1.0);
  big[0] = 1e16;
  double naive = 0;
  for (double v : big) naive += v;
  EXPECT_EQ(naive, 1e16);
  EXPECT_EQ(NumpySum(big), 1e16 + 14);  // eight partial sums: only the one on 1e16 loses its 1
  EXPECT_NEAR(NumpyStd(s, 0), 2.680951323690902, 1e-15);
  EXPECT_NEAR(BottleneckStd(s, 1), 3.095695936834452, 1e-15);
}

}  // namespace
}  // namespace profdiff::analysis
