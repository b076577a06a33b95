// Finding the ranks of one distributed run (`profdiff cluster -d RUN`), beside today's single-input
// resolution (loader.h): Ascend rank folders (*_ascend_pt, *_ascend_ms) and Kineto traces up to five
// levels below RUN, each resolved with ResolveInput so that a rank is read exactly as `compare` would
// read it. Only directory listings, profiler_info file names and the head of each Kineto trace are
// read here; the data files are loaded later, one rank at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"
#include "profdiff/loaders/loader.h"

namespace profdiff {

// What a rank's input holds.
enum class RankExport : uint8_t {
  kAscendText,     // trace_view.json and its side files
  kAscendDb,       // ascend_pytorch_profiler_<rank>.db (ascend_mindspore_profiler, msmonitor)
  kAscendPartial,  // side files only (no trace_view.json, no DB): step_trace_time.csv, ...
  kKineto,         // a Kineto JSON trace (.json, .json.gz)
};
std::string_view RankExportName(RankExport kind);  // "text", "db", "partial", "kineto"

// Where a rank id came from.
enum class RankIdSource : uint8_t { kProfilerInfoName, kDistributedInfo, kFileName };
std::string_view RankIdSourceName(RankIdSource source);  // "profiler_info", "distributedInfo", "file name"

struct RankInput {
  int64_t rank = 0;
  RankIdSource rank_source = RankIdSource::kProfilerInfoName;
  RankExport kind = RankExport::kAscendText;
  std::string path;  // the rank folder, or the Kineto trace file
  ResolvedInput resolved;  // ResolveInput's answer for `path` (side files accepted)
};

struct ClusterDiscoveryOptions {
  InputFormat input_format = InputFormat::kAuto;  // --input-format: text or DB when ranks hold both
  int max_depth = 5;  // rank folders and traces at most this many levels below the run directory
};

struct ClusterInputs {
  std::string run_dir;
  std::vector<RankInput> ranks;       // one per rank id, ascending
  std::vector<std::string> warnings;  // duplicates dropped, traces without a rank id, ...
};

// The ranks of the run below `run_dir`. A rank id found twice keeps the newest folder (the time
// stamp of its "<host>_<pid>_<timestamp>_ascend_pt" name, else its profiler_info file's modification
// time), with a warning naming both. Errors: `run_dir` missing or not a directory (kNotFound), no
// rank found (kNotFound, naming what was looked for), Ascend ranks of both text and DB export without
// --input-format (kUnsupported, naming one rank of each), Ascend and Kineto ranks in one run
// (kUnsupported). An Ascend rank folder without a profiler_info_<N>.json is skipped with a warning
// (as the reference does); a Kineto trace without distributedInfo.rank takes the rank its file name
// carries (a warning says so), and one without either is skipped with a warning.
StatusOr<ClusterInputs> DiscoverCluster(std::string_view run_dir, const ClusterDiscoveryOptions& options);

// What the head of a Kineto trace (its first `head_bytes` decompressed bytes) tells: whether it holds
// the "traceEvents" key (a JSON object without it is no trace: a config, a metrics file) and
// `distributedInfo.rank` when that object lies in the head. Read errors are returned.
struct KinetoHead {
  bool trace_events = false;
  std::optional<int64_t> rank;
};
StatusOr<KinetoHead> ReadKinetoHead(const std::string& trace_file, size_t head_bytes = 1 << 20);

// The rank id a file name carries: the digits after "rank" ("rank3.json", "trace_rank_12.pt.trace.json"),
// else the last run of digits of the stem; nullopt when it has none.
std::optional<int64_t> RankFromFileName(std::string_view file_name);

}  // namespace profdiff
