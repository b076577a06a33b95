// Two runs compared per collective, per pipeline stage and by rank percentile
// (run_compare_detail.h), on hand-built matched collectives, step tables and rank step rows.
#include "profdiff/analysis/cluster/run_compare_detail.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "rank_rows.h"

namespace profdiff::analysis {
namespace {

using testing::kMs;
using testing::Rank;

// A collective matched across ranks as MatchCollectives makes it: per rank (start, end) in ms.
MatchedCollective Coll(const std::string& group, int64_t index, const std::string& name,
                       const std::vector<std::tuple<int64_t, int64_t, int64_t>>& arrivals) {
  MatchedCollective m;
  m.group = group;
  m.index = index;
  m.name = name;
  int64_t first = 0, last = 0;
  for (size_t i = 0; i < arrivals.size(); ++i) {
    const auto [rank, start, end] = arrivals[i];
    m.arrivals.push_back({rank, start * kMs, end * kMs, 0});
    if (i == 0 || start * kMs < first) first = start * kMs;
    if (i == 0 || start * kMs > last) last = start * kMs, m.last_rank = rank;
  }
  for (CollectiveArrival& a : m.arrivals) a.wait_ns = last - a.start_ns;
  m.skew_ns = last - first;
  return m;
}

// Two ranks arriving `late_ms` apart at `t`, the collective ending `transfer_ms` after the last
// one.
MatchedCollective Pair(const std::string& group, int64_t index, const std::string& name, int64_t t, int64_t late_ms,
                       int64_t transfer_ms, int64_t late_rank = 1) {
  const int64_t end = t + late_ms + transfer_ms;
  return late_rank == 1 ? Coll(group, index, name, {{0, t, end}, {1, t + late_ms, end}})
                        : Coll(group, index, name, {{0, t + late_ms, end}, {1, t, end}});
}

TEST(ClusterRunDetail, CollectiveKindDropsTheInstanceNumbers) {
  EXPECT_EQ(CollectiveKind("hcom_allReduce__586_0_1", false), "hcom_allReduce");
  EXPECT_EQ(CollectiveKind("hcom_broadcast__12_0_1", false), "hcom_broadcast");
  EXPECT_EQ(CollectiveKind("AllReduce_3", false), "AllReduce");
  EXPECT_EQ(CollectiveKind("hcom_send_", false), "hcom_send_");  // no number: as written
  EXPECT_EQ(CollectiveKind("allreduce2", false),
            "allreduce2");                             // digits without "_" are part of the name
  EXPECT_EQ(CollectiveKind("_12_3", false), "_12_3");  // nothing would be left
  EXPECT_EQ(CollectiveKind("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", false),
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)");
  EXPECT_EQ(CollectiveKind("nccl_all_reduce_0_1", true),
            "nccl_all_reduce_0_1");  // a GPU kernel: as written
}

TEST(ClusterRunDetail, TransferIsTheLastArrivalToTheLatestEnd) {
  // Rank 0 arrives at 0 ms and ends at 30, rank 1 arrives at 20 and ends at 32: transfer 12, skew
  // 20, rank 0 waited 20.
  const CollectiveSide s = MeasureCollective(Coll("g", 0, "hcom_allReduce__1_0_1", {{0, 0, 30}, {1, 20, 32}}), false);
  EXPECT_EQ(s.kind, "hcom_allReduce");
  EXPECT_EQ(s.ranks, 2);
  EXPECT_EQ(s.transfer_ns, 12 * kMs);
  EXPECT_EQ(s.skew_ns, 20 * kMs);
  EXPECT_EQ(s.last_rank, 1);
  EXPECT_EQ(s.wait_ns, 20 * kMs);
  // Every rank ended before the last arrival (clocks apart): no transfer, never below 0.
  EXPECT_EQ(MeasureCollective(Coll("g", 0, "x", {{0, 0, 5}, {1, 20, 4}}), false).transfer_ns, 0);
}

// The base: group g0 with three all-reduces, group g1 (base only) with one broadcast. The
// comparison: g0 with four (the second's skew grew by 10 ms with rank 0 now last, the third is a
// broadcast, the fourth new), g2 (comparison only).
CollectiveMatching BaseCollectives() {
  return {{Pair("g0", 0, "hcom_allReduce__1_0_1", 0, 1, 5), Pair("g0", 1, "hcom_allReduce__2_0_1", 100, 1, 5),
           Pair("g0", 2, "hcom_allReduce__3_0_1", 200, 2, 5), Pair("g1", 0, "hcom_broadcast__4_0_1", 300, 0, 3)},
          {}};
}
CollectiveMatching ComparisonCollectives() {
  return {{Pair("g0", 0, "hcom_allReduce__1_0_1", 0, 1, 5), Pair("g0", 1, "hcom_allReduce__2_0_1", 100, 11, 5, 0),
           Pair("g0", 2, "hcom_broadcast__3_0_1", 200, 2, 8), Pair("g0", 3, "hcom_allReduce__5_0_1", 300, 3, 5),
           Pair("g2", 0, "hcom_send__6_0_1", 400, 0, 1)},
          {}};
}

TEST(ClusterRunDetail, CollectivesMatchByGroupAndPositionAndRollUpByKind) {
  const std::vector<RankSummary> ranks = {Rank(0, {}), Rank(1, {})};
  const CollectiveComparison c = CompareCollectives(BaseCollectives(), ranks, ComparisonCollectives(), ranks);
  ASSERT_EQ(c.groups.size(), 3u);
  EXPECT_EQ(c.groups[0].group, "g0");
  EXPECT_EQ(c.groups[0].base_collectives, 3);
  EXPECT_EQ(c.groups[0].comparison_collectives, 4);
  EXPECT_EQ(c.groups[0].matched, 3);
  EXPECT_EQ(c.groups[0].kinds_differ, 1);
  EXPECT_EQ(c.groups[1].group, "g1");  // the base's groups first
  EXPECT_EQ(c.groups[1].matched, 0);
  EXPECT_EQ(c.groups[2].group, "g2");
  EXPECT_EQ(c.matched, 3);
  ASSERT_EQ(c.notes.size(), 4u);
  EXPECT_EQ(c.notes[0],
            "collective group g0: the base run has 3 collectives, the comparison 4: the first 3 are "
            "compared by position");
  EXPECT_EQ(c.notes[1],
            "collective group g0: at 1 of the 3 compared positions the runs' collectives are of "
            "different "
            "kinds (first at position 2: hcom_allReduce in the base, hcom_broadcast in the comparison)");
  EXPECT_EQ(c.notes[2],
            "collective group g1 is in the base run only (1 collective): not compared collective by "
            "collective");
  EXPECT_EQ(c.notes[3],
            "collective group g2 is in the comparison run only (1 collective): not compared collective "
            "by collective");
  // Per group x kind, each run's own collectives.
  ASSERT_EQ(c.kinds.size(), 4u);
  const CollectiveKindChange& ar = c.kinds[0];
  EXPECT_EQ(std::tie(ar.group, ar.kind), std::tie("g0", "hcom_allReduce"));
  EXPECT_EQ(ar.base.count, 3);
  EXPECT_EQ(ar.comparison.count, 3);
  EXPECT_EQ(ar.base.skew_ns, (1 + 1 + 2) * kMs);
  EXPECT_EQ(ar.comparison.skew_ns, (1 + 11 + 3) * kMs);
  EXPECT_EQ(ar.base.transfer_ns, 15 * kMs);
  EXPECT_EQ(ar.comparison.transfer_ns, 15 * kMs);
  EXPECT_EQ(ar.comparison.wait_ns, (1 + 11 + 3) * kMs);  // two ranks: the first waits the skew
  const CollectiveKindChange& bc = c.kinds[1];
  EXPECT_EQ(std::tie(bc.group, bc.kind), std::tie("g0", "hcom_broadcast"));
  EXPECT_EQ(bc.base.count, 0);
  EXPECT_EQ(bc.comparison.count, 1);
  EXPECT_EQ(bc.comparison.transfer_ns, 8 * kMs);
  EXPECT_EQ(c.kinds[2].group, "g1");
  EXPECT_EQ(c.kinds[2].comparison.count, 0);
  EXPECT_EQ(c.kinds[3].kind, "hcom_send");
  // The single collectives by their change of transfer + skew; the unchanged first one is left out.
  ASSERT_EQ(c.top.size(), 2u);
  EXPECT_EQ(c.top[0].index, 1);
  EXPECT_EQ(c.top[0].ChangeNs(), 10 * kMs);
  EXPECT_EQ(c.top[0].base.last_rank, 1);
  EXPECT_EQ(c.top[0].comparison.last_rank, 0);
  EXPECT_EQ(c.top[1].index, 2);
  EXPECT_EQ(c.top[1].ChangeNs(), 3 * kMs);
  EXPECT_EQ(CompareCollectives(BaseCollectives(), ranks, ComparisonCollectives(), ranks, 1).top.size(), 1u);
}

TEST(ClusterRunDetail, ASmallerSkewRanksByItsSizeAndGpuKernelsKeepTheirNames) {
  std::vector<RankSummary> ranks = {Rank(0, {}), Rank(1, {})};
  for (RankSummary& r : ranks) r.device = DeviceKind::kGpu;
  const CollectiveMatching base = {
      {Pair("communication kernels", 0, "nccl_k_1", 0, 1, 1), Pair("communication kernels", 1, "nccl_k_1", 10, 9, 1)},
      {}};
  const CollectiveMatching cmp = {
      {Pair("communication kernels", 0, "nccl_k_1", 0, 3, 1), Pair("communication kernels", 1, "nccl_k_1", 10, 1, 1)},
      {}};
  const CollectiveComparison c = CompareCollectives(base, ranks, cmp, ranks);
  ASSERT_EQ(c.kinds.size(), 1u);
  EXPECT_EQ(c.kinds[0].kind, "nccl_k_1");
  EXPECT_TRUE(c.notes.empty());
  ASSERT_EQ(c.top.size(), 2u);
  EXPECT_EQ(c.top[0].ChangeNs(), -8 * kMs);  // shrank by 8 before the one that grew by 2
  EXPECT_EQ(c.top[1].ChangeNs(), 2 * kMs);
}

// A step table with stage rows: per step, per stage (its ranks) Computing, Communication(Not
// Overlapped), Free and `extra` columns.
ClusterStepTable StageTable(
    const std::vector<std::string>& extra,
    const std::vector<std::tuple<std::string, std::vector<int64_t>, std::vector<int64_t>>>& rows) {
  ClusterStepTable t;
  t.columns = {std::string(kColComputing), std::string(kColCommNotOverlapped), std::string(kColFree)};
  t.columns.insert(t.columns.end(), extra.begin(), extra.end());
  t.rows.push_back({"1", false, "0", std::vector<int64_t>(t.columns.size(), kMs), {}, {0}});  // a rank row
  for (const auto& [step, ranks, ms] : rows) {
    ClusterStepRow r{step, true, PythonTupleText(ranks), {}, {}, ranks};
    for (int64_t v : ms) r.values_ns.push_back(v < 0 ? kAbsentNs : v * kMs);
    t.rows.push_back(r);
  }
  return t;
}

std::vector<StepComparison> Steps(const std::vector<std::pair<std::string, std::string>>& ids) {
  std::vector<StepComparison> out;
  for (const auto& [b, c] : ids) {
    StepComparison s;
    s.base.step = b;
    s.comparison.step = c;
    out.push_back(s);
  }
  return out;
}

TEST(ClusterRunDetail, StageKOfTheBaseAgainstStageKOfTheComparison) {
  // The base: 4 ranks in stages (0, 1), (2, 3), steps 1 and 2, with a Stage column. The comparison:
  // 8 ranks in stages (0..3), (4..7) and a third (8,), steps 1..3, with Stage and Bubble.
  const ClusterStepTable base = StageTable({std::string(kColStage)}, {{"1", {0, 1}, {100, 20, 5, 125}},
                                                                      {"1", {2, 3}, {110, 10, 5, 125}},
                                                                      {"2", {0, 1}, {102, 20, 5, 127}},
                                                                      {"2", {2, 3}, {110, 12, -1, 127}}});
  const ClusterStepTable cmp =
      StageTable({std::string(kColStage), std::string(kColBubble)}, {{"1", {0, 1, 2, 3}, {100, 40, 5, 145, 3}},
                                                                     {"1", {4, 5, 6, 7}, {130, 10, 5, 145, 1}},
                                                                     {"2", {0, 1, 2, 3}, {100, 42, 5, 147, 3}},
                                                                     {"2", {4, 5, 6, 7}, {130, 10, 7, 147, 1}},
                                                                     {"3", {0, 1, 2, 3}, {999, 999, 999, 999, 9}},
                                                                     {"3", {8}, {1, 1, 1, 3, 0}}});
  const StageComparison s = CompareStages(base, cmp, Steps({{"1", "1"}, {"2", "2"}}));
  EXPECT_EQ(s.base_stages, 2);
  EXPECT_EQ(s.comparison_stages, 3);
  EXPECT_TRUE(s.not_compared_because.empty());
  EXPECT_EQ(s.columns, (std::vector<std::string>{"Computing", "Communication(Not Overlapped)", "Free", "Stage"}));
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_EQ(s.notes[0], "the base run has 2 pipeline stages, the comparison 3: the first 2 are compared in order");
  ASSERT_EQ(s.stages.size(), 2u);
  const StageChange& first = s.stages[0];
  EXPECT_EQ(first.base_ranks, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(first.comparison_ranks, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(first.steps, 2);  // step 3 is not compared
  EXPECT_EQ(first.columns[0].base_ns, 101 * kMs);
  EXPECT_EQ(first.columns[0].comparison_ns, 100 * kMs);
  EXPECT_EQ(first.columns[1].comparison_ns, 41 * kMs);
  EXPECT_EQ(first.columns[3].base_ns, 126 * kMs);
  EXPECT_EQ(first.columns[3].comparison_ns, 146 * kMs);
  const StageChange& second = s.stages[1];
  EXPECT_EQ(second.columns[0].comparison_ns - second.columns[0].base_ns, 20 * kMs);
  // Free is unknown at the base's step 2: its mean is over step 1 only.
  EXPECT_EQ(second.columns[2].steps, 1);
  EXPECT_EQ(second.columns[2].base_ns, 5 * kMs);
  EXPECT_EQ(second.columns[2].comparison_ns, 5 * kMs);
}

TEST(ClusterRunDetail, NoStageRowsSaysWhy) {
  const ClusterStepTable none = StageTable({}, {});
  const ClusterStepTable staged = StageTable({}, {{"1", {0, 1}, {1, 1, 1}}});
  const std::vector<StepComparison> steps = Steps({{"1", "1"}});
  StageComparison s = CompareStages(none, none, steps);
  EXPECT_TRUE(s.stages.empty());
  EXPECT_EQ(s.not_compared_because.rfind("neither run has pipeline stages", 0), 0u) << s.not_compared_because;
  s = CompareStages(none, staged, steps);
  EXPECT_TRUE(s.stages.empty());
  EXPECT_EQ(s.not_compared_because.rfind("the base run has no pipeline stages", 0), 0u) << s.not_compared_because;
  EXPECT_NE(s.not_compared_because.find("the comparison has 1"), std::string::npos);
}

TEST(ClusterRunDetail, NearestRankPercentile) {
  EXPECT_EQ(NearestRankIndex(1, 0), 0u);
  EXPECT_EQ(NearestRankIndex(1, 100), 0u);
  EXPECT_EQ(NearestRankIndex(4, 50), 1u);  // the lower median
  EXPECT_EQ(NearestRankIndex(5, 50), 2u);
  EXPECT_EQ(NearestRankIndex(4, 90), 3u);   // ceil(3.6) = 4th
  EXPECT_EQ(NearestRankIndex(10, 90), 8u);  // the 9th
  EXPECT_EQ(NearestRankIndex(20, 90), 17u);
  EXPECT_EQ(NearestRankIndex(8, 100), 7u);
}

TEST(ClusterRunDetail, PercentilesCompareRunsOfDifferentRankCounts) {
  // The base: 4 ranks, rank r computes 100 + r ms in both steps. The comparison: 8 ranks, rank r
  // computes 100 + 2r ms; rank 6 has no compared step (its steps are 7, 8).
  std::vector<RankSummary> base, cmp;
  for (int64_t r = 0; r < 4; ++r) base.push_back(Rank(r, {{100 + r, 20, 5}, {100 + r, 20, 5}}));
  for (int64_t r = 0; r < 8; ++r)
    cmp.push_back(Rank(r, {{100 + 2 * r, 20, 5 + r % 2}, {100 + 2 * r, 22, 5}}, r == 6 ? 7 : 1));
  const RankPercentiles p = CompareRankPercentiles(base, cmp, Steps({{"1", "1"}, {"2", "2"}}));
  EXPECT_EQ(p.base_ranks, 4);
  EXPECT_EQ(p.comparison_ranks, 7);
  ASSERT_EQ(p.rows.size(), 16u);
  auto row = [&](const std::string& metric, const std::string& stat) {
    return *std::find_if(p.rows.begin(), p.rows.end(),
                         [&](const PercentileRow& x) { return x.metric == metric && x.stat == stat; });
  };
  const PercentileRow median = row("computing", "p50");
  EXPECT_EQ(median.base_ns, 101 * kMs);  // 100..103: the 2nd
  EXPECT_EQ(median.base_rank, 1);
  EXPECT_EQ(median.comparison_ns, 106 * kMs);  // 100, 102, 104, 106, 108, 110, 114: the 4th
  EXPECT_EQ(median.comparison_rank, 3);
  const PercentileRow top = row("computing", "max");
  EXPECT_EQ(top.base_rank, 3);
  EXPECT_EQ(top.comparison_ns, 114 * kMs);
  EXPECT_EQ(top.comparison_rank, 7);
  EXPECT_EQ(row("computing", "p90").comparison_rank, 7);  // ceil(6.3) = the 7th of 7
  EXPECT_EQ(row("computing", "min").comparison_rank, 0);
  // Ties go to the lower rank: every base rank communicates 20 ms.
  EXPECT_EQ(row("communication", "max").base_rank, 0);
  EXPECT_EQ(row("communication", "max").comparison_ns, 21 * kMs);
  // Odd ranks' free is 5.5 ms on average, rounded down to the ns.
  EXPECT_EQ(row("free", "max").comparison_ns, 5'500'000);
  EXPECT_EQ(row("free", "max").comparison_rank, 1);
  EXPECT_EQ(row("step", "max").comparison_ns, (114 + 21) * kMs + 5'500'000);
  // No compared step: no rows.
  EXPECT_TRUE(CompareRankPercentiles(base, cmp, {}).rows.empty());
}

TEST(ClusterRunDetail, DifferentRankSetsAreSaidOnce) {
  std::vector<RankSummary> base, cmp;
  for (int64_t r = 0; r < 4; ++r) base.push_back(Rank(r, {{100, 20, 5}}));
  for (int64_t r = 0; r < 8; ++r) cmp.push_back(Rank(r, {{100, 20, 5}}));
  const ClusterRunComparison rc = CompareRuns(base, {}, cmp, {});
  const CollectiveMatching none;
  const ClusterStepTable flat = StageTable({}, {});
  RunDetailComparison d = CompareRunDetails(rc, {base, none, flat}, {cmp, none, flat});
  EXPECT_EQ(d.rank_sets_note,
            "the runs have different ranks (4 in the base, 8 in the comparison): ranks are matched "
            "by id only where both runs have them (the per-rank rows); the rank percentiles compare "
            "the whole runs");
  EXPECT_EQ(d.notes, std::vector<std::string>{d.rank_sets_note});
  EXPECT_EQ(d.percentiles.rows.size(), 16u);
  // With stages in both runs the note says the stages compare roles; a run without stages is a
  // note.
  const ClusterStepTable b_staged = StageTable({}, {{"1", {0, 1, 2, 3}, {100, 20, 5}}});
  const ClusterStepTable c_staged =
      StageTable({}, {{"1", {0, 1, 2, 3}, {100, 20, 5}}, {"1", {4, 5, 6, 7}, {90, 30, 5}}});
  d = CompareRunDetails(rc, {base, none, b_staged}, {cmp, none, c_staged});
  EXPECT_NE(d.rank_sets_note.find("the stages compare roles"), std::string::npos) << d.rank_sets_note;
  ASSERT_EQ(d.stages.stages.size(), 1u);
  d = CompareRunDetails(rc, {base, none, flat}, {cmp, none, c_staged});
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_EQ(d.notes[0].rfind("the base run has no pipeline stages", 0), 0u) << d.notes[0];
  // The same rank sets: no note.
  d = CompareRunDetails(CompareRuns(base, {}, base, {}), {base, none, flat}, {base, none, flat});
  EXPECT_TRUE(d.rank_sets_note.empty());
  EXPECT_TRUE(d.notes.empty());
}

}  // namespace
}  // namespace profdiff::analysis
