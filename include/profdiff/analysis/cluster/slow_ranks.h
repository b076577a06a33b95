// Which rank holds each step back, and why, from the ranks' step rows alone (RankSummary). In a
// synchronous step every rank ends together: the rank that spends the most time outside
// communication (computing + free) arrives last at the collectives, and the others wait for it in
// their uncovered communication. The rank with the longest step is therefore not the one to blame
// (the "rank 1: E2E −20 %" trap); this names the rank by its own work instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis {

enum class SlowCause : uint8_t {
  kComputing,  // its computing exceeds the median rank's more than its free time does
  kFree,       // its free time (host-bound, idle device) exceeds the median more
  kNone,       // every rank did the same work: nobody holds the step back
};
std::string_view SlowCauseName(SlowCause cause);  // "computing", "free", "none"

struct RankWait {
  int64_t rank = 0;
  int64_t extra_wait_ns = 0;  // its Communication(Not Overlapped) minus the slow rank's (> 0)
};

struct StepStraggler {
  std::string step;
  int64_t ranks = 0;     // ranks that have the step with Computing, Communication(Not Overlapped), Free
  int64_t rank = 0;      // the rank with the most computing + free (ties: the lowest rank)
  int64_t work_ns = 0;   // its computing + free
  int64_t median_work_ns = 0;       // the lower median of every rank's computing + free
  int64_t computing_excess_ns = 0;  // its computing minus the median computing
  int64_t free_excess_ns = 0;       // its free minus the median free
  SlowCause cause = SlowCause::kNone;
  std::vector<RankWait> waiters;    // ranks waiting longer than it, most waiting first
  // About how much shorter the step would be if the slow rank did the median rank's work: its lead,
  // at most the longest extra wait of the others (what they would no longer wait); 0 when nobody waits.
  int64_t saving_if_median_ns = 0;
  int64_t longest_step_rank = 0;    // the rank with the longest step time (for reference)
  int64_t longest_step_ns = kAbsentNs;
};

// One entry per step that at least two ranks have (steps in order of first appearance, ranks
// ascending). Ranks without the three columns for a step are left out of that step.
std::vector<StepStraggler> FindStepStragglers(const std::vector<RankSummary>& ranks);

}  // namespace profdiff::analysis
