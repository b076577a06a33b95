// The time split of each step window of a side: how long the step took and how that time divides
// into computing, uncovered communication and free time, measured on the side's own busy intervals
// inside the window (not the capture's totals divided by the step count). The windows are
// Timeline::MeasuredSteps(): each step as the device ran it (timeline/device_steps.h), the host
// ProfilerStep markers' only for a side without device work; StepDurations measures the same.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profdiff/analysis/common/intervals.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

struct StepSplit {
  int64_t id = 0;
  int64_t start_ns = 0;
  int64_t e2e_ns = 0;            // the window's length
  int64_t computing_ns = 0;      // |computing ∩ window|
  int64_t communication_ns = 0;  // |busy ∩ window| − computing: uncovered communication
  int64_t free_ns = 0;           // e2e − computing − communication (NPU LCCL time falls here)
};

// How much of a side's busy time its step windows hold: busy time outside every window is work the
// per-step measures do not see (more than 5 % of it makes a per-step verdict unsafe).
struct StepCoverage {
  int64_t busy_ns = 0;     // |busy|
  int64_t outside_ns = 0;  // |busy \ ∪ windows|
};
StepCoverage CoverageOfSteps(const std::vector<Step>& steps, const std::vector<Interval>& busy);

// The window of step `id` (first start, last end of its markers); nullopt when there is none.
std::optional<Interval> StepWindow(const std::vector<Step>& steps, int64_t id);

// One split per distinct step id, by id. `computing` and `busy` are merged lists with computing ⊆
// busy (busy = everything the device did that counts: computing ∪ communication).
std::vector<StepSplit> SplitSteps(const std::vector<Step>& steps, const std::vector<Interval>& computing,
                                  const std::vector<Interval>& busy);

// The mean step: each part is the sum over the steps divided by their number (rounded down), except
// free, which is e2e − computing − communication so that the parts add up to e2e exactly.
struct StepMean {
  int64_t count = 0;
  int64_t e2e_ns = 0;
  int64_t computing_ns = 0;
  int64_t communication_ns = 0;
  int64_t free_ns = 0;
};
std::optional<StepMean> MeanStep(const std::vector<StepSplit>& steps);

}  // namespace profdiff::analysis
