// A verdict that cannot pass an unfair comparison (issue 31, through the CLI): different device
// models or vendors, a low operator match and a side without device data make a gate incomparable
// (exit 4) with the reason on screen and in the JSON; --allow-cross-device and --min-match say a
// pair is intended. Corpus pairs (../shared/corpus; skipped without it) and the bundled profiles.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "run_cli.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using report::testing::TempDir;
using testing::Result;
using testing::RunCli;

const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";
const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
const std::string kNpu = kData + "/ascend_910b_alexnet/rank0_ascend_pt";
const std::string kV100 = kData + "/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz";

Result Gate(std::vector<std::string> extra, const std::string& base, const std::string& comparison) {
  std::vector<std::string> args = {"compare", "-bp", base, "-d", comparison, "--no-xlsx", "--format", "json",
                                   "--gate-e2e", "5", "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunCli(args);
}

TEST(ComparabilityCli, DifferentVendorsAreIncomparableUnlessAllowed) {
  const fs::path dir = fs::path(kCorpus) / "tracelens_h100_vs_mi300_hf_models";
  const std::string h100 = (dir / "h100/Falconsai_nsfw_image_detection__1016002.json.gz").string();
  const std::string mi300 = (dir / "mi300/Falconsai_nsfw_image_detection__1016002.json.gz").string();
  if (!fs::exists(h100) || !fs::exists(mi300)) GTEST_SKIP() << "shared corpus not found at " << dir;
  const Result r = Gate({}, h100, mi300);
  EXPECT_EQ(r.rc, 4) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["verdict"]["result"], "incomparable");
  ASSERT_EQ(j["verdict"]["incomparable_reasons"].size(), 1u) << j["verdict"].dump(1);
  EXPECT_NE(j["verdict"]["incomparable_reasons"][0].get<std::string>().find(
                "different devices: base is GPU (NVIDIA H100 80GB HBM3), comparison is GPU (AMD Instinct MI300X VF)"),
            std::string::npos)
      << j["verdict"]["incomparable_reasons"][0];
  EXPECT_EQ(j["inputs"]["base"]["vendor"], "NVIDIA");
  EXPECT_EQ(j["inputs"]["comparison"]["vendor"], "AMD");
  EXPECT_EQ(j["inputs"]["comparison"]["device_model"], "AMD Instinct MI300X VF");
  EXPECT_EQ(j["inputs"]["comparison"]["export"], "trace");
  // On screen: the verdict and why.
  const Result text = RunCli({"compare", "-bp", h100, "-d", mi300, "--no-xlsx", "--gate-e2e", "5", "--color", "never"});
  EXPECT_EQ(text.rc, 4);
  EXPECT_NE(text.out.find("gate: INCOMPARABLE\n  incomparable: different devices: base is GPU (NVIDIA H100 80GB HBM3)"),
            std::string::npos)
      << text.out;
  // The same workload on the two vendors, intended: a verdict (the MI300 run is slower per step).
  const Result allowed = Gate({"--allow-cross-device"}, h100, mi300);
  EXPECT_TRUE(allowed.rc == 0 || allowed.rc == 1) << allowed.rc << allowed.err;
  EXPECT_TRUE(json::parse(allowed.out)["verdict"]["incomparable_reasons"].empty());
}

TEST(ComparabilityCli, DifferentWorkloadsAreIncomparable) {
  const std::string qwen =
      kCorpus + "/tracelens_h100_vs_mi300_hf_models/h100/Falconsai_nsfw_image_detection__1016002.json.gz";
  if (!fs::exists(qwen)) GTEST_SKIP() << "shared corpus not found";
  // ResNet50 training on a V100 against a ViT classifier on an H100: two devices and two models.
  Result r = Gate({"--allow-cross-device"}, kV100, qwen);
  EXPECT_EQ(r.rc, 4) << r.err;
  json v = json::parse(r.out)["verdict"];
  ASSERT_EQ(v["incomparable_reasons"].size(), 1u) << v.dump(1);
  EXPECT_NE(v["incomparable_reasons"][0].get<std::string>().find("below --min-match 50 %"), std::string::npos);
  r = Gate({"--allow-cross-device", "--min-match", "0"}, kV100, qwen);
  EXPECT_TRUE(r.rc == 0 || r.rc == 1) << r.rc << r.err;
  EXPECT_EQ(Gate({"--min-match", "101"}, kV100, qwen).rc, 2);  // a usage error
}

// The migration case, GPU to NPU, stays one flag away (and the match rule another, for two models).
TEST(ComparabilityCli, GpuToNpuGatesWithAllowCrossDevice) {
  Result r = Gate({}, kV100, kNpu);
  EXPECT_EQ(r.rc, 4);
  const json v = json::parse(r.out)["verdict"];
  EXPECT_NE(v["incomparable_reasons"][0].get<std::string>().find("base is GPU (NVIDIA Tesla V100-DGXS-32GB), comparison is NPU"),
            std::string::npos)
      << v.dump(1);
  r = Gate({"--allow-cross-device", "--min-match", "0"}, kV100, kNpu);
  EXPECT_TRUE(r.rc == 0 || r.rc == 1) << r.rc << r.err;
  EXPECT_TRUE(json::parse(r.out)["verdict"]["incomparable_reasons"].empty());
}

// An Ascend DB export whose TASK table is missing: no device data, a warning naming what is missing,
// the side's times unknown (null), and a gate incomparable.
TEST(ComparabilityCli, ADbExportWithoutTasksIsNotData) {
  const fs::path src = fs::path(kCorpus) / "msinsight_pt_db_2025_level0/rank0_ascend_pt";
  if (!fs::exists(src)) GTEST_SKIP() << "shared corpus not found at " << src;
  TempDir d;
  const fs::path copy = fs::path(d.path()) / "rank0_ascend_pt";
  fs::copy(src, copy, fs::copy_options::recursive);
  for (const auto& e : fs::recursive_directory_iterator(copy)) fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add);
  const fs::path db = copy / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h, "DROP TABLE TASK", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(h);
  const Result r = Gate({}, src.string(), copy.string());
  EXPECT_EQ(r.rc, 4) << r.err;
  const json j = json::parse(r.out);
  bool named = false;
  for (const json& w : j["comparability_warnings"])
    named = named || w.get<std::string>().find("comparison has no device data: no device task (its TASK table is "
                                               "absent or empty)") != std::string::npos;
  EXPECT_TRUE(named) << j["comparability_warnings"].dump(1);
  EXPECT_TRUE(j["sides"]["comparison"]["computing_ns"].is_null()) << j["sides"]["comparison"].dump(1);
  EXPECT_TRUE(j["sides"]["comparison"]["e2e_ns"].is_null());
  EXPECT_FALSE(j["sides"]["base"]["e2e_ns"].is_null());
  // Without -q and without a gate the warning reaches the screen too.
  const Result loud = RunCli({"compare", "-bp", src.string(), "-d", copy.string(), "--no-xlsx"});
  EXPECT_EQ(loud.rc, 0);
  EXPECT_NE(loud.err.find("comparison has no device data"), std::string::npos) << loud.err;
}

}  // namespace
}  // namespace profdiff::cli

namespace profdiff::cli {
namespace {

int64_t SplitNs(const json& side, const std::string& category) {
  for (const json& c : side["computing_split"])
    if (c["category"] == category) return c["ns"].is_null() ? 0 : c["ns"].get<int64_t>();
  return -1;
}

// MI300's hipBLASLt GEMMs ("Cijk_") outside a matmul op are cube in the default mode (the reference's
// CUBE_MASK does not name them: tests/analysis/overall/overall_device_kernels_test.cc; under
// --reference-compat this ROCm trace, every kernel on stream 0, has no overall comparison at all).
TEST(DeviceKernelsCli, Mi300GemmsAreCube) {
  const std::string mi300 =
      kCorpus + "/tracelens_h100_vs_mi300_hf_models/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  if (!fs::exists(mi300)) GTEST_SKIP() << "shared corpus not found";
  const Result exact = RunCli({"compare", "-bp", mi300, "-d", mi300, "--no-xlsx", "--format", "json", "-q",
                               "--enable_profiling_compare"});
  ASSERT_EQ(exact.rc, 0) << exact.err;
  const json e = json::parse(exact.out)["sides"]["base"];
  EXPECT_GT(SplitNs(e, "cube"), 1000000) << e["computing_split"].dump(1);  // over a millisecond of GEMMs
}

}  // namespace
}  // namespace profdiff::cli

namespace profdiff::cli {
namespace {

json CompareJson(std::vector<std::string> extra) {
  std::vector<std::string> args = {"compare", "-bp", kV100, "-d", kV100, "--no-xlsx", "--format", "json", "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  const Result r = RunCli(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  return json::parse(r.out);
}

// --base_step/--comparison_step on GPU sides: every comparison reads that step in the default mode
// (issue 31 item 5; policy step_selection_npu_sides_only keeps the reference's NPU-only rule).
TEST(StepSelectionCli, EveryComparisonOfAGpuSideReadsTheSelectedStep) {
  const json all = CompareJson({});
  const json one = CompareJson({"--base_step", "6", "--comparison_step", "9"});
  // Operators (and the memory rows, which follow the operator pairing): the step's top-level ops.
  const size_t all_ops = all["operators"]["operator_rows"].size(), one_ops = one["operators"]["operator_rows"].size();
  EXPECT_GT(one_ops, 0u);
  EXPECT_LT(one_ops * 4, all_ops) << one_ops << " of " << all_ops;  // one step of six
  EXPECT_LT(one["memory"]["rows"].size() * 4, all["memory"]["rows"].size());
  // API: the ops of that step only.
  const int64_t all_api = all["api"]["base"]["ops"].get<int64_t>(), one_api = one["api"]["base"]["ops"].get<int64_t>();
  EXPECT_GT(one_api, 0);
  EXPECT_LT(one_api * 4, all_api) << one_api << " of " << all_api;
  // The summary names the steps; no step-count warning.
  const Result text = RunCli({"compare", "-bp", kV100, "-d", kV100, "--no-xlsx", "--base_step", "6",
                              "--comparison_step", "9", "--gate-e2e", "5"});
  EXPECT_NE(text.out.find("step (step 6 vs step 9, device windows)"), std::string::npos) << text.out;
  EXPECT_EQ(text.err.find("different step counts"), std::string::npos) << text.err;
  // --reference-compat: a GPU side ignores the step (with the reference's warning), every op compared.
  const json compat = CompareJson({"--reference-compat", "--base_step", "6", "--comparison_step", "9"});
  const json compat_all = CompareJson({"--reference-compat"});
  EXPECT_EQ(compat["api"]["base"]["ops"], compat_all["api"]["base"]["ops"]);
}

}  // namespace
}  // namespace profdiff::cli
