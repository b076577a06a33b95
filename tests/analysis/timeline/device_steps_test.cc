// Each step as the device ran it (timeline/device_steps.h): the GPU-side markers' span where the
// trace has them, else the span of the device work each host step launched; unlinked device events
// go to the window holding their start; the rest is outside every step.
#include "profdiff/analysis/timeline/device_steps.h"

#include <gtest/gtest.h>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/gate.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

// Two host steps [0, 100) and [100, 200); the GPU runs each step's kernels a step later.
Profile AsyncLoop(bool gpu_markers) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "10"), gpu = b.Track("0", "7");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#5", "user_annotation", 0, 100);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#6", "user_annotation", 100, 100);
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 10, 5);
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 90, 5);
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 150, 5);
  b.Add(gpu, SliceKind::kKernel, "k1", "kernel", 120, 60, {{ArgKey::kStream, 7}});   // step 5's
  b.Add(gpu, SliceKind::kKernel, "k2", "kernel", 180, 70, {{ArgKey::kStream, 7}});   // step 5's, ends 250
  b.Add(gpu, SliceKind::kKernel, "k3", "kernel", 260, 100, {{ArgKey::kStream, 7}});  // step 6's
  b.Add(gpu, SliceKind::kGpuMemset, "Memset (Device)", "gpu_memset", 255, 2, {{ArgKey::kStream, 7}});  // no flow
  b.Add(gpu, SliceKind::kKernel, "late", "kernel", 900, 10, {{ArgKey::kStream, 7}});  // no flow, no step
  b.Flow(1, "ac2g", 10, cpu, 120, gpu);
  b.Flow(2, "ac2g", 90, cpu, 180, gpu);
  b.Flow(3, "ac2g", 150, cpu, 260, gpu);
  if (gpu_markers) {
    TrackId ann = b.Track("0", "8");
    b.Add(ann, SliceKind::kGpuAnnotation, "ProfilerStep#5", "gpu_user_annotation", 118, 140);  // [118, 258)
    b.Add(ann, SliceKind::kGpuAnnotation, "ProfilerStep#6", "gpu_user_annotation", 258, 104);  // [258, 362)
  }
  return std::move(b.p);
}

TEST(DeviceSteps, SpanOfTheLaunchedDeviceWork) {
  const Profile p = AsyncLoop(false);
  const Timeline t = BuildTimeline(p, {});
  ASSERT_EQ(t.steps.size(), 2u);
  ASSERT_EQ(t.device.steps.size(), 2u);
  EXPECT_EQ(t.device.source, StepWindowSource::kLaunchedWork);
  EXPECT_EQ(t.device.steps[0].id, 5);
  EXPECT_EQ(t.device.steps[0].start_ns, 120);
  EXPECT_EQ(t.device.steps[0].end_ns, 260);  // its work ends at 250; step 6 starts at 260
  EXPECT_EQ(t.device.steps[1].id, 6);
  EXPECT_EQ(t.device.steps[1].start_ns, 260);
  EXPECT_EQ(t.device.steps[1].end_ns, 360);
  EXPECT_EQ(t.device.device_events, 5);
  EXPECT_EQ(t.device.attributed, 3);
  EXPECT_EQ(t.device.outside, 1);  // the late kernel (the memset at 255 is in step 5's idle tail)
  EXPECT_EQ(&t.MeasuredSteps(), &t.device.steps);
  EXPECT_EQ(t.MeasuredSource(), StepWindowSource::kLaunchedWork);
  // The gate's step durations are the device windows', not the host's 100 ns.
  const std::optional<StepStats> st = StepDurations(t);
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->min_ns, 100);
  EXPECT_EQ(st->max_ns, 140);
  EXPECT_EQ(StepDurations(t, 6)->median_ns, 100);
}

TEST(DeviceSteps, GpuMarkersGiveTheWindow) {
  const Profile p = AsyncLoop(true);
  const Timeline t = BuildTimeline(p, {});
  ASSERT_EQ(t.device.steps.size(), 2u);
  EXPECT_EQ(t.device.source, StepWindowSource::kDeviceMarkers);
  EXPECT_EQ(t.device.steps[0].start_ns, 118);
  EXPECT_EQ(t.device.steps[0].end_ns, 258);
  EXPECT_EQ(t.device.steps[1].start_ns, 258);
  EXPECT_EQ(t.device.steps[1].end_ns, 362);
  EXPECT_EQ(t.device.outside, 1);  // the memset is inside step 5's marker now; the late kernel is not
}

TEST(DeviceSteps, NoTilingAcrossAGapInTheStepIds) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "10"), gpu = b.Track("0", "7");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 100);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#3", "user_annotation", 500, 100);
  b.Add(gpu, SliceKind::kKernel, "a", "kernel", 10, 20, {{ArgKey::kStream, 7}});
  b.Add(gpu, SliceKind::kKernel, "b", "kernel", 510, 20, {{ArgKey::kStream, 7}});
  b.Flow(1, "ac2g", 5, cpu, 10, gpu);
  b.Flow(2, "ac2g", 505, cpu, 510, gpu);
  const Profile p = std::move(b.p);
  const Timeline t = BuildTimeline(p, {});
  ASSERT_EQ(t.device.steps.size(), 2u);
  EXPECT_EQ(t.device.steps[0].end_ns, 30);
  EXPECT_EQ(t.device.steps[1].end_ns, 530);
}

TEST(DeviceSteps, HostMarkersWithoutDeviceWork) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "10");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 100);
  const Profile p = std::move(b.p);
  const Timeline t = BuildTimeline(p, {});
  EXPECT_TRUE(t.device.steps.empty());
  EXPECT_EQ(t.device.device_events, 0);
  EXPECT_EQ(&t.MeasuredSteps(), &t.steps);
  EXPECT_EQ(t.MeasuredSource(), StepWindowSource::kHostMarkers);
}

TEST(DeviceSteps, NpuTasksByTheirLaunchFlows) {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId cpu = b.Track("1", "10"), npu = b.Track("2", "3");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#50", "cpu_op", 0, 1000);
  b.Add(npu, SliceKind::kNpuTask, "MatMul", "Ascend Hardware", 300, 200);
  b.Add(npu, SliceKind::kNpuTask, "Add", "Ascend Hardware", 600, 100);
  b.Flow(1, "async_npu", 20, cpu, 300, npu);
  b.Flow(2, "async_npu", 40, cpu, 600, npu);
  const Profile p = std::move(b.p);
  const Timeline t = BuildTimeline(p, {});
  ASSERT_EQ(t.device.steps.size(), 1u);
  EXPECT_EQ(t.device.steps[0].start_ns, 300);  // Preparing (0 -> 300) is not the device's
  EXPECT_EQ(t.device.steps[0].end_ns, 700);
}

TEST(DeviceSteps, SourceNames) {
  EXPECT_EQ(Name(StepWindowSource::kDeviceMarkers), "device_markers");
  EXPECT_EQ(Name(StepWindowSource::kLaunchedWork), "launched_device_work");
  EXPECT_EQ(Name(StepWindowSource::kHostMarkers), "host_markers");
  EXPECT_EQ(Name(StepWindowSource::kMixed), "mixed");
  EXPECT_EQ(Name(StepWindowSource::kNone), "none");
}

}  // namespace
}  // namespace profdiff::analysis
