// Each step as the device ran it (a timeline fact, derived once, read by the overall comparison, the
// gate and the step selection of every comparison). On an asynchronous loop the device runs a step
// or more behind the host: the host's ProfilerStep#N window ends long before the kernels it launched
// do, so a step timed by it says nothing about the device (a 1.5x slower GPU times the same).
//
// A step's device window, per step id:
//  * where the trace has device-side step markers (Kineto's `gpu_user_annotation` "ProfilerStep#N",
//    written from the kernels each host step launched): from the first start to the last end of
//    those markers, widened by any device work the host step launched that runs beyond them (Kineto
//    derives the marker from the annotated thread's launches only: a backward thread's kernels may
//    run after it ends);
//  * else from the first start to the last end of the device work the host step launched: every
//    device event (GPU kernel, memcpy, memset; NPU task) linked by a kernel-launch flow (Kineto's
//    correlation / ac2g, Ascend's async_npu, a DB export's connection ids) to a launch inside the
//    host window of that step. On an NPU this excludes the step's Preparing time (the host time
//    before its first task) and holds the rest of its Stage.
// A step with a successor (the next step id) lasts until that one starts on the device: the device's
// idle time between them (waiting for a data loader, a synchronisation) is its free time, as the
// host's ProfilerStep windows tile the host's time; the last step ends with its last device event.
// A device event belongs to the step that launched it; one without a launch link (an HCCL task, a
// GPU event whose flow is missing) to the device window that contains its start, else to the host
// step whose window holds its start if it starts after that step's first device work (host and
// device share a clock; it widens that step's device window); else it is outside every step. A host step with no device work has no device window.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "profdiff/analysis/timeline/flows.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct Step;

enum class StepWindowSource : uint8_t { kNone, kHostMarkers, kDeviceMarkers, kLaunchedWork, kMixed };
// "none" | "host_markers" | "device_markers" | "launched_device_work" | "mixed"
std::string_view Name(StepWindowSource s);

struct DeviceSteps {
  // One per step id with device work, sorted by start. Step::slice is the first device marker of the
  // step, else the first device event attributed to it.
  std::vector<Step> steps;
  StepWindowSource source = StepWindowSource::kNone;  // kDeviceMarkers, kLaunchedWork or kMixed when any
  int64_t device_events = 0;   // device events of the profile
  int64_t attributed = 0;      // of them, launched inside a host step
  int64_t outside = 0;         // of them, in no step (not launched in one, not inside a window)
  int64_t markers_widened = 0;  // device-marker windows widened by launched work beyond them
};

DeviceSteps FindDeviceSteps(const Profile& profile, const FlowLinks& flows, const std::vector<Step>& host_steps);

// True for the slices that run on a device: GPU kernels, memcpys and memsets, NPU tasks, HCCL tasks.
bool IsDeviceEventKind(SliceKind kind);

}  // namespace profdiff::analysis
