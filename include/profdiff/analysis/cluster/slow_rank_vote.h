// The reference's slow-rank vote (msprof-analyze `cluster -m slow_rank`): at a collective every rank
// ends together, so the rank that arrived last spends the least time in it. For each collective the
// ranks' op durations are tested for a low outlier (Dixon's test at 99.5 % for up to 100 ranks, else
// three standard deviations), and the rank of the outlier gets a vote. Ranks with votes, most often
// first in the order voted; each voted collective with its duration statistics.
//
// Which ops are one collective, and the arithmetic, follow the policy (one field,
// slow_rank_vote_as_reference): the reference groups the ops by (group, op name), leaves out ops
// whose name contains "send" or "receive" and groups whose op names occur unevenly, and works in
// float µs (its SQL's (endNs - startNs) / 1000.0, its numpy / pandas / bottleneck statistics).
// Default: an op is the k-th of its group on each rank (as analysis/cluster/collectives.h matches
// them, so GPU kernels with repeated names vote too), point-to-point ops (send / recv / receive, any
// case) are left out, the tests are exact in integer ns, and the statistics are exact ns (mean and
// standard deviation rounded to the ns).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/common/reference_policy.h"

namespace profdiff::analysis {

// One communication op of one rank, as the vote reads it.
struct VoteOp {
  int64_t rank = 0;
  std::string group;  // as the rank's profile names the group (COMMUNICATION_OP.groupName)
  std::string name;   // e.g. "hcom_allReduce__865_0_1"
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
};

// The ops of the ranks, rank after rank, each rank's in its collectives' order; with `step`, only
// those that count in that step (RankCollective::step), as the reference's --step_id.
std::vector<VoteOp> VoteOpsOf(const std::vector<RankSummary>& ranks, const std::optional<std::string>& step = {});

// Duration statistics of one voted collective over the ranks' ops. Exact: *_q4 in quarter ns (the
// quartiles and the median fall on quarter ns; the mean and the standard deviation are rounded to
// the ns first). Reference: its float µs values (named ...Ns in its tables though they are µs).
struct VoteStats {
  int64_t count = 0;
  int64_t mean_q4 = 0, std_q4 = 0, min_q4 = 0, q1_q4 = 0, median_q4 = 0, q3_q4 = 0, max_q4 = 0, sum_q4 = 0;
  double mean_us = 0, std_us = 0, min_us = 0, q1_us = 0, median_us = 0, q3_us = 0, max_us = 0, sum_us = 0;
};

struct VotedOp {
  std::vector<int64_t> slow_ranks;  // the outliers' ranks (the reference's "SlowRank": "3" or "3,7")
  std::string name;
  std::string group;
  int64_t timestamp_ns = 0;  // the earliest start among the slow ranks' ops
  VoteStats stats;
};

struct RankVotes {
  int64_t rank = 0;
  int64_t votes = 0;  // the reference's slowAffectCount
};

struct SlowRankVote {
  bool as_reference = false;         // which grouping and arithmetic made it (the policy's)
  std::vector<RankVotes> ranks;      // in the order first voted for (the reference's)
  std::vector<VotedOp> ops;          // by timestamp
  std::vector<std::string> excluded_groups;  // groups whose ops do not line up across ranks
};

SlowRankVote VoteSlowRanks(const std::vector<VoteOp>& ops, const ReferencePolicy& policy);

// The judges on one collective's durations (in input order): the indices of the low outliers.
// Exact, in integer ns.
std::vector<size_t> JudgeSlowRankExact(const std::vector<int64_t>& durations_ns);
// The reference's, in float.
std::vector<size_t> JudgeSlowRankFloat(const std::vector<double>& durations_us);

}  // namespace profdiff::analysis
