#include "launch_flows.h"

#include <algorithm>

namespace profdiff::analysis {

LaunchFlowIndex::LaunchFlowIndex(const Timeline& timeline, bool by_ts_only, bool zero_start_is_no_flow)
    : by_ts_only_(by_ts_only), zero_start_is_no_flow_(zero_start_is_no_flow) {
  const Profile& p = timeline.p();
  for (size_t i = 0; i < timeline.flows.kernel_launch.size(); ++i) {
    const int64_t start_ts = timeline.flows.LaunchStart(p, i).ts_ns;
    const FlowPoint end = timeline.flows.LaunchEnd(p, i);
    if (by_ts_only_) {
      by_ts_[end.ts_ns] = start_ts;
      continue;
    }
    auto& v = by_ts_track_[end.ts_ns];
    auto it = std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.first == end.track; });
    if (it == v.end()) {
      v.emplace_back(end.track, start_ts);
    } else {
      it->second = start_ts;
    }
  }
}

std::optional<int64_t> LaunchFlowIndex::Find(int64_t ts_ns, TrackId track) const {
  std::optional<int64_t> start;
  if (by_ts_only_) {
    if (auto it = by_ts_.find(ts_ns); it != by_ts_.end()) start = it->second;
  } else if (auto it = by_ts_track_.find(ts_ns); it != by_ts_track_.end()) {
    for (const auto& [t, s] : it->second)
      if (t == track) start = s;
  }
  if (start && zero_start_is_no_flow_ && *start == 0) return std::nullopt;
  return start;
}

}  // namespace profdiff::analysis
