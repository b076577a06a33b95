#include "profdiff/analysis/common/device_kernels.h"

#include <utility>

namespace profdiff::analysis {

DeviceKernelNames::DeviceKernelNames(std::vector<std::string> extra_comm, std::vector<std::string> extra_words,
                                     std::vector<std::string> extra_gemm)
    : comm_(std::move(extra_comm)), words_(std::move(extra_words)), gemm_(std::move(extra_gemm)) {}

bool DeviceKernelNames::Matches(std::string_view lower_name, KernelRole role,
                                const std::vector<std::string>& extra) const {
  for (const KernelNameRule& r : kKernelNameRules) {
    if (r.role != role) continue;
    if (r.prefix ? lower_name.starts_with(r.pattern) : lower_name.find(r.pattern) != std::string_view::npos)
      return true;
  }
  for (const std::string& e : extra)
    if (lower_name.find(e) != std::string_view::npos) return true;
  return false;
}

bool DeviceKernelNames::IsCommunication(std::string_view lower_name) const {
  return Matches(lower_name, KernelRole::kCommunication, comm_);
}

bool DeviceKernelNames::IsStreamWord(std::string_view lower_name) const {
  return IsCommunication(lower_name) || Matches(lower_name, KernelRole::kStreamWord, words_);
}

bool DeviceKernelNames::IsGemm(std::string_view lower_name) const {
  return Matches(lower_name, KernelRole::kGemm, gemm_);
}

}  // namespace profdiff::analysis
