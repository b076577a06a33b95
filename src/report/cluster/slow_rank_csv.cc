// The slow-rank vote as CSV (slow_rank_csv.h).
#include "profdiff/report/cluster/slow_rank_csv.h"

#include <cstdlib>

#include "profdiff/report/csv_writer.h"
#include "profdiff/report/python_float.h"

namespace profdiff::report {
namespace {

std::string Stats(const analysis::VoteStats& s, bool as_reference) {
  std::string out = std::to_string(s.count);
  if (as_reference) {
    // Its text export's unit conversion: every ...Ns column / 1000.0.
    for (double us : {s.mean_us, s.std_us, s.min_us, s.q1_us, s.median_us, s.q3_us, s.max_us, s.sum_us})
      out += "," + PyFloatRepr(us / 1000.0);
    return out;
  }
  for (int64_t q4 : {s.mean_q4, s.std_q4, s.min_q4, s.q1_q4, s.median_q4, s.q3_q4, s.max_q4, s.sum_q4})
    out += "," + FormatQuarterNsAsMicros(q4);
  return out;
}

}  // namespace

std::string FormatQuarterNsAsMicros(int64_t q4) {
  // One quarter ns is 25e-5 µs: the value in 1e-5 µs, then its decimal without trailing zeros.
  const bool negative = q4 < 0;
  const uint64_t e5 = static_cast<uint64_t>(negative ? -q4 : q4) * 25;
  std::string out = (negative ? "-" : "") + std::to_string(e5 / 100000);
  std::string frac = std::to_string(e5 % 100000);
  frac.insert(0, 5 - frac.size(), '0');
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  if (!frac.empty()) out += "." + frac;
  return out;
}

std::string RenderRankStatsCsv(const analysis::SlowRankVote& vote) {
  std::string out = "rankId,slowAffectCount\n";
  for (const analysis::RankVotes& r : vote.ranks) out += std::to_string(r.rank) + "," + std::to_string(r.votes) + "\n";
  return out;
}

std::string RenderSlowOpStatsCsv(const analysis::SlowRankVote& vote) {
  std::string out =
      "SlowRank,OpName,GroupName,Timestamp,Count,Mean(Us),Std(Us),Min(Us),Q1(Us),Median(Us),Q3(Us),Max(Us),"
      "Sum(Us)\n";
  for (const analysis::VotedOp& op : vote.ops) {
    std::string ranks;
    for (int64_t r : op.slow_ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
    out += CsvField(ranks) + "," + CsvField(op.name) + "," + CsvField(op.group) + "," +
           std::to_string(op.timestamp_ns) + "," + Stats(op.stats, vote.as_reference) + "\n";
  }
  return out;
}

}  // namespace profdiff::report
