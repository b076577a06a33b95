// The kernel comparison of GPU sides through the CLI (issue 34 item 8, docs/deviations.md kernel
// comparison row 6): the summary of a bundled V100 trace's steps; a corpus H100 vs MI300 pair by kernel name and launching op's shapes, and by
// kernel category with --use_kernel_type; an H100 vs Ascend pair by category without asking; and the
// reference's empty comparison under --reference-compat. Corpus pairs (../shared/corpus) are skipped
// without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_cli.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::Result;
using testing::RunCli;

const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";
const std::string kH100 =
    kCorpus + "/tracelens_h100_vs_mi300_hf_models/h100/gaunernst_bert-small-uncased__1016001.json.gz";
const std::string kMi300 =
    kCorpus + "/tracelens_h100_vs_mi300_hf_models/mi300/gaunernst_bert-small-uncased__1016001.json.gz";
const std::string kAscend = kCorpus + "/msinsight_pt_text_2025_level1/rank0_ascend_pt";
// Another model's H100 trace: the same vendor, kernels compared by name.
const std::string kH100Other =
    kCorpus + "/tracelens_h100_vs_mi300_hf_models/h100/Falconsai_nsfw_image_detection__1016002.json.gz";

json Kernels(const std::string& base, const std::string& comparison, std::vector<std::string> extra,
             std::string* err = nullptr) {
  std::vector<std::string> args = {"compare", "-bp", base, "-d", comparison, "--enable_kernel_compare",
                                   "--enable_profiling_compare", "--no-xlsx", "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const Result r = RunCli(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  if (err != nullptr) *err = r.err;
  return json::parse(r.out);
}

// Σ total_ns of one side's rows.
int64_t RowsTotal(const json& kernels, const char* side) {
  int64_t t = 0;
  for (const json& r : kernels["rows"])
    if (!r[side].is_null()) t += r[side]["total_ns"].get<int64_t>();
  return t;
}

// The overall comparison's computing split of `category` ("matmul": matmul_cube + matmul_vector).
int64_t SplitNs(const json& j, const char* side, const std::string& category) {
  for (const json& e : j["sides"][side]["computing_split"])
    if (e["category"] == category && !e["ns"].is_null()) return e["ns"].get<int64_t>();
  return 0;
}

int64_t CategoryRowsNs(const json& kernels, const char* side, const std::string& prefix) {
  int64_t t = 0;
  for (const json& r : kernels["rows"])
    if (r["kernel_type"].get<std::string>().starts_with(prefix) && !r[side].is_null())
      t += r[side]["total_ns"].get<int64_t>();
  return t;
}

TEST(KernelCorpusCli, GpuPairByKernelNameAndLaunchingOpShapes) {
  if (!fs::exists(kH100) || !fs::exists(kMi300) || !fs::exists(kH100Other))
    GTEST_SKIP() << "shared corpus not found at " << kCorpus;
  const json j = Kernels(kH100, kH100Other, {});
  const json& k = j["kernels"];
  ASSERT_EQ(k["kind"], "shape") << k["warnings"].dump();
  EXPECT_EQ(k["sheet"], "KernelCompare");
  EXPECT_EQ(k["base"]["source"], "device_kernels");
  EXPECT_EQ(k["comparison"]["source"], "device_kernels");
  EXPECT_FALSE(k["by_category"].get<bool>());
  // The base trace's 61 kernel, memcpy and memset events (counted with Python's json module).
  EXPECT_EQ(k["base"]["kernels"], 61);
  // Every kernel is in one row: the rows add up to the side's total.
  EXPECT_EQ(RowsTotal(k, "base"), k["base"]["total_ns"].get<int64_t>());
  EXPECT_EQ(RowsTotal(k, "comparison"), k["comparison"]["total_ns"].get<int64_t>());
  // The launching ops' shapes: flows link most kernels to an aten op.
  int with_shape = 0;
  for (const json& r : k["rows"]) with_shape += r["input_shape"] != "N/A";
  EXPECT_GT(with_shape, 10) << k["rows"][0].dump();
  // NVIDIA against AMD: CUDA and HIP kernel names never match, so the sides are compared by category
  // without asking (61 events on each side).
  std::string err;
  const json vendors = Kernels(kH100, kMi300, {}, &err);
  EXPECT_EQ(vendors["kernels"]["kind"], "type");
  EXPECT_TRUE(vendors["kernels"]["automatic_type"].get<bool>());
  EXPECT_NE(err.find("the base side is GPU (NVIDIA) and the comparison side GPU (AMD)"), std::string::npos) << err;
  // The reference refuses GPU data, on both lines.
  for (const char* compat : {"--reference-compat", "--reference-compat=8.2"}) {
    const json c = Kernels(kH100, kMi300, {compat});
    EXPECT_EQ(c["kernels"]["kind"], "none");
    EXPECT_TRUE(c["kernels"]["rows"].empty());
  }
}

TEST(KernelCorpusCli, GpuPairByCategoryAgreesWithTheOverallSplit) {
  if (!fs::exists(kH100) || !fs::exists(kMi300)) GTEST_SKIP() << "shared corpus not found at " << kCorpus;
  const json j = Kernels(kH100, kMi300, {"--use_kernel_type"});
  const json& k = j["kernels"];
  ASSERT_EQ(k["kind"], "type") << k["warnings"].dump();
  EXPECT_EQ(k["sheet"], "KernelTypeCompare");
  EXPECT_TRUE(k["by_category"].get<bool>());
  EXPECT_FALSE(k["automatic_type"].get<bool>());
  EXPECT_EQ(k["base"]["source"], "kernel_categories");
  for (const char* side : {"base", "comparison"}) {
    EXPECT_EQ(RowsTotal(k, side), k[side]["total_ns"].get<int64_t>());
    for (const std::string cat : {"matmul", "vector", "flash_attention_fwd", "conv_fwd"})
      EXPECT_EQ(CategoryRowsNs(k, side, cat + (cat == "vector" ? "" : "_")), SplitNs(j, side, cat)) << side << cat;
  }
}

TEST(KernelCorpusCli, GpuVersusNpuComparesByCategoryWithAWarning) {
  if (!fs::exists(kH100) || !fs::exists(kAscend)) GTEST_SKIP() << "shared corpus not found at " << kCorpus;
  std::string err;
  const json j = Kernels(kH100, kAscend, {}, &err);
  const json& k = j["kernels"];
  ASSERT_EQ(k["kind"], "type") << k["warnings"].dump();
  EXPECT_TRUE(k["automatic_type"].get<bool>());
  EXPECT_EQ(k["sheet"], "KernelTypeCompare");
  EXPECT_EQ(k["comparison"]["source"], "kernel_categories");
  EXPECT_GT(k["comparison"]["kernels"].get<int64_t>(), 0);
  EXPECT_NE(err.find("the base side is GPU (NVIDIA) and the comparison side NPU (Huawei)"), std::string::npos) << err;
  bool matmul_both = false;
  for (const json& r : k["rows"])
    matmul_both = matmul_both || (r["kernel_type"] == "matmul_cube" && !r["base"].is_null() && !r["comparison"].is_null());
  EXPECT_TRUE(matmul_both) << k["rows"].dump(1);
  const json compat = Kernels(kH100, kAscend, {"--reference-compat"});
  EXPECT_EQ(compat["kernels"]["kind"], "none");
}

// A GPU trace without device kernels (a CPU-only capture): the overall comparison says so already, so
// the kernel comparison's own "no device kernel" warning is on stderr only when it is asked for by
// name; the JSON section and the empty reason always have it.
TEST(KernelCorpusCli, NoDeviceKernelIsSaidWhenTheComparisonIsAskedFor) {
  const std::string cpu = kCorpus + "/hta_cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz";
  if (!fs::exists(cpu)) GTEST_SKIP() << "shared corpus not found at " << kCorpus;
  const char* said = "has no device kernel (kernel, memcpy or memset event); the kernel comparison has no rows";
  const Result all = RunCli({"compare", "-bp", cpu, "-d", cpu, "--no-xlsx", "--format", "json"});
  ASSERT_EQ(all.rc, 0) << all.err;
  EXPECT_EQ(all.err.find(said), std::string::npos) << all.err;
  const json j = json::parse(all.out);
  ASSERT_EQ(j["kernels"]["warnings"].size(), 2u);
  EXPECT_NE(j["kernels"]["warnings"][0].get<std::string>().find(said), std::string::npos);
  const Result asked = RunCli({"compare", "-bp", cpu, "-d", cpu, "--no-xlsx", "-q", "--enable_kernel_compare"});
  ASSERT_EQ(asked.rc, 0) << asked.err;
  EXPECT_NE(asked.err.find(std::string("base: ") + cpu + " " + said), std::string::npos) << asked.err;
}

// The screen's summary of a GPU pair (the bundled V100 ResNet50 trace, steps 5 and 6): the kernel
// groups that moved most, each line within 100 columns with the start of the kernel's name and of
// its launching op's shapes (the summary cuts a long line's start otherwise).
TEST(KernelCli, SummaryShowsTheStartOfLongKernelNamesAndShapes) {
  const std::string v100 =
      PROFDIFF_SOURCE_DIR "/tests/data/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz";
  const Result r = RunCli({"compare", "-bp", v100, "-d", v100, "--enable_kernel_compare", "--base_step", "5",
                           "--comparison_step", "6", "--no-xlsx", "--color", "never"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("most regressed kernels:\n        +84.000 µs  volta_scudnn_128x64_relu_xregs_large_… "
                       "[[32, 128, 56, 56], [128, 128, 3, …\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("kernels matched: 100.0 % of base, 100.0 % of comparison"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace profdiff::cli
