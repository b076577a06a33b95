// Which device a profile ran on, as far as it says: the vendor and the model (a timeline fact, read
// by the comparability checks of the verdict and the JSON result's inputs). Two profiles of
// different device models are not a regression test of one another.
#pragma once

#include <string>

#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct DeviceIdentity {
  DeviceKind kind = DeviceKind::kUnknown;
  std::string vendor;  // "NVIDIA" | "AMD" | "Huawei" | "" (unknown)
  std::string model;   // Kineto deviceProperties name, an Ascend DB's NPU_INFO chip; "" (unknown)
};

// From the metadata: a Kineto trace's deviceProperties names (the first non-empty one; a GPU name
// without a vendor word takes it from the runtime calls: hip* is AMD, cuda* NVIDIA), an Ascend
// export's chip (Huawei).
DeviceIdentity IdentifyDevice(const Profile& profile);

}  // namespace profdiff::analysis
