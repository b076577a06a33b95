// Rank discovery (loaders/cluster_discovery.h) on small synthetic runs built in a temporary
// directory from the bundled rank (hard links, so no data is copied).
#include "profdiff/loaders/cluster_discovery.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace profdiff {
namespace {

namespace fs = std::filesystem;

const fs::path kRank0 = fs::path(PROFDIFF_SOURCE_DIR) / "tests/data/ascend_910b_alexnet/rank0_ascend_pt";

class ClusterDiscovery : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(PROFDIFF_BINARY_DIR) / "cluster_discovery" /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  // A rank folder at `rel` (below root_) holding rank0's files, hard-linked, with profiler_info_<rank>.json;
  // `files`: which of ASCEND_PROFILER_OUTPUT's files to link (all when empty).
  fs::path MakeRank(const std::string& rel, int rank, const std::vector<std::string>& files = {}) {
    const fs::path dir = root_ / rel;
    fs::create_directories(dir / "ASCEND_PROFILER_OUTPUT");
    for (const auto& e : fs::directory_iterator(kRank0 / "ASCEND_PROFILER_OUTPUT")) {
      const std::string name = e.path().filename().string();
      if (!files.empty() && std::find(files.begin(), files.end(), name) == files.end()) continue;
      std::error_code ec;
      fs::create_hard_link(e.path(), dir / "ASCEND_PROFILER_OUTPUT" / name, ec);
      if (ec) fs::copy_file(e.path(), dir / "ASCEND_PROFILER_OUTPUT" / name);
    }
    fs::copy_file(kRank0 / "profiler_info_0.json", dir / ("profiler_info_" + std::to_string(rank) + ".json"));
    return dir;
  }
  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  fs::path root_;
};

TEST_F(ClusterDiscovery, FindsAscendRankFoldersByProfilerInfo) {
  MakeRank("node0/rank1_ascend_pt", 1);
  MakeRank("node0/rank0_ascend_pt", 0);
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->ranks.size(), 2u);
  EXPECT_EQ(c->ranks[0].rank, 0);
  EXPECT_EQ(c->ranks[1].rank, 1);
  EXPECT_EQ(c->ranks[0].kind, RankExport::kAscendText);
  EXPECT_EQ(c->ranks[0].rank_source, RankIdSource::kProfilerInfoName);
  EXPECT_TRUE(c->warnings.empty());
}

TEST_F(ClusterDiscovery, DepthIsBoundedAtFiveLevels) {
  MakeRank("a/b/c/d/rank0_ascend_pt", 0);    // level 5
  MakeRank("a/b/c/d/e/rank1_ascend_pt", 1);  // level 6: not found
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->ranks.size(), 1u);
  EXPECT_EQ(c->ranks[0].rank, 0);
}

TEST_F(ClusterDiscovery, DuplicateRankKeepsTheNewestWithAWarning) {
  MakeRank("host_1_20240101000000_ascend_pt", 0);
  MakeRank("host_2_20250101000000_ascend_pt", 0);
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->ranks.size(), 1u);
  EXPECT_NE(c->ranks[0].path.find("20250101000000"), std::string::npos);
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_NE(c->warnings[0].find("rank 0 found twice"), std::string::npos);
  EXPECT_NE(c->warnings[0].find("20240101000000_ascend_pt is ignored"), std::string::npos);
}

TEST_F(ClusterDiscovery, FolderWithoutProfilerInfoIsSkippedWithAWarning) {
  MakeRank("rank0_ascend_pt", 0);
  fs::create_directories(root_ / "stray_ascend_pt/ASCEND_PROFILER_OUTPUT");
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->ranks.size(), 1u);
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_NE(c->warnings[0].find("stray_ascend_pt: no profiler_info_<rank>.json"), std::string::npos);
}

TEST_F(ClusterDiscovery, PartialRankIsFoundAndMarked) {
  MakeRank("rank0_ascend_pt", 0);
  MakeRank("rank1_ascend_pt", 1, {"step_trace_time.csv", "kernel_details.csv"});
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->ranks.size(), 2u);
  EXPECT_EQ(c->ranks[0].kind, RankExport::kAscendText);
  EXPECT_EQ(c->ranks[1].kind, RankExport::kAscendPartial);
}

TEST_F(ClusterDiscovery, MixingTextAndDbNeedsInputFormat) {
  const fs::path r0 = MakeRank("rank0_ascend_pt", 0);
  MakeRank("rank1_ascend_pt", 1);
  std::ofstream(r0 / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db") << "";
  auto mixed = DiscoverCluster(root_.string(), {});
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(mixed.status().message().find("mixes DB exports (rank 0"), std::string::npos);
  EXPECT_NE(mixed.status().message().find("--input-format"), std::string::npos);
  ClusterDiscoveryOptions text;
  text.input_format = InputFormat::kText;
  auto c = DiscoverCluster(root_.string(), text);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->ranks[0].kind, RankExport::kAscendText);
  EXPECT_EQ(c->ranks[1].kind, RankExport::kAscendText);
}

TEST_F(ClusterDiscovery, KinetoRanksFromDistributedInfoElseTheFileName) {
  Write("w/a.json", R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
                       "traceEvents": []})");
  Write("w/trace_rank_7.pt.trace.json", R"({"traceEvents": []})");
  Write("w/config.json", R"({"lr": 0.1})");  // an object without traceEvents: no trace
  Write("w/nothing.json", R"({"traceEvents": []})");  // no rank anywhere: skipped
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->ranks.size(), 2u);
  EXPECT_EQ(c->ranks[0].rank, 3);
  EXPECT_EQ(c->ranks[0].rank_source, RankIdSource::kDistributedInfo);
  EXPECT_EQ(c->ranks[0].kind, RankExport::kKineto);
  EXPECT_EQ(c->ranks[1].rank, 7);
  EXPECT_EQ(c->ranks[1].rank_source, RankIdSource::kFileName);
  ASSERT_EQ(c->warnings.size(), 2u);
  EXPECT_NE(c->warnings[0].find("nothing.json"), std::string::npos);
  EXPECT_NE(c->warnings[1].find("rank 7 taken from the file name"), std::string::npos);
}

TEST_F(ClusterDiscovery, AscendAndKinetoRanksAreNotOneRun) {
  MakeRank("rank0_ascend_pt", 0);
  Write("gpu/rank1.json", R"({"distributedInfo": {"rank": 1}, "traceEvents": []})");
  auto c = DiscoverCluster(root_.string(), {});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("mixes Ascend rank folders"), std::string::npos);
}

TEST_F(ClusterDiscovery, RunNamedLikeARankFolderHoldsRanks) {
  MakeRank("run_ascend_pt/rank0_ascend_pt", 0);
  MakeRank("run_ascend_pt/rank1_ascend_pt", 1);
  auto c = DiscoverCluster((root_ / "run_ascend_pt").string(), {});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->ranks.size(), 2u);
  auto one = DiscoverCluster((root_ / "run_ascend_pt/rank1_ascend_pt").string(), {});
  ASSERT_TRUE(one.ok()) << one.status().message();
  ASSERT_EQ(one->ranks.size(), 1u);  // RUN is one rank folder
  EXPECT_EQ(one->ranks[0].rank, 1);
}

TEST_F(ClusterDiscovery, EmptyOrMissingRunIsNotFound) {
  auto empty = DiscoverCluster(root_.string(), {});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kNotFound);
  EXPECT_NE(empty.status().message().find("no rank found"), std::string::npos);
  auto missing = DiscoverCluster((root_ / "nope").string(), {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

TEST(RankFromFileName, DigitsAfterRankElseTheLastDigits) {
  EXPECT_EQ(RankFromFileName("rank3.json"), 3);
  EXPECT_EQ(RankFromFileName("trace_rank_12.pt.trace.json"), 12);
  EXPECT_EQ(RankFromFileName("RANK-5_host.json.gz"), 5);
  EXPECT_EQ(RankFromFileName("worker7.1623143089861.pt.trace.json"), 7);
  EXPECT_EQ(RankFromFileName("trace.json"), std::nullopt);
}

}  // namespace
}  // namespace profdiff
