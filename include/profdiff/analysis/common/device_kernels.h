// What a device kernel's name says it is, beyond the reference's two rules (a GPU kernel whose name
// starts with "nccl" is communication; CUBE_MASK names a cube kernel): one table of the
// communication libraries and GEMM libraries of each vendor (kKernelNameRules), read by the overall
// comparison in the default mode. `--config` extends it (KernelMasks::comm_kernels, comm_words,
// gemm_kernels: the [DEVICE_KERNELS] section).
//
//   communication  a collective or point-to-point library's kernel: NCCL, RCCL, MSCCL/MSCCL++,
//                  NVSHMEM, DeepEP. Counted as communication wherever it runs.
//   stream word    a name that reads like communication ("all_reduce", "alltoall", ...) without a
//                  library prefix: communication only on a stream whose every kernel is
//                  communication-like (a hand-written or fused collective on a stream of its own),
//                  never on a stream that also computes.
//   gemm           a matrix-multiply library kernel (hipBLASLt/Tensile "Cijk_", rocBLAS, CK): cube.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace profdiff::analysis {

enum class KernelRole : uint8_t { kCommunication, kStreamWord, kGemm };

struct KernelNameRule {
  std::string_view vendor;   // "NVIDIA", "AMD", "any"
  std::string_view library;  // what writes such kernels
  std::string_view pattern;  // lower-case
  bool prefix;               // the lower-cased name starts with it (else: contains it)
  KernelRole role;
};

inline constexpr std::array<KernelNameRule, 22> kKernelNameRules = {{
    {"NVIDIA", "NCCL", "nccl", true, KernelRole::kCommunication},
    {"NVIDIA", "NCCL", "ncclkernel", false, KernelRole::kCommunication},
    {"NVIDIA", "NCCL", "nccldevkernel", false, KernelRole::kCommunication},
    {"AMD", "RCCL", "rccl", true, KernelRole::kCommunication},
    {"any", "MSCCL / MSCCL++", "msccl", false, KernelRole::kCommunication},
    {"NVIDIA", "NVSHMEM", "nvshmem", false, KernelRole::kCommunication},
    {"AMD", "rocSHMEM", "rocshmem", false, KernelRole::kCommunication},
    {"any", "DeepEP", "deep_ep::", false, KernelRole::kCommunication},
    {"any", "DeepEP (DeepSeek builds)", "dpsk::ep::", false, KernelRole::kCommunication},
    {"any", "collective", "allreduce", false, KernelRole::kStreamWord},
    {"any", "collective", "all_reduce", false, KernelRole::kStreamWord},
    {"any", "collective", "allgather", false, KernelRole::kStreamWord},
    {"any", "collective", "all_gather", false, KernelRole::kStreamWord},
    {"any", "collective", "reducescatter", false, KernelRole::kStreamWord},
    {"any", "collective", "reduce_scatter", false, KernelRole::kStreamWord},
    {"any", "collective", "alltoall", false, KernelRole::kStreamWord},
    {"any", "collective", "all_to_all", false, KernelRole::kStreamWord},
    {"any", "point-to-point", "sendrecv", false, KernelRole::kStreamWord},
    {"AMD", "hipBLASLt / Tensile", "cijk_", true, KernelRole::kGemm},
    {"AMD", "hipBLASLt", "hipblaslt", false, KernelRole::kGemm},
    {"AMD", "rocBLAS", "rocblas", false, KernelRole::kGemm},
    {"any", "GEMM (CK, CUTLASS, Triton, ...)", "gemm", false, KernelRole::kGemm},
}};

// The table with a user's additions (each lower-case, matched as a substring).
class DeviceKernelNames {
 public:
  DeviceKernelNames() = default;
  DeviceKernelNames(std::vector<std::string> extra_comm, std::vector<std::string> extra_words,
                    std::vector<std::string> extra_gemm);

  // `lower_name` is the lower-cased kernel name.
  bool IsCommunication(std::string_view lower_name) const;
  bool IsStreamWord(std::string_view lower_name) const;  // also true for every communication name
  bool IsGemm(std::string_view lower_name) const;

 private:
  bool Matches(std::string_view lower_name, KernelRole role, const std::vector<std::string>& extra) const;
  std::vector<std::string> comm_, words_, gemm_;
};

}  // namespace profdiff::analysis
