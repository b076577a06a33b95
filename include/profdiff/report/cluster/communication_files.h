// The reference's communication files of a run of text exports (cluster_analysis_output/, written as
// its `msprof-analyze cluster -m all|communication_time|communication_matrix` writes them):
// - communication_group.json: the collective and p2p groups (communication_groups.h) and their
//   comm_group_parallel_info rows;
// - cluster_communication.json: per group (its ranks as a Python tuple, "(0, 1)"), step, operator and
//   rank, the rank's communication.json entry as written, and per group and rank a "Total Op Info@
//   <group>": the time fields summed (not the start or the ratios), the ratios recomputed
//   (round(.., 4)), the bandwidth per transport summed with its size distribution;
// - cluster_communication_matrix.json: per group, step and operator the links of every rank summed
//   per link, local ranks mapped to global ranks through the ranks' own local links ("3-3" on global
//   rank 5), links that no rank maps left out (the reference logs them), and per group a "Total Op
//   Info@<group>" of the operators that are neither a top/middle/bottom entry.
// Sums run in the reference's order in doubles (its Python floats) and integers stay integers, so
// the text is the reference's byte for byte (report/python_json.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/communication_groups.h"
#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::report {

inline constexpr const char* kCommunicationGroupJson = "communication_group.json";
inline constexpr const char* kClusterCommunicationJson = "cluster_communication.json";
inline constexpr const char* kClusterCommunicationMatrixJson = "cluster_communication_matrix.json";

struct ClusterCommunicationFiles {
  std::string group_json;                         // communication_group.json
  std::optional<std::string> communication_json;  // absent when no rank has a communication operator
  std::optional<std::string> matrix_json;         // absent when no rank has a matrix operator
  // Links left out of the matrix (no rank maps their local rank), as "<op>: <src>-<dst>", in order.
  std::vector<std::string> unmapped_links;
};

ClusterCommunicationFiles RenderClusterCommunicationFiles(const std::vector<analysis::RankSummary>& ranks,
                                                          const analysis::CommunicationGroups& groups,
                                                          analysis::ClusterMode mode);

}  // namespace profdiff::report
