// Kernel categorisation (docs/reference/overall.md#kernel-categorisation): each device kernel is
// put into exactly one category (flash attention / conv / matmul by the CPU op that launched it,
// NPU op type, cube/vector, ...).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

#define PD_KERNEL_CATEGORIES(X)               \
  X(kPagedAttention, "page_attention")        \
  X(kSdmaTensorMove, "sdma_tensor_move")      \
  X(kMc2, "mc2")                              \
  X(kFaFwdCube, "flash_attention_fwd_cube")   \
  X(kFaFwdVector, "flash_attention_fwd_vector") \
  X(kFaBwdCube, "flash_attention_bwd_cube")   \
  X(kFaBwdVector, "flash_attention_bwd_vector") \
  X(kConvFwdCube, "conv_fwd_cube")            \
  X(kConvFwdVector, "conv_fwd_vector")        \
  X(kConvBwdCube, "conv_bwd_cube")            \
  X(kConvBwdVector, "conv_bwd_vector")        \
  X(kMatmulCube, "matmul_cube")               \
  X(kMatmulVector, "matmul_vector")           \
  X(kOtherCube, "cube")                       \
  X(kVectorTrans, "vector_trans")             \
  X(kVectorNoTrans, "vector_no_trans")

#define PD_KCAT_MEMBER_(id, name) id,
#define PD_KCAT_NAME_(id, name) std::string_view(name),
enum class KernelCategory : uint8_t { PD_KERNEL_CATEGORIES(PD_KCAT_MEMBER_) kCount };
inline constexpr size_t kKernelCategoryCount = static_cast<size_t>(KernelCategory::kCount);
inline constexpr std::array<std::string_view, kKernelCategoryCount> kKernelCategoryNames = {
    PD_KERNEL_CATEGORIES(PD_KCAT_NAME_)};
#undef PD_KCAT_MEMBER_
#undef PD_KCAT_NAME_
constexpr std::string_view Name(KernelCategory c) { return kKernelCategoryNames[static_cast<size_t>(c)]; }

// Per-category totals of one side: the exact sum, the count and the reference's float µs sum (in
// processing order) of each category, and its longest and shortest kernel (0 without kernels; the
// kernel comparison's KernelTypeCompare rows by category read them).
struct CategoryTotals {
  std::array<DualSum, kKernelCategoryCount> sums{};
  std::array<int64_t, kKernelCategoryCount> max_ns{};
  std::array<int64_t, kKernelCategoryCount> min_ns{};
  void Add(KernelCategory c, int64_t dur_ns) {
    const size_t i = static_cast<size_t>(c);
    max_ns[i] = sums[i].count == 0 ? dur_ns : std::max(max_ns[i], dur_ns);
    min_ns[i] = sums[i].count == 0 ? dur_ns : std::min(min_ns[i], dur_ns);
    sums[i].AddNs(dur_ns);
  }
  const DualSum& Sum(KernelCategory c) const { return sums[static_cast<size_t>(c)]; }
  int64_t Ns(KernelCategory c) const { return Sum(c).Ns(); }
  int64_t Count(KernelCategory c) const { return Sum(c).count; }
  int64_t MaxNs(KernelCategory c) const { return max_ns[static_cast<size_t>(c)]; }
  int64_t MinNs(KernelCategory c) const { return min_ns[static_cast<size_t>(c)]; }
};

// A torch op whose lower-cased name contains an FA/CONV/MATMUL mask item ("CPU cube op").
struct CpuCubeOp {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::string lower_name;
  int64_t tid = kNoNumber;
};

// Collects the CPU cube ops of a profile (torch-op slices), sorted by start (stable).
std::vector<CpuCubeOp> CollectCpuCubeOps(const Profile& profile, const KernelMasks& masks);

// One kernel as seen by the categoriser.
struct KernelToCategorize {
  bool has_flow = false;     // launched by a known CPU op (flow)
  int64_t flow_start_ns = 0; // F: the CPU timestamp of the flow start
  int64_t dur_ns = 0;
  std::string_view lower_name;     // lower-cased kernel name
  std::string_view lower_op_type;  // NPU op type (kernel_details "Type"), lower-cased; "" on GPU
  bool cube = false;               // cube test (GPU: CUBE_MASK on name; NPU: mac/aicore time > 0)
};

// Stateful categoriser: kernels must be fed in ascending F order (kernels without flow first); the
// CPU-op cursor only moves forward, as in the reference.
class KernelCategorizer {
 public:
  // `bwd_tid`: tid of the backward thread (kNoNumber when unknown). Policy field read:
  // fused_infer_attention_is_fa (rule 5: op types containing "fusedinferattention" are flash attention).
  KernelCategorizer(const KernelMasks& masks, DeviceKind device, std::vector<CpuCubeOp> cube_ops,
                    int64_t bwd_tid, const ReferencePolicy& policy);
  KernelCategory Classify(const KernelToCategorize& kernel);

 private:
  bool IsBackwardName(std::string_view lower_name) const;

  const KernelMasks& masks_;
  DeviceKind device_;
  std::vector<CpuCubeOp> ops_;
  size_t cursor_ = 0;
  int64_t bwd_tid_;
  bool fused_infer_attention_is_fa_;
};

// True if lower-cased `name` contains any backward word ("bwd", "backward", "back", "grad").
bool HasBackwardWord(std::string_view lower_name);

}  // namespace profdiff::analysis
