// GPU (Kineto) overall metrics (docs/reference/overall.md#gpu-overall-metrics).
#pragma once

#include "profdiff/analysis/overall/overall_side.h"

namespace profdiff::analysis {

// Policy fields read: gpu_integer_us_grid (busy time on the integer-µs grid, else exact ns interval
// unions), gpu_e2e_ignores_stream0 (kernels on stream 0 or without a stream left out of e2e),
// gpu_flow_links_by_ts_only (a flow links the kernel starting at its end's timestamp on any track,
// else only on the flow end's track), zero_flow_start_is_no_flow.
// `step`: only the device events starting inside that ProfilerStep window count (--base_step /
// --comparison_step in the default mode); its split is the only step split.
SideMetrics ComputeGpuSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                                  std::optional<int64_t> step = std::nullopt);

// The integer-µs grid computation alone (policy.gpu_integer_us_grid; exposed for tests): kernels as
// (start, end, is communication); returns {compute_ns, communication_not_overlapped_ns}, both multiples of 1000.
struct GpuKernelSpan {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool comm = false;  // a communication kernel (NCCL, or the device-kernel table's in the default mode)
};
std::pair<int64_t, int64_t> GpuBusyMicrosecondGrid(const std::vector<GpuKernelSpan>& kernels);
// The exact counterpart: {|union(compute)|, |union(all) \ union(compute)|}.
std::pair<int64_t, int64_t> GpuBusyExact(const std::vector<GpuKernelSpan>& kernels);

}  // namespace profdiff::analysis
