// The communication groups of a run as the reference's cluster analysis finds them (its text route:
// communication_group.json): each group named after the '@' of an operator name in a rank's
// communication.json or communication_matrix.json, with the ranks whose files name it; and each
// group's row of "comm_group_parallel_info", joined with profiler_metadata.json's
// parallel_group_info by the group name (the hash of its group id, GroupNameHash).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis {

// The reference's cluster modes (`-m`) that profdiff runs: which communication files are read and
// written besides cluster_step_trace_time.csv and communication_group.json.
enum class ClusterMode : uint8_t {
  kAll,                  // communication.json and communication_matrix.json
  kCommunicationTime,    // communication.json only -> cluster_communication.json
  kCommunicationMatrix,  // communication_matrix.json only -> cluster_communication_matrix.json
};
std::string_view ClusterModeName(ClusterMode mode);  // "all", "communication_time", "communication_matrix"
bool ReadsCommunicationTime(ClusterMode mode);
bool ReadsCommunicationMatrix(ClusterMode mode);

struct CommunicationGroup {
  std::string name;            // what follows '@' in the operator names (a hash of the group id)
  std::vector<int64_t> ranks;  // the ranks whose files name it, ascending
};

// One row of communication_group.json's "comm_group_parallel_info".
struct GroupParallelInfo {
  std::string type;               // "collective" or "p2p"
  std::vector<int64_t> rank_set;  // the ranks found; the metadata's global ranks when it lists some
  std::string group_name;
  std::string group_id;  // the metadata's group id whose hash is group_name; "" when none is
  std::string pg_name;   // its process group name ("" when none)
};

struct CommunicationGroups {
  // In order of first appearance: ranks ascending, each rank's communication.json before its
  // communication_matrix.json, each file in its order.
  std::vector<CommunicationGroup> collective, p2p;
  std::vector<GroupParallelInfo> parallel_info;  // the collective groups, then the p2p ones
  // The ranks of a group, nullptr when no rank names it.
  const std::vector<int64_t>* CollectiveRanks(std::string_view group) const;
  const std::vector<int64_t>* P2pRanks(std::string_view group) const;
};

// The reference's group name of a group id: two 32-bit polynomial hashes of its characters (code
// points; factors 29 and 131), the first in the high half.
uint64_t GroupNameHash(std::string_view group_id);

// The group of an operator name: what follows its last '@' (the whole name when it has none).
std::string_view OperatorGroup(std::string_view op_name);

// The groups of `ranks` (ascending by rank) under `mode`.
CommunicationGroups FindCommunicationGroups(const std::vector<RankSummary>& ranks, ClusterMode mode);

// The pipeline stages, as the reference infers them from comm_group_parallel_info: the p2p groups of a
// process group named "pp..." are joined where they share a rank; each collective group that holds
// at most one rank of every such joined group is a stage, and stages that share a rank are one. Their
// ranks ascending, the stages by their first rank; none without a "pp" p2p group (no stage rows then).
std::vector<std::vector<int64_t>> StageGroups(const CommunicationGroups& groups);

}  // namespace profdiff::analysis
