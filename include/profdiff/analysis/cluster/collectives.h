// Collectives matched across the ranks of one run (RankSummary::collectives): the same collective of
// a communication group on every rank that takes part, by the group and the collective's number in it
// when the profile records one on every op (a Kineto trace's "Seq": the ops numbered N on every rank;
// numbers some rank lacks are left out), else its order in it (the k-th op of group G on each rank). For each: every rank's arrival (the op's start), how long it
// waited for the last rank to arrive, the last-arriving rank and the skew (last − first arrival).
// Arrivals are compared on the ranks' own clocks: meaningful when the hosts' clocks agree (one host,
// or synchronised hosts), as the reference's cluster analysis also assumes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis {

struct CollectiveArrival {
  int64_t rank = 0;
  int64_t start_ns = 0;  // arrival
  int64_t end_ns = 0;
  int64_t wait_ns = 0;  // the last arrival minus this one: how long this rank waited for the others
  // The rank's lead-in to it (RankCollective::lead_in_*, lead_in.h).
  int64_t lead_in_busy_ns = 0;
  int64_t lead_in_idle_ns = 0;
  int32_t lead_in_top = -1;
  int64_t lead_in_top_ns = 0;
  // What the rank's op moved (RankCollective::transport, size_mb, bandwidth_gbps; "" / -1 unknown).
  std::string transport{};
  double size_mb = -1;
  double bandwidth_gbps = -1;
};

struct MatchedCollective {
  std::string group;
  int64_t index = 0;    // the collective's position in its group (0-based), among the matched ones
  int64_t seq = -1;     // its number in the group (RankCollective::seq) when matched by it, else -1
  std::string name;     // as the lowest rank names it
  bool names_differ = false;  // another rank names its op at this position differently
  std::vector<CollectiveArrival> arrivals;  // ranks ascending
  int64_t last_rank = 0;  // the rank that arrived last (ties: the lowest)
  int64_t skew_ns = 0;    // last arrival − first arrival
};

struct CollectiveMatching {
  std::vector<MatchedCollective> collectives;  // by group (first appearance), then index
  std::vector<std::string> notes;  // groups whose ranks hold different numbers of collectives
};

// Matches the collectives of the ranks (ascending). A group held by one rank only is left out.
CollectiveMatching MatchCollectives(const std::vector<RankSummary>& ranks);

// How much and how often each rank arrived last: one entry per rank that arrived last at least once
// (with a non-zero skew), the largest total skew first (ties: more often last, then the lower rank).
// By time, not by count: being last by 10 µs at three small collectives is not being 5 ms late once.
struct LateRank {
  int64_t rank = 0;
  int64_t times_last = 0;
  int64_t skew_ns = 0;  // the sum of the skews of the collectives it arrived last at
};
std::vector<LateRank> LastArrivals(const CollectiveMatching& matching);

// The waiter -> blocker matrix, sparse: at each collective every rank that arrived before the last
// one waited for it (its wait_ns) on that last rank. One entry per (waiter, blocker) pair that waited
// at all, the longest total wait first (ties: the lower waiter, then blocker).
struct RankWaitsOn {
  int64_t waiter = 0;
  int64_t blocker = 0;
  int64_t wait_ns = 0;       // the waiter's waits at the collectives the blocker arrived last at
  int64_t collectives = 0;   // how many
};
std::vector<RankWaitsOn> WaitsOn(const CollectiveMatching& matching);

}  // namespace profdiff::analysis
