// The sub-commands behind `profdiff inspect` and `profdiff compare`, callable in-process.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/base/status.h"
#include "profdiff/cli/options.h"
#include "profdiff/model/profile.h"
#include "profdiff/pipeline/cluster_request.h"
#include "profdiff/pipeline/cluster_summaries.h"

namespace profdiff::cli {

// The exit codes (app.cc, the only place that chooses them): a Status kOk -> 0,
// kInvalidArgument/kAlreadyExists -> 2 (usage), anything else -> 3 (input or processing error); a
// gate that ran -> its verdict's code (pass 0, regression 1, incomparable 4), no gate -> 0.
int ExitCodeFor(const Status& status);
int ExitCodeFor(const analysis::GateResult& gate);

// What `--version` prints: "profdiff 0.1.0\n", with " (git <commit>[-dirty])" before the newline when
// built from a git checkout (version.cc; the commit is read at every build).
std::string VersionText();

// What `inspect` prints for a loaded profile: human text, or the versioned JSON object
// ({"schema": "profdiff.inspect/1", ...}, serialized with a 2-space indent and a final newline).
// `threads` as --threads: 1 keeps the summing of a big profile's slices on the calling thread.
std::string InspectText(const Profile& profile, int threads = 0);
std::string InspectJson(const Profile& profile, int threads = 0);

// `profdiff inspect`: loads with LoadProfile and prints InspectText/InspectJson to `out`.
// Errors go to `err` as "profdiff: error: <message naming the file and line/offset>"; returns the exit code.
int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

// `profdiff compare`, after ParseCompareArgs succeeded. Returns the exit code.
int RunCompare(const CompareOptions& options, std::ostream& out, std::ostream& err);

// What the command line of `cluster` asks for: the pipeline's request plus what only the CLI uses.
struct ClusterOptions : pipeline::ClusterRequest {
  bool quiet = false;
  bool verbose = false;
  bool json = false;  // --format json: the JSON result on stdout instead of the screen summary
};

// "0,1,3" -> {0, 1, 3} (duplicates dropped); anything else is kInvalidArgument.
StatusOr<std::vector<int64_t>> ParseRankList(std::string_view text);

// `profdiff cluster`, after its arguments were parsed. Returns the exit code.
int RunClusterCommand(const ClusterOptions& options, std::ostream& out, std::ostream& err);

// What the command line of `cluster summarize` asks for.
struct SummarizeOptions : pipeline::SummarizeRequest {
  bool quiet = false;
  bool verbose = false;
};

// The environment, one variable at a time (std::getenv; tests pass their own).
using EnvLookup = std::function<const char*(const char*)>;

// The shard (index, count) of `cluster summarize`: --shard-index / --shard-count when given, else a
// Slurm array task's (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT), else a
// Kubernetes Indexed Job's JOB_COMPLETION_INDEX (its count must be given with --shard-count), else
// (0, 1). An index not below its count, a count of 0 or a variable that is no number is
// kInvalidArgument naming where the value came from.
StatusOr<std::pair<size_t, size_t>> ResolveShard(std::optional<int64_t> index, std::optional<int64_t> count,
                                                 const EnvLookup& env);

// `profdiff cluster summarize`, after its arguments were parsed. Returns the exit code.
int RunSummarizeCommand(const SummarizeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace profdiff::cli
