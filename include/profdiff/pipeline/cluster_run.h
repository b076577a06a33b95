// One `profdiff cluster` run as a library call: discover the ranks of a run (loaders/
// cluster_discovery.h), map each rank to its RankSummary on a pool of workers (load with today's
// loaders, build its Timeline, summarise, free the profile), reduce the summaries (step table,
// stragglers) and write the outputs. The CLI parses the arguments before and prints after.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/base/status.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/pipeline/cluster_request.h"
#include "profdiff/pipeline/compare_run.h"
#include "profdiff/report/cluster/cluster_report.h"

namespace profdiff::pipeline {


// File names of the outputs.
inline constexpr const char* kClusterOutputDir = "cluster_analysis_output";
inline constexpr const char* kClusterStepTraceCsv = "cluster_step_trace_time.csv";
inline constexpr const char* kClusterJsonFile = "profdiff_cluster.json";
inline constexpr const char* kClusterWorkbookFile = "profdiff_cluster.xlsx";  // beside the JSON
inline constexpr const char* kClusterHtmlFile = "profdiff_cluster.html";

// Errors as RunComparison's: kInvalidArgument / kAlreadyExists are the command line's (an output
// inside the run, an output that exists without --force, a --rank_list naming a rank the run lacks),
// anything else an input or processing error naming the file (and the rank).
StatusOr<report::ClusterResult> RunCluster(const ClusterRequest& request, RunMessages& messages);

}  // namespace profdiff::pipeline
