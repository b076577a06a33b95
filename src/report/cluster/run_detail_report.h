// Internal to the cluster report (cluster_report.cc): the two-run detail (run_compare_detail.h) in
// the JSON's run_comparison object and on the screen. Not a public header.
#pragma once

#include <string>

#include "profdiff/analysis/cluster/run_compare_detail.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

// Adds `collectives`, `top_collectives`, `stages`, `rank_percentiles` and `notes` to
// `run_comparison` (docs/json-schema.md#profdiff-cluster).
void AddRunDetailJson(const analysis::RunDetailComparison& d, OrderedJson& run_comparison);

// A kernel or op name for a screen line: up to its first '(' (a C++ signature's arguments), and at
// most 80 bytes (cut on a UTF-8 boundary, ending "...").
std::string ScreenName(const std::string& name);

// The screen's lines under the run comparison: the group × kind whose transfer or skew grew most,
// the stage that grew most, and with different rank sets the ranks by percentile.
std::string RunDetailScreen(const analysis::RunDetailComparison& d);

}  // namespace profdiff::report
