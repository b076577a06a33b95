// `profdiff compare` end to end through the command line (cli::Run, in-process): the JSON result
// (--json FILE, --format json), --no-xlsx, --csv DIR, the CI gate's exit codes (0 pass, 1 regression,
// 4 incomparable), usage (2) and input (3) errors, --config kernel masks, and the default-mode
// deviations from the reference that are visible at the CLI (docs/deviations.md).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../report/report_test_util.h"
#include "profdiff/cli/app.h"
#include "run_cli.h"

namespace profdiff::cli {
namespace {

using report::testing::Exists;
using report::testing::ReadFile;
using report::testing::TempDir;
using json = nlohmann::json;

const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
const std::string kH100Before = kData + "/kineto_h100_tiny/before_fix_trace.json";
const std::string kH100After = kData + "/kineto_h100_tiny/after_fix_trace.json";
const std::string kTraceView = kData + "/ascend_trace_view/trace_view.json";

using testing::Result;
using testing::RunCli;

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

// A Kineto trace with one CPU op and one kernel of `kernel_us` µs named `kernel` on stream 7.
std::string KinetoTrace(int kernel_us, const std::string& kernel = "my_kernel") {
  std::ostringstream s;
  s << R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1000, "dur": 50},
  {"ph": "X", "cat": "kernel", "name": ")"
    << kernel << R"(", "pid": 0, "tid": 7, "ts": 1100, "dur": )" << kernel_us
    << R"(, "args": {"stream": 7, "device": 0}}
]})";
  return s.str();
}
// CPU ops only: no kernel, so no end-to-end time.
const char* kCpuOnlyTrace = R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1000, "dur": 50}
]})";

json ParseJson(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

void ExpectDeltasSumToE2e(const json& j) {
  const json& d = j["deltas"];
  int64_t sum = 0;
  for (const auto& c : d["categories"]) sum += c["delta_ns"].get<int64_t>();
  EXPECT_EQ(sum, d["e2e_delta_ns"].get<int64_t>());
  EXPECT_EQ(d["categories_sum_ns"].get<int64_t>(), d["e2e_delta_ns"].get<int64_t>());
  const int64_t be = j["sides"]["base"]["e2e_ns"], ce = j["sides"]["comparison"]["e2e_ns"];
  EXPECT_EQ(d["e2e_delta_ns"].get<int64_t>(), ce - be);
  for (const char* side : {"base", "comparison"}) {
    const json& s = j["sides"][side];
    EXPECT_EQ(s["computing_ns"].get<int64_t>() + s["uncovered_communication_ns"].get<int64_t>() +
                  s["free_ns"].get<int64_t>(),
              s["e2e_ns"].get<int64_t>());
  }
}

TEST(CompareCli, JsonFileNoXlsxAndDeltasSumToE2e) {
  TempDir d;
  Result r = RunCli({"compare", "-bp", kH100Before, "-d", kTraceView, "--json", d / "r.json", "--no-xlsx", "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("Model Profiling Time Distribution"), std::string::npos);  // text on stdout
  EXPECT_EQ(d.List(), std::vector<std::string>{"r.json"});                       // no workbook
  std::string text;
  ASSERT_TRUE(ReadFile(d / "r.json", &text));
  json j = ParseJson(text);
  EXPECT_EQ(j["schema"], "profdiff.compare/1");
  EXPECT_EQ(j["mode"], "exact");
  EXPECT_EQ(j["inputs"]["base"]["device"], "GPU");
  EXPECT_EQ(j["inputs"]["comparison"]["device"], "NPU");
  EXPECT_TRUE(j["verdict"].is_null());
  EXPECT_FALSE(j["overall_metrics"].empty());
  EXPECT_EQ(j["overall_metrics"].back()["label"], "E2E Time");
  ExpectDeltasSumToE2e(j);
  bool different_devices = false;
  for (const auto& w : j["comparability_warnings"])
    different_devices |= w.get<std::string>().find("different devices") != std::string::npos;
  EXPECT_TRUE(different_devices);
}

TEST(CompareCli, FormatJsonPrintsTheResultOnStdout) {
  TempDir d;
  Result r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--format", "json", "--no-xlsx",
                     "--reference-compat", "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  json j = ParseJson(r.out);  // stdout is exactly one JSON document, no table
  EXPECT_EQ(j["schema"], "profdiff.compare/1");
  EXPECT_EQ(j["mode"], "reference-compat");
  ExpectDeltasSumToE2e(j);
}

TEST(CompareCli, CsvDirWritesOneFilePerSheet) {
  TempDir d;
  Result r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--csv", d / "csv", "--no-xlsx", "-q",
                     "--reference-compat"});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::string csv;
  ASSERT_TRUE(ReadFile(d / "csv/OverallMetrics.csv", &csv));
  std::string oracle;
  // The same grid as the reference's sheet (compared with the oracle CSV when ../shared is present).
  if (ReadFile(PROFDIFF_SOURCE_DIR "/../shared/oracle/gpu_vs_gpu_h100/csv/OverallMetrics.csv", &oracle)) {
    EXPECT_EQ(csv.substr(csv.find("\nIndex")), oracle.substr(oracle.find("\nIndex")));
  }
  EXPECT_NE(csv.find("E2E Time,2e-05,1,/,2e-05,1,/,0,1"), std::string::npos) << csv;
}

TEST(CompareCli, GateExitCodesPassRegressionIncomparable) {
  TempDir d;
  WriteText(d / "fast.json", KinetoTrace(100));
  WriteText(d / "slow.json", KinetoTrace(200));
  WriteText(d / "cpu_only.json", kCpuOnlyTrace);
  int run = 0;
  auto gate = [&](const std::string& base, const std::string& comp, std::vector<std::string> extra) {
    // These traces have no ProfilerStep markers: the captures are gated whole, as asked.
    std::vector<std::string> a = {"compare", "-bp", d / base, "-d", d / comp, "--no-xlsx", "-q", "--whole-capture",
                                  "--json", d / ("run" + std::to_string(run++) + ".json")};
    a.insert(a.end(), extra.begin(), extra.end());
    return RunCli(a);
  };
  // Slower comparison (+100 µs = +100 % E2E): regression.
  Result r = gate("fast.json", "slow.json", {"--gate-e2e", "10"});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.out.find("gate: REGRESSION"), std::string::npos);
  // Faster comparison: pass.
  r = gate("slow.json", "fast.json", {"--gate-e2e", "10"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("gate: PASS"), std::string::npos);
  // Above the percentage but below the noise floor (0.1 ms < 1 ms): pass.
  r = gate("fast.json", "slow.json", {"--gate-e2e", "10", "--noise-floor-ms", "1"});
  EXPECT_EQ(r.rc, 0) << r.err;
  // Below the percentage: pass.
  r = gate("fast.json", "slow.json", {"--gate-compute", "150"});
  EXPECT_EQ(r.rc, 0) << r.err;
  // A side without kernels cannot be gated: incomparable, never pass.
  r = gate("cpu_only.json", "fast.json", {"--gate-e2e", "10"});
  EXPECT_EQ(r.rc, 4) << r.err;
  EXPECT_NE(r.out.find("gate: INCOMPARABLE"), std::string::npos);
  std::string text;
  ASSERT_TRUE(ReadFile(d / "run4.json", &text));
  json j = ParseJson(text);
  EXPECT_EQ(j["verdict"]["result"], "incomparable");
  EXPECT_EQ(j["verdict"]["exit_code"], 4);
  EXPECT_FALSE(j["sides"]["base"]["has_overall"].get<bool>());
  // The same for an NPU trace_view.json without device tasks or the overlap-analysis lane.
  WriteText(d / "npu_empty.json",
            R"([{"ph": "M", "name": "process_name", "pid": 2, "args": {"name": "Ascend Hardware"}},
                {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": "1000.000", "dur": 5}])");
  r = RunCli({"compare", "-bp", d / "npu_empty.json", "-d", kTraceView, "--no-xlsx", "-q", "--gate-e2e", "5",
              "--whole-capture"});
  EXPECT_EQ(r.rc, 4) << r.err;
  EXPECT_NE(r.err.find("Failed to get overlap analysis data"), std::string::npos) << r.err;
  // The JSON verdict of a regression carries the thresholds and per-check deltas.
  ASSERT_TRUE(ReadFile(d / "run0.json", &text));
  j = ParseJson(text);
  EXPECT_EQ(j["verdict"]["result"], "regression");
  EXPECT_EQ(j["verdict"]["thresholds"]["e2e_pct"], 10.0);
  EXPECT_EQ(j["verdict"]["checks"][0]["delta_ns"], 100000);
  EXPECT_EQ(j["verdict"]["basis"], "whole_capture");
  ExpectDeltasSumToE2e(j);
  // Without --whole-capture, step-less captures are never gated: incomparable, naming why.
  r = RunCli({"compare", "-bp", d / "fast.json", "-d", d / "slow.json", "--no-xlsx", "--gate-e2e", "10"});
  EXPECT_EQ(r.rc, 4) << r.out;
  EXPECT_NE(r.out.find("neither side has ProfilerStep markers"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--whole-capture"), std::string::npos) << r.out;
}

TEST(CompareCli, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before}).rc, 2);  // -d missing
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-such-flag"}).rc, 2);
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--max_kernel_num", "3"}).rc, 2);
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--format", "yaml"}).rc, 2);
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--gate-e2e", "-5"}).rc, 2);
}

TEST(CompareCli, InputErrorsExitThreeAndNameTheFile) {
  TempDir d;
  WriteText(d / "broken.json", "{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
  Result r = RunCli({"compare", "-bp", d / "broken.json", "-d", kH100After, "--no-xlsx", "-q"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("broken.json"), std::string::npos) << r.err;
  r = RunCli({"compare", "-bp", d / "missing.json", "-d", kH100After, "--no-xlsx", "-q"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  // Both inputs are loaded concurrently, but the base's error is the one reported (reference order).
  WriteText(d / "broken2.json", "{\"traceEvents\": [ {\"ph\": ");
  r = RunCli({"compare", "-bp", d / "broken2.json", "-d", d / "broken.json", "--no-xlsx", "-q"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("broken2.json"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("broken.json"), std::string::npos) << r.err;
  // An input error with a gate is still an input error, not a verdict.
  r = RunCli({"compare", "-bp", d / "missing.json", "-d", kH100After, "--no-xlsx", "--gate-e2e", "5"});
  EXPECT_EQ(r.rc, 3);
}

TEST(CompareCli, ConfigFileOverridesKernelMasks) {
  TempDir d;
  WriteText(d / "t.json", KinetoTrace(100, "my_special_kernel"));
  auto cube_count = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> a = {"compare", "-bp", d / "t.json", "-d", d / "t.json", "--no-xlsx", "-q",
                                  "--format", "json"};
    a.insert(a.end(), extra.begin(), extra.end());
    Result r = RunCli(a);
    EXPECT_EQ(r.rc, 0) << r.err;
    json j = ParseJson(r.out);
    for (const auto& c : j["sides"]["base"]["computing_split"])
      if (c["category"] == "cube") return c["count"].get<int64_t>();
    return int64_t{-1};
  };
  EXPECT_EQ(cube_count({}), 0);  // the shipped CUBE_MASK does not match "my_special_kernel"
  WriteText(d / "masks.ini",
            "# like compare_config.ini\n[OP_MASK]\nFA_MASK = flash_attention\nCONV_MASK = aten::conv\n"
            "MATMUL_MASK = aten::mm\nCUBE_MASK = gemm, My_Special\nTRANS_MASK = cast\nMC2_KERNEL = \n");
  EXPECT_EQ(cube_count({"--config", d / "masks.ini"}), 1);
  // A missing file or section is an input error naming the file.
  Result r = RunCli({"compare", "-bp", d / "t.json", "-d", d / "t.json", "--no-xlsx", "--config", d / "none.ini"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("none.ini"), std::string::npos) << r.err;
  WriteText(d / "bad.ini", "[OTHER]\nFA_MASK = x\n");
  r = RunCli({"compare", "-bp", d / "t.json", "-d", d / "t.json", "--no-xlsx", "--config", d / "bad.ini"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("bad.ini: missing required section [OP_MASK]"), std::string::npos) << r.err;
}

// docs/deviations.md: the reference refuses symlinked inputs; profdiff reads them.
TEST(CompareCli, SymlinkedInputsAreAccepted) {
  TempDir d;
  ASSERT_EQ(symlink(kH100Before.c_str(), (d / "base.json").c_str()), 0);
  ASSERT_EQ(symlink((kData + "/ascend_trace_view").c_str(), (d / "npu_dir_link").c_str()), 0);
  Result r = RunCli({"compare", "-bp", d / "base.json", "-d", d / "npu_dir_link/trace_view.json", "--no-xlsx", "-q"});
  EXPECT_EQ(r.rc, 0) << r.err;
}

// docs/deviations.md: with no comparison data at all the workbook gets an explanatory sheet, not an
// empty "Sheet1"; the exit status stays 0 without a gate.
TEST(CompareCli, EmptyComparisonWritesAnExplanatorySheet) {
  TempDir d;
  WriteText(d / "cpu_only.json", kCpuOnlyTrace);
  Result r = RunCli({"compare", "-bp", d / "cpu_only.json", "-d", d / "cpu_only.json", "-o", d / "x.xlsx",
                    "--enable_profiling_compare"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(Exists(d / "x.xlsx"));
  EXPECT_NE(r.err.find("no OverallMetrics sheet"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: base has no end-to-end time"), std::string::npos) << r.err;
  std::string listing;
  if (report::testing::RunCommand("unzip -l '" + (d / "x.xlsx") + "' 2>/dev/null", &listing) == 0) {
    std::string wb;
    report::testing::RunCommand("unzip -p '" + (d / "x.xlsx") + "' xl/workbook.xml", &wb);
    EXPECT_NE(wb.find("name=\"NoComparisonData\""), std::string::npos) << wb;
    EXPECT_EQ(wb.find("Sheet1"), std::string::npos) << wb;
    std::string strings;
    report::testing::RunCommand("unzip -p '" + (d / "x.xlsx") + "' xl/worksheets/sheet1.xml", &strings);
    EXPECT_NE(strings.find("needs an end-to-end time on both sides"), std::string::npos) << strings;
  }
}

// docs/deviations.md, "API comparison" item 3: Ascend directories without torch ops give no ApiCompare
// rows; the warnings, the JSON section and the explanatory sheet say why.
TEST(CompareCli, ApiWithoutTorchOpsSaysWhy) {
  TempDir d;
  const std::string npu = PROFDIFF_SOURCE_DIR "/tests/golden/compare/npu_kernel_compare/inputs/base";
  Result r = RunCli({"compare", "-bp", npu, "-d", npu, "-o", d / "x.xlsx", "--json", d / "r.json",
                     "--enable_api_compare"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("warning: base: can't find any torch op in " + npu + "; the API comparison has no rows"),
            std::string::npos)
      << r.err;
  std::string text;
  ASSERT_TRUE(ReadFile(d / "r.json", &text));
  const json result = json::parse(text);
  EXPECT_TRUE(result["api"]["rows"].empty());
  EXPECT_EQ(result["api"]["base"]["ops"], 0);
  EXPECT_EQ(result["api"]["warnings"].size(), 2u);
  std::string listing;
  if (report::testing::RunCommand("unzip -l '" + (d / "x.xlsx") + "' 2>/dev/null", &listing) == 0) {
    std::string strings;
    report::testing::RunCommand("unzip -p '" + (d / "x.xlsx") + "' xl/worksheets/sheet1.xml", &strings);
    EXPECT_NE(strings.find("the API comparison needs torch ops on both sides"), std::string::npos) << strings;
  }
}

// docs/deviations.md: the reference exits 0 after logging an error; profdiff never does.
TEST(CompareCli, NeverExitsZeroOnFailure) {
  TempDir d;
  WriteText(d / "empty_obj.json", "{}");
  EXPECT_NE(RunCli({"compare", "-bp", d / "empty_obj.json", "-d", kH100After, "--no-xlsx", "-q"}).rc, 0);
  EXPECT_NE(RunCli({"compare", "-bp", d / "x.txt", "-d", kH100After, "--no-xlsx", "-q"}).rc, 0);
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--op_name_map", "[1]"}).rc, 2);
}

TEST(CompareCli, ReferenceLineInTheJsonResult) {
  const std::pair<std::vector<std::string>, json> cases[] = {
      {{}, nullptr}, {{"--reference-compat"}, "26.1"}, {{"--reference-compat=8.2"}, "8.2"}};
  for (const auto& [extra, line] : cases) {
    std::vector<std::string> args = {"compare", "-bp", kH100Before, "-d", kH100After, "--format", "json",
                                     "--no-xlsx", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    Result r = RunCli(args);
    ASSERT_EQ(r.rc, 0) << r.err;
    json j = ParseJson(r.out);
    EXPECT_EQ(j["mode"], extra.empty() ? "exact" : "reference-compat");
    EXPECT_EQ(j["reference_line"], line);
  }
}

TEST(CompareCli, UnknownReferenceLineIsAUsageError) {
  Result r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "--reference-compat=9.0"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("valid lines: 26.1"), std::string::npos) << r.err;
}

TEST(CompareCli, EveryComparisonFlagRunsAndNothingIsNotedAsMissing) {
  for (const char* flag : {"--enable_profiling_compare", "--enable_operator_compare", "--enable_memory_compare",
                           "--enable_communication_compare", "--enable_api_compare", "--enable_kernel_compare"}) {
    const Result r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", flag});
    EXPECT_EQ(r.rc, 0) << flag << r.err;
    EXPECT_EQ(r.err.find("not available"), std::string::npos) << r.err;
  }
  const Result all = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx"});
  EXPECT_EQ(all.rc, 0);
  EXPECT_EQ(all.err.find("not available"), std::string::npos) << all.err;
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "-q"}).err, "");
}

TEST(CompareCli, StepIdsAndExistingOutputsExitCodes) {
  TempDir d;
  Result r = RunCli({"compare", "-bp", kTraceView, "-d", kTraceView, "--no-xlsx", "--base_step", "3",
                     "--comparison_step", "1"});
  EXPECT_EQ(r.rc, 3);  // input error: the step is not in the data
  EXPECT_NE(r.err.find("Invalid step id: 3, please choose from the valid steps: 1"), std::string::npos) << r.err;
  r = RunCli({"compare", "-bp", kTraceView, "-d", kTraceView, "--json", d / "r.json", "--no-xlsx", "-q",
              "--base_step", "1", "--comparison_step", "1"});
  EXPECT_EQ(r.rc, 0) << r.err;
  r = RunCli({"compare", "-bp", kTraceView, "-d", kTraceView, "--json", d / "r.json", "--no-xlsx", "-q"});
  EXPECT_EQ(r.rc, 2);  // the output exists and no --force
  EXPECT_NE(r.err.find("already exists"), std::string::npos) << r.err;
  EXPECT_EQ(RunCli({"compare", "-bp", "", "-d", kTraceView, "--no-xlsx", "-q"}).rc, 3);  // empty input path
  // A GPU trace without ProfilerStep markers cannot be restricted to a step (the default mode); the
  // reference's mode only warns.
  r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "--base_step", "1", "--comparison_step",
              "1"});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("Invalid step id: 1: the base GPU trace has no ProfilerStep markers"), std::string::npos)
      << r.err;
  r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "--reference-compat", "--base_step", "1",
              "--comparison_step", "1"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("step id is invalid in GPU data"), std::string::npos) << r.err;
}

TEST(CompareCli, HelpDocumentsExitCodesAndAddedFlags) {
  Result r = RunCli({"compare", "--help"});
  EXPECT_EQ(r.rc, 0);
  for (const char* s : {"--json", "--format", "--no-xlsx", "--csv", "--gate-e2e", "--noise-floor-ms", "--config",
                        "--reference-compat [=LINE]", "26.1 (the default", "8.2 (the 2025 line",
                        "1  a --gate-* found a regression", "4  incomparable"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  }
  EXPECT_NE(r.out.find("Examples:\n  profdiff compare -bp before.pt.trace.json -d after.pt.trace.json\n"),
            std::string::npos)
      << r.out;
}

// inspect never gates: its help lists its own exit codes, not the gate's, and shows examples.
TEST(CompareCli, InspectHelpHasItsExitCodesAndExamples) {
  Result r = RunCli({"inspect", "--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("Examples:\n  profdiff inspect run/rank0_ascend_pt\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3  input error"), std::string::npos) << r.out;
  for (const char* gate : {"--gate", "regression", "4  incomparable"})
    EXPECT_EQ(r.out.find(gate), std::string::npos) << gate << " in\n" << r.out;
}

// --format json without -o leaves no workbook in the current directory (issue 34: three runs left
// three .xlsx files); with -o it writes one there.
TEST(CompareCli, FormatJsonWritesNoUnrequestedWorkbook) {
  TempDir d;
  const std::filesystem::path dir = d.path();
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  Result r = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--format", "json", "-q"});
  const bool empty = std::filesystem::is_empty(dir);
  Result with_o = RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--format", "json", "-q", "-o",
                          (dir / "wb.xlsx").string()});
  std::filesystem::current_path(previous);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(ParseJson(r.out)["schema"], "profdiff.compare/1");
  EXPECT_TRUE(empty) << "a file was written into the current directory";
  EXPECT_EQ(with_o.rc, 0) << with_o.err;
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "wb.xlsx"));
}

}  // namespace
}  // namespace profdiff::cli
