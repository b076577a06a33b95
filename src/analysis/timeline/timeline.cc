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

std::vector<StepSpan> StepSpans(const std::vector<Step>& steps) {
  std::vector<StepSpan> spans;
  spans.reserve(steps.size());
  for (const Step& s : steps) spans.push_back({s.id, s.start_ns, s.end_ns, s.slice});
  // By id, the first marker of each id first: then each id's markers fold into its first.
  std::stable_sort(spans.begin(), spans.end(), [](const StepSpan& a, const StepSpan& b) { return a.id < b.id; });
  size_t out = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    if (out > 0 && spans[out - 1].id == spans[i].id) {
      spans[out - 1].start_ns = std::min(spans[out - 1].start_ns, spans[i].start_ns);
      spans[out - 1].end_ns = std::max(spans[out - 1].end_ns, spans[i].end_ns);
    } else {
      spans[out++] = spans[i];
    }
  }
  spans.resize(out);
  return spans;
}

std::optional<StepSpan> SpanOf(const std::vector<Step>& steps, int64_t id) {
  std::optional<StepSpan> w;
  for (const Step& s : steps) {
    if (s.id != id) continue;
    if (!w) w = StepSpan{s.id, s.start_ns, s.end_ns, s.slice};
    w->start_ns = std::min(w->start_ns, s.start_ns);
    w->end_ns = std::max(w->end_ns, s.end_ns);
  }
  return w;
}

std::optional<std::pair<int64_t, int64_t>> Timeline::HostWindow(int64_t id) const {
  const std::optional<StepSpan> w = SpanOf(steps, id);
  if (!w) return std::nullopt;
  return std::pair{w->start_ns, w->end_ns};
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
