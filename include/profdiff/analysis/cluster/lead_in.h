// What a rank did before each of its collectives (RankCollective::lead_in_*), measured in the map step
// while the rank's profile is loaded, and what that says about a late arrival: a rank that arrives
// last at a collective either computed longer than the others since the previous one, or its device
// sat idle longer (host-bound: launches, data loading, a Python stall). Compared with the median
// of the other ranks' lead-ins at the same collective.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/collectives.h"
#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// Fills the lead-in fields of out.collectives (and out.kernel_names) from the profile's device
// compute work: GPU kernels and Ascend device tasks that are not communication.
void MeasureLeadIns(const Profile& profile, RankSummary& out);

struct LeadInKernel {
  std::string name;
  int64_t ns = 0;  // summed over the late arrivals where it computed longest
};

// Why one rank arrives last (LastArrivals' ranks): over the collectives it arrived last at (with a
// skew), its lead-in computing and idle time minus the median of the other ranks' at each.
struct LateArrivalCause {
  int64_t rank = 0;
  int64_t collectives = 0;
  int64_t skew_ns = 0;
  int64_t computing_excess_ns = 0;
  int64_t idle_excess_ns = 0;
  // "computing" or "idle" (free / host): the larger excess, when one is above 0; "unexplained" when
  // neither is (the lateness arose before the lead-ins); "unknown" when no lead-in was measured.
  std::string cause;
  // The lateness the lead-ins do not account for: skew_ns minus the positive excesses (0 at least).
  // It arose before the lead-ins: the rank's capture or work started later (a first collective's
  // lead-in starts at the rank's own first device work), or the hosts' clocks differ.
  int64_t unexplained_ns = 0;
  std::vector<LeadInKernel> top_kernels{};  // longest first, at most 3
};

std::vector<LateArrivalCause> ExplainLateArrivals(const CollectiveMatching& matching,
                                                  const std::vector<LateRank>& late,
                                                  const std::vector<RankSummary>& ranks);

}  // namespace profdiff::analysis
