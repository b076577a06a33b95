// Two runs of one job compared (`profdiff cluster -d RUN -bp BASE_RUN`), from their ranks' step rows
// (RankSummary) and each run's stragglers (slow_ranks.h) alone.
//
// A step of a run is measured over its ranks: the job's step time is the longest rank step (every
// rank of a synchronous step waits for the slowest), and computing, uncovered communication
// (Communication(Not Overlapped)) and free time are the mean rank's. Steps are matched by id; two
// runs without a step id in common are matched by position, and a note says so. Ranks are matched by
// id; ranks of one run only are named (a different rank count is a comparability warning, and the
// job-level numbers still compare). The slow rank of each step (FindStepStragglers) is compared too:
// slow in the comparison only is "new", in the base only "resolved", in both "persisting".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/cluster/slow_ranks.h"
#include "profdiff/analysis/overall/gate.h"

namespace profdiff::analysis {

// One rank's step as the comparison measures it: its Computing, Communication(Not Overlapped) and
// Free, and its step time (their sum when the rank has none); nullopt when one of the three is unknown.
struct RankStepTimes {
  int64_t step_ns = 0, computing_ns = 0, communication_ns = 0, free_ns = 0;
};
std::optional<RankStepTimes> RankStepTimesOf(const RankSummary& rank, const RankStep& step);

// One step of one run, over the ranks that have its Computing, Communication(Not Overlapped) and
// Free values.
struct JobStep {
  std::string step;
  int64_t ranks = 0;
  int64_t step_ns = 0;           // the longest rank step time
  int64_t computing_ns = 0;      // mean over the ranks (rounded down), as the three below
  int64_t communication_ns = 0;  // Communication(Not Overlapped)
  int64_t free_ns = 0;
  // The straggler's lead: its computing + free over the median rank's (0 when nobody holds the step
  // back), and who it is.
  std::optional<int64_t> slow_rank;
  SlowCause slow_cause = SlowCause::kNone;
  int64_t slow_excess_ns = 0;
};

struct StepComparison {
  JobStep base, comparison;
};

// One rank in both runs: its means over the compared steps it has in both.
struct RankComparison {
  int64_t rank = 0;
  int64_t steps = 0;
  int64_t base_step_ns = 0, comparison_step_ns = 0;
  int64_t base_computing_ns = 0, comparison_computing_ns = 0;
  int64_t base_communication_ns = 0, comparison_communication_ns = 0;
  int64_t base_free_ns = 0, comparison_free_ns = 0;
};

// A run's totals over the compared steps: the median job step (the mean of the two middle ones,
// rounded down, for an even count) and the mean of the others.
struct JobTotals {
  int64_t step_ns = 0;
  int64_t computing_ns = 0;
  int64_t communication_ns = 0;
  int64_t free_ns = 0;
  int64_t slow_excess_ns = 0;
};

struct SlowRankChange {
  int64_t rank = 0;
  std::string status;  // "new", "resolved" or "persisting"
  int64_t base_steps = 0, comparison_steps = 0;  // compared steps it holds back in each run
};

struct ClusterRunComparison {
  bool steps_by_position = false;  // no step id in common: the i-th steps were compared
  std::vector<StepComparison> steps;
  std::vector<RankComparison> ranks;  // ranks of both runs, ascending
  std::vector<int64_t> base_only_ranks, comparison_only_ranks;
  JobTotals base, comparison;
  std::vector<SlowRankChange> slow_ranks;  // new first, then persisting, then resolved; by rank
  std::vector<std::string> warnings;       // comparable, but read with care (different rank sets)
  std::vector<std::string> incomparable;   // why the runs cannot be judged (no step to compare)
};

ClusterRunComparison CompareRuns(const std::vector<RankSummary>& base, const std::vector<StepStraggler>& base_slow,
                                 const std::vector<RankSummary>& comparison,
                                 const std::vector<StepStraggler>& comparison_slow);

// The gate on two runs (the same flags, thresholds and exit codes as `compare`'s): e2e is the median
// job step, computing / communication / free the mean rank's means; basis per step. No compared step
// makes every check, and the verdict, incomparable.
GateResult EvaluateClusterGate(const ClusterRunComparison& cmp, const GateOptions& options);

}  // namespace profdiff::analysis
