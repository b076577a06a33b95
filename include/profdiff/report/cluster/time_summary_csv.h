// The reference's cluster time summaries as CSV (cluster_analysis_output/):
// - cluster_time_summary.csv: what its `cluster_time_summary --export_type text` writes
//   (ClusterTimeSummary/cluster_time_summary_<UTC time>.csv: "Rank,Step,Step Time(us),..."), under a
//   name without the time;
// - cluster_time_compare_summary.csv: its ClusterTimeCompareSummary table (cluster_analysis.db) as
//   CSV: "rank,step,stepTime,stepTimeBase,stepTimeDiff,...".
// LF line ends, as pandas writes. Values in µs: under policy.cluster_time_values_as_python_floats
// the reference's floats as Python's repr ("143741.87", "8.001999999999953", "0.0"), else the
// exact µs decimal of the ns ("143741.87", "8.002", "0").
#pragma once

#include <string>
#include <vector>

#include "profdiff/analysis/cluster/time_summary.h"
#include "profdiff/analysis/common/reference_policy.h"

namespace profdiff::report {

inline constexpr const char* kClusterTimeSummaryCsv = "cluster_time_summary.csv";
inline constexpr const char* kClusterTimeCompareSummaryCsv = "cluster_time_compare_summary.csv";

std::string RenderClusterTimeSummaryCsv(const analysis::ClusterTimeSummary& summary,
                                        const analysis::ReferencePolicy& policy);
std::string RenderClusterTimeCompareCsv(const std::vector<analysis::TimeCompareRow>& rows,
                                        const analysis::ReferencePolicy& policy);

}  // namespace profdiff::report
