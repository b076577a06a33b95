// GPU (Kineto) overall metrics (reference §5.2).
#pragma once

#include "profdiff/analysis/overall/overall_side.h"

namespace profdiff::analysis {

// kReferenceCompat: busy time on the integer-µs grid, stream 0/missing stream ignored for e2e,
// flows matched to kernels by start timestamp only. kExact: exact ns interval unions, every kernel
// counts for e2e, flows matched by (track, timestamp).
SideMetrics ComputeGpuSideMetrics(const Profile& profile, const KernelMasks& masks, ArithmeticMode mode);

// The compat busy-mark computation alone (exposed for tests): kernels as (start, end, is_nccl);
// returns {compute_ns, communication_not_overlapped_ns}, both multiples of 1000.
struct GpuKernelSpan {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool nccl = false;
};
std::pair<int64_t, int64_t> GpuBusyMicrosecondGrid(const std::vector<GpuKernelSpan>& kernels);
// The exact counterpart: {|union(compute)|, |union(all) \ union(compute)|}.
std::pair<int64_t, int64_t> GpuBusyExact(const std::vector<GpuKernelSpan>& kernels);

}  // namespace profdiff::analysis
