#include "profdiff/analysis/timeline/device_identity.h"

#include "profdiff/base/ascii.h"

namespace profdiff::analysis {
namespace {

std::string VendorOfName(std::string_view model) {
  const std::string lower = ascii::ToLower(model);
  for (std::string_view w : {"nvidia", "tesla", "geforce", "quadro", "rtx", "titan"})
    if (lower.find(w) != std::string::npos) return "NVIDIA";
  for (std::string_view w : {"amd", "instinct", "radeon", "mi300", "mi250", "mi210", "mi355"})
    if (lower.find(w) != std::string::npos) return "AMD";
  if (lower.find("ascend") != std::string::npos) return "Huawei";
  return {};
}

// The runtime API of the launches: "hip..." (ROCm) or "cuda..." (CUDA); "" when neither is seen.
std::string VendorOfRuntime(const Profile& p) {
  for (const Slice& s : p.slices) {
    if (s.kind != SliceKind::kCudaRuntime) continue;
    const std::string_view name = p.str(s.name);
    if (ascii::StartsWithLower(name, "hip")) return "AMD";
    if (ascii::StartsWithLower(name, "cuda")) return "NVIDIA";
  }
  return {};
}

}  // namespace

DeviceIdentity IdentifyDevice(const Profile& profile) {
  DeviceIdentity d;
  d.kind = profile.meta.device;
  for (const std::string& name : profile.meta.device_names) {
    if (!name.empty()) {
      d.model = name;
      break;
    }
  }
  d.vendor = VendorOfName(d.model);
  if (d.vendor.empty() && d.kind == DeviceKind::kNpu) d.vendor = "Huawei";
  if (d.vendor.empty() && d.kind == DeviceKind::kGpu) d.vendor = VendorOfRuntime(profile);
  return d;
}

}  // namespace profdiff::analysis
