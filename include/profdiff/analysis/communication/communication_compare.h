// The communication comparison (docs/reference/communication.md, docs/reference/communication.md):
// per normalised communication op name, the op durations and the durations of the tasks each op
// ran, on both sides. GPU ops are the kernels whose lower-cased name starts with "nccl" (no tasks);
// NPU ops and tasks come from the Timeline's HCCL groups (hccl_groups.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

// Durations of one op name (or one task name of an op name) on one side.
struct CommStats {
  bool present = false;
  DualSum total;  // total.count = calls
  int64_t max_e5 = 0, min_e5 = 0;
  // Displayed (µs, unrounded as the reference shows them): Σ, Σ / calls, max, min.
  double total_us = 0, avg_us = 0, max_us = 0, min_us = 0;
};

struct CommTaskStats {
  std::string name;
  CommStats stats;
};

// One normalised op name of one side.
struct CommOpStats {
  std::string name;
  CommStats ops;
  std::vector<CommTaskStats> tasks;  // task names in first-seen order
};

struct CommRow {
  bool is_task = false;                   // a task row ("|" in the op name column)
  std::string base_name, comparison_name;  // op name (op row) or task name (task row); empty when absent
  CommStats base, comparison;
  double diff_us = 0;     // op rows: round(comparison total − base total, 2)
  double diff_ratio = 1;  // op rows: DiffRatio of the totals
};

struct CommSideSummary {
  bool has_data = false;  // at least one communication op kept
  int64_t ops = 0;
  int64_t tasks = 0;  // tasks given to an op
};

struct CommunicationCompareOptions {
  std::optional<int64_t> base_step;
  std::optional<int64_t> comparison_step;
};

struct CommunicationComparison {
  ReferencePolicy policy;
  CommSideSummary base, comparison;
  std::vector<CommRow> rows;          // base op names, then comparison-only names; task rows after their op
  std::vector<std::string> warnings;  // why a side gave nothing
};

// One side's op names in first-seen order (exposed for tests).
std::vector<CommOpStats> CollectCommunication(const Timeline& t, std::optional<int64_t> step,
                                              const ReferencePolicy& policy, std::string* warning);

// The rows from both sides' op names (exposed for tests).
std::vector<CommRow> BuildCommRows(const std::vector<CommOpStats>& base, const std::vector<CommOpStats>& comparison,
                                   const ReferencePolicy& policy);

CommunicationComparison CompareCommunication(const Timeline& base, const Timeline& comparison,
                                             const ReferencePolicy& policy,
                                             const CommunicationCompareOptions& options);

// "allreduce" from "hcom_allReduce__586_0_1", "ncclkernel" from "ncclKernel_AllReduce_...";
// nullopt when the lower-cased name has fewer than 2 "_"-separated parts.
std::optional<std::string> NormaliseCommOpName(std::string_view name);

}  // namespace profdiff::analysis
