// What one `profdiff cluster` run is asked to do, after the command line was parsed
// (cli/commands.h). The pipeline (cluster_run.h) reads only this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/communication_groups.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/gate.h"
#include "profdiff/loaders/loader.h"

namespace profdiff::pipeline {

struct ClusterRequest {
  std::string run_path;     // -d: the directory holding the ranks of one run
  std::string base_run_path;  // -bp: a base run to compare with ("": one run)
  // --summaries / --base-summaries: the run's (the base run's) ranks as summary files written by
  // `profdiff cluster summarize` (cluster_summaries.h) instead of -d (-bp): the reduce alone.
  std::string summaries_dir;
  std::string base_summaries_dir;
  analysis::GateOptions gate;  // --gate-*, --noise-floor-ms (two runs only)
  std::string output_path;  // -o: outputs go to <DIR>/cluster_analysis_output/ and <DIR>/profdiff_cluster.{json,xlsx,html}
  std::optional<std::vector<int64_t>> rank_list;  // --rank_list: only these ranks
  std::optional<std::string> step_id;             // --step_id: only this step's rows
  bool force = false;
  std::optional<analysis::ReferenceLine> reference_line;  // --reference-compat[=LINE]
  InputFormat input_format = InputFormat::kAuto;
  int threads = 0;  // ranks loaded at once (0: one per core)
  bool strict = false;
  // --drill-down worst|RANK (two runs): today's single-rank compare of one rank of the two runs, its
  // workbook written as <-o>/drill_down_rank<R>.xlsx; "worst": the new straggler that holds back the
  // most, else the rank whose mean step grew most.
  std::optional<std::string> drill_down;
  // -m: the reference's mode, which of its communication files a run of text exports gets.
  analysis::ClusterMode mode = analysis::ClusterMode::kAll;
};

}  // namespace profdiff::pipeline
