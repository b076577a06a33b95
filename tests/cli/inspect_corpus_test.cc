// `profdiff inspect` on every case of the shared corpus (../shared/corpus), through the real binary.
//
// What is expected of each path (docs/architecture.md "Input resolution"):
//  * every trace file (*.json, *.json.gz: Kineto objects, bare-array Kineto, Ascend trace_view.json,
//    raw msprof timeline/*.json) loads, exit 0;
//  * every *_ascend_pt directory, directory holding ASCEND_PROFILER_OUTPUT, and ASCEND_PROFILER_OUTPUT
//    directory loads, exit 0; one holding a DB export (msinsight_pt_db_*) loads the DB (format
//    ascend-db, path level db: the DB wins over text as in the reference), and so does the .db itself;
//  * every Ascend side file profdiff reads (kernel_details.csv, op_statistic.csv, operator_memory.csv,
//    memory_record.csv, step_trace_time.csv, communication.json, profiler_info_*.json,
//    profiler_metadata.json) loads on its own (inspect only), and so does a directory holding side
//    files but no trace (trimmed exports, a folder with only kernel_details.csv);
//  * everything else (derived cluster-analysis output, communication_matrix.json, CSVs profdiff does not
//    read, analysis.db, msprof info files, raw PROF_* directories, folders of unrelated files) is
//    refused with a non-zero exit and an error naming the path.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_profdiff.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;
using profdiff::testing::CliResult;
using profdiff::testing::RunProfdiff;

const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";

#define SKIP_WITHOUT_CORPUS()                                                                  \
  do {                                                                                         \
    if (!fs::is_directory(kCorpus)) GTEST_SKIP() << "shared corpus not found at " << kCorpus; \
  } while (0)

enum class Expect { kLoads, kDbLoads, kRefused };

struct Case {
  std::string path;
  Expect expect;
};

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool StartsWith(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

bool IsSideFileName(const std::string& n) {
  static const std::set<std::string> kNames = {"kernel_details.csv",  "op_statistic.csv",
                                               "operator_memory.csv", "memory_record.csv",
                                               "step_trace_time.csv", "communication.json",
                                               "profiler_metadata.json"};
  if (kNames.count(n) != 0) return true;
  return StartsWith(n, "profiler_info_") && EndsWith(n, ".json");
}

// JSON files in the corpus that are not profiles (derived or auxiliary outputs).
bool IsKnownNonProfileJson(const std::string& n) {
  return n == "cluster_communication.json" || n == "communication_matrix.json";
}

bool HasDbExport(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (EndsWith(n, ".db") && (StartsWith(n, "ascend_pytorch_profiler") || StartsWith(n, "ascend_mindspore_profiler") ||
                               StartsWith(n, "msmonitor")))
      return true;
  }
  return false;
}

bool HasSideFile(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && IsSideFileName(e.path().filename().string()) &&
        !StartsWith(e.path().filename().string(), "profiler_info"))
      return true;
  return false;
}

Expect ExpectForDirectory(const fs::path& dir) {
  std::error_code ec;
  const fs::path out = fs::is_directory(dir / "ASCEND_PROFILER_OUTPUT", ec) ? dir / "ASCEND_PROFILER_OUTPUT" : dir;
  if (HasDbExport(out)) return Expect::kDbLoads;
  if (fs::is_regular_file(out / "trace_view.json", ec)) return Expect::kLoads;
  if (HasSideFile(out)) return Expect::kLoads;
  return Expect::kRefused;
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const auto& e : fs::recursive_directory_iterator(kCorpus)) {
    const std::string path = e.path().string();
    const std::string name = e.path().filename().string();
    if (e.is_directory()) {
      cases.push_back({path, ExpectForDirectory(e.path())});
    } else if (e.is_regular_file()) {
      if (EndsWith(name, ".json") || EndsWith(name, ".json.gz")) {
        cases.push_back({path, IsKnownNonProfileJson(name) ? Expect::kRefused : Expect::kLoads});
      } else if (EndsWith(name, ".db")) {
        cases.push_back({path, StartsWith(name, "ascend_pytorch_profiler") ? Expect::kDbLoads : Expect::kRefused});
      } else {
        cases.push_back({path, IsSideFileName(name) ? Expect::kLoads : Expect::kRefused});
      }
    }
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.path < b.path; });
  return cases;
}

bool IsTraceFile(const Case& c) {
  const std::string n = fs::path(c.path).filename().string();
  return (EndsWith(n, ".json") || EndsWith(n, ".json.gz")) && !IsSideFileName(n) && !IsKnownNonProfileJson(n);
}

// Runs `inspect --json PATH` and checks the outcome `c.expect` asks for. Returns the parsed JSON of a
// successful load (null otherwise).
nlohmann::json Check(const Case& c) {
  SCOPED_TRACE(c.path);
  const CliResult r = RunProfdiff({"inspect", "--json", c.path});
  switch (c.expect) {
    case Expect::kLoads: {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(r.err.empty()) << r.err;
      if (r.exit_code != 0) return nullptr;
      nlohmann::json j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
      EXPECT_FALSE(j.is_discarded()) << "inspect --json printed invalid JSON";
      if (j.is_discarded()) return nullptr;
      EXPECT_EQ(j.value("schema", ""), "profdiff.inspect/1");
      EXPECT_EQ(j.value("input_path", ""), c.path);
      EXPECT_NE(j.value("format", "unknown"), "unknown");
      EXPECT_FALSE(j["files"].empty());
      EXPECT_GT(j.value("input_bytes", 0), 0);
      return j;
    }
    case Expect::kDbLoads: {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      if (r.exit_code != 0) return nullptr;
      nlohmann::json j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
      EXPECT_FALSE(j.is_discarded()) << "inspect --json printed invalid JSON";
      if (j.is_discarded()) return nullptr;
      EXPECT_EQ(j.value("format", ""), "ascend-db");
      EXPECT_EQ(j.value("path_level", ""), "db");
      EXPECT_GT(j.value("slice_count", 0), 0);
      EXPECT_TRUE(j["side_tables"]["kernel_details"]["present"].get<bool>());
      EXPECT_GE(j["db"]["tables"].size(), 10u);
      EXPECT_EQ(j["db"]["steps"].size(), 1u);  // STEP_TIME holds step 50 in these exports
      EXPECT_EQ(j["diagnostics"].value("errors", -1), 0);
      return j;
    }
    case Expect::kRefused:
      EXPECT_EQ(r.exit_code, 3) << r.err;
      EXPECT_NE(r.err.find("profdiff: error: "), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(c.path), std::string::npos) << r.err;
      EXPECT_TRUE(r.out.empty()) << r.out;
      return nullptr;
  }
  return nullptr;
}

TEST(InspectCorpus, EveryTraceFileLoads) {
  SKIP_WITHOUT_CORPUS();
  int n = 0;
  for (const Case& c : AllCases()) {
    if (!IsTraceFile(c) || c.expect != Expect::kLoads) continue;
    nlohmann::json j = Check(c);
    ++n;
    if (j.is_null()) continue;
    SCOPED_TRACE(c.path);
    EXPECT_EQ(j["trace_file"], c.path);
    EXPECT_GT(j.value("slice_count", 0), 0) << "no events loaded";
    EXPECT_TRUE(j["time_span"].is_object());
    const std::string format = j.value("format", "");
    const std::string device = j.value("device", "");
    EXPECT_TRUE((format == "kineto-json" && device == "GPU") ||
                (format == "ascend-trace-view" && device == "NPU"))
        << format << " / " << device;
    // Real profiler output, not hand-edited: no malformed records.
    EXPECT_EQ(j["diagnostics"].value("errors", -1), 0) << j["diagnostics"].dump();
  }
  // The corpus has about 60 trace files; far fewer means the walk went wrong.
  EXPECT_GE(n, 50);
}

TEST(InspectCorpus, AscendDirectoriesLoadAndDbOnlyExportsAreRefused) {
  SKIP_WITHOUT_CORPUS();
  int loaded = 0, db_loaded = 0;
  for (const Case& c : AllCases()) {
    if (!fs::is_directory(c.path)) continue;
    const std::string name = fs::path(c.path).filename().string();
    std::error_code ec;
    const bool ascend = name == "ASCEND_PROFILER_OUTPUT" || EndsWith(name, "_ascend_pt") ||
                        fs::is_directory(fs::path(c.path) / "ASCEND_PROFILER_OUTPUT", ec);
    if (!ascend) continue;
    nlohmann::json j = Check(c);
    if (j.is_null()) continue;
    if (c.expect == Expect::kDbLoads) {
      ++db_loaded;
      continue;
    }
    ++loaded;
    SCOPED_TRACE(c.path);
    EXPECT_EQ(j["device"], "NPU");
    const bool has_trace = fs::is_regular_file(fs::path(c.path) / "trace_view.json", ec) ||
                           fs::is_regular_file(fs::path(c.path) / "ASCEND_PROFILER_OUTPUT" / "trace_view.json", ec);
    if (has_trace) {
      EXPECT_EQ(j["path_level"], name == "ASCEND_PROFILER_OUTPUT" ? "ascend_output" : "profiling");
      EXPECT_GT(j.value("slice_count", 0), 0);
      EXPECT_TRUE(j["side_tables"]["kernel_details"]["present"].get<bool>());
    } else {
      // Trimmed export without its trace: inspect shows the side tables.
      EXPECT_EQ(j["format"], "ascend-side-files");
      EXPECT_EQ(j["path_level"], "side_files");
      EXPECT_EQ(j.value("slice_count", -1), 0);
    }
  }
  EXPECT_GE(loaded, 12);   // msinsight_pt_text_* (6 ranks x 2 forms) + gpt3 trimmed
  EXPECT_GE(db_loaded, 12);  // msinsight_pt_db_* (6 ranks x 2 forms)
}

TEST(InspectCorpus, EverySideFileLoadsOnItsOwn) {
  SKIP_WITHOUT_CORPUS();
  int n = 0;
  for (const Case& c : AllCases()) {
    if (!fs::is_regular_file(c.path) || !IsSideFileName(fs::path(c.path).filename().string())) continue;
    nlohmann::json j = Check(c);
    ++n;
    if (j.is_null()) continue;
    SCOPED_TRACE(c.path);
    EXPECT_EQ(j["format"], "ascend-side-files");
    EXPECT_EQ(j["files"], nlohmann::json::array({c.path}));
    const std::string n_ = fs::path(c.path).filename().string();
    const auto& side = j["side_tables"];
    const std::map<std::string, std::string> kTableOf = {
        {"kernel_details.csv", "kernel_details"}, {"op_statistic.csv", "op_statistic"},
        {"operator_memory.csv", "operator_memory"}, {"memory_record.csv", "memory_record"},
        {"step_trace_time.csv", "step_trace_time"}, {"communication.json", "communication"}};
    auto it = kTableOf.find(n_);
    if (it != kTableOf.end()) {
      EXPECT_TRUE(side[it->second]["present"].get<bool>()) << it->second;
    }
  }
  EXPECT_GE(n, 60);
}

TEST(InspectCorpus, OtherPathsAreRefusedNamingThePath) {
  SKIP_WITHOUT_CORPUS();
  int n = 0;
  std::set<std::string> names;
  for (const Case& c : AllCases()) {
    if (c.expect != Expect::kRefused) continue;
    Check(c);
    ++n;
    names.insert(fs::path(c.path).filename().string());
  }
  // The odd cases named in PROVENANCE.md are among them.
  for (const char* expected : {"cluster_communication.json", "cluster_step_trace_time.csv",
                               "communication_matrix.json", "analysis.db", "PROVENANCE.md",
                               "l2_cache.csv", "timeline", "info.json.0"})
    EXPECT_EQ(names.count(expected), 1u) << expected;
  EXPECT_TRUE(std::any_of(names.begin(), names.end(), [](const std::string& s) { return StartsWith(s, "PROF_"); }));
  EXPECT_GE(n, 30);
}

TEST(InspectCorpus, RawMsprofDirectoryGetsAHint) {
  SKIP_WITHOUT_CORPUS();
  const fs::path dir = fs::path(kCorpus) / "mindinsight_msprof_PROF_2dev_timeline";
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_directory()) continue;
    const CliResult r = RunProfdiff({"inspect", e.path().string()});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.err.find("msprof PROF_* directory"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("timeline/*.json"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace profdiff
