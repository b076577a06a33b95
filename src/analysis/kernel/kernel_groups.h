// KernelCompare's groups of one side (internal to analysis/kernel): kernels keyed by (type, shapes),
// types in first-seen order and each type's shapes in first-seen order, each group summing its
// kernels in the order they are added. An Ascend side adds its kernel_details.csv rows (op type,
// "Input Shapes"), a GPU side its device kernels (kernel name, the launching op's input shapes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profdiff/analysis/kernel/kernel_compare.h"

namespace profdiff::analysis {

// One (type, shapes) group of one side, before display rounding.
struct Group {
  std::string type;
  std::string shapes;
  KernelGroupSide side;
};

struct SideGroups {
  std::vector<Group> groups;  // types in first-seen order, then each type's shapes
  KernelSideSummary summary;
};

class GroupBuilder {
 public:
  // `type` and `shapes` must outlive the builder (the profile's strings, a cache of shape texts).
  void Add(std::string_view type, std::string_view shapes, int64_t dur_ns);
  SideGroups Finish(KernelSource source, const ReferencePolicy& policy) &&;

 private:
  struct TypeBucket {
    std::vector<size_t> groups;  // indexes into all_, first-seen order
    std::unordered_map<std::string_view, size_t> by_shape;
  };
  std::vector<Group> all_;
  std::vector<TypeBucket> types_;
  std::unordered_map<std::string_view, size_t> type_index_;
  DualSum total_;
};

// A GPU side's device kernels (kernel, memcpy and memset events; of the selected step's measured
// window, Timeline::MeasuredSteps(), when `step` is set) grouped by kernel name and the Input Dims of
// the innermost cpu_op on the launching thread around the kernel-launch flow's start ("N/A" without
// a flow or an op). Summary source kDeviceKernels.
SideGroups GroupGpuKernels(const Timeline& timeline, std::optional<int64_t> step, const ReferencePolicy& policy);

// A Kineto side (a GPU trace, or a trace of unknown device read as one).
bool IsGpuSide(const Profile& p);

}  // namespace profdiff::analysis
