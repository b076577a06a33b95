// The compact summary of one rank of a distributed run (`profdiff cluster`): the map step reduces a
// loaded rank to this and frees the profile; everything across ranks (analysis/cluster/step_table.h,
// stragglers.h) reads summaries only. Built from the rank's own files (step_trace_time.csv) and
// today's per-rank analyses (the Timeline and the overall comparison's side metrics), never by
// re-deriving timeline facts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/time_summary.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// The value columns of the reference's step_trace_time.csv (and of cluster_step_trace_time.csv after
// its Step, Type, Index columns), in its order. A rank measured from its timeline fills the ones it
// can (Computing, Communication(Not Overlapped), Free, Stage) in this order.
inline constexpr std::string_view kColComputing = "Computing";
inline constexpr std::string_view kColCommNotOverlapped = "Communication(Not Overlapped)";
inline constexpr std::string_view kColOverlapped = "Overlapped";
inline constexpr std::string_view kColCommunication = "Communication";
inline constexpr std::string_view kColFree = "Free";
inline constexpr std::string_view kColStage = "Stage";
inline constexpr std::string_view kColBubble = "Bubble";
inline constexpr std::string_view kColCommExcludeReceive = "Communication(Not Overlapped and Exclude Receive)";
inline constexpr std::string_view kColPreparing = "Preparing";

// One step of one rank.
struct RankStep {
  std::string step;  // the step id as the source writes it ("50"), "" when the source has none
  std::vector<int64_t> values_ns;  // per RankSummary::columns; kAbsentNs when unknown
  // The reference's float(cell) in µs, per column (step_trace_time.csv only; NaN otherwise).
  std::vector<double> values_us_float;
  // How long the step took on this rank: Computing + Communication(Not Overlapped) + Free, or the
  // measured window's length for a rank measured from its timeline; kAbsentNs when unknown.
  int64_t step_time_ns = kAbsentNs;
  int64_t Value(const std::vector<std::string>& columns, std::string_view column) const;
};

// Where a rank's step rows come from.
enum class RankStepSource : uint8_t {
  kNone,           // neither step_trace_time.csv nor step windows
  kStepTraceTime,  // the rank's step_trace_time.csv (the reference's source)
  kAnalysisDb,     // a DB export's analysis.db StepTraceTime (the same table; the reference's source)
  kTimeline,       // the step windows of its timeline split by the overall analysis (step_split.h)
};
std::string_view RankStepSourceName(RankStepSource source);  // "none", "step_trace_time.csv", "analysis.db", "timeline"

// One collective of one rank: an HCCL op on its group's thread (NPU ranks with a trace or DB), or a
// communication kernel (GPU ranks: NCCL, RCCL, ... by the device-kernel table).
struct RankCollective {
  // NPU: the group's process-group name (profiler_metadata.json) when known, else its thread name;
  // GPU: "communication kernels" (every communication kernel of the rank, matched by order).
  std::string group;
  std::string name;   // the op as written, e.g. "hcom_allReduce__586_0_1"
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  // The group as the profile names it (NPU: the HCCL group name, COMMUNICATION_OP.groupName; GPU:
  // `group`): the reference's slow-rank vote reports it (slow_rank_vote.h).
  std::string source_group{};
  // The collective's number in its process group as the profile records it (a Kineto trace's "Seq"
  // of the kernel or of its record_param_comms host op); -1 when it records none.
  int64_t seq = -1;
  // The step it counts in ("" when none): a DB export with STEP_TIME, the step whose window holds its
  // CANN_API launch (the reference's rule under --step_id); else the rank's device step window
  // (timeline/device_steps.h) holding its start.
  std::string step{};
  // What the rank's op moved, where the profile says: an Ascend op's main transport (the one of
  // communication.json's / CommAnalyzerBandwidth's transports, not SDMA or LOCAL, that moved the
  // most) with its size and bandwidth as the profile writes them; a Kineto collective's "NCCL" (its
  // "In msg nelems" × the size of its "dtype", over the kernel's duration: the algorithm bandwidth).
  // transport "" and -1: unknown.
  std::string transport{};
  double size_mb = -1;
  double bandwidth_gbps = -1;
  // What the rank's device did from its previous collective's end (any group; the first: its first
  // device work) to this one's start: computing (the union of its non-communication kernels / tasks)
  // and idle, and the kernel that computed longest there (RankSummary::kernel_names; -1: none).
  int64_t lead_in_busy_ns = 0;
  int64_t lead_in_idle_ns = 0;
  int32_t lead_in_top = -1;
  int64_t lead_in_top_ns = 0;
};

struct RankSummary {
  static constexpr int kVersion = 1;
  int64_t rank = 0;
  int64_t world_size = kNoNumber;  // from the rank's metadata, when it records one
  std::string export_kind;         // "text", "db", "partial", "kineto" (loaders/cluster_discovery.h)
  std::string source_path;
  DeviceKind device = DeviceKind::kUnknown;
  RankStepSource step_source = RankStepSource::kNone;
  std::vector<std::string> columns;  // value columns of `steps`
  std::vector<RankStep> steps;       // in the source's order
  // The exact transmit / wait / idle split of each communication group's uncovered communication,
  // over the whole capture (NPU ranks with a trace or DB; empty otherwise).
  std::vector<CommunicationGroupSplit> groups;
  // Each communication group's collectives in the order the rank ran them (collectives.h matches
  // them across ranks).
  std::vector<RankCollective> collectives;
  std::vector<std::string> kernel_names;  // the kernels RankCollective::lead_in_top names
  // The operators of the rank's communication.json and communication_matrix.json whole (text
  // exports, LoadOptions::cluster_tables), for the reference's communication files
  // (communication_groups.h, report/cluster/communication_files.h).
  CommunicationOpRecords communication_ops;
  CommunicationOpRecords matrix_ops;
  // A DB export's part of the reference's ClusterTimeSummary (time_summary.h).
  RankTimeInputs time;
  // A DB export's tables behind the reference's cluster_analysis.db (db_tables.h).
  ClusterDbTables db_tables;
  // profiler_metadata.json parallel_group_info: group id -> process group name, -> global ranks.
  std::map<std::string, std::string> parallel_group_names;
  std::map<std::string, std::vector<int64_t>> parallel_group_ranks;
  // profiler_metadata.json's distributed_args as JSON text ("" when it has none): parallel_index.h.
  std::string distributed_args_json;
  // What the rank lacks, for the output to say ("trace_view.json", "communication.json", ...).
  std::vector<std::string> missing;
  std::vector<std::string> notes;  // why a part is unknown
};

struct RankSummaryOptions {
  const KernelMasks* masks = nullptr;  // nullptr: KernelMasks::Defaults()
  ReferencePolicy policy = ExactPolicy();
};

// The summary of one loaded rank. `timeline` is the rank's Timeline, or nullptr for a rank without a
// trace (side files only): its steps then come from step_trace_time.csv alone. An Ascend rank with
// step_trace_time.csv takes its step rows from it (as the reference); any other rank from its
// timeline's step split. `rank`, `export_kind` and `source_path` are the discovery's.
RankSummary SummarizeRank(const Profile& profile, const Timeline* timeline, int64_t rank,
                          std::string_view export_kind, std::string_view source_path,
                          const RankSummaryOptions& options);

}  // namespace profdiff::analysis
