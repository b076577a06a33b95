// Golden tests of `profdiff compare`: one test per folder of tests/golden/compare/ (see
// tests/golden/README.md). Each folder holds the compare arguments (`args`, one per line) and what
// profdiff printed and wrote for them: exit_code, stdout.txt (screen table, --color never),
// stderr.txt, result.json (--json) and sheets/<Sheet>.csv (--csv DIR). The command runs in-process
// (cli::Run) in the repository root, with its output files in a temporary directory that is removed
// afterwards. Only inputs inside the repository are used (tests/data and the case folders), never
// ../shared.
//
// Made independent of the checkout, the time and the tool version: input paths are passed relative
// to the repository root (so the outputs are the same in a checkout of any depth; checked by
// CompareGoldenLayout.CasesPassInADeepCheckout), the case folder prints as "<case>", the temporary
// output directory as "<out>", the workbook's timestamp as "<time>" and the tool version as
// "<version>". Numbers are never touched.
//
// Regenerate after an intended change, then review the diff (git diff tests/golden) before committing:
//   PROFDIFF_UPDATE_GOLDEN=1 ctest --test-dir build -L golden
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/cli/app.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

const fs::path kRepo = PROFDIFF_SOURCE_DIR;
const fs::path kCasesDir = kRepo / "tests" / "golden" / "compare";
constexpr const char* kRegenerate = "PROFDIFF_UPDATE_GOLDEN=1 ctest --test-dir build -L golden";

// The per-case files that hold outputs; `sheets/` holds one CSV per sheet.
constexpr const char* kOutputFiles[] = {"exit_code", "stdout.txt", "stderr.txt", "result.json"};
constexpr const char* kSheetsDir = "sheets";

bool UpdateMode() {
  const char* v = std::getenv("PROFDIFF_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

// Case folders, sorted by name (every directory under tests/golden/compare/).
std::vector<std::string> ListCases() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(kCasesDir, ec))
    if (e.is_directory()) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// `args`: one argument per line; blank lines are skipped, a trailing '\r' is dropped.
std::vector<std::string> ReadArgs(const fs::path& file) {
  std::vector<std::string> out;
  std::istringstream in(ReadFile(file));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

bool IsPathOption(std::string_view opt) {
  return opt == "-d" || opt == "--profiling_path" || opt == "-bp" || opt == "--benchmark_profiling_path" ||
         opt == "--config";
}

// Options the harness sets itself; a case must not give them.
bool IsHarnessOption(std::string_view arg) {
  for (std::string_view o : {"--json", "--csv", "-o", "--output_path", "--color"})
    if (arg == o || (arg.size() > o.size() && arg.substr(0, o.size()) == o && arg[o.size()] == '='))
      return true;
  return false;
}

// The case folder relative to the repository root: the runs work in the root and pass inputs relative
// to it, so nothing printed depends on where the checkout lies (a long absolute path would be
// shortened by the summary, and differently in every checkout).
fs::path CaseRelative(const std::string& name) { return fs::path("tests") / "golden" / "compare" / name; }

// An input path of `args`, relative to the repository root `root`: to the case folder when it
// exists there, else as written (relative to the root).
std::string ResolveInput(const fs::path& root, const std::string& case_name, const std::string& value) {
  if (value.empty() || fs::path(value).is_absolute()) return value;
  std::error_code ec;
  if (fs::exists(root / CaseRelative(case_name) / value, ec)) return (CaseRelative(case_name) / value).string();
  return value;
}

// The case's arguments with input paths made relative to the root ("--opt VALUE" and "--opt=VALUE"
// forms); the resolved input paths are also appended to `inputs`.
std::vector<std::string> ResolveArgs(const fs::path& root, const std::string& case_name,
                                     const std::vector<std::string>& args, std::vector<std::string>* inputs) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const size_t eq = a.find('=');
    if (a.rfind("-", 0) == 0 && eq != std::string::npos && IsPathOption(std::string_view(a).substr(0, eq))) {
      inputs->push_back(ResolveInput(root, case_name, a.substr(eq + 1)));
      out.push_back(a.substr(0, eq + 1) + inputs->back());
      continue;
    }
    out.push_back(a);
    if (IsPathOption(a) && i + 1 < args.size()) {
      inputs->push_back(ResolveInput(root, case_name, args[++i]));
      out.push_back(inputs->back());
    }
  }
  return out;
}

// A golden must run in a clean clone: its inputs are files of this repository (never ../shared).
bool InsideRepository(const fs::path& root, const std::string& path) {
  const std::string prefix = root.lexically_normal().string() + "/";
  return (root / path).lexically_normal().string().rfind(prefix, 0) == 0;
}

// "performance_comparison_result_<14 digits>.xlsx" -> "performance_comparison_result_<time>.xlsx".
void NormalizeWorkbookTime(std::string& s) {
  const std::string prefix = "performance_comparison_result_";
  for (size_t at = s.find(prefix); at != std::string::npos; at = s.find(prefix, at + 1)) {
    const size_t digits = at + prefix.size();
    size_t n = 0;
    while (digits + n < s.size() && std::isdigit(static_cast<unsigned char>(s[digits + n]))) ++n;
    if (n == 14) s.replace(digits, n, "<time>");
  }
}

// The JSON result's "tool": {"name": "profdiff", "version": "X"} -> "version": "<version>".
void NormalizeToolVersion(std::string& s) {
  const size_t tool = s.find("\"tool\": {");
  if (tool == std::string::npos) return;
  const std::string key = "\"version\": \"";
  const size_t at = s.find(key, tool);
  if (at == std::string::npos || at > tool + 80) return;
  const size_t begin = at + key.size();
  const size_t end = s.find('"', begin);
  if (end != std::string::npos) s.replace(begin, end - begin, "<version>");
}

std::string Normalize(std::string text, const std::string& case_name, const fs::path& out_dir) {
  ReplaceAll(text, CaseRelative(case_name).string(), "<case>");
  ReplaceAll(text, out_dir.string(), "<out>");
  NormalizeWorkbookTime(text);
  NormalizeToolVersion(text);
  return text;
}

// A temporary directory for one run's output files, removed when the run is done.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() / ("profdiff_golden_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Works in `dir` while alive, then returns to the directory it started in.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const fs::path& dir) : previous_(fs::current_path()) { fs::current_path(dir); }
  ~WorkingDirectory() {
    std::error_code ec;
    fs::current_path(previous_, ec);
  }
  WorkingDirectory(const WorkingDirectory&) = delete;
  WorkingDirectory& operator=(const WorkingDirectory&) = delete;

 private:
  fs::path previous_;
};

// Runs `profdiff compare ARGS --json OUT/result.json --csv OUT/sheets -o OUT/workbook --color never`
// in-process, in the repository root `root` (ARGS with input paths relative to it), and returns
// every output, normalised, by its golden file name.
std::map<std::string, std::string> RunCase(const fs::path& root, const std::string& case_name,
                                           const std::vector<std::string>& resolved, const fs::path& out_dir) {
  std::vector<std::string> full = {"profdiff", "compare"};
  full.insert(full.end(), resolved.begin(), resolved.end());
  const bool no_xlsx = std::find(resolved.begin(), resolved.end(), "--no-xlsx") != resolved.end();
  for (const std::string& a : {std::string("--json"), (out_dir / "result.json").string(), std::string("--csv"),
                               (out_dir / kSheetsDir).string(), std::string("--color"), std::string("never")})
    full.push_back(a);
  if (!no_xlsx) {
    full.push_back("-o");
    full.push_back((out_dir / "workbook").string());
  }
  std::vector<const char*> argv;
  for (const std::string& a : full) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = 0;
  {
    WorkingDirectory in_root(root);
    code = cli::Run(static_cast<int>(argv.size()), argv.data(), out, err);
  }

  std::map<std::string, std::string> files;
  files["exit_code"] = std::to_string(code) + "\n";
  files["stdout.txt"] = Normalize(out.str(), case_name, out_dir);
  files["stderr.txt"] = Normalize(err.str(), case_name, out_dir);
  if (fs::is_regular_file(out_dir / "result.json"))
    files["result.json"] = Normalize(ReadFile(out_dir / "result.json"), case_name, out_dir);
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(out_dir / kSheetsDir, ec))
    files[std::string(kSheetsDir) + "/" + e.path().filename().string()] =
        Normalize(ReadFile(e.path()), case_name, out_dir);
  return files;
}

// Reads the case's `args` under `root`, checks them, runs the case there and returns its outputs.
std::map<std::string, std::string> ProduceCase(const fs::path& root, const std::string& case_name) {
  const fs::path case_dir = root / CaseRelative(case_name);
  EXPECT_TRUE(fs::is_regular_file(case_dir / "args")) << case_dir.string() << " has no `args` file";
  const std::vector<std::string> args = ReadArgs(case_dir / "args");
  for (const std::string& a : args)
    if (IsHarnessOption(a)) {
      ADD_FAILURE() << "`args` must not give " << a << ": the harness sets it";
      return {};
    }
  std::vector<std::string> inputs;
  const std::vector<std::string> resolved = ResolveArgs(root, case_name, args, &inputs);
  for (const std::string& in : inputs)
    if (!InsideRepository(root, in)) {
      ADD_FAILURE() << in << " is outside the repository: a golden must run in a clean clone";
      return {};
    }
  TempDir out(case_name);
  std::map<std::string, std::string> actual = RunCase(root, case_name, resolved, out.path());
  for (const auto& [name, text] : actual) {
    EXPECT_EQ(text.find(root.string()), std::string::npos) << name << ": an absolute path is left";
    EXPECT_EQ(text.find(out.path().string()), std::string::npos) << name << ": a temporary path is left";
  }
  return actual;
}

// The golden files present in a case folder, by name.
std::map<std::string, std::string> ReadGolden(const fs::path& case_dir) {
  std::map<std::string, std::string> files;
  for (const char* name : kOutputFiles)
    if (fs::is_regular_file(case_dir / name)) files[name] = ReadFile(case_dir / name);
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(case_dir / kSheetsDir, ec))
    files[std::string(kSheetsDir) + "/" + e.path().filename().string()] = ReadFile(e.path());
  return files;
}

// Rewrites the case's outputs: every produced file, and no stale one.
void WriteGolden(const fs::path& case_dir, const std::map<std::string, std::string>& files) {
  for (const char* name : kOutputFiles) fs::remove(case_dir / name);
  fs::remove_all(case_dir / kSheetsDir);
  for (const auto& [name, text] : files) {
    const fs::path path = case_dir / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }
  std::cout << "[golden] wrote " << files.size() << " file(s) in " << case_dir.string() << "\n";
}

// First line where `golden` and `actual` differ, for a readable failure.
std::string FirstDifference(const std::string& golden, const std::string& actual) {
  std::istringstream sa(golden), sb(actual);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "identical lines (they differ in the final newline)";
    if (!ga || !gb || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (ga ? la : std::string("<end>")) +
             "\n  actual: " + (gb ? lb : std::string("<end>"));
    }
  }
}

// Each produced file equals the golden file of the case folder, and no golden file is left unproduced.
void ExpectGolden(const std::string& case_name, const std::map<std::string, std::string>& actual) {
  const std::map<std::string, std::string> golden = ReadGolden(kCasesDir / case_name);
  for (const auto& [name, text] : actual) {
    auto it = golden.find(name);
    if (it == golden.end()) {
      ADD_FAILURE() << case_name << "/" << name << " is missing; run " << kRegenerate;
      continue;
    }
    EXPECT_TRUE(it->second == text) << case_name << "/" << name << " differs at "
                                    << FirstDifference(it->second, text) << "\n(if intended: " << kRegenerate
                                    << ", then review the diff)";
  }
  for (const auto& [name, text] : golden)
    if (actual.find(name) == actual.end())
      ADD_FAILURE() << case_name << "/" << name << " is in the golden folder but was not produced; run "
                    << kRegenerate;
}

class CompareGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(CompareGolden, MatchesFiles) {
  const fs::path case_dir = kCasesDir / GetParam();
  EXPECT_TRUE(fs::is_regular_file(case_dir / "README.md"))
      << case_dir.string() << " has no README.md (what the case exercises, which numbers were checked by hand)";
  const std::map<std::string, std::string> actual = ProduceCase(kRepo, GetParam());
  if (HasFatalFailure() || actual.empty()) return;
  if (UpdateMode()) {
    WriteGolden(case_dir, actual);
    return;
  }
  ExpectGolden(GetParam(), actual);
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, CompareGolden, ::testing::ValuesIn(ListCases()), TestName);

// The discovery itself: the folder is found and holds the bundled-data cases (a wrong path would
// otherwise leave the parameterised suite with no test at all).
TEST(CompareGoldenLayout, CaseFoldersAreFound) {
  const std::vector<std::string> cases = ListCases();
  ASSERT_FALSE(cases.empty()) << "no case folder under " << kCasesDir.string();
  for (const char* required : {"h100_pair_default", "h100_pair_compat"})
    EXPECT_NE(std::find(cases.begin(), cases.end(), required), cases.end()) << required << " is missing";
}

// Copies `from` into `to` (directories recursively, symbolic links as links).
void CopyTree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

// A clone deeper than any path the summary prints whole (~/src/github.com/org/... checkouts): the
// cases run from a copy of the repository's test files under a 150-character root give the same
// files as the goldens. (Before the runs used paths relative to the root, the summary shortened the
// long input paths to "…/<part of the root>/tests/...", and 10 cases failed in such a clone.)
TEST(CompareGoldenLayout, CasesPassInADeepCheckout) {
  if (UpdateMode()) GTEST_SKIP() << "not while the goldens are rewritten";
  TempDir top("deep_checkout");
  fs::path root = top.path();
  while (root.string().size() < 150) root /= "a-rather-long-directory-name";
  CopyTree(kRepo / "tests" / "data", root / "tests" / "data");
  CopyTree(kCasesDir, root / "tests" / "golden" / "compare");
  for (const std::string& name : ListCases()) {
    SCOPED_TRACE(name);
    const std::map<std::string, std::string> actual = ProduceCase(root, name);
    if (!actual.empty()) ExpectGolden(name, actual);
  }
}

}  // namespace
}  // namespace profdiff
