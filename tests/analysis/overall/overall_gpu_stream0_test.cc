// A GPU trace with every kernel on stream 0 (ROCm writes them so; a single-stream CUDA trace too):
// the default mode compares it like any other, the reference finds no compute stream
// (docs/deviations.md row 2, policy fields gpu_e2e_ignores_stream0, gpu_compute_stream_nonzero_only).
#include <gtest/gtest.h>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/gpu_overall.h"
#include "profdiff/analysis/overall/overall.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

Profile SingleStreamZero() {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("100", "100");
  TrackId s0 = b.Track("2", "0");
  b.Add(cpu, SliceKind::kCpuOp, "aten::mm", "cpu_op", 900, 100);
  b.Add(s0, SliceKind::kKernel, "Cijk_Alik_Bljk_gemm", "kernel", 1000, 2000, {{ArgKey::kStream, 0}});
  b.Add(s0, SliceKind::kKernel, "elementwise_kernel", "kernel", 4000, 1000, {{ArgKey::kStream, 0}});
  b.Add(s0, SliceKind::kGpuMemcpy, "Memcpy DtoD (Device -> Device)", "gpu_memcpy", 6000, 500,
        {{ArgKey::kStream, 0}});
  b.Flow(1, "ac2g", 910, cpu, 1000, s0);
  return std::move(b.p);
}

TEST(OverallGpu, EveryKernelOnStreamZero) {
  const Profile p = SingleStreamZero();
  const SideMetrics exact =
      ComputeGpuSideMetrics(BuildTimeline(p, {}), KernelMasks::Defaults(), MakeReferencePolicy(std::nullopt));
  EXPECT_TRUE(exact.warnings.empty());
  EXPECT_EQ(exact.e2e.Ns(), 5500);      // 1.0 .. 6.5 µs: both kernels and the memcpy
  EXPECT_EQ(exact.compute.Ns(), 3000);  // the two kernels, exactly
  EXPECT_EQ(exact.sdma_stream.Ns(), 500);  // the copy runs on the compute stream (0)
  EXPECT_EQ(exact.FreeTime().Ns(), 2500);  // e2e - computing (the copy is not computing)

  for (ReferenceLine line : {ReferenceLine::k8_2, ReferenceLine::k26_1}) {
    const SideMetrics compat =
        ComputeGpuSideMetrics(BuildTimeline(p, {}), KernelMasks::Defaults(), MakeReferencePolicy(line));
    EXPECT_EQ(compat.e2e.Ns(), 0);
    ASSERT_EQ(compat.warnings.size(), 1u);
    // The reference's sentence, then why and what to do (issue 34, item 6).
    EXPECT_EQ(compat.warnings[0],
              "The profiling data does not contain kernel running data. All 2 compute kernels are on stream 0, "
              "which the reference ignores; drop --reference-compat to compare them.");
  }
}

}  // namespace
}  // namespace profdiff::analysis
