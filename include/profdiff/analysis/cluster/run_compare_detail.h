// Two runs compared below the job's totals (`profdiff cluster -d RUN -bp BASE_RUN`; run_compare.h
// has the steps, the ranks by id and the gate): per collective, per pipeline stage, and the ranks
// of each run by percentile, which compares runs of different rank counts too. Reads each run's
// matched collectives (collectives.h), its step table (step_table.h) and its ranks' step rows only.
//
// Collectives: the two runs' MatchedCollectives are matched by group name and position (the k-th
// collective of group G in the base with the k-th of G in the comparison, up to the shorter run's
// count; a group in one run only is named in a note). Per collective and run: its transfer (the
// last arrival to the latest end among the ranks: the part no rank waited for), its skew (last −
// first arrival), the last rank and the ranks' total wait. Rolled up per group × collective kind
// (the op's name without its instance numbers, CollectiveKind) over each run's own collectives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/collectives.h"
#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/cluster/run_compare.h"
#include "profdiff/analysis/cluster/step_table.h"

namespace profdiff::analysis {

inline constexpr size_t kTopCollectiveChanges = 20;

// The kind of a collective: an Ascend (HCCL) op's name without its trailing instance numbers, the
// `_<digits>` parts at its end and the underscores before them ("hcom_allReduce__586_0_1" ->
// "hcom_allReduce"; a name that is all numbers stays as written); `as_written` (a GPU rank's
// communication kernel, e.g. "ncclDevKernel_AllReduce_Sum_f32_RING_LL(...)"): the name as written.
std::string CollectiveKind(std::string_view name, bool as_written);

// One run's view of one matched collective.
struct CollectiveSide {
  std::string name;  // as the lowest rank names it
  std::string kind;
  int64_t ranks = 0;
  int64_t transfer_ns = 0;  // the latest end − the last arrival (never below 0)
  int64_t skew_ns = 0;
  int64_t last_rank = 0;
  int64_t wait_ns = 0;  // the ranks' waits summed
};
// `as_written`: CollectiveKind's.
CollectiveSide MeasureCollective(const MatchedCollective& c, bool as_written);

// One collective in both runs (the same group and position).
struct CollectiveChange {
  std::string group;
  int64_t index = 0;
  CollectiveSide base, comparison;
  // How much its transfer + skew changed (comparison − base).
  int64_t ChangeNs() const { return comparison.transfer_ns + comparison.skew_ns - base.transfer_ns - base.skew_ns; }
};

struct CollectiveTotals {
  int64_t count = 0;
  int64_t transfer_ns = 0, skew_ns = 0, wait_ns = 0;
};

// A group × kind over each run's collectives of it (a kind of one run only: count 0 in the other).
struct CollectiveKindChange {
  std::string group, kind;
  CollectiveTotals base, comparison;
};

struct CollectiveGroupChange {
  std::string group;
  int64_t base_collectives = 0, comparison_collectives = 0;
  int64_t matched = 0;       // positions compared: the shorter count (0 for a group of one run)
  int64_t kinds_differ = 0;  // compared positions whose two collectives are of different kinds
};

struct CollectiveComparison {
  std::vector<CollectiveGroupChange> groups;  // the base's groups in order, then the comparison's others
  std::vector<CollectiveKindChange> kinds;    // by group as above, kinds in order of first appearance
  int64_t matched = 0;                        // collectives compared position by position
  // The `top` compared collectives whose transfer + skew changed most (by its absolute change;
  // ties: group order, then position); unchanged ones are left out.
  std::vector<CollectiveChange> top;
  std::vector<std::string> notes;  // a group of one run only, different counts, different kinds
};

// `base_ranks` / `comparison_ranks`: the runs' ranks (a GPU rank's collectives keep their kernel
// names as their kind).
CollectiveComparison CompareCollectives(const CollectiveMatching& base, const std::vector<RankSummary>& base_ranks,
                                        const CollectiveMatching& comparison,
                                        const std::vector<RankSummary>& comparison_ranks,
                                        size_t top = kTopCollectiveChanges);

// Pipeline stages: stage k of the base (its step table's stage rows, stages in order of first
// appearance) against stage k of the comparison, by role whatever their ranks. Per value column of
// the two tables among Computing, Communication(Not Overlapped), Free, Stage and Bubble, the mean
// (rounded down) over the compared steps at which both runs' stage rows know the value.
struct StageColumnChange {
  std::string column;
  int64_t steps = 0;  // compared steps with the value in both runs; 0: both means are kAbsentNs
  int64_t base_ns = kAbsentNs, comparison_ns = kAbsentNs;
};

struct StageChange {
  int64_t stage = 0;  // 0-based position
  std::vector<int64_t> base_ranks, comparison_ranks;
  int64_t steps = 0;                       // compared steps with the stage's row in both runs
  std::vector<StageColumnChange> columns;  // per StageComparison::columns
};

struct StageComparison {
  int64_t base_stages = 0, comparison_stages = 0;  // each run's stages
  std::vector<std::string> columns;
  std::vector<StageChange> stages;
  std::string not_compared_because;  // why `stages` is empty ("" when it is not)
  std::vector<std::string> notes;    // different stage counts
};

StageComparison CompareStages(const ClusterStepTable& base, const ClusterStepTable& comparison,
                              const std::vector<StepComparison>& steps);

// The ranks of each run by percentile: each rank's means over the compared steps it has (as
// run_compare.h's per-rank rows, RankStepTimesOf), then per metric the min, p50, p90 and max across
// the run's ranks: the nearest-rank percentile of the values sorted ascending, the value at 1-based
// position ceil(p / 100 × n) (min the first); p50 is thus the lower median. The rank named with a
// value is the lowest rank that holds it.
struct PercentileRow {
  std::string metric;  // "step", "computing", "communication" (Not Overlapped), "free"
  std::string stat;    // "min", "p50", "p90", "max"
  int64_t base_ns = 0, comparison_ns = 0;
  int64_t base_rank = 0, comparison_rank = 0;  // the rank that holds the value
};

struct RankPercentiles {
  int64_t base_ranks = 0, comparison_ranks = 0;  // ranks with a compared step
  std::vector<PercentileRow> rows;               // metric by metric, min to max; empty when a run has no rank to rank
};

RankPercentiles CompareRankPercentiles(const std::vector<RankSummary>& base, const std::vector<RankSummary>& comparison,
                                       const std::vector<StepComparison>& steps);

// The 0-based index of the nearest-rank percentile `pct` (0..100; 0 is the first) among n > 0
// values sorted ascending: ceil(pct × n / 100) − 1, at least 0.
size_t NearestRankIndex(size_t n, int pct);

// What one run brings to the detail.
struct RunDetailInputs {
  const std::vector<RankSummary>& ranks;
  const CollectiveMatching& collectives;
  const ClusterStepTable& step_table;
};

struct RunDetailComparison {
  CollectiveComparison collectives;
  StageComparison stages;
  RankPercentiles percentiles;
  // The runs' rank sets differ: what is compared how (ranks by id where both have them, the
  // percentiles the whole runs, the stages their roles); "" when they are the same.
  std::string rank_sets_note;
  std::vector<std::string> notes;  // every note above, collectives' and stages' first
};

RunDetailComparison CompareRunDetails(const ClusterRunComparison& cmp, const RunDetailInputs& base,
                                      const RunDetailInputs& comparison, size_t top = kTopCollectiveChanges);

}  // namespace profdiff::analysis
