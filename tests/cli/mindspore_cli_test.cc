// MindSpore profiles (docs/reference/inputs.md#mindspore) through the real binary. No public
// MindSpore profile exists, so the fixtures are synthetic (tests/data/PROVENANCE.md), made here:
//   * text: the bundled 910B PyTorch export turned into what a MindSpore export differs in: the
//     directory is *_ascend_ms, the framework events carry no `cpu_op` category (MindSpore's are not
//     torch ops) and sit in a "MindSpore" process, there are no Python-function events and no
//     fwdbwd flows, and kernel_details.csv names its step column `Step ID` (read as PyTorch's
//     `Step Id`: SideFiles tests in tests/loaders);
//   * DB: the synthetic DB export of tests/common/ascend_db_fixture.h named
//     ascend_mindspore_profiler_0.db, whose PYTORCH_API rows are therefore not read.
// The overall, communication and kernel comparisons have rows; the operator, memory and API
// comparisons have none, and the JSON result (and, in the default mode, the workbook) says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../common/ascend_db_fixture.h"
#include "../report/report_test_util.h"
#include "run_profdiff.h"

namespace profdiff::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using report::testing::TempDir;

const fs::path kPyTorchText = PROFDIFF_SOURCE_DIR "/tests/data/ascend_910b_alexnet/rank0_ascend_pt";

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// The MindSpore variant of the bundled PyTorch text export, in `dir`/rank0_ascend_ms.
fs::path MakeMindSporeText(const fs::path& dir) {
  const fs::path ms = dir / "rank0_ascend_ms";
  fs::create_directories(ms);
  fs::copy(kPyTorchText, ms, fs::copy_options::recursive);
  const fs::path out = ms / "ASCEND_PROFILER_OUTPUT";
  json events = json::parse(ReadAll((out / "trace_view.json").string()));
  json kept = json::array();
  for (json& e : events) {
    const std::string cat = e.value("cat", "");
    if (cat == "python_function" || cat == "fwdbwd") continue;
    if (cat == "cpu_op") e.erase("cat");
    if (e.value("ph", "") == "M" && e.value("name", "") == "process_name" && e["args"].value("name", "") == "Python")
      e["args"]["name"] = "MindSpore";
    kept.push_back(std::move(e));
  }
  WriteFile(out / "trace_view.json", kept.dump());
  std::string kernels = ReadAll((out / "kernel_details.csv").string());
  EXPECT_EQ(kernels.rfind("Step Id,", 0), 0u);
  kernels.replace(0, 8, "Step ID,");
  WriteFile(out / "kernel_details.csv", kernels);
  return ms;
}

// A MindSpore DB export in `dir`/rank0_ascend_ms.
fs::path MakeMindSporeDb(const fs::path& dir) {
  const fs::path out = dir / "rank0_ascend_ms" / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out);
  EXPECT_EQ(WriteDb((out / "ascend_mindspore_profiler_0.db").string(), std::string(kDbSchema) + kDbRows), "");
  return dir / "rank0_ascend_ms";
}

std::vector<std::string> EmptyComparisons(const json& result) {
  std::vector<std::string> names;
  for (const json& e : result.at("empty_comparisons")) names.push_back(e.at("comparison").get<std::string>());
  return names;
}

// Compares `base` with `comparison`, writing the CSVs and the JSON result into `out`.
json Compare(const fs::path& base, const fs::path& comparison, const fs::path& out,
             const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"compare", "-bp", base.string(), "-d", comparison.string(), "--no-xlsx",
                                   "--csv", (out / "csv").string(), "--json", (out / "r.json").string(), "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliResult r = RunProfdiff(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(ReadAll((out / "r.json").string()));
}

TEST(CompareMindSpore, TextProfileComparesOverallCommunicationAndKernels) {
  TempDir d;
  const fs::path ms = MakeMindSporeText(d.path());
  const json r = Compare(ms, ms, d.path());
  EXPECT_GT(r.at("overall_metrics").size(), 0u);
  EXPECT_GT(r.at("communication").at("rows").size(), 0u);
  EXPECT_GT(r.at("kernels").at("rows").size(), 0u);
  EXPECT_EQ(EmptyComparisons(r), (std::vector<std::string>{"operators", "memory", "api"}));
  for (const json& e : r.at("empty_comparisons"))
    EXPECT_NE(e.at("reason").get<std::string>().find("neither side has torch operators"), std::string::npos) << e;
  const fs::path csv = fs::path(d.path()) / "csv";
  EXPECT_TRUE(fs::exists(csv / "KernelCompare.csv"));
  EXPECT_TRUE(fs::exists(csv / "CommunicationCompare.csv"));
  EXPECT_FALSE(fs::exists(csv / "OperatorCompare.csv"));
  const std::string empty = ReadAll((csv / "EmptyComparisons.csv").string());
  EXPECT_NE(empty.find("api,ApiCompare,\"neither side has torch operators"), std::string::npos) << empty;
  EXPECT_NE(empty.find("MindSpore"), std::string::npos) << empty;
}

// A step id needs ProfilerStep markers, which a MindSpore trace has none of: the error says so
// instead of listing no valid step.
TEST(CompareMindSpore, StepSelectionSaysThereAreNoMarkers) {
  TempDir d;
  const fs::path ms = MakeMindSporeText(d.path());
  const CliResult r = RunProfdiff({"compare", "-bp", ms.string(), "-d", ms.string(), "--no-xlsx", "-q",
                                   "--base_step", "50", "--comparison_step", "50"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("Invalid step id: 50: the base profile has no ProfilerStep markers (a MindSpore profile "
                       "records none)"),
            std::string::npos)
      << r.err;
}

// A PyTorch side against a MindSpore one: the operator sheets show the PyTorch side's operators.
TEST(CompareMindSpore, PyTorchAgainstMindSporeKeepsThePyTorchOperators) {
  TempDir d;
  const fs::path ms = MakeMindSporeText(d.path());
  const json r = Compare(kPyTorchText, ms, d.path());
  EXPECT_GT(r.at("operators").at("operator_rows").size(), 0u);
  EXPECT_EQ(r.at("operators").at("match_rate").at("comparison_items"), 0);
  EXPECT_EQ(EmptyComparisons(r), (std::vector<std::string>{"api"}));
  EXPECT_NE(r.at("empty_comparisons")[0].at("reason").get<std::string>().find(
                "the comparison side (" + ms.string() + ") has no torch operators"),
            std::string::npos)
      << r.at("empty_comparisons");
}

// --reference-compat leaves the comparisons without rows out, as the reference does (no
// EmptyComparisons sheet); the JSON result still lists them.
TEST(CompareMindSpore, CompatModeWritesNoEmptyComparisonsSheet) {
  TempDir d;
  const fs::path ms = MakeMindSporeText(d.path());
  const json r = Compare(ms, ms, d.path(), {"--reference-compat"});
  EXPECT_EQ(EmptyComparisons(r), (std::vector<std::string>{"operators", "memory", "api"}));
  EXPECT_FALSE(fs::exists(fs::path(d.path()) / "csv" / "EmptyComparisons.csv"));
  EXPECT_TRUE(fs::exists(fs::path(d.path()) / "csv" / "KernelCompare.csv"));
}

// The DB export: PYTORCH_API is not read from an ascend_mindspore_profiler DB, so the torch op of
// the fixture is not an operator; the device tasks, the HCCL op and the compute task are.
TEST(CompareMindSpore, DbProfileSkipsTorchOps) {
  TempDir d;
  const fs::path ms = MakeMindSporeDb(d.path());
  const CliResult inspect = RunProfdiff({"inspect", ms.string()});
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_NE(inspect.out.find("ascend_mindspore_profiler_0.db"), std::string::npos) << inspect.out;
  const json r = Compare(ms, ms, d.path());
  EXPECT_GT(r.at("communication").at("rows").size(), 0u);
  EXPECT_GT(r.at("kernels").at("rows").size(), 0u);
  EXPECT_EQ(EmptyComparisons(r), (std::vector<std::string>{"operators", "memory", "api"}));
  // The same rows named ascend_pytorch_profiler_0.db are read as torch ops: the operators have rows.
  const fs::path pt = fs::path(d.path()) / "pt" / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(pt);
  ASSERT_EQ(WriteDb((pt / "ascend_pytorch_profiler_0.db").string(), std::string(kDbSchema) + kDbRows), "");
  fs::create_directories(fs::path(d.path()) / "pt_out");
  const json p = Compare(pt.parent_path(), pt.parent_path(), fs::path(d.path()) / "pt_out");
  EXPECT_GT(p.at("operators").at("operator_rows").size(), 0u);
}

}  // namespace
}  // namespace profdiff::testing
