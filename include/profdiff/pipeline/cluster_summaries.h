// `profdiff cluster` beyond one machine: each rank's summary (analysis/cluster/rank_summary.h) as a
// file, written by shards of the map step (`profdiff cluster summarize`: a Slurm array task, a
// Kubernetes Indexed Job pod, a GNU parallel job) and read back by the reduce (`profdiff cluster
// --summaries DIR`), which then runs exactly what the one-machine run runs on the summaries it holds
// in memory. The file format is docs/rank-summary.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/base/status.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/pipeline/compare_run.h"

namespace profdiff::pipeline {

inline constexpr const char* kSummaryFormat = "profdiff-rank-summary";
inline constexpr int kSummarySchemaVersion = analysis::RankSummary::kVersion;

// "rank_<R>.summary.json": one file per rank, the same name whichever shard writes it.
std::string SummaryFileName(int64_t rank);

// One rank of a run as `cluster summarize --list-ranks` prints it.
struct ListedRank {
  int64_t rank = 0;
  std::string kind;  // "text", "db", "partial", "kineto"
  std::string path;
};

struct SummarizeRequest {
  std::string run_path;    // -d
  std::string output_dir;  // -o: the summaries' directory (made when missing; never inside the run)
  bool list_ranks = false;  // --list-ranks: list the ranks, write nothing
  size_t shard_index = 0;  // this shard takes the ranks at positions p (list order) with p % count == index
  size_t shard_count = 1;
  bool force = false;  // replace a summary of another run, input or options
  std::optional<analysis::ReferenceLine> reference_line;
  InputFormat input_format = InputFormat::kAuto;
  int threads = 0;
  bool strict = false;
};

struct SummarizeResult {
  std::vector<ListedRank> run_ranks;  // every rank of the run, in list order
  std::vector<int64_t> shard_ranks;   // the ranks of this shard
  std::vector<std::string> written;   // summary files written now
  std::vector<std::string> kept;      // summaries that were there already, of the same input and options
};

// --list-ranks, or the map step of one shard.
StatusOr<SummarizeResult> RunSummarize(const SummarizeRequest& request, RunMessages& messages);

// One run's summaries read back for the reduce.
struct SummarySet {
  std::string dir;
  std::string run_path;   // the run as `summarize -d` was given it
  std::string real_path;  // its real path then
  std::vector<std::string> warnings;  // the run's discovery warnings
  std::vector<analysis::RankSummary> ranks;  // ascending rank
};

// Reads the summaries of DIR: every rank of the run they record (those of `rank_list` when given) must
// have one, of this schema version, of the same run and made with the same --reference-compat as
// `reference_line`; a missing, unreadable or foreign summary is an error naming the rank and its file.
StatusOr<SummarySet> ReadSummarySet(const std::string& dir, const std::optional<std::vector<int64_t>>& rank_list,
                                    const std::optional<analysis::ReferenceLine>& reference_line, int threads);

}  // namespace profdiff::pipeline
