// The map step of `profdiff cluster` (cluster_map.h).
#include "cluster_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <optional>
#include <system_error>
#include <thread>

#include "input_error.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::pipeline {

namespace fs = std::filesystem;

void ForEachOnWorkers(size_t n, int threads, const std::function<void(size_t, int)>& work) {
  LoadOptions probe;
  probe.threads = threads;
  const size_t workers = std::max<size_t>(1, std::min<size_t>(n, static_cast<size_t>(ThreadsFor(probe))));
  const int load_threads = workers > 1 ? 1 : threads;
  std::atomic<size_t> next{0};
  auto loop = [&] {
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) work(i, load_threads);
  };
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(loop);
    } catch (const std::system_error&) {
      break;  // fewer workers: this thread does the rest
    }
  }
  loop();
  for (std::thread& t : pool) t.join();
}

StatusOr<analysis::RankSummary> SummarizeOne(const RankInput& rank, const MapOptions& options, int load_threads) {
  LoadOptions load;
  load.strict = options.strict;
  load.input_format = options.input_format;
  load.accept_side_files = true;  // a partial rank (no trace_view.json) gives what its side files hold
  load.python_functions = false;
  load.cluster_tables = true;  // the reference's communication files
  load.threads = load_threads;
  auto profile = LoadProfile(rank.path, load);
  if (!profile.ok()) return AsInputError(profile.status().WithContext(fmt::format("rank {}", rank.rank)));
  std::optional<analysis::Timeline> timeline;
  if (rank.kind != RankExport::kAscendPartial) timeline = analysis::BuildTimeline(**profile, {});
  analysis::RankSummaryOptions summary;
  summary.policy = options.policy;
  return analysis::SummarizeRank(**profile, timeline ? &*timeline : nullptr, rank.rank, RankExportName(rank.kind),
                                 rank.path, summary);
}

StatusOr<std::vector<analysis::RankSummary>> MapRanks(const std::vector<RankInput>& ranks, const MapOptions& options) {
  std::vector<std::optional<StatusOr<analysis::RankSummary>>> results(ranks.size());
  ForEachOnWorkers(ranks.size(), options.threads, [&](size_t i, int load_threads) {
    results[i].emplace(SummarizeOne(ranks[i], options, load_threads));
  });
  std::vector<analysis::RankSummary> out;
  out.reserve(ranks.size());
  for (auto& r : results) {
    if (!r->ok()) return r->status();
    out.push_back(std::move(**r));
  }
  return out;
}

std::string RealRunPath(const std::string& run) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(run), ec);
  return ec ? std::string() : real.string();
}

std::string ReferenceProfilePath(const std::string& run, const std::string& real_run, const std::string& rank) {
  const fs::path below = fs::path(rank).lexically_relative(run);
  if (real_run.empty() || below.empty() || *below.begin() == "..") return fs::absolute(rank).lexically_normal().string();
  return below == "." ? real_run : (fs::path(real_run) / below).lexically_normal().string();
}

}  // namespace profdiff::pipeline
