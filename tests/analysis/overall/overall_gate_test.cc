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
  // A regression elsewhere wins over a check that cannot be evaluated (GPU against NPU: intended here).
  oc.e2e_pct = 5;
  oc.allow_cross_device = true;
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

namespace profdiff::analysis {
namespace {

DeviceIdentity Gpu(const char* vendor, const char* model) { return {DeviceKind::kGpu, vendor, model}; }

GateOptions E2eGate() {
  GateOptions o;
  o.whole_capture = true;
  o.e2e_pct = 5;
  return o;
}

// Issue "a verdict that cannot pass an unfair comparison": different device models or vendors, a low
// operator match and a side without device data make a gate incomparable (exit 4), whatever the
// checks say; --allow-cross-device and --min-match say a pair is intended.
TEST(OverallGateComparability, DifferentDeviceModelsAreIncomparableUnlessAllowed) {
  const OverallComparison same = Cmp(Side(10 * kMs, 5 * kMs, 0), Side(10 * kMs, 5 * kMs, 0));
  ComparabilityInputs in;
  in.base_device = Gpu("NVIDIA", "NVIDIA H100 80GB HBM3");
  in.comparison_device = Gpu("AMD", "AMD Instinct MI300X VF");
  GateResult r = EvaluateGate(same, E2eGate(), in);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  ASSERT_EQ(r.incomparable_reasons.size(), 1u);
  EXPECT_NE(r.incomparable_reasons[0].find("different devices: base is GPU (NVIDIA H100 80GB HBM3), comparison "
                                           "is GPU (AMD Instinct MI300X VF)"),
            std::string::npos)
      << r.incomparable_reasons[0];
  EXPECT_NE(r.incomparable_reasons[0].find("--allow-cross-device"), std::string::npos);
  // Even a regression is not judged on an incomparable pair.
  EXPECT_EQ(EvaluateGate(Cmp(Side(10 * kMs, 5 * kMs, 0), Side(20 * kMs, 5 * kMs, 0)), E2eGate(), in).verdict,
            Verdict::kIncomparable);
  GateOptions allowed = E2eGate();
  allowed.allow_cross_device = true;
  r = EvaluateGate(same, allowed, in);
  EXPECT_EQ(r.verdict, Verdict::kPass);
  EXPECT_TRUE(r.incomparable_reasons.empty());
  EXPECT_NE(r.warnings[0].find("(intended: --allow-cross-device)"), std::string::npos) << r.warnings[0];
  // Two models of one vendor differ too (case is ignored); unknown models do not.
  in.comparison_device = Gpu("NVIDIA", "Tesla V100-SXM2-32GB");
  EXPECT_EQ(EvaluateGate(same, E2eGate(), in).verdict, Verdict::kIncomparable);
  in.comparison_device = Gpu("nvidia", "nvidia h100 80gb hbm3");
  EXPECT_EQ(EvaluateGate(same, E2eGate(), in).verdict, Verdict::kPass);
  in.comparison_device = Gpu("", "");
  EXPECT_EQ(EvaluateGate(same, E2eGate(), in).verdict, Verdict::kPass);
  // GPU against NPU.
  in.comparison_device = {DeviceKind::kNpu, "Huawei", "Ascend910B"};
  r = EvaluateGate(Cmp(Side(10 * kMs, 5 * kMs, 0), Side(10 * kMs, 5 * kMs, 0, DeviceKind::kNpu)), E2eGate(), in);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  EXPECT_NE(r.warnings[0].find("comparison is NPU (Huawei Ascend910B)"), std::string::npos) << r.warnings[0];
}

TEST(OverallGateComparability, LowOperatorMatchIsIncomparable) {
  const OverallComparison same = Cmp(Side(10 * kMs, 5 * kMs, 0), Side(10 * kMs, 5 * kMs, 0));
  ComparabilityInputs in;
  in.operator_match = OperatorMatch{100, 1000, 60};  // 60 % of base, 6 % of comparison
  GateResult r = EvaluateGate(same, E2eGate(), in);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  ASSERT_EQ(r.incomparable_reasons.size(), 1u);
  EXPECT_NE(r.incomparable_reasons[0].find("60 of 100 base (60.0 %) and 60 of 1000 comparison operators (6.0 %)"),
            std::string::npos)
      << r.incomparable_reasons[0];
  GateOptions lower = E2eGate();
  lower.min_match_pct = 5;
  EXPECT_EQ(EvaluateGate(same, lower, in).verdict, Verdict::kPass);
  in.operator_match = OperatorMatch{100, 100, 50};  // exactly half: not below
  EXPECT_EQ(EvaluateGate(same, E2eGate(), in).verdict, Verdict::kPass);
  in.operator_match = OperatorMatch{0, 0, 0};  // no operators (MindSpore): nothing to say
  EXPECT_EQ(EvaluateGate(same, E2eGate(), in).verdict, Verdict::kPass);
}

TEST(OverallGateComparability, ASideWithoutDeviceDataIsIncomparable) {
  const OverallComparison same = Cmp(Side(10 * kMs, 5 * kMs, 0), Side(10 * kMs, 0, 0, DeviceKind::kNpu));
  ComparabilityInputs in;
  in.base_device_events = 10;
  in.comparison_device_events = 0;
  in.comparison_format = SourceFormat::kAscendDb;
  GateOptions o = E2eGate();
  o.allow_cross_device = true;
  GateResult r = EvaluateGate(same, o, in);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  ASSERT_EQ(r.incomparable_reasons.size(), 1u);
  EXPECT_EQ(r.incomparable_reasons[0],
            "comparison has no device data: no device task (its TASK table is absent or empty); its computing, "
            "communication and free time are unknown");
}

TEST(OverallGateComparability, DeviceWorkOutsideTheStepsNeverPasses) {
  SideSummary b = Side(10 * kMs, 5 * kMs, 0), c = Side(10 * kMs, 5 * kMs, 0);
  for (SideSummary* s : {&b, &c}) s->steps = {StepSplit{1, 0, 10 * kMs, 5 * kMs, 0, 5 * kMs}};
  c.step_coverage = {10 * kMs, kMs};  // 10 % outside
  ComparabilityInputs in;
  in.base_step_stats = StepStats{1, 10 * kMs, 10 * kMs, 10 * kMs, 10 * kMs};
  in.comparison_step_stats = in.base_step_stats;
  GateOptions o;
  o.e2e_pct = 5;
  GateResult r = EvaluateGate(Cmp(b, c), o, in);
  EXPECT_EQ(r.basis, GateBasis::kPerStep);
  EXPECT_EQ(r.verdict, Verdict::kIncomparable);
  ASSERT_EQ(r.unsafe_reasons.size(), 1u);
  EXPECT_NE(r.unsafe_reasons[0].find("comparison: 10.0 % of its device busy time"), std::string::npos)
      << r.unsafe_reasons[0];
  // A regression stays a regression.
  in.comparison_step_stats = StepStats{1, 12 * kMs, 12 * kMs, 12 * kMs, 12 * kMs};
  EXPECT_EQ(EvaluateGate(Cmp(b, c), o, in).verdict, Verdict::kRegression);
  // 5 % or less is within the rule.
  c.step_coverage = {10 * kMs, kMs / 2};
  in.comparison_step_stats = in.base_step_stats;
  EXPECT_EQ(EvaluateGate(Cmp(b, c), o, in).verdict, Verdict::kPass);
}

TEST(OverallGateComparability, StepCountsAndExportFormats) {
  const OverallComparison npu =
      Cmp(Side(10 * kMs, 5 * kMs, 0, DeviceKind::kNpu), Side(10 * kMs, 5 * kMs, 0, DeviceKind::kNpu));
  ComparabilityInputs in;
  in.base_steps = 6;
  in.comparison_steps = 1;
  in.base_format = SourceFormat::kAscendProfileDir;
  in.comparison_format = SourceFormat::kAscendDb;
  Comparability c = AssessComparability(npu, in, {});
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_EQ(c.warnings[0], "different step counts: base has 6 step(s), comparison has 1");
  EXPECT_NE(c.warnings[1].find("different export formats: base is a text export, comparison a DB export"),
            std::string::npos);
  EXPECT_NE(c.warnings[1].find("memory"), std::string::npos);
  EXPECT_TRUE(c.incomparable.empty());  // warnings, not reasons to refuse a verdict
  in.step_selected = true;  // one step of each: the counts say nothing
  c = AssessComparability(npu, in, {});
  ASSERT_EQ(c.warnings.size(), 1u);
}

}  // namespace
}  // namespace profdiff::analysis
