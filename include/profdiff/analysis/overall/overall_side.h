// Per-side raw metrics of the overall comparison (reference §5), before rows and screen cells are
// derived from them. Computed by ComputeGpuSideMetrics (gpu_overall.h) or ComputeNpuSideMetrics
// (npu_overall.h); all times are int64 ns.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/overall/categorize.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct Mc2Kernel {
  std::string name;  // kernel name as written
  int64_t dur_ns = 0;
  int64_t computing_ns = 0;
  int64_t communication_ns = 0;
  int64_t count = 0;
  double us_sum = 0, computing_us_sum = 0, communication_us_sum = 0;  // float accumulation (compat)
};

struct GroupCommunication {
  std::string name;  // HCCL thread name, e.g. "Group 0 Communication"
  int64_t wait_ns = 0;
  int64_t transmit_ns = 0;
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
  int64_t compute_ns = 0;
  int64_t comm_not_overlapped_ns = 0;
  int64_t e2e_ns = 0;
  int64_t lccl_ns = 0;
  int64_t lccl_count = 0;
  int64_t sdma_stream_ns = 0;
  int64_t sdma_stream_count = 0;
  std::vector<GroupCommunication> groups;  // thread-sort order
  std::vector<GroupOverlap> group_overlaps;  // non-zero only
  std::map<std::string, std::string> pg_names;  // "Group {id} Communication" -> pg name
  double memory_gib = 0;
  std::optional<double> rdma_bandwidth_gb_s;
  std::optional<double> sdma_bandwidth_gb_s;
  std::vector<std::string> warnings;

  // The reference's floating-point accumulations in µs (its order of additions), used by
  // --reference-compat to reproduce its results to the last bit: compute, uncovered communication,
  // e2e, LCCL and SDMA-stream time. Exact mode uses the ns fields above.
  double compute_us_f = 0;
  double comm_not_overlapped_us_f = 0;
  double e2e_us_f = 0;
  double lccl_us_f = 0;
  double sdma_stream_us_f = 0;

  int64_t free_ns() const { return e2e_ns - compute_ns - lccl_ns - comm_not_overlapped_ns; }
  int64_t wait_ns() const {
    int64_t w = 0;
    for (const auto& g : groups) w += g.wait_ns;
    return w;
  }
};

// ---- Interval helpers shared by the GPU and NPU paths ----------------------------------------------

struct Interval {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// Sorts and merges overlapping/touching intervals (empty ones dropped).
std::vector<Interval> MergeIntervals(std::vector<Interval> v);
// Total length of a merged list.
int64_t TotalLength(const std::vector<Interval>& merged);
// Exact measure of union(a) ∩ union(b).
int64_t IntersectionLength(std::vector<Interval> a, std::vector<Interval> b);
// The reference's single-cursor overlap measure (§5.4): both lists sorted by start, `e` assumed
// non-overlapping; one cursor over `e` is shared across all of `u`.
int64_t ReferenceOverlap(const std::vector<Interval>& u, const std::vector<Interval>& e);

}  // namespace profdiff::analysis

namespace profdiff::analysis {
// Rows, screen and summaries from two sides' metrics (CompareOverall = per-side metrics + this).
OverallComparison CompareOverallMetrics(const SideMetrics& base, const SideMetrics& comparison,
                                        const ReferencePolicy& policy);
}  // namespace profdiff::analysis
