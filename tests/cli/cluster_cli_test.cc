// `profdiff cluster` through the command line on a run built from the bundled rank (hard links):
// outputs, the screen, the JSON, missing ranks, partial ranks and the refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_cli.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;

const fs::path kRank0 = fs::path(PROFDIFF_SOURCE_DIR) / "tests/data/ascend_910b_alexnet/rank0_ascend_pt";

class ClusterCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(PROFDIFF_BINARY_DIR) / "cluster_cli" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    run_ = root_ / "run";
    out_ = root_ / "out";
    fs::create_directories(out_);
  }
  // Rank `rank` of the run: the bundled rank's files (hard links); without trace_view.json when `partial`.
  void AddRank(int rank, bool partial = false) {
    const fs::path dir = run_ / ("r" + std::to_string(rank) + "_ascend_pt");
    fs::create_directories(dir / "ASCEND_PROFILER_OUTPUT");
    for (const auto& e : fs::directory_iterator(kRank0 / "ASCEND_PROFILER_OUTPUT")) {
      if (partial && e.path().filename() == "trace_view.json") continue;
      std::error_code ec;
      fs::create_hard_link(e.path(), dir / "ASCEND_PROFILER_OUTPUT" / e.path().filename(), ec);
      if (ec) fs::copy_file(e.path(), dir / "ASCEND_PROFILER_OUTPUT" / e.path().filename());
    }
    fs::copy_file(kRank0 / "profiler_info_0.json", dir / ("profiler_info_" + std::to_string(rank) + ".json"));
    // The world size the metadata records (4): ranks not added are missing.
    std::ofstream(dir / "profiler_metadata.json") << R"({"distributed_args": {"world_size": 4, "rank": )" << rank
                                                  << "}}";
  }
  static std::string Read(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  fs::path root_, run_, out_;
};

TEST_F(ClusterCli, WritesTheStepTableTheJsonAndNamesMissingAndPartialRanks) {
  AddRank(0);
  AddRank(2, /*partial=*/true);
  const auto r = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "-j", "2"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("2 ranks in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(world size 4)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("missing ranks: 1, 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 2: partial export, 1 step from step_trace_time.csv; missing: trace_view.json"),
            std::string::npos) << r.out;
  // Both ranks hold the same step: nobody holds it back.
  EXPECT_NE(r.out.find("step 50: the 2 ranks did the same work"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("ranks 1, 3 were not found"), std::string::npos) << r.err;
  EXPECT_EQ(Read(out_ / "cluster_analysis_output/cluster_step_trace_time.csv"),
            "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\r\n"
            "50,rank,0,8873.756,101963.203,4028.675,105991.878,25744.05,136581,0,101963.203,17902.5\r\n"
            "50,rank,2,8873.756,101963.203,4028.675,105991.878,25744.05,136581,0,101963.203,17902.5\r\n");
  const auto j = nlohmann::json::parse(Read(out_ / "profdiff_cluster.json"));
  EXPECT_EQ(j["schema"], "profdiff.cluster/1");
  EXPECT_EQ(j["run"]["missing_ranks"], nlohmann::json::array({1, 3}));
  EXPECT_EQ(j["ranks"][0]["export"], "text");
  EXPECT_FALSE(j["ranks"][0]["communication_groups"].empty());
  EXPECT_EQ(j["ranks"][1]["export"], "partial");
  EXPECT_TRUE(j["ranks"][1]["communication_groups"].empty());
  EXPECT_EQ(j["ranks"][1]["steps"][0]["values_ns"]["Computing"], 8873756);
}

TEST_F(ClusterCli, RankListStepIdAndJsonOnStdout) {
  AddRank(0);
  AddRank(1, true);
  const auto r = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--ranks", "1", "--step_id", "50",
                         "--format", "json", "--reference-compat"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["run"]["ranks_found"], nlohmann::json::array({1}));
  EXPECT_EQ(j["mode"], "reference-compat");
  EXPECT_TRUE(j["run"]["missing_ranks"].empty());  // --rank_list: the others are not missing
  const std::string csv = Read(out_ / "cluster_analysis_output/cluster_step_trace_time.csv");
  EXPECT_NE(csv.find("\r\n50,rank,1,8873.756000000001,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",0.0,"), std::string::npos) << csv;
}

TEST_F(ClusterCli, CollectivesMatchedAcrossRanks) {
  AddRank(0);
  AddRank(1);  // the same capture twice: every collective arrives together
  const auto r = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["collectives"]["matched"], 4);
  EXPECT_TRUE(j["collectives"]["late_ranks"].empty());
  const auto& c = j["collectives"]["items"][0];
  EXPECT_EQ(c["name"], "hcom_allReduce__586_0_1");
  EXPECT_EQ(c["skew_ns"], 0);
  EXPECT_EQ(c["arrivals"].size(), 2u);
  for (const auto& item : j["collectives"]["items"]) EXPECT_EQ(item["skew_ns"], 0);
  const auto text = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--force"});
  EXPECT_NE(text.out.find("collectives: 4 matched across ranks; the ranks arrive together (skew 0)"),
            std::string::npos) << text.out;
}

TEST_F(ClusterCli, Refusals) {
  AddRank(0);
  ASSERT_EQ(RunCli({"cluster", "-d", run_.string(), "-o", out_.string()}).rc, 0);
  const auto again = RunCli({"cluster", "-d", run_.string(), "-o", out_.string()});
  EXPECT_EQ(again.rc, 2) << again.err;  // exists, no --force
  EXPECT_EQ(RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--force"}).rc, 0);
  const auto inside = RunCli({"cluster", "-d", run_.string(), "-o", (run_ / "x").string()});
  EXPECT_EQ(inside.rc, 2) << inside.err;
  EXPECT_FALSE(fs::exists(run_ / "x")) << "nothing is written inside the run";
  const auto bp = RunCli({"cluster", "-d", run_.string(), "-bp", run_.string()});
  EXPECT_EQ(bp.rc, 2);
  EXPECT_NE(bp.err.find("not supported yet"), std::string::npos) << bp.err;
  const auto list = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--force", "--rank_list", "0,x"});
  EXPECT_EQ(list.rc, 2) << list.err;
  const auto step = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--force", "--step_id", "7"});
  EXPECT_EQ(step.rc, 3) << step.err;
  EXPECT_NE(step.err.find("steps: 50"), std::string::npos) << step.err;
  const auto none = RunCli({"cluster", "-d", out_.string(), "-o", (root_ / "o2").string()});
  EXPECT_EQ(none.rc, 3) << none.err;
  EXPECT_NE(none.err.find("no rank found"), std::string::npos) << none.err;
  const auto help = RunCli({"cluster", "--help"});
  EXPECT_EQ(help.rc, 0);
  EXPECT_NE(help.out.find("--rank_list"), std::string::npos);
}

}  // namespace
}  // namespace profdiff::cli
