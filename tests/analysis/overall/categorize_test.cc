// Kernel categorisation (docs/reference/overall.md#kernel-categorisation) and keyword masks
// (docs/reference/command-line.md#kernel-masks).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "profdiff/analysis/overall/categorize.h"
#include "profdiff/analysis/overall/kernel_masks.h"

namespace profdiff::analysis {
namespace {

using KC = KernelCategory;

TEST(KernelMasks, DefaultsAreTheShippedConfig) {
  KernelMasks m = KernelMasks::Defaults();
  EXPECT_EQ(m.fa.size(), 6u);
  EXPECT_EQ(m.conv, std::vector<std::string>{"aten::conv"});
  EXPECT_EQ(m.matmul.size(), 4u);
  EXPECT_EQ(m.cube, (std::vector<std::string>{"gemm", "conv", "cutlass", "wgrad", "gemvx"}));
  EXPECT_EQ(m.trans, (std::vector<std::string>{"cast", "transdata", "transpose"}));
  EXPECT_EQ(m.mc2.size(), 3u);
}

TEST(KernelMasks, ParsesTrimsLowercasesAndDropsEmptyItems) {
  auto m = ParseKernelMasks(
      "# comment\n[OTHER]\nFA_MASK = ignored\n[OP_MASK]\nFA_MASK = Flash_Attention , ,MyAttn\r\n"
      "CONV_MASK=aten::conv\nMATMUL_MASK = aten::mm\nCUBE_MASK = GEMM\nTRANS_MASK = cast,cast\nMC2_KERNEL =\n",
      "masks.ini");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->fa, (std::vector<std::string>{"flash_attention", "myattn"}));
  EXPECT_EQ(m->cube, std::vector<std::string>{"gemm"});
  EXPECT_EQ(m->trans, std::vector<std::string>{"cast"});
  EXPECT_TRUE(m->mc2.empty());
}

TEST(KernelMasks, DeviceKernelsSectionExtendsTheTable) {
  const std::string op_mask = "[OP_MASK]\nFA_MASK=a\nCONV_MASK=b\nMATMUL_MASK=c\nCUBE_MASK=d\nTRANS_MASK=e\nMC2_KERNEL=f\n";
  auto m = ParseKernelMasks(op_mask + "[DEVICE_KERNELS]\nCOMMUNICATION = My_EP_Dispatch, uccl\ngemm = MyGemm\n",
                            "masks.ini");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->comm_kernels, (std::vector<std::string>{"my_ep_dispatch", "uccl"}));
  EXPECT_TRUE(m->comm_words.empty());
  EXPECT_EQ(m->gemm_kernels, std::vector<std::string>{"mygemm"});
  EXPECT_TRUE(KernelMasks::Defaults().comm_kernels.empty());
  auto bad = ParseKernelMasks(op_mask + "[DEVICE_KERNELS]\nCOMUNICATION = x\n", "masks.ini");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("masks.ini:9"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("COMUNICATION"), std::string::npos);
}

TEST(KernelMasks, MissingSectionOrKeyIsAnErrorNamingTheFile) {
  auto a = ParseKernelMasks("[X]\nA=1\n", "cfg.ini");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("cfg.ini"), std::string::npos);
  EXPECT_NE(a.status().message().find("OP_MASK"), std::string::npos);
  auto b = ParseKernelMasks("[OP_MASK]\nFA_MASK=a\nCONV_MASK=b\nMATMUL_MASK=c\nCUBE_MASK=d\nTRANS_MASK=e\n", "cfg.ini");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("MC2_KERNEL"), std::string::npos);
  auto c = ParseKernelMasks("[OP_MASK]\nthis line has no equals\n", "cfg.ini");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("cfg.ini:2"), std::string::npos);
}

TEST(KernelMasks, LoadFromFile) {
  auto missing = LoadKernelMasks("/nonexistent/dir/masks.ini");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/dir/masks.ini"), std::string::npos);
  std::string path = std::string(PROFDIFF_BINARY_DIR) + "/categorize_test_masks.ini";
  {
    std::ofstream f(path);
    f << "[OP_MASK]\nFA_MASK=fa\nCONV_MASK=cv\nMATMUL_MASK=mm\nCUBE_MASK=cb\nTRANS_MASK=tr\nMC2_KERNEL=mc\n";
  }
  auto m = LoadKernelMasks(path);
  std::remove(path.c_str());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->mc2, std::vector<std::string>{"mc"});
}

// Builds a categoriser with the given CPU cube ops (names lower-cased by the test).
struct Fixture {
  KernelMasks masks = KernelMasks::Defaults();
  KernelToCategorize K(std::string_view lower_name, bool cube, int64_t f = 0, std::string_view type = "") {
    KernelToCategorize k;
    k.has_flow = f != 0;
    k.flow_start_ns = f;
    k.dur_ns = 1000;
    k.lower_name = lower_name;
    k.lower_op_type = type;
    k.cube = cube;
    return k;
  }
};

TEST(Categorize, NpuNameAndTypeRulesComeFirst) {
  Fixture fx;
  KernelCategorizer npu(fx.masks, DeviceKind::kNpu, {}, kNoNumber, ExactPolicy());
  EXPECT_EQ(npu.Classify(fx.K("x", true, 0, "pagedattentionv2")), KC::kPagedAttention);
  EXPECT_EQ(npu.Classify(fx.K("aclnninplacecopy_tensormove_1", false)), KC::kSdmaTensorMove);
  EXPECT_EQ(npu.Classify(fx.K("aclnninplacecopy_x", false)), KC::kVectorNoTrans);
  EXPECT_EQ(npu.Classify(fx.K("matmulallreduce", true)), KC::kMc2);
  EXPECT_EQ(npu.Classify(fx.K("matmulallreduce_1", true)), KC::kOtherCube);  // exact membership only
  // Same kernels on GPU: none of these rules apply.
  KernelCategorizer gpu(fx.masks, DeviceKind::kGpu, {}, kNoNumber, ExactPolicy());
  EXPECT_EQ(gpu.Classify(fx.K("x", false, 0, "pagedattentionv2")), KC::kVectorNoTrans);
  EXPECT_EQ(gpu.Classify(fx.K("aclnninplacecopy_tensormove_1", false)), KC::kVectorNoTrans);
  EXPECT_EQ(gpu.Classify(fx.K("matmulallreduce", false)), KC::kVectorNoTrans);
}

TEST(Categorize, CpuOpRulesFlashAttentionConvMatmul) {
  Fixture fx;
  std::vector<CpuCubeOp> ops = {
      {100, 200, "aten::flash_attention_fwd", 1},        // FA forward
      {300, 400, "flash_attention_backward", 1},         // FA backward (name)
      {500, 600, "aten::convolution", 7},                // conv on the backward thread
      {700, 800, "aten::convolution", 1},                // conv forward
      {900, 1000, "aten::convolution_backward", 1},      // conv backward by name
      {1100, 1200, "aten::mm", 1},                       // matmul
  };
  KernelCategorizer c(fx.masks, DeviceKind::kGpu, ops, /*bwd_tid=*/7, ExactPolicy());
  EXPECT_EQ(c.Classify(fx.K("k", true, 150)), KC::kFaFwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 200)), KC::kFaFwdVector);  // F == end still inside
  EXPECT_EQ(c.Classify(fx.K("k", true, 300)), KC::kFaBwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 350)), KC::kFaBwdVector);
  EXPECT_EQ(c.Classify(fx.K("k", true, 550)), KC::kConvBwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 750)), KC::kConvFwdVector);
  EXPECT_EQ(c.Classify(fx.K("k", true, 950)), KC::kConvBwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 960)), KC::kConvBwdVector);
  // Between ops (op at the cursor starts after F): falls through to the cube/vector test.
  EXPECT_EQ(c.Classify(fx.K("k", true, 1050)), KC::kOtherCube);
  EXPECT_EQ(c.Classify(fx.K("k", true, 1150)), KC::kMatmulCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 1200)), KC::kMatmulVector);
  // Past every op.
  EXPECT_EQ(c.Classify(fx.K("k", false, 5000)), KC::kVectorNoTrans);
}

TEST(Categorize, CursorOnlyMovesForward) {
  Fixture fx;
  KernelCategorizer c(fx.masks, DeviceKind::kGpu, {{100, 200, "aten::mm", 1}}, kNoNumber, ExactPolicy());
  EXPECT_EQ(c.Classify(fx.K("k", false, 300)), KC::kVectorNoTrans);  // moves the cursor past the op
  EXPECT_EQ(c.Classify(fx.K("k", false, 150)), KC::kVectorNoTrans);  // would match, but the cursor moved
}

TEST(Categorize, NoFlowSkipsCpuOps) {
  Fixture fx;
  KernelCategorizer c(fx.masks, DeviceKind::kGpu, {{0, 200, "aten::mm", 1}}, kNoNumber, ExactPolicy());
  EXPECT_EQ(c.Classify(fx.K("k", true, 0)), KC::kOtherCube);
}

TEST(Categorize, NpuOpTypeFallback) {
  Fixture fx;
  KernelCategorizer c(fx.masks, DeviceKind::kNpu, {}, kNoNumber, ExactPolicy());
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "flashattentionscore")), KC::kFaFwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "flashattentionscoregrad")), KC::kFaBwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "flashattentionbwd")), KC::kFaBwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "conv2d")), KC::kConvFwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "conv2dbackpropfilter")), KC::kConvBwdCube);
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "xconv2d")), KC::kVectorNoTrans);  // must start with conv
  EXPECT_EQ(c.Classify(fx.K("k", false, 0, "batchmatmulv2")), KC::kMatmulCube);
  // GPU never uses the op type.
  KernelCategorizer g(fx.masks, DeviceKind::kGpu, {}, kNoNumber, ExactPolicy());
  EXPECT_EQ(g.Classify(fx.K("k", false, 0, "batchmatmulv2")), KC::kVectorNoTrans);
}

// docs/deviations.md #11: FusedInferAttention op types are flash attention on the 26.1 line and by
// default, not on the 8.2 line.
TEST(Categorize, FusedInferAttentionOpTypesFollowThePolicy) {
  Fixture fx;
  for (const ReferencePolicy& policy : {ExactPolicy(), ReferenceCompatPolicy(ReferenceLine::k26_1),
                                        ReferenceCompatPolicy(ReferenceLine::k8_2)}) {
    KernelCategorizer c(fx.masks, DeviceKind::kNpu, {}, kNoNumber, policy);
    const bool fa = policy.fused_infer_attention_is_fa;
    EXPECT_EQ(c.Classify(fx.K("k", false, 0, "fusedinferattentionscore")), fa ? KC::kFaFwdCube : KC::kVectorNoTrans);
    EXPECT_EQ(c.Classify(fx.K("k", true, 0, "fusedinferattentionscoregrad")), fa ? KC::kFaBwdCube : KC::kOtherCube);
  }
  EXPECT_FALSE(ReferenceCompatPolicy(ReferenceLine::k8_2).fused_infer_attention_is_fa);
  EXPECT_TRUE(ExactPolicy().fused_infer_attention_is_fa);
}

TEST(Categorize, CubeTransVector) {
  Fixture fx;
  KernelCategorizer npu(fx.masks, DeviceKind::kNpu, {}, kNoNumber, ExactPolicy());
  EXPECT_EQ(npu.Classify(fx.K("anything", true)), KC::kOtherCube);
  EXPECT_EQ(npu.Classify(fx.K("transdata_1", false)), KC::kVectorTrans);
  EXPECT_EQ(npu.Classify(fx.K("add_1", false)), KC::kVectorNoTrans);
  KernelCategorizer gpu(fx.masks, DeviceKind::kGpu, {}, kNoNumber, ExactPolicy());
  EXPECT_EQ(gpu.Classify(fx.K("cast_kernel", false)), KC::kVectorNoTrans);  // GPU is never "trans"
}

TEST(Categorize, BackwardWords) {
  EXPECT_TRUE(HasBackwardWord("x_bwd"));
  EXPECT_TRUE(HasBackwardWord("feedback"));  // "back" substring, as the reference
  EXPECT_TRUE(HasBackwardWord("addgrad"));
  EXPECT_FALSE(HasBackwardWord("forward"));
}

TEST(Categorize, TotalsAccumulate) {
  CategoryTotals t;
  t.Add(KC::kMatmulCube, 1500);
  t.Add(KC::kMatmulCube, 500);
  EXPECT_EQ(t.Ns(KC::kMatmulCube), 2000);
  EXPECT_EQ(t.Count(KC::kMatmulCube), 2);
  EXPECT_DOUBLE_EQ(t.Sum(KC::kMatmulCube).ref_us, 2.0);
  EXPECT_EQ(t.MaxNs(KC::kMatmulCube), 1500);  // the longest and shortest kernel of the category
  EXPECT_EQ(t.MinNs(KC::kMatmulCube), 500);
  t.Add(KC::kVectorNoTrans, 7);
  EXPECT_EQ(t.MaxNs(KC::kVectorNoTrans), 7);
  EXPECT_EQ(t.MinNs(KC::kVectorNoTrans), 7);
  EXPECT_EQ(t.MaxNs(KC::kConvFwdCube), 0);  // no kernel
}

}  // namespace
}  // namespace profdiff::analysis
