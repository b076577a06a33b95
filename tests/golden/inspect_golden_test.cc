// Golden tests: `profdiff inspect --json` on the bundled profiles (tests/data) and a few corpus cases
// chosen for their variety (bare-array Kineto, gzip, ROCm, Ascend profiling and output dirs, a raw
// msprof timeline file, a single side file), compared with the checked-in files in
// tests/golden/inspect/. Paths are made independent of the checkout: the data directories print as
// "<data>" and "<corpus>".
//
// Regenerate after an intended change, then review the diff before committing:
//   PROFDIFF_UPDATE_GOLDEN=1 ctest --test-dir build -R Golden
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "profdiff/cli/app.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";
const std::string kGoldenDir = PROFDIFF_SOURCE_DIR "/tests/golden/inspect";

bool UpdateMode() {
  const char* v = std::getenv("PROFDIFF_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `inspect --json PATH` in-process; paths made relative to the data roots.
std::string InspectJson(const std::string& path, int* exit_code) {
  std::ostringstream out, err;
  const std::vector<const char*> argv = {"profdiff", "inspect", "--json", path.c_str()};
  *exit_code = cli::Run(static_cast<int>(argv.size()), argv.data(), out, err);
  std::string text = out.str() + err.str();
  ReplaceAll(text, kCorpus, "<corpus>");
  ReplaceAll(text, kData, "<data>");
  return text;
}

// First line where `a` and `b` differ, for a readable failure.
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "identical";
    if (!ga || !gb || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (ga ? la : std::string("<end>")) +
             "\n  actual: " + (gb ? lb : std::string("<end>"));
    }
  }
}

void CheckGolden(const std::string& name, const std::string& path) {
  int code = -1;
  const std::string actual = InspectJson(path, &code);
  ASSERT_EQ(code, 0) << actual;
  EXPECT_EQ(actual.find(PROFDIFF_SOURCE_DIR), std::string::npos) << "an absolute path is left in the output";
  const std::string golden_path = kGoldenDir + "/" + name + ".json";
  if (UpdateMode()) {
    fs::create_directories(kGoldenDir);
    std::ofstream(golden_path, std::ios::binary) << actual;
    std::cout << "[golden] wrote " << golden_path << "\n";
    return;
  }
  ASSERT_TRUE(fs::is_regular_file(golden_path))
      << golden_path << " is missing; run PROFDIFF_UPDATE_GOLDEN=1 ctest --test-dir build -R Golden";
  const std::string golden = ReadFile(golden_path);
  EXPECT_TRUE(golden == actual) << name << " differs from " << golden_path << " at "
                                << FirstDifference(golden, actual)
                                << "\n(if intended: PROFDIFF_UPDATE_GOLDEN=1 ctest --test-dir build -R Golden)";
}

#define SKIP_WITHOUT_CORPUS()                                                                  \
  do {                                                                                         \
    if (!fs::is_directory(kCorpus)) GTEST_SKIP() << "shared corpus not found at " << kCorpus; \
  } while (0)

// ---- bundled data (always there) -------------------------------------------------------------------

TEST(InspectGolden, BundledKinetoH100Before) {
  CheckGolden("data_kineto_h100_before", kData + "/kineto_h100_tiny/before_fix_trace.json");
}
TEST(InspectGolden, BundledKinetoH100After) {
  CheckGolden("data_kineto_h100_after", kData + "/kineto_h100_tiny/after_fix_trace.json");
}
TEST(InspectGolden, BundledAscendTraceView) {
  CheckGolden("data_ascend_trace_view", kData + "/ascend_trace_view/trace_view.json");
}

// ---- corpus cases -------------------------------------------------------------------------------------

TEST(InspectGolden, CorpusKinetoBareList2020Gz) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_kineto_resnet50_bare_list",
              kCorpus + "/kineto_resnet50_v100_2020_bare_list/resnet50_num_workers_0/worker0.pt.trace.json.gz");
}
TEST(InspectGolden, CorpusRocmMi250Gz) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_hta_amd_mi250", kCorpus + "/hta_amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
}
TEST(InspectGolden, CorpusAscendProfilingDirLevel1) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_ascend_level1_rank0_profiling", kCorpus + "/msinsight_pt_text_2025_level1/rank0_ascend_pt");
}
TEST(InspectGolden, CorpusAscendOutputDirLevel0) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_ascend_level0_rank1_output",
              kCorpus + "/msinsight_pt_text_2025_level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT");
}
TEST(InspectGolden, CorpusMsprofTimelineFile) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_msprof_task_time",
              kCorpus +
                  "/mindinsight_msprof_PROF_2dev_timeline/PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/"
                  "timeline/task_time_0_2_1.json");
}
TEST(InspectGolden, CorpusSingleKernelDetailsCsv) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_kernel_details_2025", kCorpus + "/mstt_advisor_kernel_details_2025/kernel_details.csv");
}
TEST(InspectGolden, CorpusTrimmedExportWithoutTrace) {
  SKIP_WITHOUT_CORPUS();
  CheckGolden("corpus_gpt3_rank0_side_files", kCorpus + "/msinsight_server_gpt3_2rank_trimmed/test_rank_0");
}

}  // namespace
}  // namespace profdiff
