// Outputs of `profdiff compare` (docs/deviations.md, rule 9): runs started in the same second in one
// directory each get their own workbook; outputs are checked before any work; a run that fails
// leaves none of its outputs behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../report/report_test_util.h"
#include "cli_test_data.h"
#include "profdiff/cli/app.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using report::testing::TempDir;

using profdiff::testing::kAfter;
using profdiff::testing::kBefore;
using profdiff::testing::kTraceView;

int RunCli(std::vector<std::string> args, std::string* err = nullptr) {
  args.insert(args.begin(), "profdiff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, e;
  const int rc = Run(static_cast<int>(argv.size()), argv.data(), out, e);
  if (err != nullptr) *err = e.str();
  return rc;
}

std::set<std::string> Files(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST(OutputsCli, SameSecondRunsNeverCollide) {
  TempDir d;
  // Three runs at once (threads: the same second, racing for one default name), then two more.
  std::vector<std::thread> runs;
  std::vector<int> rcs(3, -1);
  for (int i = 0; i < 3; ++i)
    runs.emplace_back([&, i] { rcs[i] = RunCli({"compare", "-bp", kBefore, "-d", kAfter, "-o", d.path(), "-q"}); });
  for (auto& t : runs) t.join();
  for (int rc : rcs) EXPECT_EQ(rc, 0);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(RunCli({"compare", "-bp", kBefore, "-d", kAfter, "-o", d.path(), "-q"}), 0);
  const std::set<std::string> files = Files(d.path());
  EXPECT_EQ(files.size(), 5u);
  for (const std::string& f : files) {
    EXPECT_TRUE(f.starts_with("performance_comparison_result_") && f.ends_with(".xlsx")) << f;
    EXPECT_GT(fs::file_size(fs::path(d.path()) / f), 1000u) << f;  // a real workbook, not a placeholder
  }
}

TEST(OutputsCli, AFailingRunLeavesNoOutputBehind) {
  TempDir d;
  const std::string out = d.path() + "/out";
  fs::create_directories(out);
  std::string err;
  // An input error after the outputs were checked (the step is not in the data): no reserved workbook left.
  EXPECT_EQ(RunCli({"compare", "-bp", kTraceView, "-d", kTraceView, "-o", out, "--base_step", "3",
                    "--comparison_step", "1"},
                   &err),
            3);
  EXPECT_TRUE(Files(out).empty()) << err;
  // A JSON path whose directory is a file: refused before any work, nothing written.
  EXPECT_NE(RunCli({"compare", "-bp", kBefore, "-d", kAfter, "-o", out, "--csv", out + "/csv", "--json",
                    kBefore + "/r.json"},
                   &err),
            0);
  EXPECT_TRUE(Files(out).empty() || Files(out) == std::set<std::string>{"csv"}) << err;
  if (fs::exists(out + "/csv")) {
    EXPECT_TRUE(Files(out + "/csv").empty());
  }
  // A JSON file that cannot be created where the directory looks writable (/proc as root): the
  // workbook and CSV files written before it are removed again.
  if (fs::is_directory("/proc/self")) {
    const int rc = RunCli({"compare", "-bp", kBefore, "-d", kAfter, "-o", out, "--csv", out + "/csv2", "--json",
                           "/proc/self/profdiff_result.json"},
                          &err);
    EXPECT_EQ(rc, 3) << err;
    EXPECT_NE(err.find("/proc/self/profdiff_result.json"), std::string::npos) << err;
    for (const std::string& f : Files(out)) EXPECT_FALSE(f.ends_with(".xlsx")) << f;
    if (fs::exists(out + "/csv2")) {
      EXPECT_TRUE(Files(out + "/csv2").empty());
    }
  }
}

}  // namespace
}  // namespace profdiff::cli
