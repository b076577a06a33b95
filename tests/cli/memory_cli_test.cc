// A malformed operator_memory.csv through the command line: the loader names the file and line, the
// other comparisons still run, and the memory section says why a side has no records.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "profdiff/cli/app.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using report::testing::ReadFile;
using report::testing::TempDir;
using json = nlohmann::json;

const std::string kInputs = PROFDIFF_SOURCE_DIR "/tests/golden/compare/npu_memory_compare/inputs";

int RunCli(std::vector<std::string> args, std::string& err) {
  args.insert(args.begin(), "profdiff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, errs;
  const int rc = Run(static_cast<int>(argv.size()), argv.data(), out, errs);
  err = errs.str();
  return rc;
}

// Copies the npu_memory_compare inputs into `dir` and replaces the base's operator_memory.csv.
void StageInputs(const TempDir& dir, const std::string& base_memory_csv) {
  fs::copy(kInputs, dir.path() + "/inputs", fs::copy_options::recursive);
  std::ofstream(dir / "inputs/base/ASCEND_PROFILER_OUTPUT/operator_memory.csv", std::ios::binary)
      << base_memory_csv;
}

json CompareJson(const TempDir& dir, std::string& err, int& rc) {
  rc = RunCli({"compare", "-bp", dir / "inputs/base", "-d", dir / "inputs/comparison", "--no-xlsx",
               "--enable_operator_compare", "--enable_memory_compare", "--json", dir / "result.json"},
              err);
  std::string text;
  EXPECT_TRUE(ReadFile(dir / "result.json", &text));
  return json::parse(text);
}

const json* FindDiagnostic(const json& side, const std::string& id) {
  for (const json& d : side)
    if (d["id"] == id) return &d;
  return nullptr;
}

TEST(MemoryCli, MalformedOperatorMemoryRowIsNamedAndSkipped) {
  TempDir d;
  StageInputs(d, "Name,Size(KB),Allocation Time(us),Release Time(us)\n"
                 "aten::addmm,256.0,1700000000000030.000,1700000000000150.000\n"
                 "aten::relu,16.0\n"  // line 3: two fields of four
                 "aten::empty,8.0,1700000000000305.000,1700000000000306.500\n");
  std::string err;
  int rc = 0;
  const json j = CompareJson(d, err, rc);
  EXPECT_EQ(rc, 0) << err;
  const json* diag = FindDiagnostic(j["diagnostics"]["base"], "csv_row_width");
  ASSERT_NE(diag, nullptr) << j["diagnostics"].dump();
  EXPECT_NE((*diag)["examples"][0]["where"].get<std::string>().find("operator_memory.csv:3"), std::string::npos)
      << diag->dump();
  EXPECT_FALSE(j["operators"].is_null());  // the other comparison ran
  const json& m = j["memory"];
  EXPECT_EQ(m["base"]["records"], 2);  // the good rows are kept
  EXPECT_EQ(m["comparison"]["records"], 4);
}

TEST(MemoryCli, UnreadableOperatorMemoryLeavesTheSideEmptyAndSaysWhy) {
  TempDir d;
  StageInputs(d, "Size(KB),Allocation Time(us)\n256.0,1700000000000030.000\n");  // no Name column
  std::string err;
  int rc = 0;
  const json j = CompareJson(d, err, rc);
  EXPECT_EQ(rc, 0) << err;
  const json* diag = FindDiagnostic(j["diagnostics"]["base"], "side_file_unreadable");
  ASSERT_NE(diag, nullptr) << j["diagnostics"].dump();
  EXPECT_NE(diag->dump().find("operator_memory.csv"), std::string::npos) << diag->dump();
  EXPECT_FALSE(j["operators"].is_null());
  const json& m = j["memory"];
  EXPECT_FALSE(m["base"]["has_data"].get<bool>());
  ASSERT_EQ(m["warnings"].size(), 1u);
  EXPECT_NE(m["warnings"][0].get<std::string>().find("operator_memory.csv is missing or unreadable"),
            std::string::npos);
  EXPECT_NE(err.find("operator_memory.csv is missing or unreadable"), std::string::npos) << err;
}

}  // namespace
}  // namespace profdiff::cli
