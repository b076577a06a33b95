// cluster_step_trace_time.csv text and the cluster JSON result (report/cluster/cluster_report.h).
#include "profdiff/report/cluster/cluster_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "cluster_fixture.h"

namespace profdiff::report {
namespace {

analysis::ClusterStepTable Table() {
  analysis::ClusterStepTable t;
  t.columns = {"Computing", "Bubble", "Preparing"};
  analysis::ClusterStepRow r;
  r.step = "50";
  r.index = "0";
  r.values_ns = {8'873'756, 0, kAbsentNs};
  r.values_us_float = {8873.756000000001, 0.0, NAN};
  t.rows.push_back(r);
  r.stage = true;
  r.index = "(0, 1)";
  r.values_us_float = {NAN, NAN, NAN};  // no floats (a timeline-measured rank): the ns in float form
  t.rows.push_back(r);
  return t;
}

TEST(ClusterStepTraceCsv, ExactByDefaultTheReferenceFloatsUnderCompat) {
  EXPECT_EQ(RenderClusterStepTraceCsv(Table(), analysis::ExactPolicy()),
            "Step,Type,Index,Computing,Bubble,Preparing\r\n"
            "50,rank,0,8873.756,0,\r\n"
            "50,stage,\"(0, 1)\",8873.756,0,\r\n");
  EXPECT_EQ(RenderClusterStepTraceCsv(Table(), analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k26_1)),
            "Step,Type,Index,Computing,Bubble,Preparing\r\n"
            "50,rank,0,8873.756000000001,0.0,\r\n"
            "50,stage,\"(0, 1)\",8873.756,0.0,\r\n");
}

TEST(ClusterScreen, RankRanges) {
  EXPECT_EQ(RankRangesText({}), "");
  EXPECT_EQ(RankRangesText({3}), "3");
  EXPECT_EQ(RankRangesText({0, 2, 3, 4, 7, 8}), "0, 2-4, 7, 8");
  EXPECT_EQ(RankRangesText({2, 3, 4, 5, 127}), "2-5, 127");
}

TEST(ClusterJson, SchemaRanksMissingAndSlowRanks) {
  ClusterResult r;
  r.run_path = "run";
  r.world_size = 4;
  r.missing_ranks = {3};
  analysis::RankSummary rank;
  rank.rank = 1;
  rank.export_kind = "partial";
  rank.columns = {"Computing"};
  rank.missing = {"trace_view.json"};
  analysis::RankStep step;
  step.step = "7";
  step.values_ns = {kAbsentNs};
  rank.steps.push_back(step);
  r.ranks.push_back(rank);
  analysis::StepStraggler s;
  s.step = "7";
  s.rank = 1;
  s.cause = analysis::SlowCause::kComputing;
  s.waiters.push_back({0, 5});
  r.stragglers.push_back(s);
  const OrderedJson j = ClusterJson(r, "9.9");
  EXPECT_EQ(j["schema"], "profdiff.cluster/1");
  EXPECT_EQ(j["mode"], "exact");
  EXPECT_TRUE(j["reference_line"].is_null());
  EXPECT_EQ(j["run"]["missing_ranks"], OrderedJson::array({3}));
  EXPECT_EQ(j["ranks"][0]["missing"][0], "trace_view.json");
  EXPECT_TRUE(j["ranks"][0]["steps"][0]["values_ns"]["Computing"].is_null());
  EXPECT_TRUE(j["ranks"][0]["steps"][0]["step_time_ns"].is_null());
  EXPECT_EQ(j["slow_ranks"][0]["cause"], "computing");
  EXPECT_EQ(j["slow_ranks"][0]["waiters"][0]["extra_wait_ns"], 5);
  const std::string screen = RenderClusterScreen(r);
  EXPECT_NE(screen.find("missing ranks: 3"), std::string::npos);
  EXPECT_NE(screen.find("step 7: rank 1 holds the step back"), std::string::npos);
  EXPECT_NE(screen.find("rank 0 waits 0.000 ms more"), std::string::npos);
}

TEST(ClusterJson, TwoRunsPerCollectiveStageAndPercentile) {
  const ClusterResult r = testing::ClusterFixture(true);
  const OrderedJson j = ClusterJson(r, "9.9")["run_comparison"];
  const OrderedJson& kind = j["collectives"]["kinds"][0];
  EXPECT_EQ(j["collectives"]["matched"], 2);
  EXPECT_EQ(kind["group"], "g0");
  EXPECT_EQ(kind["kind"], "allreduce");
  EXPECT_EQ(kind["base"]["count"], 2);
  EXPECT_EQ(kind["base"]["transfer_ns"], 20'000'000);
  EXPECT_EQ(kind["delta"]["skew_ns"], 40'000'000);
  EXPECT_EQ(kind["delta"]["wait_ns"], 40'000'000);
  EXPECT_EQ(kind["delta"]["transfer_ns"], 0);
  ASSERT_EQ(j["top_collectives"].size(), 2u);
  EXPECT_EQ(j["top_collectives"][0]["change_ns"], 20'000'000);
  EXPECT_EQ(j["top_collectives"][0]["comparison"]["last_rank"], 1);
  EXPECT_TRUE(j["stages"]["not_compared_because"].is_null());
  const OrderedJson& stage = j["stages"]["items"][0];
  EXPECT_EQ(stage["base_ranks"], OrderedJson::array({0, 1}));
  EXPECT_EQ(stage["values"][0]["column"], "Computing");
  EXPECT_EQ(stage["values"][0]["delta_ns"], 20'000'000);
  EXPECT_EQ(j["rank_percentiles"]["method"], "nearest-rank");
  EXPECT_TRUE(j["rank_percentiles"]["note"].is_null());
  EXPECT_EQ(j["rank_percentiles"]["rows"].size(), 16u);
  EXPECT_EQ(j["rank_percentiles"]["rows"][3]["delta_ns"], 20'000'000);  // the step's max: 20 -> 40 ms
  EXPECT_EQ(j["notes"], OrderedJson::array());
  const std::string screen = RenderClusterScreen(r);
  EXPECT_NE(screen.find("  collectives: the skew of allreduce in g0 grew most: +40.000 ms (2 -> 2 collectives; "
                        "transfer +0.000 ms, wait +40.000 ms)\n"),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("  stages: stage 0 (ranks 0, 1) grew most: Computing +20.000 ms, "
                        "Communication(Not Overlapped) +20.000 ms\n"),
            std::string::npos)
      << screen;
  EXPECT_EQ(screen.find("ranks by percentile"), std::string::npos);  // the same ranks
  // The other way round nothing grew: what shrank most.
  ClusterResult back = r;
  for (analysis::CollectiveKindChange& k : back.run_detail->collectives.kinds) std::swap(k.base, k.comparison);
  EXPECT_NE(RenderClusterScreen(back).find("  collectives: none grew; the skew of allreduce in g0 shrank most: -40.000 "
                                           "ms (2 -> 2 collectives; transfer +0.000 ms, wait -40.000 ms)\n"),
            std::string::npos)
      << RenderClusterScreen(back);
  // One run: no run comparison at all.
  EXPECT_TRUE(ClusterJson(testing::ClusterFixture(false), "9.9")["run_comparison"].is_null());
}

}  // namespace
}  // namespace profdiff::report
