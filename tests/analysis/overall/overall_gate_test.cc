// The CI gate (README.md#profdiff-compare): thresholds, noise floor, verdict precedence,
// comparability warnings.
#include <gtest/gtest.h>

#include <vector>

#include <tuple>

#include <cmath>
#include <limits>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/gate.h"

namespace profdiff::analysis {
namespace {

SideSummary Side(int64_t e2e, int64_t computing, int64_t comm, DeviceKind d = DeviceKind::kGpu) {
  SideSummary s;
  s.device = d;
  s.label = std::string(Name(d));
  s.has_overall = e2e != 0;
  s.e2e_ns = e2e;
  s.computing_ns = computing;
  s.uncovered_communication_ns = comm;
  s.free_ns = e2e - computing - comm;
  return s;
}

OverallComparison Cmp(SideSummary b, SideSummary c) {
  OverallComparison x;
  x.base = std::move(b);
  x.comparison = std::move(c);
  return x;
}

constexpr int64_t kMs = 1000000;

TEST(OverallGate, NoGateMeansNotRunAndPass) {
  GateResult r = EvaluateGate(Cmp(Side(10 * kMs, 5 * kMs, 0), Side(20 * kMs, 5 * kMs, 0)), {});
  EXPECT_FALSE(r.ran);
  EXPECT_EQ(r.verdict, Verdict::kPass);
  EXPECT_TRUE(r.checks.empty());
}

TEST(OverallGate, RegressionNeedsBothThePercentageAndTheNoiseFloor) {
  // +10 % of 10 ms = +1 ms.
  OverallComparison c = Cmp(Side(10 * kMs, 5 * kMs, 0), Side(11 * kMs, 5 * kMs, 0));
  GateOptions o;
  o.whole_capture = true;  // no steps in these summaries
  o.e2e_pct = 5;
  EXPECT_EQ(EvaluateGate(c, o).verdict, Verdict::kRegression);
  o.e2e_pct = 10;  // exactly the threshold: not more than PCT
  EXPECT_EQ(EvaluateGate(c, o).verdict, Verdict::kPass);
  o.e2e_pct = 5;
  o.noise_floor_ms = 1.0;  // exactly the floor: not more than the floor
  EXPECT_EQ(EvaluateGate(c, o).verdict, Verdict::kPass);
  o.noise_floor_ms = 0.999;
  GateResult r = EvaluateGate(c, o);
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].delta_ns, kMs);
  ASSERT_TRUE(r.checks[0].delta_pct.has_value());
  EXPECT_DOUBLE_EQ(*r.checks[0].delta_pct, 10.0);
  EXPECT_EQ(GateExitCode(r.verdict), 1);
}

TEST(OverallGate, EachCategoryIsCheckedSeparately) {
  // Computing +2 ms, communication -2 ms: E2E unchanged.
  OverallComparison c = Cmp(Side(10 * kMs, 4 * kMs, 4 * kMs), Side(10 * kMs, 6 * kMs, 2 * kMs));
  GateOptions o;
  o.whole_capture = true;  // no steps in these summaries
  o.e2e_pct = 1;
  o.comm_pct = 1;
  EXPECT_EQ(EvaluateGate(c, o).verdict, Verdict::kPass);
  o.compute_pct = 1;
  GateResult r = EvaluateGate(c, o);
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  ASSERT_EQ(r.checks.size(), 3u);  // in the order e2e, computing, communication
  EXPECT_EQ(r.checks[1].category, GateCategory::kComputing);
  EXPECT_EQ(r.checks[1].verdict, Verdict::kRegression);
  EXPECT_EQ(r.checks[2].verdict, Verdict::kPass);
}

TEST(OverallGate, ZeroBaseRegressesAboveTheFloor) {
  OverallComparison c = Cmp(Side(10 * kMs, 5 * kMs, 0), Side(10 * kMs, 5 * kMs, 1 * kMs));
  GateOptions o;
  o.whole_capture = true;  // no steps in these summaries
  o.comm_pct = 50;
  GateResult r = EvaluateGate(c, o);
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  EXPECT_FALSE(r.checks[0].delta_pct.has_value());
}

TEST(OverallGate, MissingDataIsIncomparableNeverPass) {
  GateOptions o;
  o.whole_capture = true;  // no steps in these summaries
  o.e2e_pct = 5;
  GateResult r = EvaluateGate(Cmp(Side(0, 0, 0), Side(10 * kMs, 5 * kMs, 0)), o);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  EXPECT_EQ(GateExitCode(r.verdict), 4);
  EXPECT_FALSE(r.checks[0].evaluated);
  // Computing needs kernel details on both sides.
  SideSummary hidden = Side(10 * kMs, 5 * kMs, 0, DeviceKind::kNpu);
  hidden.hide_op_details = true;
  GateOptions oc;
  oc.whole_capture = true;  // no steps in these summaries
  oc.compute_pct = 5;
  EXPECT_EQ(EvaluateGate(Cmp(Side(10 * kMs, 5 * kMs, 0), hidden), oc).verdict, Verdict::kIncomparable);
  // A regression elsewhere wins over incomparable.
  oc.e2e_pct = 5;
  SideSummary slower = hidden;
  slower.e2e_ns = 20 * kMs;
  slower.free_ns = 15 * kMs;
  EXPECT_EQ(EvaluateGate(Cmp(Side(10 * kMs, 5 * kMs, 0), slower), oc).verdict, Verdict::kRegression);
  // A threshold that is not a number cannot pass.
  GateOptions on;
  on.whole_capture = true;  // no steps in these summaries
  on.e2e_pct = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(EvaluateGate(Cmp(Side(10 * kMs, 5 * kMs, 0), Side(10 * kMs, 5 * kMs, 0)), on).verdict,
            Verdict::kIncomparable);
}

TEST(OverallGate, ComparabilityWarnings) {
  ComparabilityInputs in;
  in.base_steps = 2;
  in.comparison_steps = 3;
  SideSummary npu = Side(10 * kMs, 5 * kMs, 0, DeviceKind::kNpu);
  npu.hide_op_details = true;
  npu.warnings.push_back("The file communication.json does not exist.");
  auto w = ComparabilityWarnings(Cmp(Side(10 * kMs, 5 * kMs, 0), npu), in);
  auto has = [&](const std::string& s) {
    for (const auto& x : w)
      if (x.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("different devices: base is GPU, comparison is NPU"));
  EXPECT_TRUE(has("different step counts: base has 2 step(s), comparison has 3"));
  EXPECT_TRUE(has("comparison has no usable kernel details"));
  EXPECT_TRUE(has("comparison: The file communication.json does not exist."));
  EXPECT_FALSE(has("no end-to-end time"));
}

TEST(OverallGate, StepCountFromTheTimelineStepsElseStepTraceRows) {
  testing::ProfileBuilder b(DeviceKind::kNpu);
  EXPECT_EQ(CountProfilerSteps(BuildTimeline(b.p, {})), std::nullopt);
  b.p.npu.step_trace.present = true;
  b.p.npu.step_trace.steps = {"1", "2", "2", ""};
  EXPECT_EQ(CountProfilerSteps(BuildTimeline(b.p, {})), 3);  // distinct rows
  TrackId cpu = b.Track("1", "1");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#4", "cpu_op", 0, 10);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#5", "cpu_op", 10, 10);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#4", "cpu_op", 20, 10);
  b.Add(cpu, SliceKind::kCpuOp, "ProfilerStep#6", "cpu_op", 30, 10);  // not a step marker
  EXPECT_EQ(CountProfilerSteps(BuildTimeline(b.p, {})), 2);  // markers win
}

// The case: the slower run cut to 3 of its 6 steps against the faster run's 6. The capture
// totals say the slower run is 47 % faster; per step it is 20 % slower.
TEST(OverallGate, PerStepWhenBothSidesHaveSteps) {
  OverallComparison c = Cmp(Side(6 * 146 * kMs, 4 * 146 * kMs, 0), Side(3 * 176 * kMs, 3 * 150 * kMs, 0));
  GateOptions o;
  o.e2e_pct = 5;
  o.compute_pct = 5;
  ComparabilityInputs in;
  in.base_step_stats = StepStats{6, 146 * kMs, 146 * kMs, 140 * kMs, 150 * kMs};
  in.comparison_step_stats = StepStats{3, 176 * kMs, 176 * kMs, 170 * kMs, 180 * kMs};
  GateResult r = EvaluateGate(c, o, in);
  EXPECT_EQ(r.basis, GateBasis::kPerStep);
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  ASSERT_EQ(r.checks.size(), 2u);
  EXPECT_EQ(r.checks[0].base_ns, 146 * kMs);  // the median step
  EXPECT_EQ(r.checks[0].comparison_ns, 176 * kMs);
  EXPECT_NE(r.checks[0].reason.find("e2e per step +30.000 ms"), std::string::npos) << r.checks[0].reason;
  EXPECT_EQ(r.checks[1].base_ns, 4 * 146 * kMs / 6);  // computing: capture total / steps
  EXPECT_EQ(r.checks[1].comparison_ns, 150 * kMs);
}

TEST(OverallGate, ASideWithoutStepsIsIncomparableUnlessWholeCapture) {
  OverallComparison c = Cmp(Side(10 * kMs, 5 * kMs, 0), Side(5 * kMs, 5 * kMs, 0));
  GateOptions o;
  o.e2e_pct = 5;
  ComparabilityInputs in;
  in.base_step_stats = StepStats{6, kMs, kMs, kMs, kMs};
  GateResult r = EvaluateGate(c, o, in);
  EXPECT_EQ(r.basis, GateBasis::kNone);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_NE(r.checks[0].reason.find("comparison has no ProfilerStep markers"), std::string::npos)
      << r.checks[0].reason;
  o.whole_capture = true;
  r = EvaluateGate(c, o, in);
  EXPECT_EQ(r.basis, GateBasis::kWholeCapture);
  EXPECT_EQ(r.verdict, Verdict::kPass);  // the whole captures: 10 ms -> 5 ms
}

TEST(OverallGate, StepDurationsMedianOfEvenCounts) {
  Profile p;
  Timeline t;
  t.profile = &p;
  for (auto [id, start, end] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {1, 0, 10}, {2, 10, 40}, {3, 40, 60}, {3, 60, 61}, {4, 70, 110}}) {
    Step s;
    s.id = id;
    s.start_ns = start;
    s.end_ns = end;
    t.steps.push_back(s);
  }
  const std::optional<StepStats> st = StepDurations(t);
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->count, 4);      // step 3's two markers are one step [40, 61]
  EXPECT_EQ(st->median_ns, 25);  // durations 10, 21, 30, 40: (21 + 30) / 2 rounded down
  EXPECT_EQ(st->mean_ns, 25);    // 101 / 4
  EXPECT_EQ(st->min_ns, 10);
  EXPECT_EQ(st->max_ns, 40);
  Timeline none;
  none.profile = &p;
  EXPECT_FALSE(StepDurations(none).has_value());
}

}  // namespace
}  // namespace profdiff::analysis
