// A RankSummary (rank_summary.h) as JSON and back, exactly: the body of a per-rank summary file
// (`profdiff cluster summarize`, docs/rank-summary.md). Every field of every struct in it is written,
// in declaration order and named as in C++, so that a summary read back gives the reduce the same
// bytes as the one in memory:
// - integers as JSON integers (int64 / uint64 exact), bools as booleans, enums by their names
//   (Name(DeviceKind), RankStepSourceName);
// - doubles in the shortest form that reads back to the same bits (-0.0 kept, 3.0 written "3.0"); the
//   default quiet NaN as null, any other NaN as "nan:0x<its 16 hex digits>", ±infinity as "inf" / "-inf"
//   (read back, an integer that a double holds exactly is taken too: a tool may rewrite 3.0 as 3);
// - strings as JSON strings when they are UTF-8, else as {"bytes_hex": "<lowercase hex of the bytes>"}
//   (any byte sequence is kept, and dump() never meets invalid UTF-8);
// - a std::map as an array of [key, value] pairs in key order;
// - a SqlValue by its kind: null, an integer, a float (a finite REAL, 3.0 included), {"real": <a
//   non-finite double as above>}, or a string (TEXT). The members its kind does not use are not kept.
// The file around the body (format name, schema version, the run it belongs to) is the pipeline's
// (pipeline/cluster_summaries.h).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/base/status.h"

namespace profdiff::analysis {

// The summary as one JSON object (keys in declaration order; deterministic: the same summary
// always gives the same dump()).
nlohmann::ordered_json RankSummaryToJson(const RankSummary& summary);

// The summary read back. A field that is missing, of the wrong type or out of range, a key that is
// no field and an unknown enum name are a ParseError naming the JSON pointer
// ("/collectives/3/start_ns: expected an integer, got the string \"12\""); never an exception.
StatusOr<RankSummary> RankSummaryFromJson(const nlohmann::ordered_json& json);

// A byte string as the codec writes every string (itself when it is UTF-8, else {"bytes_hex": ...}),
// for the file around the body; and back (a ParseError naming `pointer` when it is neither).
nlohmann::ordered_json BytesToJson(std::string_view bytes);
StatusOr<std::string> BytesFromJson(const nlohmann::ordered_json& json, std::string_view pointer);

}  // namespace profdiff::analysis
