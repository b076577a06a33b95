// A malformed or missing side file of an Ascend profile (kernel_details.csv, communication.json,
// memory_record.csv, ...) through `profdiff compare`: a warning names the file and the line or byte,
// every comparison still runs, the run still succeeds, and a comparison left empty says why in its
// JSON section.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

// A small Ascend text profile with kernel_details.csv (the kernel golden's base).
const std::string kProfile = PROFDIFF_SOURCE_DIR "/tests/golden/compare/npu_kernel_compare/inputs/base";

using testing::Result;
using testing::RunCli;

// A copy of the profile with `file` (under ASCEND_PROFILER_OUTPUT) replaced by `bytes`, or removed
// when `bytes` is null.
std::string BrokenCopy(const TempDir& d, const std::string& file, const char* bytes) {
  const fs::path dir = fs::path(d.path()) / "broken";
  fs::copy(kProfile, dir, fs::copy_options::recursive);
  const fs::path target = dir / "ASCEND_PROFILER_OUTPUT" / file;
  if (bytes == nullptr) {
    fs::remove(target);
  } else {
    std::ofstream(target, std::ios::binary) << bytes;
  }
  return dir.string();
}

struct Case {
  std::string file;
  const char* bytes;          // nullptr: the file is missing
  std::string stderr_expect;  // a warning naming the file and where
  std::string kernels_why;    // a part of the kernel section's warning ("" = not checked)
};

TEST(BadSideFilesCli, WarnNameTheFileAndTheOtherComparisonsRun) {
  const std::vector<Case> cases = {
      {"kernel_details.csv", "Name,Duration(us)\nx,1\n",
       "comparison: kernel_details.csv could not be read and is left out of the comparisons: parse error: ",
       "kernel_details.csv could not be read (parse error: "},
      {"kernel_details.csv", "", "kernel_details.csv:1: empty file", "could not be read"},
      {"kernel_details.csv", nullptr, "", "no kernel_details.csv"},
      {"communication.json", "{\"step1\": {\"collective\": {",
       "comparison: communication.json could not be read and is left out of the comparisons: parse error: ", ""},
      {"memory_record.csv", "5\n", "memory_record.csv:1: required column 'Total Reserved(MB)' not in the header", ""},
      {"operator_memory.csv", "Size(KB)\n1\n", "operator_memory.csv:1: required column 'Name' not in the header", ""},
      // Neither the reference nor profdiff reads api_statistic.csv (the API comparison reads the trace's
      // torch ops): a broken one changes nothing and is not reported.
      {"api_statistic.csv", "\x01garbage,,\n\"unterminated\n", "", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file + (c.bytes ? std::string(" = ") + c.bytes : " missing"));
    TempDir d;
    const std::string broken = BrokenCopy(d, c.file, c.bytes);
    const Result r = RunCli({"compare", "-bp", kProfile, "-d", broken, "--format", "json", "--no-xlsx"});
    ASSERT_EQ(r.rc, 0) << r.err;
    if (!c.stderr_expect.empty()) {
      EXPECT_NE(r.err.find(c.stderr_expect), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(fs::path(broken) / "ASCEND_PROFILER_OUTPUT" / c.file), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(r.err.find("could not be read"), std::string::npos) << r.err;
    }
    const json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    // The other comparisons ran.
    EXPECT_TRUE(j["overall_metrics"].is_object() || j["overall_metrics"].is_array()) << j["overall_metrics"];
    EXPECT_TRUE(j["operators"].is_object()) << j["operators"];
    EXPECT_TRUE(j["communication"].is_object()) << j["communication"];
    EXPECT_TRUE(j["memory"].is_object()) << j["memory"];
    EXPECT_TRUE(j["api"].is_object()) << j["api"];
    const json& kernels = j["kernels"];
    ASSERT_TRUE(kernels.is_object());
    if (!c.kernels_why.empty()) {
      ASSERT_TRUE(kernels["warnings"].is_array()) << kernels;
      EXPECT_NE(kernels["warnings"].dump().find(c.kernels_why), std::string::npos) << kernels["warnings"];
      EXPECT_TRUE(kernels["rows"].empty());
    } else {
      EXPECT_FALSE(kernels["rows"].empty()) << kernels;
    }
  }
}

}  // namespace
}  // namespace profdiff::cli
