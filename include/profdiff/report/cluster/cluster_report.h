// The outputs of `profdiff cluster`: the reference's cluster_step_trace_time.csv, the versioned JSON
// result (schema "profdiff.cluster/1", docs/json-schema.md) and the short screen summary.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/collectives.h"
#include "profdiff/analysis/cluster/communication_groups.h"
#include "profdiff/analysis/cluster/lead_in.h"
#include "profdiff/analysis/cluster/link_matrix.h"
#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/cluster/run_compare.h"
#include "profdiff/analysis/cluster/run_compare_detail.h"
#include "profdiff/analysis/cluster/slow_rank_vote.h"
#include "profdiff/analysis/cluster/slow_ranks.h"
#include "profdiff/analysis/cluster/step_table.h"
#include "profdiff/analysis/cluster/time_summary.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

inline constexpr const char* kClusterJsonSchema = "profdiff.cluster/1";

// cluster_step_trace_time.csv as the reference writes it: "Step,Type,Index,<columns>", CRLF line
// ends, one row per table row ("rank"/"stage"). Values in µs: under
// policy.cluster_step_values_as_python_floats Python's repr of the reference's float ("0.0",
// "8873.756000000001"), else the exact µs decimal of the ns value ("0", "8873.756"); an unknown value
// is an empty cell.
std::string RenderClusterStepTraceCsv(const analysis::ClusterStepTable& table, const analysis::ReferencePolicy& policy);

// What one cluster run found and measured.
struct ClusterResult {
  std::string run_path;
  analysis::ReferencePolicy policy;
  int64_t world_size = -1;             // the largest world size a rank records; -1: none records one
  std::vector<int64_t> missing_ranks;  // below world_size and not found (empty without a world size)
  std::vector<analysis::RankSummary> ranks;  // ascending
  analysis::ClusterStepTable step_table;
  std::vector<analysis::StepStraggler> stragglers;
  analysis::CollectiveMatching collectives;  // matched across ranks
  std::vector<analysis::LateRank> late_ranks;  // who arrives last at them, most often first
  std::vector<analysis::LateArrivalCause> late_causes;  // per late rank (same order): what preceded it
  std::vector<analysis::RankWaitsOn> waits_on;  // the waiter -> blocker pairs, longest wait first
  analysis::SlowRankVote slow_rank_vote;  // the reference's slow_rank vote (slow_rank_vote.h)
  analysis::CommunicationGroups communication_groups;  // of the ranks' communication files (text runs)
  // The src -> dst links of the reference's link matrix (text: cluster_communication_matrix.json; DB:
  // ClusterCommunicationMatrix), when the run writes one (link_matrix.h).
  analysis::LinkMatrix links;
  // The reference's ClusterTimeSummary of a run of DB exports (empty otherwise, or with why), and
  // with -bp its ClusterTimeCompareSummary rows (time_summary.h).
  analysis::ClusterTimeSummary time_summary;
  std::vector<analysis::TimeCompareRow> time_compare;
  std::vector<std::string> warnings;
  std::vector<std::string> outputs;  // files written (absolute paths)
  // Two runs (-bp): the base run's own result (its ranks, stragglers, ...), the comparison of the
  // two and the gate on it (gate.ran: a --gate-* was given).
  std::shared_ptr<const ClusterResult> base_run;
  // --drill-down: the rank compared on its own, its workbook and each side's E2E (rank < 0: none).
  struct DrillDown {
    int64_t rank = -1;
    std::string why;  // "the new straggler", "the largest step increase", "asked for"
    std::string workbook;
    int64_t base_e2e_ns = 0, comparison_e2e_ns = 0;
  } drill_down;
  std::optional<analysis::ClusterRunComparison> run_comparison;
  // Below the totals: per collective, per stage and the ranks by percentile (with run_comparison).
  std::optional<analysis::RunDetailComparison> run_detail;
  analysis::GateResult gate;
};

// The JSON result (docs/json-schema.md#profdiff-cluster).
OrderedJson ClusterJson(const ClusterResult& result, const std::string& version);

// Why the comparison run is slower, by its stragglers (-bp): each slow rank that is new, with the
// steps it holds back, its lead over the median rank there and the cause (empty when there is none).
std::vector<std::string> StragglerReasons(const ClusterResult& result);

// Rank ids as a short list, runs of consecutive ids as ranges: {0, 2, 3, 4, 7} -> "0, 2-4, 7".
std::string RankRangesText(const std::vector<int64_t>& ranks);

// The screen summary: ranks found (and missing), each rank's export and what it lacks, then per step
// the rank that holds it back, by how much, why, and who waits for it.
std::string RenderClusterScreen(const ClusterResult& result);

}  // namespace profdiff::report
