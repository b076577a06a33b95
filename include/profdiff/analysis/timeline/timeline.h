// The timeline facts of one profile, derived once per run and read by every comparison (in the
// manner of trace_processor's trackers: one owner per derived fact). A comparison never re-pairs
// flows, re-parses step names or guesses the backward thread on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/timeline/device_identity.h"
#include "profdiff/analysis/timeline/device_steps.h"
#include "profdiff/analysis/timeline/flows.h"
#include "profdiff/analysis/timeline/hccl_groups.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// One host "ProfilerStep#N" marker (the loader marks them SliceKind::kStepMarker).
struct Step {
  int64_t id = 0;
  SliceId slice = 0;  // the marker slice
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// What every per-step measure takes for a step: the first start and the last end of the markers
// with its id (a step has one marker per annotated thread), and the first of them in the given order.
struct StepSpan {
  int64_t id = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  SliceId slice = 0;
};
// One span per id of `steps`, ascending by id.
std::vector<StepSpan> StepSpans(const std::vector<Step>& steps);
// The span of step `id` in `steps`; nullopt when no marker has that id.
std::optional<StepSpan> SpanOf(const std::vector<Step>& steps, int64_t id);

// The step markers of a profile, stably sorted by start.
std::vector<Step> FindSteps(const Profile& profile);
// The same from the ids of the profile's kStepMarker slices, ascending (a caller that passes over
// the slices anyway collects them on its way: on a big profile a pass is a read of a GiB).
std::vector<Step> StepsOfMarkers(const Profile& profile, const std::vector<SliceId>& markers);

struct TimelineOptions {
  std::optional<std::string> gpu_flow_cat;  // --gpu_flow_cat, lower-case as given
};

struct Timeline {
  const Profile* profile = nullptr;
  FlowLinks flows;
  std::vector<Step> steps;        // sorted by start
  std::vector<int64_t> step_ids;  // distinct ids, in order of first appearance in the file
  // The backward thread (tid) of the fwdbwd flows: the tid of the first fwdbwd flow end on a GPU side,
  // of the last on an NPU side (the reference's two parsers differ); kNoNumber without fwdbwd flows.
  int64_t backward_tid = kNoNumber;
  // The track of that flow end. A tid may be text ("stream 7"): compare threads by the tid as written,
  // Track::tid_text of this track. nullopt without fwdbwd flows.
  std::optional<TrackId> backward_track;
  HcclGroups hccl;  // NPU communication groups and planes (empty on a GPU side)
  DeviceSteps device;  // each step as the device ran it (device_steps.h)
  DeviceIdentity identity;  // vendor and model (device_identity.h)

  // The step windows every per-step measure reads: the device windows where the side has any, else
  // the host markers' (a side without device work). One Step per id for device windows.
  const std::vector<Step>& MeasuredSteps() const { return device.steps.empty() ? steps : device.steps; }
  StepWindowSource MeasuredSource() const {
    return !device.steps.empty() ? device.source : steps.empty() ? StepWindowSource::kNone : StepWindowSource::kHostMarkers;
  }

  const Profile& p() const { return *profile; }
  bool HasStep(int64_t id) const;
  const Step* FindStep(int64_t id) const;  // the first marker with that id, or nullptr
  // The host window of step `id`: the first start and the last end of its markers; nullopt without.
  std::optional<std::pair<int64_t, int64_t>> HostWindow(int64_t id) const;
};

// `profile` must outlive the result.
Timeline BuildTimeline(const Profile& profile, const TimelineOptions& options);

}  // namespace profdiff::analysis
