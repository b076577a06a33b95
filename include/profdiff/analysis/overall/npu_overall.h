// NPU (Ascend text export) overall metrics (docs/reference/overall.md#npu-text-overall-metrics to
// #pg-names).
#pragma once

#include "profdiff/analysis/overall/overall_side.h"

namespace profdiff::analysis {

// Policy fields read: npu_sdma_ignores_stream0, single_cursor_overlap, comm_wait_least_wait_plane,
// zero_flow_start_is_no_flow.
// `db_step`: for a DB export, the step whose STEP_TIME range the metrics are restricted to (ignored
// for text input and for an id STEP_TIME does not have).
SideMetrics ComputeNpuSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                                  std::optional<int64_t> db_step = std::nullopt);

// Building blocks of docs/reference/overall.md#communication-wait-transmit (exposed for tests).
struct HcclTask {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  std::string_view name;
  uint32_t plane = 0;  // index of the plane thread within its group
};
// Selects the Notify_Wait tasks that count as waits (not part of RDMA transfers), per plane.
// `tasks` in start order; returns, per plane index (0..plane_count-1), the wait intervals.
std::vector<std::vector<Interval>> SelectWaitTasks(const std::vector<HcclTask>& tasks, uint32_t plane_count);
// wait and transmit of one group: U = not-overlapped communication intervals (sorted), ops = the
// group's op intervals, planes_waits = SelectWaitTasks output. Measured with the reference's
// single-cursor walk under policy.single_cursor_overlap, else as exact intersections.
std::pair<int64_t, int64_t> GroupWaitTransmit(const std::vector<Interval>& u, const std::vector<Interval>& ops,
                                              const std::vector<std::vector<Interval>>& plane_waits,
                                              const ReferencePolicy& policy);
// The exact split of one group's uncovered communication (docs/deviations.md row 12): U = the
// not-overlapped communication intervals, ops = the group's op intervals, transmit_tasks and
// wait_tasks = the data-moving and Notify_Wait tasks of all its planes (any order, overlaps and
// empty intervals allowed). Returns |U ∩ ops| split into transmit, wait and idle (group left empty).
CommunicationGroupSplit SplitUncoveredCommunication(const std::vector<Interval>& u, const std::vector<Interval>& ops,
                                                    const std::vector<Interval>& transmit_tasks,
                                                    const std::vector<Interval>& wait_tasks);
// U clipped to a group's ops (docs/reference/overall.md#communication-wait-transmit
// "uncovered(g)").
std::vector<Interval> UncoveredWithinOps(const std::vector<Interval>& u, const std::vector<Interval>& ops);
// MC2 communication time from C_CORE_SQE end times (sorted) with a forward-only cursor.
int64_t Mc2Communication(const std::vector<int64_t>& sqe_ends_ns, size_t& cursor, int64_t start_ns, int64_t end_ns);

}  // namespace profdiff::analysis
