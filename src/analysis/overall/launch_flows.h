// Private to the overall comparison: the flow start timestamp ("F",
// docs/reference/overall.md#kernel-categorisation) of the kernel a kernel-launch flow ends at,
// looked up by the kernel. Built from the Timeline's paired flows.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

class LaunchFlowIndex {
 public:
  // `by_ts_only`: a flow links the kernel that starts at its end's timestamp on any track (the
  // reference); otherwise only on the flow end's own track. `zero_start_is_no_flow`: a flow starting
  // at timestamp 0 links nothing (the reference). Among flows ending at the same place, the last
  // paired one wins.
  LaunchFlowIndex(const Timeline& timeline, bool by_ts_only, bool zero_start_is_no_flow);

  // F of the kernel starting at `ts_ns` on `track`; nullopt when no flow links it.
  std::optional<int64_t> Find(int64_t ts_ns, TrackId track) const;

 private:
  bool by_ts_only_;
  bool zero_start_is_no_flow_;
  std::unordered_map<int64_t, int64_t> by_ts_;
  std::unordered_map<int64_t, std::vector<std::pair<TrackId, int64_t>>> by_ts_track_;
};

}  // namespace profdiff::analysis
