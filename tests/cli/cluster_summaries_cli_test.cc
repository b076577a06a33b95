// `profdiff cluster` in shards through the command line, on the bundled 2-rank Kineto run (a clean
// clone has it): `cluster summarize` shards then `cluster --summaries` write what `cluster -d` writes;
// the shard from the flags or a scheduler's environment (ResolveShard); the refusals.
// tests/scenarios/test_cluster_summaries.py does the same on every corpus cluster.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "profdiff/cli/commands.h"
#include "run_cli.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;

const fs::path kRun = fs::path(PROFDIFF_SOURCE_DIR) / "tests/data/kineto_2rank_nccl";

EnvLookup Env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ResolveShard, FlagsWinOverTheEnvironment) {
  auto s = ResolveShard(2, 5, Env({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(*s, std::make_pair(size_t{2}, size_t{5}));
}

TEST(ResolveShard, ASlurmArrayTaskCountsFromItsMinimum) {
  auto s = ResolveShard(std::nullopt, std::nullopt,
                        Env({{"SLURM_ARRAY_TASK_ID", "8"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "8"}}));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(*s, std::make_pair(size_t{7}, size_t{8}));
  s = ResolveShard(std::nullopt, std::nullopt, Env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, std::make_pair(size_t{3}, size_t{4}));
}

TEST(ResolveShard, AStridedSlurmArrayIsRefused) {  // --array=0-6:2: ids 0, 2, 4, 6 of a count of 4
  auto s = ResolveShard(std::nullopt, std::nullopt, Env({{"SLURM_ARRAY_TASK_ID", "6"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("not below the shard count 4"), std::string::npos) << s.status().message();
}

TEST(ResolveShard, AnIndexedJobNeedsTheCount) {
  auto s = ResolveShard(std::nullopt, std::nullopt, Env({{"JOB_COMPLETION_INDEX", "3"}}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("--shard-count"), std::string::npos) << s.status().message();
  s = ResolveShard(std::nullopt, 4, Env({{"JOB_COMPLETION_INDEX", "3"}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, std::make_pair(size_t{3}, size_t{4}));
}

TEST(ResolveShard, NothingMeansOneShardAndABadVariableIsNamed) {
  auto s = ResolveShard(std::nullopt, std::nullopt, Env({}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, std::make_pair(size_t{0}, size_t{1}));
  s = ResolveShard(std::nullopt, std::nullopt, Env({{"SLURM_ARRAY_TASK_ID", "x7"}}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("SLURM_ARRAY_TASK_ID='x7'"), std::string::npos) << s.status().message();
}

class ClusterSummariesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(PROFDIFF_BINARY_DIR) / "cluster_summaries_cli" /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  static std::string Read(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  fs::path root_;
};

TEST_F(ClusterSummariesCli, ShardsThenTheReduceWriteWhatTheOneMachineRunWrites) {
  const fs::path out = root_ / "out", sums = root_ / "sums";
  auto one = RunCli({"cluster", "-d", kRun.string(), "-o", out.string(), "-q"});
  ASSERT_EQ(one.rc, 0) << one.err;
  const std::string json = Read(out / "profdiff_cluster.json");
  const std::string csv = Read(out / "cluster_analysis_output" / "cluster_step_trace_time.csv");
  const std::string xlsx = Read(out / "profdiff_cluster.xlsx");
  fs::remove_all(out);
  auto list = RunCli({"cluster", "summarize", "-d", kRun.string(), "--list-ranks"});
  ASSERT_EQ(list.rc, 0) << list.err;
  EXPECT_EQ(list.out, "0\tkineto\t" + (kRun / "sampled_rank-0.json.gz").string() + "\n1\tkineto\t" +
                          (kRun / "sampled_rank-1.json.gz").string() + "\n");
  for (const char* i : {"0", "1", "2"}) {
    auto shard = RunCli({"cluster", "summarize", "-d", kRun.string(), "-o", sums.string(), "--shard-index", i,
                         "--shard-count", "3", "-q"});
    ASSERT_EQ(shard.rc, 0) << shard.err;
  }
  EXPECT_TRUE(fs::exists(sums / "rank_0.summary.json"));
  EXPECT_TRUE(fs::exists(sums / "rank_1.summary.json"));
  auto reduce = RunCli({"cluster", "--summaries", sums.string(), "-o", out.string(), "-q"});
  ASSERT_EQ(reduce.rc, 0) << reduce.err;
  EXPECT_EQ(reduce.out, one.out);
  EXPECT_EQ(Read(out / "profdiff_cluster.json"), json);
  EXPECT_EQ(Read(out / "cluster_analysis_output" / "cluster_step_trace_time.csv"), csv);
  EXPECT_EQ(Read(out / "profdiff_cluster.xlsx"), xlsx);
}

TEST_F(ClusterSummariesCli, TheReduceNamesTheRankWithoutASummary) {
  const fs::path sums = root_ / "sums";
  auto shard = RunCli({"cluster", "summarize", "-d", kRun.string(), "-o", sums.string(), "--shard-index", "1",
                       "--shard-count", "2", "-q"});
  ASSERT_EQ(shard.rc, 0) << shard.err;
  EXPECT_EQ(shard.out.rfind("shard 1 of 2: 1 of the run's 2 ranks (1): 1 summary written, 0 kept", 0), 0u) << shard.out;
  auto reduce = RunCli({"cluster", "--summaries", sums.string(), "-o", (root_ / "out").string(), "-q"});
  EXPECT_EQ(reduce.rc, 3);
  EXPECT_NE(reduce.err.find("no summary of rank(s) 0"), std::string::npos) << reduce.err;
  EXPECT_NE(reduce.err.find("rank_0.summary.json"), std::string::npos) << reduce.err;
  EXPECT_FALSE(fs::exists(root_ / "out" / "profdiff_cluster.json"));
}

TEST_F(ClusterSummariesCli, SourcesAreOneEach) {
  auto both = RunCli({"cluster", "-d", kRun.string(), "--summaries", root_.string()});
  EXPECT_EQ(both.rc, 2);
  EXPECT_NE(both.err.find("not both"), std::string::npos) << both.err;
  auto none = RunCli({"cluster", "-o", root_.string()});
  EXPECT_EQ(none.rc, 2);
  auto no_out = RunCli({"cluster", "summarize", "-d", kRun.string()});
  EXPECT_EQ(no_out.rc, 2);
  EXPECT_NE(no_out.err.find("-o"), std::string::npos) << no_out.err;
  auto empty = RunCli({"cluster", "--summaries", root_.string(), "-o", (root_ / "out").string()});
  EXPECT_EQ(empty.rc, 3);
  EXPECT_NE(empty.err.find("no summary"), std::string::npos) << empty.err;
}

TEST_F(ClusterSummariesCli, TheSummariesMayNotLieInsideTheRun) {
  auto inside = RunCli({"cluster", "summarize", "-d", kRun.string(), "-o", (kRun / "sums").string(), "-q"});
  EXPECT_EQ(inside.rc, 2) << inside.err;
  EXPECT_FALSE(fs::exists(kRun / "sums"));
}

}  // namespace
}  // namespace profdiff::cli
