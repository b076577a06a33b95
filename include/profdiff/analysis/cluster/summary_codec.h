// A RankSummary (rank_summary.h) as JSON and back, exactly: the body of a per-rank summary file
// (`profdiff cluster summarize`, docs/rank-summary.md). Every field is written, in declaration
// order, so that a summary read back gives the reduce the same bytes as the one in memory:
// integers as JSON integers (int64 / uint64 exact), doubles in their shortest form that reads back
// to the same bits (NaN as null, ±infinity as the strings "inf" / "-inf", -0.0 kept), enums by
// their names, strings as written (UTF-8; any byte sequence is kept). The file around the body
// (format name, schema version, the run it belongs to) is the pipeline's (pipeline/cluster_summaries.h).
#pragma once

#include <nlohmann/json.hpp>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/base/status.h"

namespace profdiff::analysis {

// The summary as one JSON object (keys in declaration order; deterministic: the same summary
// always gives the same dump()).
nlohmann::ordered_json RankSummaryToJson(const RankSummary& summary);

// The summary read back. A field that is missing or of the wrong type is a ParseError
// naming its JSON pointer ("/collectives/3/start_ns: expected an integer, got a string").
StatusOr<RankSummary> RankSummaryFromJson(const nlohmann::ordered_json& json);

}  // namespace profdiff::analysis
