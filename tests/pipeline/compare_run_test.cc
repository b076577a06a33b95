// RunComparison (pipeline/compare_run.h) in-process: what it returns and the code of every failure,
// which the CLI maps to the exit code (usage: kInvalidArgument / kAlreadyExists; input: the others).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "profdiff/pipeline/compare_run.h"
#include "profdiff/pipeline/comparisons.h"

namespace profdiff::pipeline {
namespace {

using report::testing::Exists;
using report::testing::ReadFile;
using report::testing::TempDir;

const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
const std::string kH100Before = kData + "/kineto_h100_tiny/before_fix_trace.json";
const std::string kH100After = kData + "/kineto_h100_tiny/after_fix_trace.json";
const std::string kTraceView = kData + "/ascend_trace_view/trace_view.json";

class Recorder : public RunMessages {
 public:
  void Warning(std::string_view text) override { warnings.emplace_back(text); }
  void Note(std::string_view text) override { notes.emplace_back(text); }
  std::vector<std::string> warnings, notes;
};

CompareRequest Request(const std::string& base, const std::string& comparison) {
  CompareRequest r;
  r.base_path = base;
  r.comparison_path = comparison;
  r.enabled = EnabledComparisons{.profiling = true, .operators = true};
  r.no_xlsx = true;
  return r;
}

TEST(RunComparison, ReturnsTheOverallTheGateAndTheJsonWithTheReferenceLine) {
  Recorder messages;
  CompareRequest r = Request(kH100Before, kH100After);
  r.format = OutputFormat::kJson;
  r.reference_line = analysis::ReferenceLine::k8_2;
  auto run = RunComparison(r, messages);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_FALSE(run->overall.rows.empty());
  EXPECT_FALSE(run->gate.ran);
  EXPECT_TRUE(run->written.empty());  // --no-xlsx, no --csv
  EXPECT_NE(run->json_text.find("\"mode\": \"reference-compat\",\n  \"reference_line\": \"8.2\""),
            std::string::npos);
  EXPECT_NE(run->json_text.find("\"operators\": {"), std::string::npos);

  r.reference_line.reset();
  r.enabled.operators = false;
  run = RunComparison(r, messages);
  ASSERT_TRUE(run.ok());
  EXPECT_NE(run->json_text.find("\"mode\": \"exact\",\n  \"reference_line\": null"), std::string::npos);
  EXPECT_NE(run->json_text.find("\"operators\": null"), std::string::npos);
}

TEST(RunComparison, EveryComparisonRunsAndNothingIsNotedAsMissing) {
  Recorder messages;
  CompareRequest r = Request(kH100Before, kH100After);
  r.requested.memory = r.enabled.memory = true;
  r.requested.api = r.enabled.api = true;
  ASSERT_TRUE(RunComparison(r, messages).ok());
  r = Request(kH100Before, kH100After);
  r.enabled = AllComparisons();  // no --enable_* flag: all of them
  ASSERT_TRUE(RunComparison(r, messages).ok());
  for (const std::string& n : messages.notes) EXPECT_EQ(n.find("not available"), std::string::npos) << n;
}

TEST(RunComparison, InputFailuresAreNeverUsageErrors) {
  Recorder messages;
  auto run = RunComparison(Request("", kH100After), messages);  // the loader says kInvalidArgument
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  run = RunComparison(Request(kData + "/missing.json", kH100After), messages);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);

  // An NPU step id that is not in the data lists the valid ones.
  CompareRequest r = Request(kTraceView, kTraceView);
  r.base_step = 2;
  r.comparison_step = 1;
  run = RunComparison(r, messages);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(run.status().message(), "Invalid step id: 2, please choose from the valid steps: 1");
  r.base_step = 1;
  EXPECT_TRUE(RunComparison(r, messages).ok());

  // On a GPU side the default mode needs the step's ProfilerStep marker (these traces have none) ...
  r = Request(kH100Before, kH100After);
  r.base_step = r.comparison_step = 7;
  run = RunComparison(r, messages);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(run.status().message(), "Invalid step id: 7: the base GPU trace has no ProfilerStep markers");
  // ... and in the reference's mode a step id is only a warning (shown even with --quiet).
  messages.warnings.clear();
  r.reference_line = analysis::ReferenceLine::k26_1;
  ASSERT_TRUE(RunComparison(r, messages).ok());
  ASSERT_EQ(messages.warnings.size(), 2u);
  EXPECT_EQ(messages.warnings[0].find("step id is invalid in GPU data"), 0u);
}

TEST(RunComparison, OutputsAreCheckedBeforeLoadingAndAnExistingOneIsAlreadyExists) {
  TempDir d;
  Recorder messages;
  CompareRequest r = Request(kH100Before, kH100After);
  r.json_path = d / "r.json";
  ASSERT_TRUE(RunComparison(r, messages).ok());
  std::string text;
  ASSERT_TRUE(ReadFile(d / "r.json", &text));
  EXPECT_NE(text.find(d / "r.json"), std::string::npos);  // "outputs" names it

  auto run = RunComparison(r, messages);  // exists, no --force
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kAlreadyExists);
  // The outputs are checked before loading: a broken input (that resolves) is not reached.
  {
    std::ofstream broken(d / "broken.json");
    broken << "{\"traceEvents\": [ {\"ph\": ";
  }
  r.comparison_path = d / "broken.json";
  run = RunComparison(r, messages);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kAlreadyExists);
  r.force = true;
  run = RunComparison(r, messages);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kParseError);
  r.comparison_path = kH100After;
  r.force = true;
  EXPECT_TRUE(RunComparison(r, messages).ok());
  r.force = false;
  r.no_xlsx = false;
  r.output_path = d / "book.txt";
  run = RunComparison(r, messages);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(Exists(d / "book.txt"));
}

}  // namespace
}  // namespace profdiff::pipeline

namespace profdiff::pipeline {
namespace {

class ProgressRecorder : public RunMessages {
 public:
  void Warning(std::string_view) override {}
  void Note(std::string_view) override {}
  void LoadProgress(uint64_t read, uint64_t total, uint64_t inflated) override {
    calls.emplace_back(read, total);
    last_inflated = inflated;
  }
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  uint64_t last_inflated = 0;
};

// While two ~115 MB traces load (a few hundred ms), the run reports the bytes read of the two files'
// total size, ten times a second, never more than the total and never going back.
TEST(RunComparison, ReportsTheBytesReadWhileLoading) {
  TempDir d;
  const std::string path = d / "big.pt.trace.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << "{\"schemaVersion\": 1, \"traceEvents\": [\n";
    for (int i = 0; i < 1000000; ++i) {
      out << (i ? ",\n" : "") << "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, "
          << "\"tid\": 1, \"ts\": " << 1000 + 2 * i << ", \"dur\": 1, \"args\": {\"External id\": " << i << "}}";
    }
    out << "\n]}\n";
  }
  const auto size = static_cast<uint64_t>(std::filesystem::file_size(path));
  ASSERT_GT(size, 100u << 20);
  ProgressRecorder messages;
  CompareRequest r = Request(path, path);
  r.enabled = EnabledComparisons{.profiling = true};
  ASSERT_TRUE(RunComparison(r, messages).ok());
  ASSERT_FALSE(messages.calls.empty()) << "no progress while loading 2 x " << size << " bytes";
  uint64_t last = 0;
  for (const auto& [read, total] : messages.calls) {
    EXPECT_EQ(total, 2 * size);
    EXPECT_LE(read, total);
    EXPECT_GE(read, last);
    last = read;
  }
  EXPECT_EQ(messages.last_inflated, 0u);  // a plain file: nothing inflated
}

}  // namespace
}  // namespace profdiff::pipeline
