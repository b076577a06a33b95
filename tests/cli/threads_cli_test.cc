// `compare --threads N`: the loads, the timelines, the gate and the comparisons, the workbook's rows
// and its parts' deflate all run on N threads, and every output is the same at any N (the workbook
// part by part: its deflate stream may differ, its XML may not).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "../report/zip_parts.h"
#include "run_cli.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using report::testing::ReadFile;
using report::testing::ReadParts;
using report::testing::TempDir;
using testing::RunCli;

const std::string kResNet = PROFDIFF_SOURCE_DIR "/tests/data/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz";
const std::string kH100 = PROFDIFF_SOURCE_DIR "/tests/data/kineto_h100_tiny/before_fix_trace.json";

// Every output of one run, by name relative to `dir`, with `dir` itself replaced by "<out>".
std::map<std::string, std::string> Outputs(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = fs::relative(entry.path(), dir).string();
    if (entry.path().extension() == ".xlsx") {
      for (auto& [part, bytes] : ReadParts(entry.path().string()))
        if (part != "docProps/core.xml") files[name + ":" + part] = bytes;  // core.xml: its creation time
      continue;
    }
    std::string text;
    EXPECT_TRUE(ReadFile(entry.path().string(), &text));
    for (size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at)) text.replace(at, dir.size(), "<out>");
    files[name] = text;
  }
  return files;
}

TEST(ThreadsCli, EveryOutputIsTheSameAtAnyThreadCount) {
  for (const auto& [base, comparison] : {std::pair{kResNet, kResNet}, std::pair{kH100, kResNet}}) {
    std::map<std::string, std::string> first;
    for (const char* threads : {"1", "2", "5"}) {
      SCOPED_TRACE(comparison + " vs " + base + ", --threads " + threads);
      TempDir d;
      const testing::Result r = RunCli({"compare", "-bp", base, "-d", comparison, "-o", d / "w.xlsx", "--json",
                                        d / "r.json", "--csv", d / "csv", "--html", d / "p.html", "--threads",
                                        threads, "-q"});
      ASSERT_EQ(r.rc, 0) << r.err;
      std::map<std::string, std::string> outputs = Outputs(d.path());
      ASSERT_GT(outputs.size(), 10u);
      ASSERT_GT(outputs["w.xlsx:xl/worksheets/sheet3.xml"].size(), 2u << 20);  // rows in chunks, deflated in chunks
      if (first.empty()) {
        first = std::move(outputs);
        continue;
      }
      ASSERT_EQ(outputs.size(), first.size());
      for (const auto& [name, bytes] : first) EXPECT_TRUE(outputs[name] == bytes) << name << " differs";
    }
  }
}

}  // namespace
}  // namespace profdiff::cli
