#include "profdiff/analysis/timeline/timeline.h"

#include <algorithm>
#include <unordered_set>

namespace profdiff::analysis {

std::vector<Step> FindSteps(const Profile& profile) {
  std::vector<SliceId> markers;
  for (SliceId s = 0; s < profile.slices.size(); ++s)
    if (profile.slices[s].kind == SliceKind::kStepMarker) markers.push_back(s);
  return StepsOfMarkers(profile, markers);
}

std::vector<Step> StepsOfMarkers(const Profile& profile, const std::vector<SliceId>& markers) {
  std::vector<Step> steps;
  for (SliceId s : markers) {
    const Slice& sl = profile.slices[s];
    if (sl.kind != SliceKind::kStepMarker) continue;
    int64_t id = StepIdFromName(profile.str(sl.name));
    if (id == kNoNumber) continue;
    steps.push_back({id, s, sl.ts_ns, sl.end_ns()});
  }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.start_ns < b.start_ns; });
  return steps;
}

bool Timeline::HasStep(int64_t id) const { return FindStep(id) != nullptr; }

const Step* Timeline::FindStep(int64_t id) const {
  const Step* first = nullptr;
  for (const Step& s : steps)
    if (s.id == id && (first == nullptr || s.slice < first->slice)) first = &s;
  return first;
}

std::optional<std::pair<int64_t, int64_t>> Timeline::HostWindow(int64_t id) const {
  std::optional<std::pair<int64_t, int64_t>> w;
  for (const Step& s : steps) {
    if (s.id != id) continue;
    if (!w) w.emplace(s.start_ns, s.end_ns);
    w->first = std::min(w->first, s.start_ns);
    w->second = std::max(w->second, s.end_ns);
  }
  return w;
}

Timeline BuildTimeline(const Profile& profile, const TimelineOptions& options) {
  Timeline t;
  t.profile = &profile;
  t.flows = LinkFlows(profile, options.gpu_flow_cat);
  t.steps = FindSteps(profile);
  std::vector<Step> by_file = t.steps;
  std::sort(by_file.begin(), by_file.end(), [](const Step& a, const Step& b) { return a.slice < b.slice; });
  std::unordered_set<int64_t> seen;
  for (const Step& s : by_file)
    if (seen.insert(s.id).second) t.step_ids.push_back(s.id);
  // The Ascend DB export's fwdbwd links (two torch ops sharing a connection id) carry no backward
  // thread: the reference has none for it (no segmentation, no thread-based conv direction).
  if (t.flows.first_fwd_bwd_end && profile.meta.format != SourceFormat::kAscendDb) {
    const bool npu = profile.meta.device == DeviceKind::kNpu;
    uint32_t end = npu ? *t.flows.last_fwd_bwd_end : *t.flows.first_fwd_bwd_end;
    t.backward_track = profile.flows[end].track;
    t.backward_tid = profile.tracks[*t.backward_track].tid;
  }
  t.hccl = FindHcclGroups(profile);
  t.device = FindDeviceSteps(profile, t.flows, t.steps);
  t.identity = IdentifyDevice(profile);
  return t;
}

}  // namespace profdiff::analysis
