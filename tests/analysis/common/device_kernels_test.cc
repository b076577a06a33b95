// The device-kernel name table (analysis/common/device_kernels.h): each vendor's communication and
// GEMM libraries, the words that need a stream of their own, and a user's additions.
#include "profdiff/analysis/common/device_kernels.h"

#include <gtest/gtest.h>

namespace profdiff::analysis {
namespace {

TEST(DeviceKernelNames, NvidiaCommunicationLibraries) {
  const DeviceKernelNames t;
  EXPECT_TRUE(t.IsCommunication("ncclkernel_allreduce_ring_ll_sum_float(ncclworkelem)"));
  EXPECT_TRUE(t.IsCommunication("void nccldevkernel_allgather_ring_ll(ncclDevComm*)"));
  EXPECT_TRUE(t.IsCommunication("void nvshmemi_transfer_rma_nbi<...>"));
  EXPECT_TRUE(t.IsCommunication("void deep_ep::internode::dispatch<8, 768, 4>(int4*, ...)"));
  EXPECT_TRUE(t.IsCommunication("void dpsk::ep::internode::combine<true>(...)"));
  EXPECT_TRUE(t.IsCommunication("void dpsk::ep::internode::cached_notify(...)"));
  EXPECT_FALSE(t.IsCommunication("void at::native::vectorized_elementwise_kernel<4>"));
  EXPECT_FALSE(t.IsCommunication("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn"));
}

TEST(DeviceKernelNames, AmdCommunicationAndGemm) {
  const DeviceKernelNames t;
  EXPECT_TRUE(t.IsCommunication("rcclkernel_allreduce_ring_ll_sum_bf16"));
  EXPECT_TRUE(t.IsCommunication("mscclkernel_sum_bf16_ll128"));
  EXPECT_TRUE(t.IsCommunication("mscclpp::allreduce8<__hip_bfloat16>"));
  EXPECT_TRUE(t.IsCommunication("rocshmem::internal::put_nbi"));
  EXPECT_TRUE(t.IsGemm("cijk_ailk_bljk_bbs_bh_mt128x128x64_mi32x32x8_sn_1lds1"));
  EXPECT_TRUE(t.IsGemm("void hipblaslt_ext::matmul_kernel"));
  EXPECT_TRUE(t.IsGemm("rocblas_gemvt_kernel"));
  EXPECT_TRUE(t.IsGemm("void ck::kernel_gemm_xdl_cshuffle_v3<...>"));
  EXPECT_FALSE(t.IsGemm("void at::native::elementwise_kernel<128, 4>"));
  EXPECT_FALSE(t.IsGemm("xcijk_not_a_prefix"));  // "Cijk_" is a prefix, not a substring
}

TEST(DeviceKernelNames, CollectiveWordsAreOnlyStreamWords) {
  const DeviceKernelNames t;
  for (const char* name : {"one_shot_all_reduce_kernel", "custom_alltoall_v", "fused_allgather_matmul",
                           "reduce_scatter_kernel<float>", "sendrecv_kernel"}) {
    EXPECT_FALSE(t.IsCommunication(name)) << name;
    EXPECT_TRUE(t.IsStreamWord(name)) << name;
  }
  EXPECT_TRUE(t.IsStreamWord("ncclkernel_broadcast"));  // a library's kernel reads like one too
  EXPECT_FALSE(t.IsStreamWord("void at::native::reduce_kernel<512, 1>"));
}

TEST(DeviceKernelNames, UserAdditionsExtendTheTable) {
  const DeviceKernelNames t({"my_ep_dispatch"}, {"halo_exchange"}, {"my_tensorcore_mm"});
  EXPECT_TRUE(t.IsCommunication("void my_ep_dispatch<4>"));
  EXPECT_TRUE(t.IsStreamWord("halo_exchange_kernel"));
  EXPECT_FALSE(t.IsCommunication("halo_exchange_kernel"));
  EXPECT_TRUE(t.IsGemm("my_tensorcore_mm_128"));
  EXPECT_TRUE(t.IsCommunication("ncclkernel_allreduce"));  // the table still applies
}

TEST(DeviceKernelNames, EveryRuleIsLowerCaseAndNamed) {
  for (const KernelNameRule& r : kKernelNameRules) {
    EXPECT_FALSE(r.pattern.empty());
    EXPECT_FALSE(r.library.empty());
    for (char c : r.pattern) EXPECT_FALSE(c >= 'A' && c <= 'Z') << r.pattern;
  }
}

}  // namespace
}  // namespace profdiff::analysis
