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
  void AddRank(int rank, bool partial = false, const fs::path& run = {}) {
    const fs::path dir = (run.empty() ? run_ : run) / ("r" + std::to_string(rank) + "_ascend_pt");
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
  // Replaces a rank's step_trace_time.csv (its hard link is removed first: the bundled file stays).
  static void WriteStepTrace(const fs::path& rank_dir, const std::string& row) {
    const fs::path f = rank_dir / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv";
    fs::remove(f);
    std::ofstream(f) << "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                        "Communication(Not Overlapped and Exclude Receive),Preparing\r\n"
                     << row << "\r\n";
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
  // The workbook alone is enough to refuse: checked before any rank is read, nothing else rewritten.
  fs::remove_all(out_ / "cluster_analysis_output");
  fs::remove(out_ / "profdiff_cluster.json");
  fs::remove(out_ / "profdiff_cluster.html");
  const auto workbook = RunCli({"cluster", "-d", run_.string(), "-o", out_.string()});
  EXPECT_EQ(workbook.rc, 2) << workbook.err;
  EXPECT_NE(workbook.err.find("profdiff_cluster.xlsx"), std::string::npos) << workbook.err;
  EXPECT_FALSE(fs::exists(out_ / "profdiff_cluster.json"));
  EXPECT_FALSE(fs::exists(out_ / "cluster_analysis_output"));  // made for the check, removed on failure
  EXPECT_EQ(RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--force"}).rc, 0);
  const auto inside = RunCli({"cluster", "-d", run_.string(), "-o", (run_ / "x").string()});
  EXPECT_EQ(inside.rc, 2) << inside.err;
  EXPECT_FALSE(fs::exists(run_ / "x")) << "nothing is written inside the run";
  const auto gate = RunCli({"cluster", "-d", run_.string(), "-o", out_.string(), "--force", "--gate-e2e", "5"});
  EXPECT_EQ(gate.rc, 2);
  EXPECT_NE(gate.err.find("give the base run with -bp"), std::string::npos) << gate.err;
  const auto nan = RunCli({"cluster", "-d", run_.string(), "-bp", run_.string(), "--gate-e2e", "nan"});
  EXPECT_EQ(nan.rc, 2) << nan.err;
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

// Two runs (-bp): in the comparison, rank 1 computes 30 ms more in step 50 and rank 0 waits 30 ms
// more for it. The job's step grows by 30 ms, rank 1 is a new slow rank (computing), and a gate
// exits as compare's does: 1 for a regression, 0 for a pass.
TEST_F(ClusterCli, TwoRunsNameTheNewStragglerAndGate) {
  const fs::path base = root_ / "base";
  for (int rank : {0, 1}) {
    AddRank(rank);
    AddRank(rank, false, base);
  }
  WriteStepTrace(run_ / "r1_ascend_pt", "50,38873.756,101963.203,4028.675,105991.878,25744.05,136581.0,0,101963.203,17902.5");
  WriteStepTrace(run_ / "r0_ascend_pt", "50,8873.756,131963.203,4028.675,135991.878,25744.05,136581.0,0,131963.203,17902.5");
  auto r = RunCli({"cluster", "-d", run_.string(), "-bp", base.string(), "-o", out_.string(), "--gate-e2e", "10"});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.out.find("job step (slowest rank, median of 1 step): 136.581 ms -> 166.581 ms (+30.000 ms, +22.0 %)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("mean rank: computing +15.000 ms, uncovered communication +15.000 ms, free +0.000 ms"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("slow rank 1: new"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gate: REGRESSION"), std::string::npos) << r.out;
  r = RunCli({"cluster", "-d", run_.string(), "-bp", base.string(), "-o", out_.string(), "--force", "--gate-e2e", "25",
              "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"]["result"], "pass");
  EXPECT_EQ(j["verdict"]["exit_code"], 0);
  const nlohmann::json& c = j["run_comparison"];
  EXPECT_EQ(c["delta"]["step_ns"], 30'000'000);
  ASSERT_EQ(c["slow_ranks"].size(), 1u);
  EXPECT_EQ(c["slow_ranks"][0]["rank"], 1);
  EXPECT_EQ(c["slow_ranks"][0]["status"], "new");
  EXPECT_EQ(c["steps"][0]["comparison"]["slow_cause"], "computing");
  // The other way round: the straggler is resolved, and nothing regressed.
  r = RunCli({"cluster", "-d", base.string(), "-bp", run_.string(), "-o", out_.string(), "--force", "--gate-e2e", "0"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("slow rank 1: resolved"), std::string::npos) << r.out;
}

// The bundled Kineto run (README): ranks 0 and 1 of 128; rank 1 arrives last and holds the steps back.
TEST_F(ClusterCli, BundledKinetoRun) {
  const fs::path run = fs::path(PROFDIFF_SOURCE_DIR) / "tests/data/kineto_2rank_nccl";
  auto r = RunCli({"cluster", "-d", run.string(), "-o", out_.string(), "--format", "json", "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["run"]["world_size"], 128);
  EXPECT_EQ(j["run"]["ranks_found"], nlohmann::json::array({0, 1}));
  EXPECT_EQ(j["collectives"]["matched"], 10);
  EXPECT_EQ(j["collectives"]["late_ranks"][0]["rank"], 1);
  EXPECT_EQ(j["collectives"]["waits_on"][0]["blocker"], 1);
  ASSERT_EQ(j["slow_ranks"].size(), 2u);
  for (const auto& s : j["slow_ranks"]) EXPECT_EQ(s["rank"], 1);
  EXPECT_TRUE(fs::exists(out_ / "cluster_analysis_output" / "cluster_step_trace_time.csv"));
  EXPECT_FALSE(fs::exists(out_ / "cluster_analysis_output" / "communication_group.json"));  // not an Ascend run
  // The workbook and the page beside the JSON, listed in its outputs (tests/scenarios/test_cluster_workbook_html.py
  // reads them).
  for (const char* name : {"profdiff_cluster.xlsx", "profdiff_cluster.html"}) {
    EXPECT_TRUE(fs::exists(out_ / name)) << name;
    bool listed = false;
    for (const auto& o : j["outputs"]) listed = listed || fs::path(o.get<std::string>()).filename() == name;
    EXPECT_TRUE(listed) << name << " not in " << j["outputs"].dump();
  }
}

// Corpus: the level-2 capture of the 2025 AlexNet run against its level-1 capture (text exports).
TEST_F(ClusterCli, TwoCorpusRuns) {
  const fs::path corpus = fs::path(PROFDIFF_SOURCE_DIR) / "../shared/corpus";
  const fs::path l1 = corpus / "msinsight_pt_text_2025_level1", l2 = corpus / "msinsight_pt_text_2025_level2";
  if (!fs::is_directory(l1) || !fs::is_directory(l2)) GTEST_SKIP() << "shared corpus not found at " << corpus;
  auto r = RunCli({"cluster", "-d", l2.string(), "-bp", l1.string(), "-o", out_.string(), "--gate-e2e", "5"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("job step (slowest rank, median of 1 step): 136.581 ms -> 129.863 ms (-6.718 ms, -4.9 %)"),
            std::string::npos)
      << r.out;
  r = RunCli({"cluster", "-d", l1.string(), "-bp", l2.string(), "-o", out_.string(), "--force", "--gate-e2e", "2"});
  EXPECT_EQ(r.rc, 1) << r.out;
}

}  // namespace
}  // namespace profdiff::cli
