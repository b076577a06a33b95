// The slow-rank vote (analysis/cluster/slow_rank_vote.h) as the reference's slow_rank recipe writes
// it with --export_type text: cluster_analysis_output/SlowRankAnalysis/rank_stats.csv ("rankId,slowAffectCount",
// in the order voted) and slow_op_stats.csv ("SlowRank,OpName,GroupName,Timestamp,Count,Mean(Us),
// Std(Us),Min(Us),Q1(Us),Median(Us),Q3(Us),Max(Us),Sum(Us)", by timestamp). LF line ends, Python csv
// quoting, as pandas writes.
//
// Its statistics are µs already, and its text export divides every column named ...Ns by 1000 again
// under a "(Us)" name: under vote.as_reference those values (ms, labelled µs) as Python's repr, as it
// writes them; default: the exact µs decimals the columns name (cluster deviation 4).
#pragma once

#include <string>

#include "profdiff/analysis/cluster/slow_rank_vote.h"

namespace profdiff::report {

inline constexpr const char* kSlowRankDir = "SlowRankAnalysis";
inline constexpr const char* kRankStatsCsv = "rank_stats.csv";
inline constexpr const char* kSlowOpStatsCsv = "slow_op_stats.csv";

std::string RenderRankStatsCsv(const analysis::SlowRankVote& vote);
std::string RenderSlowOpStatsCsv(const analysis::SlowRankVote& vote);

// A value in quarter ns as an exact µs decimal ("1.23425", "0.5", "0").
std::string FormatQuarterNsAsMicros(int64_t q4);

}  // namespace profdiff::report
