// Per-side raw metrics of the overall comparison (docs/reference/overall.md), before rows and
// screen cells are derived from them. Computed by ComputeGpuSideMetrics (gpu_overall.h) or
// ComputeNpuSideMetrics (npu_overall.h). Times are int64 ns, or DualSums where the reference's
// float sums must be kept beside the exact value.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/intervals.h"
#include "profdiff/analysis/overall/categorize.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct Mc2Kernel {
  std::string name;  // kernel name as written
  DualSum dur;       // its count is the number of kernels
  DualSum computing;
  DualSum communication;
};

struct GroupCommunication {
  std::string name;  // HCCL thread name, e.g. "Group 0 Communication"
  // The OverallMetrics rows: the group row (uncovered), its Wait and Transmit rows. By the
  // reference's rule under ReferencePolicy::comm_wait_least_wait_plane (uncovered = wait +
  // transmit), else from `split` (uncovered = wait + transmit + idle).
  int64_t wait_ns = 0;
  int64_t transmit_ns = 0;
  int64_t uncovered_ns = 0;
  CommunicationGroupSplit split;  // the exact split, in every mode
};

struct GroupOverlap {
  std::string first, second;  // group names in thread-sort order
  int64_t overlap_ns = 0;
};

struct SideMetrics {
  DeviceKind device = DeviceKind::kUnknown;
  bool trace_level = false;      // NPU trace_view.json only: no side files, no categorisation
  bool hide_op_details = false;  // NPU: kernel details unusable, computing split unknown
  bool has_overlap_data = true;  // NPU: overlap-analysis lane present; GPU: kernels present
  CategoryTotals categories;
  std::vector<Mc2Kernel> mc2;  // first-appearance order
  // Each sum holds the exact value and the reference's float µs sum in its order of additions, so
  // the policy's float_us_sums can reproduce the reference's results to the last bit.
  DualSum compute;              // GPU: busy compute time; NPU: overlap-lane "Computing"
  DualSum comm_not_overlapped;  // uncovered communication
  DualSum e2e;
  DualSum lccl;                 // LCCL kernels (count: their number)
  DualSum sdma_stream;          // SDMA-stream tasks (count: their number)
  std::vector<GroupCommunication> groups;  // thread-sort order
  std::vector<GroupOverlap> group_overlaps;  // non-zero only
  std::map<std::string, std::string> pg_names;  // "Group {id} Communication" -> pg name
  double memory_gib = 0;
  bool memory_known = false;  // the side has memory data (GPU [memory] events, NPU memory_record.csv)
  std::optional<double> rdma_bandwidth_gb_s;
  std::optional<double> sdma_bandwidth_gb_s;
  std::vector<std::string> warnings;
  // Each step window's exact split (Timeline::MeasuredSteps(); empty without step markers), and how
  // much of the busy time the windows hold.
  std::vector<StepSplit> step_splits;
  StepCoverage step_coverage;
  StepWindowSource step_source = StepWindowSource::kNone;  // what the windows are (Timeline::MeasuredSource)

  // Free time: e2e - compute - lccl - uncovered communication (in this order, as the reference).
  DualSum FreeTime() const {
    DualSum f = e2e;
    f -= compute;
    f -= lccl;
    f -= comm_not_overlapped;
    return f;
  }
  int64_t wait_ns() const {
    int64_t w = 0;
    for (const auto& g : groups) w += g.wait_ns;
    return w;
  }
};

// Rows, screen and summaries from two sides' metrics (CompareOverall = per-side metrics + this).
OverallComparison CompareOverallMetrics(const SideMetrics& base, const SideMetrics& comparison,
                                        const ReferencePolicy& policy);

}  // namespace profdiff::analysis
