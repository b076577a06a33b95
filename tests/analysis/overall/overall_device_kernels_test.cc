// Communication kernels beyond NCCL and AMD's GEMM libraries in the GPU overall comparison (policy
// fields gpu_comm_is_nccl_prefix_only, gpu_cube_is_mask_only; docs/deviations.md): DeepEP on a
// stream of its own is uncovered communication where it does not overlap computing, a collective
// named kernel counts as communication only on a stream that does nothing else, and hipBLASLt's
// "Cijk_" kernels are cube. Under --reference-compat all of them stay computing / vector.
#include <gtest/gtest.h>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/gpu_overall.h"
#include "profdiff/analysis/overall/overall.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

Profile MoeLikeTrace() {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId s7 = b.Track("2", "7");
  TrackId s20 = b.Track("2", "20");
  TrackId s21 = b.Track("2", "21");
  b.Add(s7, SliceKind::kKernel, "Cijk_Ailk_Bljk_BBS_BH_MT128x128x64", "kernel", 1000, 2000, {{ArgKey::kStream, 7}});
  b.Add(s7, SliceKind::kKernel, "elementwise_kernel", "kernel", 3000, 1000, {{ArgKey::kStream, 7}});
  b.Add(s20, SliceKind::kKernel, "void deep_ep::internode::dispatch<8>", "kernel", 2000, 4000,
        {{ArgKey::kStream, 20}});
  b.Add(s21, SliceKind::kKernel, "one_shot_all_reduce_kernel", "kernel", 6000, 1000, {{ArgKey::kStream, 21}});
  // Reads like communication but runs on the compute stream: computing.
  b.Add(s7, SliceKind::kKernel, "fused_allreduce_rmsnorm", "kernel", 7000, 500, {{ArgKey::kStream, 7}});
  return std::move(b.p);
}

TEST(OverallGpuDeviceKernels, CommunicationAndGemmFromTheTable) {
  const Profile p = MoeLikeTrace();
  const SideMetrics m =
      ComputeGpuSideMetrics(BuildTimeline(p, {}), KernelMasks::Defaults(), MakeReferencePolicy(std::nullopt));
  EXPECT_EQ(m.e2e.Ns(), 6500);
  EXPECT_EQ(m.compute.Ns(), 3500);              // [1000, 4000) and [7000, 7500)
  EXPECT_EQ(m.comm_not_overlapped.Ns(), 3000);  // DeepEP's [4000, 6000) and the all-reduce stream's [6000, 7000)
  EXPECT_EQ(m.categories.Ns(KernelCategory::kOtherCube), 2000);  // the Cijk_ GEMM
  EXPECT_EQ(m.categories.Ns(KernelCategory::kVectorNoTrans), 1500);
}

TEST(OverallGpuDeviceKernels, ReferenceCompatKeepsNcclAndCubeMaskOnly) {
  const Profile p = MoeLikeTrace();
  for (ReferenceLine line : {ReferenceLine::k8_2, ReferenceLine::k26_1}) {
    ReferencePolicy policy = MakeReferencePolicy(line);
    policy.gpu_integer_us_grid = false;  // exact sums, to see the classification alone
    const SideMetrics m = ComputeGpuSideMetrics(BuildTimeline(p, {}), KernelMasks::Defaults(), policy);
    EXPECT_EQ(m.comm_not_overlapped.Ns(), 0);
    EXPECT_EQ(m.compute.Ns(), 6500);
    EXPECT_EQ(m.categories.Ns(KernelCategory::kOtherCube), 0);
    EXPECT_EQ(m.categories.Ns(KernelCategory::kVectorNoTrans), 2000 + 1000 + 4000 + 1000 + 500);
  }
}

TEST(OverallGpuDeviceKernels, ConfigExtendsTheTable) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId s7 = b.Track("2", "7");
  TrackId s9 = b.Track("2", "9");
  b.Add(s7, SliceKind::kKernel, "my_mm_kernel", "kernel", 1000, 1000, {{ArgKey::kStream, 7}});
  b.Add(s9, SliceKind::kKernel, "my_ep_dispatch", "kernel", 1500, 1500, {{ArgKey::kStream, 9}});
  const Profile p = std::move(b.p);
  KernelMasks masks = KernelMasks::Defaults();
  masks.comm_kernels = {"my_ep_dispatch"};
  masks.gemm_kernels = {"my_mm"};
  const SideMetrics m = ComputeGpuSideMetrics(BuildTimeline(p, {}), masks, MakeReferencePolicy(std::nullopt));
  EXPECT_EQ(m.comm_not_overlapped.Ns(), 1000);
  EXPECT_EQ(m.categories.Ns(KernelCategory::kOtherCube), 1000);
}

}  // namespace
}  // namespace profdiff::analysis
