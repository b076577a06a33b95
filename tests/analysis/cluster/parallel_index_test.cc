// PartitionRanks and AddParallelIndexes (parallel_index.h, step_table.h). The expected indexes are
// what the reference's ParallelStrategyCalculator (msprof-analyze 26.1) returned for the same sizes.
#include "profdiff/analysis/cluster/parallel_index.h"

#include <gtest/gtest.h>

#include "profdiff/analysis/cluster/step_table.h"

namespace profdiff::analysis {
namespace {

std::vector<std::optional<ParallelIndex>> Indexes(std::vector<ParallelIndex> v) {
  return {v.begin(), v.end()};
}

TEST(ParallelIndex, MegatronLayoutOfTensorPipelineAndDataParallelSizes) {
  ParallelPartition p = PartitionRanks(
      R"({"world_size": 8, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, "data_parallel_size": 2, "rank": 5})");
  ASSERT_TRUE(p.ok) << p.why_not;
  EXPECT_EQ(p.by_rank, Indexes({{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 1, 0}, {1, 1, 1}}));
  p = PartitionRanks(R"({"world_size": 12, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 3,
                         "data_parallel_size": 2, "expert_model_parallel_size": 2})");
  ASSERT_TRUE(p.ok) << p.why_not;
  EXPECT_EQ(p.by_rank, Indexes({{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}, {0, 1, 0}, {0, 1, 1}, {1, 1, 0}, {1, 1, 1},
                                {0, 2, 0}, {0, 2, 1}, {1, 2, 0}, {1, 2, 1}}));
  // A missing size is 1; a size of 0 counts as 1.
  p = PartitionRanks(R"({"world_size": 6, "tensor_model_parallel_size": 0, "pipeline_model_parallel_size": 2, "data_parallel_size": 3})");
  ASSERT_TRUE(p.ok) << p.why_not;
  EXPECT_EQ(p.by_rank, Indexes({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}}));
}

TEST(ParallelIndex, SizesThatDoNotPartitionTheWorldSayWhy) {
  auto why = [](const char* json) {
    const ParallelPartition p = PartitionRanks(json);
    EXPECT_FALSE(p.ok) << json;
    EXPECT_TRUE(p.by_rank.empty()) << json;
    return p.why_not;
  };
  EXPECT_NE(why(R"({"world_size": 6, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, "data_parallel_size": 2})")
                .find("not tensor"),
            std::string::npos);
  // Context parallelism: the reference's layout finds too few ranks per data-parallel group.
  EXPECT_NE(why(R"({"world_size": 8, "tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2, "data_parallel_size": 2,
                   "context_parallel_size": 2})")
                .find("fewer than"),
            std::string::npos);
  EXPECT_NE(why(R"({"world_size": 4, "data_parallel_size": 4, "expert_model_parallel_size": 3})").find("multiple"), std::string::npos);
  EXPECT_NE(why(R"({"world_size": 4.0, "data_parallel_size": 4})").find("not an integer"), std::string::npos);
  EXPECT_NE(why(R"({"world_size": -4, "data_parallel_size": -4})").find("negative"), std::string::npos);
  EXPECT_NE(why(R"([1, 2])").find("not a JSON object"), std::string::npos);
  EXPECT_NE(why(R"({"world_size": 4194304, "data_parallel_size": 4194304})").find("above"), std::string::npos);
}

TEST(ParallelIndex, StepTableRowsTakeTheFirstRanksArgsStageRowsAreNA) {
  std::vector<RankSummary> ranks(3);
  ClusterStepTable table;
  for (int64_t r = 0; r < 3; ++r) {
    ranks[static_cast<size_t>(r)].rank = r;
    ranks[static_cast<size_t>(r)].step_source = RankStepSource::kStepTraceTime;
    ClusterStepRow row;
    row.step = "1";
    row.index = std::to_string(r);
    row.ranks = {r};
    table.rows.push_back(row);
  }
  ClusterStepRow stage;
  stage.step = "1";
  stage.stage = true;
  stage.index = "(0, 1)";
  stage.ranks = {0, 1};
  table.rows.push_back(stage);
  std::vector<std::string> warnings;
  AddParallelIndexes(ranks, table, warnings);  // no distributed_args: nothing
  EXPECT_FALSE(table.parallel_columns);
  ranks[1].distributed_args_json = R"({"world_size": 2, "data_parallel_size": 2})";
  AddParallelIndexes(ranks, table, warnings);  // a world of 2 for 3 ranks with step data: none
  EXPECT_FALSE(table.parallel_columns);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("fewer than the 3"), std::string::npos) << warnings[0];
  ranks[2].step_source = RankStepSource::kTimeline;  // the reference counts the ranks with step files
  warnings.clear();
  AddParallelIndexes(ranks, table, warnings);
  EXPECT_TRUE(warnings.empty());
  ASSERT_TRUE(table.parallel_columns);
  EXPECT_EQ(table.rows[0].parallel, (ParallelIndex{0, 0, 0}));
  EXPECT_EQ(table.rows[1].parallel, (ParallelIndex{1, 0, 0}));
  EXPECT_FALSE(table.rows[2].parallel.has_value());  // rank 2: beyond the world of 2
  EXPECT_FALSE(table.rows[3].parallel.has_value());  // a stage row
}

}  // namespace
}  // namespace profdiff::analysis
