// `profdiff compare` on corpus pairs (../shared/corpus; skipped without it).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "profdiff/cli/app.h"
#include "run_cli.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using report::testing::TempDir;

const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";

using testing::Result;
using testing::RunCli;

// ROCm puts every kernel on stream 0: the default mode compares H100 with MI300 end to end (E2E,
// computing, an OverallMetrics sheet) on each of the five model pairs (docs/deviations.md row 2).
TEST(CompareCorpusCli, H100VersusMi300HasAnOverallComparison) {
  const fs::path dir = fs::path(kCorpus) / "tracelens_h100_vs_mi300_hf_models";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "shared corpus not found at " << dir;
  int pairs = 0;
  for (const auto& e : fs::directory_iterator(dir / "h100")) {
    const fs::path mi300 = dir / "mi300" / e.path().filename();
    if (!fs::exists(mi300)) continue;
    SCOPED_TRACE(e.path().filename().string());
    ++pairs;
    TempDir d;
    const Result r = RunCli({"compare", "-bp", e.path().string(), "-d", mi300.string(), "--format", "json",
                             "--no-xlsx", "--csv", d.path() + "/csv", "--enable_profiling_compare"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err.find("kernel running data"), std::string::npos) << r.err;
    const json j = json::parse(r.out);
    for (const char* side : {"base", "comparison"}) {
      EXPECT_GT(j["sides"][side]["e2e_ns"].get<int64_t>(), 0) << side;
      EXPECT_GT(j["sides"][side]["computing_ns"].get<int64_t>(), 0) << side;
    }
    EXPECT_TRUE(fs::exists(d.path() + "/csv/OverallMetrics.csv")) << r.err;
  }
  EXPECT_EQ(pairs, 5);
}

// Failed matching is never silent: AlexNet on an A100 against a 910B profile pairs no operator, a
// V100 ResNet50 with old autograd names pairs few; both warn with the match rate and the heaviest
// unmatched names, and the second suggests --op_name_map pairs.
TEST(CompareCorpusCli, LowOperatorMatchWarns) {
  const fs::path alexnet = fs::path(kCorpus) / "hta_critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz";
  const fs::path resnet = fs::path(kCorpus) / "kineto_resnet50_v100_2020_bare_list/resnet50_num_workers_0/worker0.pt.trace.json.gz";
  const fs::path npu = fs::path(kCorpus) / "msinsight_pt_text_2025_level1/rank0_ascend_pt";
  if (!fs::exists(alexnet) || !fs::exists(resnet) || !fs::exists(npu)) GTEST_SKIP() << "shared corpus not found";
  // The reference's pairing: the A100 side's two top-level annotations wrap everything.
  Result r = RunCli({"compare", "-bp", alexnet.string(), "-d", npu.string(), "--no-xlsx", "--format", "json",
                     "--enable_operator_compare", "--reference-compat"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("warning: operator matching: only 0 of 2 base and 0 of 115 comparison operators matched"),
            std::string::npos)
      << r.err;
  json q = json::parse(r.out)["operators"]["match_quality"];
  EXPECT_TRUE(q["low"].get<bool>());
  EXPECT_EQ(q["base_unmatched"][0]["name"], "[param|cuda]");
  EXPECT_EQ(q["wrappers_drilled"]["base"], 0);
  // The default mode drills into the unmatched wrappers on both sides and pairs operators inside.
  r = RunCli({"compare", "-bp", alexnet.string(), "-d", npu.string(), "--no-xlsx", "--format", "json",
              "--enable_operator_compare"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("after drilling into 1 base and 1 comparison wrapper(s)"), std::string::npos) << r.err;
  const json ops = json::parse(r.out)["operators"];
  EXPECT_GT(ops["match_rate"]["matched"].get<int>(), 0);
  EXPECT_GT(ops["match_rate"]["base_items"].get<int>(), 2);
  EXPECT_EQ(ops["match_quality"]["wrappers_drilled"]["base"], 1);
  EXPECT_EQ(ops["match_quality"]["wrappers_drilled"]["comparison"], 1);

  r = RunCli({"compare", "-bp", resnet.string(), "-d", npu.string(), "--no-xlsx", "--format", "json",
              "--enable_operator_compare"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("Try --op_name_map \"{'CudnnConvolutionBackward':'autograd::engine::evaluate_function: "
                       "ConvolutionBackward0'"),
            std::string::npos)
      << r.err;
  q = json::parse(r.out)["operators"]["match_quality"];
  EXPECT_GE(q["op_name_map_suggestions"].size(), 3u);
}

// Suggested --op_name_map pairs are tried before they are shown: on corpus pairs with naming drift
// (2020 autograd names against evaluate_function wrappers, a GPU against an NPU), passing every
// suggestion raises the match by exactly the gains they report, and none is an in-place twin.
TEST(CompareCorpusCli, SuggestedNameMapsRaiseTheMatch) {
  const fs::path old_resnet = fs::path(kCorpus) / "kineto_resnet50_v100_2020_bare_list/resnet50_num_workers_0/worker0.pt.trace.json.gz";
  const fs::path new_resnet = fs::path(kCorpus) / "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz";
  const fs::path hta = fs::path(kCorpus) / "hta_ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
  const fs::path npu = fs::path(kCorpus) / "msinsight_pt_text_2025_level1/rank0_ascend_pt";
  for (const fs::path& p : {old_resnet, new_resnet, hta, npu})
    if (!fs::exists(p)) GTEST_SKIP() << "shared corpus not found: " << p;
  const std::pair<fs::path, fs::path> pairs[] = {{old_resnet, npu}, {old_resnet, hta}, {hta, old_resnet}, {new_resnet, hta}};
  int with_suggestions = 0;
  for (const auto& [base, comparison] : pairs) {
    SCOPED_TRACE(base.filename().string() + " vs " + comparison.filename().string());
    std::vector<std::string> args = {"compare", "-bp", base.string(), "-d", comparison.string(), "--no-xlsx",
                                     "--format", "json", "--enable_operator_compare"};
    Result r = RunCli(args);
    ASSERT_EQ(r.rc, 0) << r.err;
    const json before = json::parse(r.out)["operators"];
    const json& suggestions = before["match_quality"]["op_name_map_suggestions"];
    if (suggestions.empty()) continue;
    ++with_suggestions;
    std::string map;
    uint64_t gain = 0;
    for (const json& s : suggestions) {
      const std::string b = s["base"], c = s["comparison"];
      ASSERT_EQ(b.find('\''), std::string::npos);
      ASSERT_EQ(c.find('\''), std::string::npos);
      std::string bu = b, cu = c;
      std::erase(bu, '_');
      std::erase(cu, '_');
      EXPECT_NE(bu, cu) << b << " -> " << c;
      EXPECT_GT(s["matched_gain"].get<uint64_t>(), 0u);
      gain += s["matched_gain"].get<uint64_t>();
      map += (map.empty() ? "" : ",") + ("'" + b + "':'" + c + "'");
    }
    if (with_suggestions == 1) {  // the HTML page says the same, with each pair's gain
      TempDir d;
      std::vector<std::string> html_args = args;
      html_args.insert(html_args.end(), {"--html", d.path() + "/page.html"});
      ASSERT_EQ(RunCli(html_args).rc, 0);
      std::ifstream in(d.path() + "/page.html");
      const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_NE(page.find("Each was tried: with it, the pairing matches more operators."), std::string::npos);
      EXPECT_NE(page.find("</code>: " + std::to_string(suggestions[0]["matched_gain"].get<uint64_t>()) + " more matched"),
                std::string::npos);
    }
    args.push_back("--op_name_map");
    args.push_back("{" + map + "}");
    r = RunCli(args);
    ASSERT_EQ(r.rc, 0) << r.err;
    const json after = json::parse(r.out)["operators"];
    EXPECT_EQ(after["match_rate"]["matched"].get<uint64_t>(), before["match_rate"]["matched"].get<uint64_t>() + gain);
  }
  EXPECT_GE(with_suggestions, 3);
}

// The DB export links a forward op to its backward op through a shared connection id: the default
// mode's module comparison of two DB ranks has its backward modules, as the text export's has.
TEST(CompareCorpusCli, DbExportHasBackwardModules) {
  const fs::path db = fs::path(kCorpus) / "msinsight_pt_db_2025_level1";
  if (!fs::is_directory(db)) GTEST_SKIP() << "shared corpus not found at " << db;
  const Result r = RunCli({"compare", "-bp", (db / "rank0_ascend_pt").string(), "-d",
                           (db / "rank1_ascend_pt").string(), "--no-xlsx", "--format", "json",
                           "--enable_operator_compare"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json ops = json::parse(r.out)["operators"];
  ASSERT_EQ(ops["kind"], "module");
  int backward = 0;
  for (const json& row : ops["module_statistic"])
    backward += row["module_name"].get<std::string>().starts_with("/[ BACKWARD ]");
  EXPECT_GE(backward, 20) << ops["module_statistic"].size();
}

// A DB side loads its python functions only for the module comparison (LoadOptions::
// python_functions): each other comparison run alone, and the operator comparison with
// --disable_module, gives the same result as in the default run, which loads them.
TEST(CompareCorpusCli, DbComparisonsWithoutPythonFunctionsAsInTheWholeRun) {
  const fs::path db = fs::path(kCorpus) / "msinsight_pt_db_2025_level1";
  if (!fs::is_directory(db)) GTEST_SKIP() << "shared corpus not found at " << db;
  const std::vector<std::string> pair = {"compare", "-bp", (db / "rank0_ascend_pt").string(), "-d",
                                         (db / "rank1_ascend_pt").string(), "--no-xlsx", "--format", "json"};
  auto run = [&](std::vector<std::string> flags) {
    std::vector<std::string> args = pair;
    args.insert(args.end(), flags.begin(), flags.end());
    const Result r = RunCli(args);
    EXPECT_EQ(r.rc, 0) << r.err;
    return json::parse(r.out);
  };
  const json whole = run({});
  const json whole_no_module = run({"--disable_module"});
  ASSERT_EQ(whole["operators"]["kind"], "module");  // the pair has python functions
  for (const auto& [flag, section] :
       std::vector<std::pair<std::string, std::string>>{{"--enable_profiling_compare", "overall_metrics"},
                                                        {"--enable_memory_compare", "memory"},
                                                        {"--enable_communication_compare", "communication"},
                                                        {"--enable_api_compare", "api"},
                                                        {"--enable_kernel_compare", "kernels"}}) {
    const json alone = run({flag});
    EXPECT_EQ(alone[section], whole[section]) << flag;
    // The overall comparison runs every time (the summary, the gates).
    for (const char* always : {"sides", "deltas", "overall_metrics", "diagnostics"})
      EXPECT_EQ(alone[always], whole[always]) << flag << " " << always;
  }
  const json operators = run({"--enable_operator_compare", "--disable_module"});
  EXPECT_EQ(operators["operators"], whole_no_module["operators"]);
  EXPECT_NE(operators["operators"]["kind"], "module");
}

// A bare trace_view.json (trace level) against a full profile: what the trace level cannot know
// (memory, bandwidth, the computing split) is said and shown as unknown, never as 0, in the default
// mode; --reference-compat prints the reference's zeros.
TEST(CompareCorpusCli, TraceLevelSideShowsUnknownNotZero) {
  const fs::path npu = fs::path(kCorpus) / "msinsight_pt_text_2025_level1/rank0_ascend_pt";
  if (!fs::exists(npu)) GTEST_SKIP() << "shared corpus not found";
  const std::string trace = PROFDIFF_SOURCE_DIR "/tests/data/ascend_trace_view/trace_view.json";
  Result r = RunCli({"compare", "-bp", trace, "-d", npu.string(), "--no-xlsx", "--enable_profiling_compare"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("warning: base: a trace_view.json alone (trace level)"), std::string::npos) << r.err;
  const size_t mem = r.out.find("| Mem Usage |");
  ASSERT_NE(mem, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("|    n/a    |"), std::string::npos) << r.out;   // base memory
  EXPECT_NE(r.out.find("|      n/a       |"), std::string::npos) << r.out;  // base SDMA bandwidth
  r = RunCli({"compare", "-bp", trace, "-d", npu.string(), "--no-xlsx", "--enable_profiling_compare",
              "--reference-compat"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out.find("n/a"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.00G"), std::string::npos) << r.out;
  r = RunCli({"compare", "-bp", trace, "-d", npu.string(), "--no-xlsx", "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["sides"]["base"]["memory_used_gib"].is_null());
  EXPECT_TRUE(j["sides"]["base"]["sdma_bandwidth_gb_s"].is_null());
  EXPECT_GT(j["sides"]["comparison"]["memory_used_gib"].get<double>(), 2.0);
}

// The issue's case: the slower ResNet50 run cut to its first 3 steps against the faster run's 6.
// The captures' totals say "faster"; a gate compares steps and finds the regression (never exit 0).
TEST(CompareCorpusCli, CutStepsAreComparedPerStep) {
  const fs::path dir = fs::path(kCorpus) / "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0";
  const fs::path slow = dir / "worker0.1623143089861.pt.trace.json.gz";
  const fs::path fast = dir / "worker0.1623143566756.pt.trace.json.gz";
  if (!fs::exists(slow) || !fs::exists(fast)) GTEST_SKIP() << "shared corpus not found";
  TempDir d;
  const std::string cut = d.path() + "/slow_3_steps.json";
  {
    std::string text;
    ASSERT_EQ(report::testing::RunCommand("gzip -dc '" + slow.string() + "'", &text), 0);
    json trace = json::parse(text);
    std::vector<int64_t> starts;
    for (const json& e : trace["traceEvents"])
      if (e.value("name", "").rfind("ProfilerStep#", 0) == 0 && e.contains("ts"))
        starts.push_back(static_cast<int64_t>(e["ts"].get<double>()));
    std::sort(starts.begin(), starts.end());
    ASSERT_GE(starts.size(), 4u);
    json kept = json::array();
    for (const json& e : trace["traceEvents"])
      if (!e.contains("ts") || !e["ts"].is_number() || e["ts"].get<double>() < static_cast<double>(starts[3]))
        kept.push_back(e);
    trace["traceEvents"] = std::move(kept);
    std::ofstream(cut) << trace.dump();
  }
  const Result r = RunCli({"compare", "-bp", fast.string(), "-d", cut, "--no-xlsx", "--format", "json",
                           "--gate-e2e", "5"});
  EXPECT_TRUE(r.rc == 1 || r.rc == 4) << r.rc << r.err;
  const json v = json::parse(r.out)["verdict"];
  EXPECT_EQ(v["basis"], "per_step");
  EXPECT_EQ(v["steps"]["comparison"]["count"], 3);
  EXPECT_GE(v["steps"]["base"]["count"].get<int64_t>(), 5);
  EXPECT_EQ(v["result"], "regression") << v.dump(1);
  EXPECT_GT(v["checks"][0]["delta_pct"].get<double>(), 5.0);
  // The summary's operator moves are per step (6 against 3 steps: the totals alone would show every
  // operator of the shorter capture as improved), and say so.
  const Result text = RunCli({"compare", "-bp", fast.string(), "-d", cut, "--no-xlsx", "--color", "never"});
  EXPECT_NE(text.out.find("most regressed operators (per step: base totals / 6, comparison totals / 3):"),
            std::string::npos)
      << text.out;
}

// --base_step/--comparison_step on Kineto traces (default mode): each side is restricted to that
// ProfilerStep window, the gate compares those two steps, and an unknown step lists the valid ones.
TEST(CompareCorpusCli, GpuStepSelectionRestrictsEachSide) {
  const fs::path dir = fs::path(kCorpus) / "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0";
  const std::string base = (dir / "worker0.1623143089861.pt.trace.json.gz").string();
  const std::string comp = (dir / "worker0.1623143566756.pt.trace.json.gz").string();
  if (!fs::exists(base) || !fs::exists(comp)) GTEST_SKIP() << "shared corpus not found at " << dir;
  const Result whole = RunCli({"compare", "-bp", base, "-d", comp, "--no-xlsx", "--format", "json"});
  ASSERT_EQ(whole.rc, 0) << whole.err;
  const Result one = RunCli({"compare", "-bp", base, "-d", comp, "--no-xlsx", "--format", "json", "--base_step", "6",
                             "--comparison_step", "17", "--gate-e2e", "50"});
  ASSERT_EQ(one.rc, 0) << one.err;
  const json all_sides = json::parse(whole.out)["sides"];
  const json j = json::parse(one.out);
  const json b = j["sides"]["base"];
  ASSERT_EQ(b["steps"].size(), 1u);
  EXPECT_EQ(b["steps"][0]["step"], 6);
  ASSERT_EQ(j["sides"]["comparison"]["steps"].size(), 1u);
  EXPECT_EQ(j["sides"]["comparison"]["steps"][0]["step"], 17);
  // One step of six: the side's E2E is about that step's window, far below the whole capture's.
  const int64_t window = all_sides["base"]["steps"][1]["e2e_ns"].get<int64_t>();
  EXPECT_EQ(all_sides["base"]["steps"][1]["step"], 6);
  EXPECT_GE(b["e2e_ns"].get<int64_t>(), window - window / 100);
  EXPECT_LE(b["e2e_ns"].get<int64_t>(), window + window / 100);
  EXPECT_LT(b["e2e_ns"].get<int64_t>(), all_sides["base"]["e2e_ns"].get<int64_t>() / 4);
  EXPECT_EQ(j["verdict"]["steps"]["base"]["count"], 1);
  EXPECT_EQ(j["verdict"]["steps"]["base"]["median_ns"], window);
  EXPECT_EQ(j["verdict"]["steps"]["comparison"]["count"], 1);

  const Result bad = RunCli({"compare", "-bp", base, "-d", comp, "--no-xlsx", "--base_step", "6", "--comparison_step",
                             "7"});
  EXPECT_EQ(bad.rc, 3);
  EXPECT_NE(bad.err.find("Invalid step id: 7, please choose from the valid steps: 16, 17, 18, 19, 20, 21"),
            std::string::npos)
      << bad.err;
  // --reference-compat keeps the reference's behaviour: a warning, the whole capture compared.
  const Result compat = RunCli({"compare", "-bp", base, "-d", comp, "--no-xlsx", "--format", "json",
                                "--reference-compat", "--base_step", "6", "--comparison_step", "7"});
  EXPECT_EQ(compat.rc, 0) << compat.err;
  EXPECT_NE(compat.err.find("step id is invalid in GPU data"), std::string::npos) << compat.err;
}

}  // namespace
}  // namespace profdiff::cli
