// The slow-rank vote against the reference itself: tests/data/slow_rank_vote/cases.json holds random
// (seeded) communication ops and what the reference's SlowRankVoteAnalysis and its text export made
// of them (make_cases.py beside it, run on its sources). Under the reference policy the votes, every
// statistic (to the bit) and both CSV files are the reference's; the exact default votes the same
// ranks on these cases (no value sits at a critical value).
#include "profdiff/report/cluster/slow_rank_csv.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace profdiff::report {
namespace {

using analysis::ReferencePolicy;
using analysis::SlowRankVote;
using analysis::VoteOp;

nlohmann::json Cases() {
  std::ifstream in(std::string(PROFDIFF_SOURCE_DIR) + "/tests/data/slow_rank_vote/cases.json");
  return nlohmann::json::parse(in);
}

std::vector<VoteOp> Rows(const nlohmann::json& rows) {
  std::vector<VoteOp> ops;
  for (const auto& r : rows) {
    const int64_t start = r[3].get<int64_t>(), end = r[4].get<int64_t>();
    ops.push_back({r[0].get<int64_t>(), r[1].get<std::string>(), r[2].get<std::string>(), start, end - start});
  }
  return ops;
}

double Repr(const nlohmann::json& v) { return std::strtod(v.get<std::string>().c_str(), nullptr); }

void ExpectStats(const analysis::VotedOp& op, const nlohmann::json& e) {
  std::string ranks;
  for (int64_t r : op.slow_ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
  EXPECT_EQ(ranks, e["SlowRank"].get<std::string>());
  EXPECT_EQ(op.name, e["OpName"].get<std::string>());
  EXPECT_EQ(op.group, e["GroupName"].get<std::string>());
  EXPECT_EQ(op.timestamp_ns, e["Timestamp"].get<int64_t>());
  EXPECT_EQ(op.stats.count, e["Count"].get<int64_t>());
  EXPECT_EQ(op.stats.mean_us, Repr(e["MeanNs"]));
  EXPECT_EQ(op.stats.std_us, Repr(e["StdNs"]));
  EXPECT_EQ(op.stats.min_us, Repr(e["MinNs"]));
  EXPECT_EQ(op.stats.q1_us, Repr(e["Q1Ns"]));
  EXPECT_EQ(op.stats.median_us, Repr(e["MedianNs"]));
  EXPECT_EQ(op.stats.q3_us, Repr(e["Q3Ns"]));
  EXPECT_EQ(op.stats.max_us, Repr(e["MaxNs"]));
  EXPECT_EQ(op.stats.sum_us, Repr(e["SumNs"]));
}

TEST(SlowRankCsv, TheReferencesVoteStatisticsAndFilesOnItsOwnCases) {
  const nlohmann::json doc = Cases();
  ASSERT_GE(doc["cases"].size(), 8u);
  ReferencePolicy reference = analysis::ExactPolicy();
  reference.slow_rank_vote_as_reference = true;
  for (const auto& c : doc["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const std::vector<VoteOp> ops = Rows(c["rows"]);
    const nlohmann::json& e = c["expected"];
    for (bool as_reference : {true, false}) {
      const SlowRankVote v = analysis::VoteSlowRanks(ops, as_reference ? reference : analysis::ExactPolicy());
      std::vector<std::vector<int64_t>> votes;
      for (const auto& r : v.ranks) votes.push_back({r.rank, r.votes});
      EXPECT_EQ(votes, e["votes"].get<std::vector<std::vector<int64_t>>>()) << "as_reference " << as_reference;
      if (!as_reference) continue;
      ASSERT_EQ(v.ops.size(), e["stats"].size());
      for (size_t i = 0; i < v.ops.size(); ++i) ExpectStats(v.ops[i], e["stats"][i]);
      if (v.ranks.empty()) continue;  // the reference writes no file then
      EXPECT_EQ(RenderRankStatsCsv(v), e["rank_stats_csv"].get<std::string>());
      EXPECT_EQ(RenderSlowOpStatsCsv(v), e["slow_op_stats_csv"].get<std::string>());
    }
  }
}

TEST(SlowRankCsv, ExactValuesAreTheMicrosecondsTheColumnsName) {
  EXPECT_EQ(FormatQuarterNsAsMicros(0), "0");
  EXPECT_EQ(FormatQuarterNsAsMicros(4), "0.001");
  EXPECT_EQ(FormatQuarterNsAsMicros(4 * 1200 + 2), "1.2005");
  EXPECT_EQ(FormatQuarterNsAsMicros(4 * 1234 + 1), "1.23425");
  EXPECT_EQ(FormatQuarterNsAsMicros(-6), "-0.0015");
  analysis::SlowRankVote v;
  v.ranks = {{3, 2}};
  analysis::VotedOp op;
  op.slow_ranks = {3, 7};
  op.name = "allreduce";
  op.group = "a,b";
  op.timestamp_ns = 17;
  op.stats.count = 8;
  op.stats.min_q4 = 4 * 1500;
  v.ops = {op};
  EXPECT_EQ(RenderRankStatsCsv(v), "rankId,slowAffectCount\n3,2\n");
  EXPECT_EQ(RenderSlowOpStatsCsv(v).substr(RenderSlowOpStatsCsv(v).find('\n') + 1),
            "\"3,7\",allreduce,\"a,b\",17,8,0,0,1.5,0,0,0,0,0\n");
}

}  // namespace
}  // namespace profdiff::report
