// `profdiff compare` on corpus pairs (../shared/corpus; skipped without it).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "profdiff/cli/app.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using report::testing::TempDir;

const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";

struct Result {
  int rc = -1;
  std::string out;
  std::string err;
};

Result RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), "profdiff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  Result r;
  r.rc = Run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

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

}  // namespace
}  // namespace profdiff::cli
