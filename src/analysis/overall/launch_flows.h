// Private to the overall comparison: the flow start timestamp ("F",
// docs/reference/overall.md#kernel-categorisation) of the kernel a kernel-launch flow ends at,
// looked up by the kernel. Built from the Timeline's paired flows.
#pragma once

#include <cstdint>
#include <optional>
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
  struct Entry {
    int64_t end_ts;
    int64_t start_ts;
  };
  bool by_ts_only_;
  bool zero_start_is_no_flow_;
  // One entry per place (track, end ts), the last paired flow's, by track then end ts (with
  // by_ts_only every place is on "track" 0); a track's entries are entries_[track_begin_[track],
  // track_begin_[track + 1]). Sorted arrays, not hash maps: built in linear time (issue 35).
  std::vector<Entry> entries_;
  std::vector<uint32_t> track_begin_;
};

}  // namespace profdiff::analysis
