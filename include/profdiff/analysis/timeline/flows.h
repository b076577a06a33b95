// Flow links (the 's' start and 'f' end events of one flow), paired once per profile and read by
// every comparison: kernel-launch flows link a CPU op to the device kernel it launched, fwdbwd flows a
// forward op to its backward op. See docs/reference/loading.md for the reference's rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/model/profile.h"

namespace profdiff::analysis {

enum class FlowKind : uint8_t {
  kOther,         // not used by any comparison
  kKernelLaunch,  // CPU op -> device kernel (GPU: ac2g, async_cpu_to_gpu, async_gpu, async or
                  // exactly --gpu_flow_cat; NPU: async_npu), compared lower-cased
  kFwdBwd,        // forward op -> backward op ("fwdbwd")
};

// The kind of a flow category. `gpu_flow_cat` (already lower-case) replaces the GPU launch set.
FlowKind ClassifyFlowCategory(std::string_view cat, DeviceKind device,
                              const std::optional<std::string>& gpu_flow_cat);

struct FlowLink {
  uint32_t start = 0;  // index into Profile::flows of the 's' event (a DB export's launch: its API row's slice)
  uint32_t end = 0;    // index into Profile::flows of the 'f' event (a DB export's launch: its task's slice)
};

// Where a kernel-launch link starts (the launching op's flow start) or ends (where the kernel it
// names starts).
struct FlowPoint {
  int64_t ts_ns = 0;
  TrackId track = 0;
};

struct FlowLinks {
  // Complete flows, in order of the first appearance of their id. Ids are paired within a kind; an
  // integer id and a string id never collide; a later 's' or 'f' with the same id replaces the earlier.
  // An Ascend DB export's kernel launches are its DbInfo::launch_links, in their order: slice pairs
  // (launches_are_slices), no flow events. Read a launch's ends and id through the functions below.
  std::vector<FlowLink> kernel_launch;
  bool launches_are_slices = false;
  std::vector<FlowLink> fwd_bwd;
  // The first and the last fwdbwd 'f' event in file order (the GPU and the NPU backward thread).
  std::optional<uint32_t> first_fwd_bwd_end, last_fwd_bwd_end;
  // The 'f' event of the first fwdbwd id that has one, ids taken in order of first appearance with or
  // without a start (a later 'f' of that id replaces an earlier): the reference's backward process
  // for the module comparison is this event's process (docs/reference/operators.md#module-tree step
  // 2).
  std::optional<uint32_t> fwd_bwd_first_end_by_id;
  uint64_t incomplete = 0;             // ids of a used kind with only a start or only an end

  // Kernel launch `i`'s start and end.
  FlowPoint LaunchStart(const Profile& p, size_t i) const;
  FlowPoint LaunchEnd(const Profile& p, size_t i) const;
  // Its integer flow id (a DB export's CANN connection id); nullopt for a string id.
  std::optional<int64_t> LaunchId(const Profile& p, size_t i) const;
};

FlowLinks LinkFlows(const Profile& profile, const std::optional<std::string>& gpu_flow_cat);

}  // namespace profdiff::analysis
