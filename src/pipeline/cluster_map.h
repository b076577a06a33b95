// The map step of `profdiff cluster` (pipeline only): one rank loaded with today's loaders, its
// Timeline built and reduced to its RankSummary, on a pool of workers. Shared by the one-machine run
// (cluster_run.cc) and `cluster summarize` (cluster_summaries.cc), so that a summary written to a file
// is the summary the one-machine run holds in memory.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/base/status.h"
#include "profdiff/loaders/cluster_discovery.h"
#include "profdiff/loaders/loader.h"

namespace profdiff::pipeline {

// What the map step of a rank depends on besides the rank's own files.
struct MapOptions {
  bool strict = false;
  InputFormat input_format = InputFormat::kAuto;
  int threads = 0;  // workers (0: one per core)
  analysis::ReferencePolicy policy = analysis::ExactPolicy();
};

// Runs `work(i, load_threads)` for every i in [0, n) on min(threads, n) workers (the calling thread
// one of them); `load_threads` is what each may use for loading (1 when several work at once).
void ForEachOnWorkers(size_t n, int threads, const std::function<void(size_t, int)>& work);

// The map step of one rank: load, timeline, summary; the profile is freed on return. Errors name
// the rank.
StatusOr<analysis::RankSummary> SummarizeOne(const RankInput& rank, const MapOptions& options, int load_threads);

// Every rank of `ranks` summarised on the workers; the first failure in rank order is returned.
StatusOr<std::vector<analysis::RankSummary>> MapRanks(const std::vector<RankInput>& ranks, const MapOptions& options);

// A run directory's real path (links resolved; the absolute path when it cannot be resolved).
std::string RealRunPath(const std::string& run);

// A rank folder as the reference's DB route names it in RankDeviceMap.profilePath: the run's real
// path joined with the folder's path below the run as given (`run`); the rank's absolute path when
// it does not lie below it.
std::string ReferenceProfilePath(const std::string& run, const std::string& real_run, const std::string& rank);

}  // namespace profdiff::pipeline
