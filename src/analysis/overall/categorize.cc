#include "profdiff/analysis/overall/categorize.h"

#include <algorithm>

#include "profdiff/base/ascii.h"

namespace profdiff::analysis {

bool HasBackwardWord(std::string_view lower_name) {
  for (std::string_view w : {"bwd", "backward", "back", "grad"}) {
    if (lower_name.find(w) != std::string_view::npos) return true;
  }
  return false;
}

std::vector<CpuCubeOp> CollectCpuCubeOps(const Profile& profile, const KernelMasks& masks) {
  std::vector<CpuCubeOp> ops;
  for (const Slice& s : profile.slices) {
    if (!IsTorchOpKind(s.kind)) continue;
    std::string lower = ascii::ToLower(profile.str(s.name));
    if (!ContainsAny(lower, masks.fa) && !ContainsAny(lower, masks.conv) && !ContainsAny(lower, masks.matmul)) {
      continue;
    }
    ops.push_back(CpuCubeOp{s.ts_ns, s.end_ns(), std::move(lower), profile.track(s).tid});
  }
  std::stable_sort(ops.begin(), ops.end(),
                   [](const CpuCubeOp& a, const CpuCubeOp& b) { return a.start_ns < b.start_ns; });
  return ops;
}

KernelCategorizer::KernelCategorizer(const KernelMasks& masks, DeviceKind device,
                                     std::vector<CpuCubeOp> cube_ops, int64_t bwd_tid,
                                     const ReferencePolicy& policy)
    : masks_(masks),
      device_(device),
      ops_(std::move(cube_ops)),
      bwd_tid_(bwd_tid),
      fused_infer_attention_is_fa_(policy.fused_infer_attention_is_fa) {}

bool KernelCategorizer::IsBackwardName(std::string_view lower_name) const { return HasBackwardWord(lower_name); }

KernelCategory KernelCategorizer::Classify(const KernelToCategorize& k) {
  const bool npu = device_ == DeviceKind::kNpu;
  // Rules 1-3: NPU-only name/type tests.
  if (npu) {
    if (k.lower_op_type.find("pagedattention") != std::string_view::npos) return KernelCategory::kPagedAttention;
    if (k.lower_name.starts_with("aclnninplacecopy") && k.lower_name.find("tensormove") != std::string_view::npos) {
      return KernelCategory::kSdmaTensorMove;
    }
    if (std::find(masks_.mc2.begin(), masks_.mc2.end(), k.lower_name) != masks_.mc2.end()) {
      return KernelCategory::kMc2;
    }
  }
  // Rule 4: the CPU cube op that launched the kernel (forward-only cursor).
  if (k.has_flow) {
    while (cursor_ < ops_.size() && ops_[cursor_].end_ns < k.flow_start_ns) ++cursor_;
    if (cursor_ < ops_.size() && ops_[cursor_].start_ns <= k.flow_start_ns) {
      const CpuCubeOp& op = ops_[cursor_];
      if (ContainsAny(op.lower_name, masks_.fa)) {
        bool bwd = IsBackwardName(op.lower_name);
        if (bwd) return k.cube ? KernelCategory::kFaBwdCube : KernelCategory::kFaBwdVector;
        return k.cube ? KernelCategory::kFaFwdCube : KernelCategory::kFaFwdVector;
      }
      if (ContainsAny(op.lower_name, masks_.conv)) {
        bool bwd = (bwd_tid_ != kNoNumber && op.tid == bwd_tid_) || IsBackwardName(op.lower_name);
        if (bwd) return k.cube ? KernelCategory::kConvBwdCube : KernelCategory::kConvBwdVector;
        return k.cube ? KernelCategory::kConvFwdCube : KernelCategory::kConvFwdVector;
      }
      return k.cube ? KernelCategory::kMatmulCube : KernelCategory::kMatmulVector;
    }
  }
  // Rule 5: NPU op type. The 26.1 line also takes FusedInferAttention op types for flash attention.
  if (npu) {
    std::string_view t = k.lower_op_type;
    const bool fa = t.find("flashattention") != std::string_view::npos ||
                    (fused_infer_attention_is_fa_ && t.find("fusedinferattention") != std::string_view::npos);
    if (fa) {
      bool bwd = t.find("bwd") != std::string_view::npos || t.find("grad") != std::string_view::npos;
      return bwd ? KernelCategory::kFaBwdCube : KernelCategory::kFaFwdCube;
    }
    if (t.starts_with("conv")) {
      return HasBackwardWord(t) ? KernelCategory::kConvBwdCube : KernelCategory::kConvFwdCube;
    }
    if (t.find("matmul") != std::string_view::npos) return KernelCategory::kMatmulCube;
  }
  // Rule 6: cube / trans / plain vector.
  if (k.cube) return KernelCategory::kOtherCube;
  if (npu && ContainsAny(k.lower_name, masks_.trans)) return KernelCategory::kVectorTrans;
  return KernelCategory::kVectorNoTrans;
}

}  // namespace profdiff::analysis
