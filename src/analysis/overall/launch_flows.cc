#include "launch_flows.h"

#include <algorithm>

#include "profdiff/analysis/common/stable_order.h"

namespace profdiff::analysis {

LaunchFlowIndex::LaunchFlowIndex(const Timeline& timeline, bool by_ts_only, bool zero_start_is_no_flow)
    : by_ts_only_(by_ts_only), zero_start_is_no_flow_(zero_start_is_no_flow) {
  const Profile& p = timeline.p();
  const size_t n = timeline.flows.kernel_launch.size();
  std::vector<uint32_t> tracks(n, 0);
  std::vector<int64_t> ends(n);
  uint32_t num_tracks = 1;
  for (size_t i = 0; i < n; ++i) {
    const FlowPoint end = timeline.flows.LaunchEnd(p, i);
    ends[i] = end.ts_ns;
    if (!by_ts_only_) tracks[i] = end.track;
    num_tracks = std::max(num_tracks, tracks[i] + 1);
  }
  // In each run of equal places the flows come in pairing order: the last one wins.
  const SortedRuns runs = StableRunsByPair(tracks, ends);
  track_begin_.assign(num_tracks + 1, 0);
  for (size_t q = 0; q < runs.order.size(); ++q) {
    const uint32_t i = runs.order[q];
    const int64_t start_ts = timeline.flows.LaunchStart(p, i).ts_ns;
    if (runs.new_run[q]) {
      entries_.push_back({ends[i], start_ts});
      ++track_begin_[tracks[i] + 1];
    } else {
      entries_.back().start_ts = start_ts;
    }
  }
  for (size_t t = 0; t < num_tracks; ++t) track_begin_[t + 1] += track_begin_[t];
}

std::optional<int64_t> LaunchFlowIndex::Find(int64_t ts_ns, TrackId track) const {
  const size_t t = by_ts_only_ ? 0 : track;
  if (t + 1 >= track_begin_.size()) return std::nullopt;
  const auto begin = entries_.begin() + track_begin_[t], end = entries_.begin() + track_begin_[t + 1];
  const auto it = std::lower_bound(begin, end, ts_ns, [](const Entry& e, int64_t ts) { return e.end_ts < ts; });
  if (it == end || it->end_ts != ts_ns) return std::nullopt;
  if (zero_start_is_no_flow_ && it->start_ts == 0) return std::nullopt;
  return it->start_ts;
}

}  // namespace profdiff::analysis
