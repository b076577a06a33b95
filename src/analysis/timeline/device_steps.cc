#include "profdiff/analysis/timeline/device_steps.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

std::string_view Name(StepWindowSource s) {
  switch (s) {
    case StepWindowSource::kNone: return "none";
    case StepWindowSource::kHostMarkers: return "host_markers";
    case StepWindowSource::kDeviceMarkers: return "device_markers";
    case StepWindowSource::kLaunchedWork: return "launched_device_work";
    case StepWindowSource::kMixed: return "mixed";
  }
  return "none";
}

bool IsDeviceEventKind(SliceKind kind) {
  return kind == SliceKind::kKernel || kind == SliceKind::kGpuMemcpy || kind == SliceKind::kGpuMemset ||
         kind == SliceKind::kNpuTask || kind == SliceKind::kHcclTask;
}

namespace {

struct Window {
  int64_t id = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  SliceId first = 0;  // the first slice that made it
  bool from_markers = false;
};

// The host windows, one per id (first start, last end of its markers), sorted by start.
std::vector<Window> HostWindows(const std::vector<Step>& host_steps) {
  std::vector<Window> out;
  for (const StepSpan& w : StepSpans(host_steps)) out.push_back(Window{w.id, w.start_ns, w.end_ns, w.slice, false});
  std::stable_sort(out.begin(), out.end(), [](const Window& a, const Window& b) { return a.start_ns < b.start_ns; });
  return out;
}

// The window of `windows` (sorted by start, not overlapping) that contains `ts`, or nullptr.
const Window* Containing(const std::vector<Window>& windows, int64_t ts) {
  auto it = std::upper_bound(windows.begin(), windows.end(), ts,
                             [](int64_t t, const Window& w) { return t < w.start_ns; });
  if (it == windows.begin()) return nullptr;
  --it;
  return ts < it->end_ns ? &*it : nullptr;
}

// Where each kernel-launch flow ends (track, ts) -> the launch's host timestamp.
using LaunchIndex = std::unordered_map<TrackId, std::vector<std::pair<int64_t, int64_t>>>;

LaunchIndex LaunchesByEnd(const Profile& p,
                                                                                      const FlowLinks& flows) {
  LaunchIndex out;  // track -> (end ts, start ts), by end ts
  for (size_t i = 0; i < flows.kernel_launch.size(); ++i) {
    const FlowPoint s = flows.LaunchStart(p, i);
    const FlowPoint e = flows.LaunchEnd(p, i);
    out[e.track].emplace_back(e.ts_ns, s.ts_ns);
  }
  for (auto& [track, v] : out) std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; });
  return out;
}

std::optional<int64_t> LaunchTs(const LaunchIndex& index,
                                TrackId track, int64_t ts) {
  auto it = index.find(track);
  if (it == index.end()) return std::nullopt;
  const auto& v = it->second;
  auto hit = std::lower_bound(v.begin(), v.end(), ts, [](const auto& e, int64_t t) { return e.first < t; });
  if (hit == v.end() || hit->first != ts) return std::nullopt;
  return hit->second;
}

// The device-side step markers' windows by id.
std::map<int64_t, Window> DeviceMarkerWindows(const Profile& p) {
  std::map<int64_t, Window> out;
  for (SliceId i = 0; i < p.slices.size(); ++i) {
    const Slice& s = p.slices[i];
    if (s.kind != SliceKind::kGpuAnnotation || s.phase != 'X') continue;
    const int64_t id = StepIdFromName(p.str(s.name));
    if (id == kNoNumber) continue;
    auto [it, inserted] = out.try_emplace(id, Window{id, s.ts_ns, s.end_ns(), i, true});
    if (!inserted) {
      it->second.start_ns = std::min(it->second.start_ns, s.ts_ns);
      it->second.end_ns = std::max(it->second.end_ns, s.end_ns());
    }
  }
  return out;
}

}  // namespace

namespace {

// A device event no host step launched, and whether it has a launch link at all.
struct Unattributed {
  SliceId slice;
  bool linked;  // launched outside every host step (a step the capture does not hold)
};

// The launched work's windows by step id; unattributed device events into `unattributed`.
std::map<int64_t, Window> LaunchedWindows(const Profile& profile, const FlowLinks& flows,
                                          const std::vector<Step>& host_steps, DeviceSteps& out,
                                          std::vector<Unattributed>& unattributed) {
  const std::vector<Window> host = HostWindows(host_steps);
  const LaunchIndex launches = LaunchesByEnd(profile, flows);
  std::map<int64_t, Window> windows;
  for (SliceId i = 0; i < profile.slices.size(); ++i) {
    const Slice& s = profile.slices[i];
    if (!IsDeviceEventKind(s.kind) || s.phase != 'X') continue;
    ++out.device_events;
    const std::optional<int64_t> launch = LaunchTs(launches, s.track, s.ts_ns);
    const Window* h = launch ? Containing(host, *launch) : nullptr;
    if (h == nullptr) {
      unattributed.push_back({i, launch.has_value()});
      continue;
    }
    ++out.attributed;
    auto [it, inserted] = windows.try_emplace(h->id, Window{h->id, s.ts_ns, s.end_ns(), i, false});
    if (!inserted) {
      it->second.start_ns = std::min(it->second.start_ns, s.ts_ns);
      it->second.end_ns = std::max(it->second.end_ns, s.end_ns());
    }
  }
  return windows;
}

// A device event without a launch link (an HCCL task of an export without flows to it) outside
// every device window belongs to the host step whose window holds its start (host and device share
// a clock), widening the end of that step's device window; one that starts before the step's first
// device work stays outside (an earlier step's, launched before the capture began).
void PlaceUnlinked(const Profile& profile, const std::vector<Window>& host, const std::vector<Unattributed>& events,
                   std::map<int64_t, Window>& windows) {
  std::vector<Window> sorted;
  for (const auto& [id, w] : windows) sorted.push_back(w);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Window& a, const Window& b) { return a.start_ns < b.start_ns; });
  for (const auto& [i, linked] : events) {
    if (linked) continue;
    const Slice& s = profile.slices[i];
    // In a device window? They may overlap before tiling: look at the few that start last before it.
    auto it = std::upper_bound(sorted.begin(), sorted.end(), s.ts_ns,
                               [](int64_t t, const Window& w) { return t < w.start_ns; });
    bool inside = false;
    for (int back = 0; back < 4 && it != sorted.begin() && !inside; ++back) inside = s.ts_ns < (--it)->end_ns;
    if (inside) continue;
    const Window* h = Containing(host, s.ts_ns);
    if (h == nullptr) continue;
    auto [w, fresh] = windows.try_emplace(h->id, Window{h->id, s.ts_ns, s.end_ns(), i, false});
    // Only after the step's first device work: before it runs the work of an earlier step (launched
    // before the capture began, so without a link).
    if (!fresh && s.ts_ns >= w->second.start_ns) w->second.end_ns = std::max(w->second.end_ns, s.end_ns());
  }
}

}  // namespace

DeviceSteps FindDeviceSteps(const Profile& profile, const FlowLinks& flows, const std::vector<Step>& host_steps) {
  DeviceSteps out;
  std::vector<Unattributed> unattributed;
  const std::map<int64_t, Window> launched = LaunchedWindows(profile, flows, host_steps, out, unattributed);
  // A device marker's window, widened by the work its host step launched beyond it: Kineto writes
  // the GPU-side marker from the kernels the annotated thread launched, so a backward thread's
  // kernels may run after it ends.
  std::map<int64_t, Window> windows = DeviceMarkerWindows(profile);
  for (auto& [id, w] : windows) {
    auto it = launched.find(id);
    if (it == launched.end()) continue;
    if (it->second.start_ns < w.start_ns || it->second.end_ns > w.end_ns) ++out.markers_widened;
    w.start_ns = std::min(w.start_ns, it->second.start_ns);
    w.end_ns = std::max(w.end_ns, it->second.end_ns);
  }
  for (const auto& [id, w] : launched) windows.try_emplace(id, w);
  PlaceUnlinked(profile, HostWindows(host_steps), unattributed, windows);
  std::vector<Window> sorted;
  bool any_markers = false, any_launched = false;
  for (const auto& [id, w] : windows) {
    sorted.push_back(w);
    (w.from_markers ? any_markers : any_launched) = true;
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const Window& a, const Window& b) { return a.start_ns < b.start_ns; });
  // A step lasts until the next one starts on the device: the device's idle time between two steps
  // (waiting for the host: a data loader, a synchronisation) is the earlier step's, as the host's
  // ProfilerStep windows tile the host's time. Not across a gap in the step ids.
  for (size_t i = 0; i + 1 < sorted.size(); ++i)
    if (sorted[i + 1].id == sorted[i].id + 1 && sorted[i + 1].start_ns > sorted[i].start_ns)
      sorted[i].end_ns = sorted[i + 1].start_ns;
  for (const Unattributed& u : unattributed)
    if (Containing(sorted, profile.slices[u.slice].ts_ns) == nullptr) ++out.outside;
  for (const Window& w : sorted) out.steps.push_back({w.id, w.first, w.start_ns, w.end_ns});
  out.source = any_markers && any_launched ? StepWindowSource::kMixed
               : any_markers               ? StepWindowSource::kDeviceMarkers
               : any_launched              ? StepWindowSource::kLaunchedWork
                                           : StepWindowSource::kNone;
  return out;
}

}  // namespace profdiff::analysis
