// The API comparison on hand-made op lists and small profiles built in code (docs/reference/api.md).
#include "profdiff/analysis/api/api_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../../common/profile_builder.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

ApiOp Op(std::string_view name, int64_t dur_ns, int64_t self_ns) {
  return ApiOp{.name = name, .dur_ns = dur_ns, .self_ns = self_ns, .ref_dur_us = 0, .ref_self_us = 0};
}

TEST(ApiCompare, GroupsByNameBaseOrderThenComparisonOnly) {
  std::vector<ApiOp> base = {Op("aten::add", 1000, 400), Op("aten::mm", 5000, 5000), Op("aten::add", 3000, 3000)};
  std::vector<ApiOp> comparison = {Op("aten::relu", 700, 700), Op("aten::add", 2000, 1500)};
  std::vector<ApiRow> rows = CompareApis(base, comparison);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "aten::add");
  EXPECT_EQ(rows[0].base.total_ns, 4000);
  EXPECT_EQ(rows[0].base.self_ns, 3400);
  EXPECT_EQ(rows[0].base.calls, 2);
  EXPECT_EQ(rows[0].comparison.total_ns, 2000);
  EXPECT_EQ(rows[0].comparison.self_ns, 1500);
  EXPECT_EQ(rows[0].comparison.calls, 1);
  EXPECT_EQ(rows[1].name, "aten::mm");
  EXPECT_EQ(rows[1].comparison.calls, 0);
  EXPECT_EQ(rows[2].name, "aten::relu");
  EXPECT_EQ(rows[2].base.calls, 0);
  EXPECT_EQ(rows[2].comparison.total_ns, 700);
}

TEST(ApiCompare, NoRowsWhenEitherSideIsEmpty) {
  std::vector<ApiOp> some = {Op("aten::add", 1000, 1000)};
  EXPECT_TRUE(CompareApis(some, {}).empty());
  EXPECT_TRUE(CompareApis({}, some).empty());
}

// A GPU side: ProfilerStep#1 [0, 100 ms] holding op "outer" (20 ms) with children "inner" (5 ms)
// and "cudaLaunchKernel" (7 ms), then a second "inner" (3 ms) at top level of the step.
Profile Nested(int64_t outer_ms) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  constexpr int64_t kMs = 1000000;
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 100 * kMs);
  b.Add(cpu, SliceKind::kCpuOp, "outer", "cpu_op", 1 * kMs, outer_ms * kMs);
  b.Add(cpu, SliceKind::kCpuOp, "inner", "cpu_op", 2 * kMs, 5 * kMs);
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 8 * kMs, 7 * kMs);
  b.Add(cpu, SliceKind::kCpuOp, "inner", "cpu_op", 50 * kMs, 3 * kMs);
  return std::move(b.p);
}

TEST(ApiCompare, AllLayerOpsWithSelfTimeAndDisplayValues) {
  Profile base = Nested(20);
  Profile comp = Nested(30);
  ApiComparison r = CompareApi(BuildTimeline(base, {}), BuildTimeline(comp, {}), ExactPolicy(), {});
  ASSERT_EQ(r.rows.size(), 3u);  // the step node is not an api
  EXPECT_EQ(r.base.ops, 4);
  EXPECT_EQ(r.base.names, 3);
  const ApiRow& outer = r.rows[0];
  EXPECT_EQ(outer.name, "outer");
  EXPECT_EQ(outer.base.total_ns, 20000000);
  EXPECT_EQ(outer.base.self_ns, 8000000);  // 20 - 5 - 7
  EXPECT_DOUBLE_EQ(outer.base.total_ms, 20.0);
  EXPECT_DOUBLE_EQ(outer.base.self_ms, 8.0);
  EXPECT_DOUBLE_EQ(outer.comparison.self_ms, 18.0);
  EXPECT_DOUBLE_EQ(outer.diff_total_ratio, 1.5);
  EXPECT_DOUBLE_EQ(outer.diff_self_ratio, 2.25);
  EXPECT_DOUBLE_EQ(outer.diff_calls_ratio, 1.0);
  const ApiRow& inner = r.rows[1];
  EXPECT_EQ(inner.name, "inner");
  EXPECT_EQ(inner.base.calls, 2);
  EXPECT_DOUBLE_EQ(inner.base.total_ms, 8.0);
  EXPECT_DOUBLE_EQ(inner.base.avg_ms, 4.0);
  EXPECT_EQ(r.rows[2].name, "cudaLaunchKernel");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(ApiCompare, RatiosOnRoundedValuesInfWhenBaseIsZero) {
  // With the reference's rounding (rounded_diffs_and_ratios) 0.004 ms shows as 0.0, 0.006 ms as
  // 0.01, so the ratio is INF; the default mode divides the exact values (deviation 19).
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  b.Add(cpu, SliceKind::kCpuOp, "a", "cpu_op", 0, 4000);
  ProfileBuilder c(DeviceKind::kGpu);
  TrackId cpu2 = c.Track("1", "1");
  c.Add(cpu2, SliceKind::kCpuOp, "a", "cpu_op", 0, 6000);
  ReferencePolicy rounded = ExactPolicy();
  rounded.rounded_diffs_and_ratios = true;
  const ApiComparison exact = CompareApi(BuildTimeline(b.p, {}), BuildTimeline(c.p, {}), ExactPolicy(), {});
  ASSERT_EQ(exact.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(exact.rows[0].base.total_ms, 0.004);
  EXPECT_DOUBLE_EQ(exact.rows[0].diff_total_ratio, 1.5);
  EXPECT_DOUBLE_EQ(exact.rows[0].diff_total_ms, 0.002);
  ApiComparison r = CompareApi(BuildTimeline(b.p, {}), BuildTimeline(c.p, {}), rounded, {});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rows[0].base.total_ms, 0.0);
  EXPECT_DOUBLE_EQ(r.rows[0].comparison.total_ms, 0.01);
  EXPECT_TRUE(std::isinf(r.rows[0].diff_total_ratio));
  EXPECT_DOUBLE_EQ(r.rows[0].diff_calls_ratio, 1.0);
}

// Five ops of 25 µs in all: exactly 0.025 ms (the default mode does not round), but the reference's
// float µs sum is 24.999999999999996 -> 0.02 (docs/deviations.md, API deviation 1).
TEST(ApiCompare, FloatSumsOnlyUnderTheReferencePolicy) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  int64_t ts = 0;
  for (int64_t d : {10494, 4247, 4808, 4257, 1194}) {
    b.Add(cpu, SliceKind::kCpuOp, "a", "cpu_op", ts, d);
    ts += 20000;
  }
  Timeline t = BuildTimeline(b.p, {});
  ApiComparison exact = CompareApi(t, t, ExactPolicy(), {});
  ApiComparison compat = CompareApi(t, t, ReferenceCompatPolicy(ReferenceLine::k8_2), {});
  ASSERT_EQ(exact.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(exact.rows[0].base.total_ms, 0.025);
  EXPECT_DOUBLE_EQ(compat.rows[0].base.total_ms, 0.02);
  EXPECT_DOUBLE_EQ(compat.rows[0].base.self_ms, 0.02);
  EXPECT_EQ(compat.rows[0].base.total_ns, 25000);  // the exact sum is kept either way
}

// An NPU side with ProfilerStep#1 and #2: a step keeps that step's ops, breadth-first; a missing
// step gives no rows and a warning.
Profile TwoSteps() {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId cpu = b.Track("1", "1");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "cpu_op", 0, 1000);
  b.Add(cpu, SliceKind::kCpuOp, "p", "cpu_op", 10, 500);
  b.Add(cpu, SliceKind::kCpuOp, "c", "cpu_op", 20, 100);
  b.Add(cpu, SliceKind::kCpuOp, "q", "cpu_op", 600, 100);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#2", "cpu_op", 2000, 1000);
  b.Add(cpu, SliceKind::kCpuOp, "x", "cpu_op", 2010, 500);
  return std::move(b.p);
}

TEST(ApiCompare, StepSelectsThatStepsOpsBreadthFirst) {
  Profile p = TwoSteps();
  Timeline t = BuildTimeline(p, {});
  std::optional<std::vector<ApiOp>> one = AllLayerApiOps(t, ExactPolicy(), 1);
  ASSERT_TRUE(one.has_value());
  ASSERT_EQ(one->size(), 3u);
  EXPECT_EQ((*one)[0].name, "p");
  EXPECT_EQ((*one)[1].name, "q");
  EXPECT_EQ((*one)[2].name, "c");
  EXPECT_EQ((*one)[0].self_ns, 400);
  ApiCompareOptions o;
  o.base_step = 2;
  o.comparison_step = 7;
  ApiComparison r = CompareApi(t, t, ExactPolicy(), o);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.base.ops, 1);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("comparison: there is no operator event data for step 7"), std::string::npos);
}

// An op of 4999.5 ns: the loader keeps 5000 ns (half to even) and -0.5 ns in dur_sub_e5. The exact
// default shows 0.005 ms (unrounded); the reference's float µs (4.9995) shows round(…, 2) = 0.0
// (docs/deviations.md, "Sub-nanosecond digits").
TEST(ApiCompare, ReferenceSumsSeeTheSubNanosecondDigits) {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId cpu = b.Track("1", "1");
  SliceId s = b.Add(cpu, SliceKind::kCpuOp, "a", "cpu_op", 0, 5000);
  b.p.slices[s].dur_sub_e5 = -50000;
  Timeline t = BuildTimeline(b.p, {});
  ApiComparison exact = CompareApi(t, t, ExactPolicy(), {});
  ApiComparison compat = CompareApi(t, t, ReferenceCompatPolicy(ReferenceLine::k26_1), {});
  ASSERT_EQ(exact.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(exact.rows[0].base.total_ms, 0.005);
  EXPECT_DOUBLE_EQ(compat.rows[0].base.total_ms, 0.0);
  EXPECT_DOUBLE_EQ(compat.rows[0].base.self_ms, 0.0);
}

}  // namespace
}  // namespace profdiff::analysis
