// The per-step split (analysis/overall/step_split.h): each ProfilerStep window measured on the
// side's own busy intervals, and the mean step whose parts add up.
#include "profdiff/analysis/overall/step_split.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/gate.h"
#include "profdiff/analysis/overall/gpu_overall.h"
#include "profdiff/analysis/overall/overall.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

TEST(StepSplit, MeasuresEachWindowOnTheBusyIntervals) {
  // Step 1: [0, 100) as two markers (CPU [0, 60), GPU [10, 100)); step 2: [100, 200).
  const std::vector<Step> steps = {{1, 0, 0, 60}, {1, 1, 10, 100}, {2, 2, 100, 200}};
  const std::vector<Interval> computing = {{20, 50}, {90, 130}};
  const std::vector<Interval> busy = {{20, 70}, {90, 140}, {190, 260}};  // ⊇ computing
  const std::vector<StepSplit> s = SplitSteps(steps, computing, busy);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].id, 1);
  EXPECT_EQ(s[0].e2e_ns, 100);
  EXPECT_EQ(s[0].computing_ns, 30 + 10);        // [20,50) + [90,100)
  EXPECT_EQ(s[0].communication_ns, 20);          // [50,70)
  EXPECT_EQ(s[0].free_ns, 100 - 40 - 20);
  EXPECT_EQ(s[1].computing_ns, 30);              // [100,130)
  EXPECT_EQ(s[1].communication_ns, 10 + 10);     // [130,140) + [190,200): clipped at the window's end
  EXPECT_EQ(s[1].free_ns, 100 - 30 - 20);
  for (const StepSplit& x : s) EXPECT_EQ(x.computing_ns + x.communication_ns + x.free_ns, x.e2e_ns);
}

TEST(StepSplit, MeanStepPartsAddUpExactly) {
  EXPECT_EQ(MeanStep({}), std::nullopt);
  const std::vector<StepSplit> s = {{1, 0, 10, 3, 3, 4}, {2, 10, 11, 4, 4, 3}};
  const std::optional<StepMean> m = MeanStep(s);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->count, 2);
  EXPECT_EQ(m->e2e_ns, 10);  // 21 / 2 rounded down
  EXPECT_EQ(m->computing_ns, 3);
  EXPECT_EQ(m->communication_ns, 3);
  EXPECT_EQ(m->free_ns, 4);  // the remainder: the parts add up to e2e
}

// A GPU side: kernels inside and across the step windows; copies are not busy time.
TEST(StepSplit, GpuSideSplitsEveryStep) {
  ProfileBuilder b(DeviceKind::kGpu);
  const TrackId cpu = b.Track("1", "1");
  const TrackId gpu = b.Track("0", "7");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 1000);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#2", "user_annotation", 1000, 1000);
  b.Add(gpu, SliceKind::kKernel, "gemm", "kernel", 100, 400, {{ArgKey::kStream, 7}});
  b.Add(gpu, SliceKind::kKernel, "ncclAllReduce", "kernel", 300, 500, {{ArgKey::kStream, 7}});
  b.Add(gpu, SliceKind::kKernel, "gemm", "kernel", 900, 300, {{ArgKey::kStream, 7}});  // crosses into step 2
  b.Add(gpu, SliceKind::kGpuMemcpy, "Memcpy HtoD", "gpu_memcpy", 1500, 100, {{ArgKey::kStream, 7}});
  const SideMetrics m = ComputeGpuSideMetrics(BuildTimeline(b.p, {}), KernelMasks::Defaults(),
                                              MakeReferencePolicy(std::nullopt));
  // No launch flows: each device event goes to the host step holding its start, and a step lasts on
  // the device from its first device event until the next step's first (timeline/device_steps.h):
  // step 1 is [100, 1500) (its kernels run to 1200, then the device idles until step 2's copy),
  // step 2 is the copy's [1500, 1600).
  ASSERT_EQ(m.step_splits.size(), 2u);
  EXPECT_EQ(m.step_splits[0].start_ns, 100);
  EXPECT_EQ(m.step_splits[0].e2e_ns, 1400);
  EXPECT_EQ(m.step_splits[0].computing_ns, 400 + 300);      // [100,500) + [900,1200)
  EXPECT_EQ(m.step_splits[0].communication_ns, 300);        // [500,800)
  EXPECT_EQ(m.step_splits[0].free_ns, 1400 - 700 - 300);
  EXPECT_EQ(m.step_splits[1].computing_ns, 0);
  EXPECT_EQ(m.step_splits[1].communication_ns, 0);
  EXPECT_EQ(m.step_splits[1].free_ns, 100);                 // the copy is not busy time
  EXPECT_EQ(m.step_source, StepWindowSource::kNone);        // set by CompareOverall, not per side
}

// The gate's per-step basis reads the mean step window for the categories.
TEST(StepSplit, OneGpuStepKeepsTheEventsStartingInItsWindow) {
  ProfileBuilder b(DeviceKind::kGpu);
  const TrackId cpu = b.Track("1", "1");
  const TrackId gpu = b.Track("0", "7");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 1000);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#2", "user_annotation", 1000, 1000);
  b.Add(gpu, SliceKind::kKernel, "gemm", "kernel", 100, 400, {{ArgKey::kStream, 7}});
  b.Add(gpu, SliceKind::kKernel, "gemm", "kernel", 900, 300, {{ArgKey::kStream, 7}});  // starts in step 1
  b.Add(gpu, SliceKind::kKernel, "gemm", "kernel", 1300, 200, {{ArgKey::kStream, 7}});
  b.Add(gpu, SliceKind::kKernel, "ncclAllReduce", "kernel", 1400, 400, {{ArgKey::kStream, 7}});
  const Timeline t = BuildTimeline(b.p, {});
  std::optional<Interval> w = StepWindow(t.steps, 2);  // the host's window
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->start_ns, 1000);
  EXPECT_EQ(w->end_ns, 2000);
  EXPECT_FALSE(StepWindow(t.steps, 3).has_value());
  w = StepWindow(t.MeasuredSteps(), 2);  // the device's: the work step 2 launched, [1300, 1800)
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->start_ns, 1300);
  EXPECT_EQ(w->end_ns, 1800);
  const ReferencePolicy policy = MakeReferencePolicy(std::nullopt);
  const SideMetrics m = ComputeGpuSideMetrics(t, KernelMasks::Defaults(), policy, int64_t{2});
  EXPECT_EQ(m.e2e.Ns(), 1800 - 1300);                      // the two kernels starting in the window
  EXPECT_EQ(m.compute.Ns(), 200);
  EXPECT_EQ(m.comm_not_overlapped.Ns(), 300);
  ASSERT_EQ(m.step_splits.size(), 1u);
  EXPECT_EQ(m.step_splits[0].id, 2);
  EXPECT_EQ(m.step_splits[0].computing_ns, 200);           // the kernel from step 1 is left out
  EXPECT_EQ(m.step_splits[0].free_ns, 500 - 200 - 300);
  const std::optional<StepStats> one = StepDurations(t, int64_t{2});
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->count, 1);
  EXPECT_EQ(one->median_ns, 500);
  EXPECT_EQ(StepDurations(t)->count, 2);
}

TEST(StepSplit, GateUsesTheMeanStepWindow) {
  SideSummary base, comparison;
  for (SideSummary* s : {&base, &comparison}) {
    s->device = DeviceKind::kGpu;
    s->has_overall = true;
    s->e2e_ns = 1000000000;
    s->computing_ns = 900000000;  // capture totals (outside the steps too)
  }
  base.steps = {{1, 0, 100000000, 50000000, 0, 50000000}, {2, 0, 100000000, 50000000, 0, 50000000}};
  comparison.steps = {{1, 0, 100000000, 70000000, 0, 30000000}, {2, 0, 100000000, 70000000, 0, 30000000}};
  OverallComparison cmp;
  cmp.base = base;
  cmp.comparison = comparison;
  GateOptions o;
  o.compute_pct = 10;
  ComparabilityInputs in;
  in.base_step_stats = StepStats{2, 100000000, 100000000, 100000000, 100000000};
  in.comparison_step_stats = in.base_step_stats;
  const GateResult r = EvaluateGate(cmp, o, in);
  ASSERT_EQ(r.checks.size(), 1u);
  EXPECT_EQ(r.checks[0].base_ns, 50000000);
  EXPECT_EQ(r.checks[0].comparison_ns, 70000000);
  EXPECT_EQ(r.verdict, Verdict::kRegression);  // +40 % per step, while the capture totals are equal
}

}  // namespace
}  // namespace profdiff::analysis
