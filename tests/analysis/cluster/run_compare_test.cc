// Two runs of a job compared from their ranks' step rows (run_compare.h): the job's step, the mean
// rank, per-rank means, the slow ranks new/resolved, and the gate on it.
#include "profdiff/analysis/cluster/run_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "rank_rows.h"

namespace profdiff::analysis {
namespace {

using testing::kMs;
using testing::Rank;

// Four ranks in lock step (100 ms computing, 20 ms communication, 5 ms free, two steps); in the
// comparison rank 2 computes 30 ms more before the collective and the others wait for it.
std::vector<RankSummary> Balanced() {
  return {Rank(0, {{100, 20, 5}, {100, 20, 5}}), Rank(1, {{100, 20, 5}, {100, 20, 5}}),
          Rank(2, {{100, 20, 5}, {100, 20, 5}}), Rank(3, {{100, 20, 5}, {100, 20, 5}})};
}
std::vector<RankSummary> WithStraggler() {
  return {Rank(0, {{100, 50, 5}, {100, 50, 5}}), Rank(1, {{100, 50, 5}, {100, 50, 5}}),
          Rank(2, {{130, 20, 5}, {130, 20, 5}}), Rank(3, {{100, 50, 5}, {100, 50, 5}})};
}

ClusterRunComparison Compare(const std::vector<RankSummary>& base, const std::vector<RankSummary>& comparison) {
  return CompareRuns(base, FindStepStragglers(base), comparison, FindStepStragglers(comparison));
}

TEST(ClusterRunCompare, AStragglerIsNewAndTheJobStepRegresses) {
  const ClusterRunComparison c = Compare(Balanced(), WithStraggler());
  ASSERT_EQ(c.steps.size(), 2u);
  EXPECT_FALSE(c.steps_by_position);
  EXPECT_EQ(c.base.step_ns, 125 * kMs);
  EXPECT_EQ(c.comparison.step_ns, 155 * kMs);
  EXPECT_EQ(c.comparison.computing_ns, (100 + 100 + 130 + 100) * kMs / 4);
  EXPECT_EQ(c.comparison.communication_ns, (50 + 50 + 20 + 50) * kMs / 4);
  EXPECT_EQ(c.base.slow_excess_ns, 0);
  EXPECT_EQ(c.comparison.slow_excess_ns, 30 * kMs);
  ASSERT_EQ(c.steps[0].comparison.slow_rank, 2);
  EXPECT_EQ(c.steps[0].comparison.slow_cause, SlowCause::kComputing);
  EXPECT_FALSE(c.steps[0].base.slow_rank.has_value());
  ASSERT_EQ(c.slow_ranks.size(), 1u);
  EXPECT_EQ(c.slow_ranks[0].rank, 2);
  EXPECT_EQ(c.slow_ranks[0].status, "new");
  EXPECT_EQ(c.slow_ranks[0].comparison_steps, 2);
  ASSERT_EQ(c.ranks.size(), 4u);
  EXPECT_EQ(c.ranks[2].comparison_computing_ns - c.ranks[2].base_computing_ns, 30 * kMs);
  EXPECT_EQ(c.ranks[0].comparison_communication_ns - c.ranks[0].base_communication_ns, 30 * kMs);
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_TRUE(c.incomparable.empty());

  // The other way round the straggler is resolved.
  const ClusterRunComparison back = Compare(WithStraggler(), Balanced());
  ASSERT_EQ(back.slow_ranks.size(), 1u);
  EXPECT_EQ(back.slow_ranks[0].status, "resolved");
}

TEST(ClusterRunCompare, TheGateJudgesTheJobStepAndTheMeanRank) {
  const ClusterRunComparison c = Compare(Balanced(), WithStraggler());
  GateOptions o;
  o.e2e_pct = 10;
  GateResult g = EvaluateClusterGate(c, o);
  EXPECT_TRUE(g.ran);
  EXPECT_EQ(g.basis, GateBasis::kPerStep);
  EXPECT_EQ(g.verdict, Verdict::kRegression);  // +24 %
  ASSERT_EQ(g.checks.size(), 1u);
  EXPECT_EQ(g.checks[0].delta_ns, 30 * kMs);
  EXPECT_NE(g.checks[0].reason.find("e2e (job step) +30.000 ms (+24.00%) exceeds 10.00%"), std::string::npos)
      << g.checks[0].reason;
  o.e2e_pct = 30;
  EXPECT_EQ(EvaluateClusterGate(c, o).verdict, Verdict::kPass);
  // The mean rank computes 7.5 ms more (+7.5 %); free time did not change.
  o.e2e_pct.reset();
  o.compute_pct = 5;
  o.free_pct = 0;
  g = EvaluateClusterGate(c, o);
  EXPECT_EQ(g.verdict, Verdict::kRegression);
  ASSERT_EQ(g.checks.size(), 2u);
  EXPECT_EQ(g.checks[0].delta_ns, 7'500'000);
  EXPECT_EQ(g.checks[1].verdict, Verdict::kPass);
  // No gate asked: nothing ran, the verdict is pass.
  EXPECT_FALSE(EvaluateClusterGate(c, {}).ran);
}

TEST(ClusterRunCompare, StepsWithoutACommonIdArePairedInOrderWithAWarning) {
  const ClusterRunComparison c =
      Compare({Rank(0, {{10, 2, 1}}, 5), Rank(1, {{10, 2, 1}}, 5)}, {Rank(0, {{11, 2, 1}}, 80), Rank(1, {{11, 2, 1}}, 80)});
  EXPECT_TRUE(c.steps_by_position);
  ASSERT_EQ(c.steps.size(), 1u);
  EXPECT_EQ(c.steps[0].base.step, "5");
  EXPECT_EQ(c.steps[0].comparison.step, "80");
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("no step id in common"), std::string::npos);
}

TEST(ClusterRunCompare, DifferentRanksAreNamedAndAnEmptyRunIsIncomparable) {
  ClusterRunComparison c = Compare({Rank(0, {{10, 2, 1}}), Rank(1, {{10, 2, 1}}), Rank(2, {{10, 2, 1}})},
                                   {Rank(0, {{10, 2, 1}}), Rank(1, {{10, 2, 1}}), Rank(5, {{10, 2, 1}})});
  EXPECT_EQ(c.base_only_ranks, std::vector<int64_t>{2});
  EXPECT_EQ(c.comparison_only_ranks, std::vector<int64_t>{5});
  ASSERT_EQ(c.ranks.size(), 2u);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("base only: 2; comparison only: 5"), std::string::npos) << c.warnings[0];
  EXPECT_TRUE(c.incomparable.empty());

  RankSummary no_steps;
  no_steps.rank = 0;
  c = Compare({no_steps}, {Rank(0, {{10, 2, 1}})});
  EXPECT_TRUE(c.steps.empty());
  ASSERT_EQ(c.incomparable.size(), 1u);
  EXPECT_NE(c.incomparable[0].find("the base run has no step"), std::string::npos);
  GateOptions o;
  o.e2e_pct = 5;
  const GateResult g = EvaluateClusterGate(c, o);
  EXPECT_EQ(g.verdict, Verdict::kIncomparable);
  ASSERT_EQ(g.checks.size(), 1u);
  EXPECT_FALSE(g.checks[0].evaluated);
}

}  // namespace
}  // namespace profdiff::analysis
