// The reference's ClusterTimeSummary (its `cluster_time_summary` recipe, a run of DB exports) and
// ClusterTimeCompareSummary (two runs): per rank and step the step time (STEP_TIME), the step trace
// (analysis.db's StepTraceTime: computation, communication not overlapped / overlapped, communication,
// free), the wait and transmit stage time of the communication ops, and the memory copies
// (MEMCPY_ASYNC tasks) with the part of them that neither computing nor communication covers, which
// is taken off free.
//
// Each communication op and compute task counts in the step its CANN_API launch starts in (a
// MEMCPY_ASYNC task: its own start), as the reference joins them; one with no CANN_API row does not
// count. The transmit stage of an op is the shortest duration any rank had for it (same group, name
// and step), its wait stage its own duration less that. Every value is kept twice: exact ns, and
// the reference's float in µs (its pandas arithmetic), which --reference-compat writes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct RankSummary;

// One step of one rank, from the rank's own export (the map step).
struct RankTimeStep {
  int64_t step = 0;                        // STEP_TIME id; -1 when the export has no STEP_TIME
  int64_t step_time_ns = kAbsentNs;        // its end - start; absent without STEP_TIME
  int64_t memory_ns = kAbsentNs;           // the MEMCPY_ASYNC tasks that start in it; absent: none
  int64_t memory_not_overlap_ns = kAbsentNs;
};

// A communication op in the step its launch starts in.
struct RankCommOpTime {
  uint64_t group = 0;  // GroupNameHash of its group id
  std::string name;
  int64_t step = 0;
  int64_t dur_ns = 0;
};

// A rank's inputs of ClusterTimeSummary (a DB export read with LoadOptions::cluster_tables).
struct RankTimeInputs {
  bool present = false;
  bool has_comm_ops = false;     // some communication op has a CANN_API launch (in a step or not)
  bool has_comm_groups = false;  // analysis.db's CommAnalyzerTime has rows (the reference's groups)
  std::vector<RankTimeStep> steps;       // ascending
  std::vector<RankCommOpTime> comm_ops;  // table order
};

RankTimeInputs SummarizeRankTime(const Profile& profile);

// The CANN_API launches (connection id, start) of a DB export's op with this connection id.
std::span<const std::pair<int64_t, int64_t>> CannApiStarts(const DbInfo& db, int64_t connection_id);

// One interval of a step's computing, communication and memory copies.
struct OverlapInterval {
  enum Type : int { kComputing = 0, kCommunication = 1, kMemory = 4 };  // the reference's type numbers
  int64_t start_ns = 0, end_ns = 0;
  int type = kComputing;
};
// The memory copies' time that no computing or communication covers, as the reference's
// get_memory_not_overlap sweeps `rows` (sorted by start, then end): a block grows while the next
// interval starts within it, and takes the type of the interval that ends it last; the part of a
// memory block before the next interval's start counts.
int64_t MemoryNotOverlapNs(std::span<const OverlapInterval> rows);

// The summary's value columns, in the reference's order.
enum class TimeMetric : uint8_t {
  kStepTime, kComputation, kCommNotOverlap, kCommOverlap, kCommunication, kFree, kWaitStage, kTransmitStage,
  kMemory, kMemoryNotOverlap,
};
inline constexpr size_t kTimeMetricCount = 10;
// The ClusterTimeSummary / ClusterTimeCompareSummary column names ("stepTime", ...).
std::string_view TimeMetricName(TimeMetric m);
// The text export's (cluster_time_summary_<time>.csv) column names ("Step Time(us)", ...).
std::string_view TimeMetricTextName(TimeMetric m);

struct TimeSummaryRow {
  int64_t rank = 0;
  int64_t step = 0;
  std::array<int64_t, kTimeMetricCount> ns{};  // exact
  std::array<double, kTimeMetricCount> us{};   // the reference's floats
};

struct ClusterTimeSummary {
  std::vector<TimeSummaryRow> rows;  // by rank, then step
  std::string empty_reason;          // why there is no row (the reference writes nothing then)
};

// Over the ranks that have RankSummary::time (DB exports); `step_id`: only that step's rows.
ClusterTimeSummary BuildClusterTimeSummary(const std::vector<RankSummary>& ranks,
                                           const std::optional<std::string>& step_id);

struct TimeCompareRow {
  int64_t rank = 0;
  int64_t step = 0;
  TimeSummaryRow current, base;
};

// The rows of `current` whose rank and step `base` has too (the reference drops the others).
std::vector<TimeCompareRow> CompareClusterTimeSummaries(const ClusterTimeSummary& current,
                                                        const ClusterTimeSummary& base);

}  // namespace profdiff::analysis
