// Issue 32 through the real binary: an output never replaces or lands inside an input, --force
// replaces only a regular file, a failed write to standard output is exit 3, a failed run removes
// what it wrote (its CSVs too), and SIGINT/SIGTERM leave neither temporary files nor a partial set of
// outputs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "../common/ascend_db_fixture.h"
#include "../report/report_test_util.h"
#include "cli_test_data.h"
#include "run_profdiff.h"

namespace profdiff::testing {
namespace {

namespace fs = std::filesystem;
using report::testing::TempDir;

// Every path under `dir` (relative), hidden files included.
std::vector<std::string> Tree(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    names.push_back(it->path().lexically_relative(dir).string());
  std::sort(names.begin(), names.end());
  return names;
}

void ExpectRefused(const CliResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

// --json and --html with --force pointed at an input file (by its name, a hard link or a symbolic
// link) are refused and the input is left as it was: exit 0 and a replaced trace before.
TEST(SafetyCli, AnOutputIsNeverAnInputFile) {
  TempDir d;
  const std::string base = d / "base.json", comparison = d / "comparison.json";
  fs::copy_file(kBefore, base);
  fs::copy_file(kAfter, comparison);
  const std::string base_bytes = ReadAll(base), comparison_bytes = ReadAll(comparison);
  ASSERT_EQ(::link(base.c_str(), (d / "hard.json").c_str()), 0);
  const std::vector<std::string> run = {"compare", "-bp", base, "-d", comparison, "--no-xlsx", "-q", "--force"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = run;
    args.insert(args.end(), extra.begin(), extra.end());
    return RunProfdiff(args);
  };
  ExpectRefused(with({"--json", base}), "is the input " + base);
  ExpectRefused(with({"--html", comparison}), "is the input " + comparison);
  ExpectRefused(with({"--json", d / "hard.json"}), "is the input " + base);
  ExpectRefused(with({"--json", d.path() + "/./base.json"}), "is the input");
  // Without --force too: the message says why, not "use --force".
  ExpectRefused(RunProfdiff({"compare", "-bp", base, "-d", comparison, "--no-xlsx", "--json", base}),
                "an output never replaces an input");
  EXPECT_EQ(ReadAll(base), base_bytes);
  EXPECT_EQ(ReadAll(comparison), comparison_bytes);
  EXPECT_EQ(Tree(d.path()), (std::vector<std::string>{"base.json", "comparison.json", "hard.json"}));
}

// No output lies inside an input profile directory (a DB export's directory included): not the
// workbook (-o), the JSON, the HTML page, the CSV directory, nor a file of it replaced with --force.
TEST(SafetyCli, NoOutputInsideAnInputDirectory) {
  TempDir d;
  const std::string npu = d / "rank0_ascend_pt";
  fs::copy(kAscendDir, npu, fs::copy_options::recursive);
  const std::string db_profile = d / "db_ascend_pt";
  fs::create_directories(db_profile + "/ASCEND_PROFILER_OUTPUT");
  const std::string db = db_profile + "/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
  ASSERT_EQ(WriteDb(db, std::string(kDbSchema) + kDbRows), "");
  const std::vector<std::string> npu_before = Tree(npu), db_before = Tree(db_profile);
  const std::string trace = npu + "/ASCEND_PROFILER_OUTPUT/trace_view.json";
  const std::string trace_bytes = ReadAll(trace), db_bytes = ReadAll(db);
  const std::vector<std::string> run = {"compare", "-bp", npu, "-d", db_profile, "-q", "--force"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = run;
    args.insert(args.end(), extra.begin(), extra.end());
    return RunProfdiff(args);
  };
  ExpectRefused(with({"-o", npu}), "is the input directory " + npu);
  ExpectRefused(with({"-o", npu + "/ASCEND_PROFILER_OUTPUT/new/r.xlsx"}), "lies inside the input directory");
  ExpectRefused(with({"--no-xlsx", "--json", db}), "lies inside the input directory " + db_profile);
  ExpectRefused(with({"--no-xlsx", "--html", trace}), "lies inside the input directory " + npu);
  ExpectRefused(with({"--no-xlsx", "--json", npu + "/r.json"}), "lies inside the input directory");
  ExpectRefused(with({"--no-xlsx", "--csv", npu + "/csv"}), "lies inside the input directory");
  ExpectRefused(with({"--no-xlsx", "--csv", db_profile}), "is the input directory " + db_profile);
  fs::create_symlink(npu + "/ASCEND_PROFILER_OUTPUT", d / "link");
  ExpectRefused(with({"--no-xlsx", "--json", d / "link/r.json"}), "lies inside the input directory");
  EXPECT_EQ(Tree(npu), npu_before);
  EXPECT_EQ(Tree(db_profile), db_before);
  EXPECT_EQ(ReadAll(trace), trace_bytes);
  EXPECT_EQ(ReadAll(db), db_bytes);
  // Beside the inputs is fine.
  const CliResult ok = with({"-o", d / "out", "--json", d / "r.json", "--csv", d / "csv"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// --force replaces a regular file only: a FIFO, a symbolic link (to /dev/null, to a file) stay as
// they were and the run fails naming them (they were replaced by a regular file, exit 0, before).
TEST(SafetyCli, ForceReplacesOnlyARegularFile) {
  TempDir d;
  const std::string fifo = d / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink("/dev/null", d / "null.json");
  std::ofstream(d / "file.json") << "keep";
  fs::create_symlink(d / "file.json", d / "link.html");
  const std::vector<std::string> run = {"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "-q", "--force"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = run;
    args.insert(args.end(), extra.begin(), extra.end());
    return RunProfdiff(args);
  };
  ExpectRefused(with({"--json", fifo}), fifo + ": is a FIFO, not a regular file");
  ExpectRefused(with({"--json", d / "null.json"}), d / "null.json: is a symbolic link");
  ExpectRefused(with({"--html", d / "link.html"}), d / "link.html: is a symbolic link");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_TRUE(fs::is_symlink(d / "null.json"));
  EXPECT_TRUE(fs::is_symlink(d / "link.html"));
  EXPECT_EQ(ReadAll(d / "file.json"), "keep");
  EXPECT_EQ(Tree(d.path()), (std::vector<std::string>{"fifo.json", "file.json", "link.html", "null.json"}));
}

// Standard output that cannot be written is exit 3 with the reason (exit 0 before).
TEST(SafetyCli, AFailedWriteToStandardOutputIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string message = "profdiff: error: cannot write standard output: No space left on device";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "--format", "json", "-q"},
        std::vector<std::string>{"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx"},
        std::vector<std::string>{"inspect", "--json", kBefore}, std::vector<std::string>{"inspect", kAscendDir},
        std::vector<std::string>{"--help"}}) {
    const CliResult r = RunProfdiff(args, "/dev/full");
    EXPECT_EQ(r.exit_code, 3) << args[0] << " " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

// A Kineto trace of `steps` ProfilerStep#N, each of `ops` torch ops launching one kernel (ac2g
// flows), kernels `slower` µs longer on one side: a pair big enough for a run of a second or more.
// `op_prefix` and `process` are JSON string contents (escapes allowed).
void WriteBigTrace(const std::string& path, int steps, int ops, int slower, const std::string& op_prefix = "aten::op_",
                   const std::string& process = "python") {
  std::ofstream out(path);
  out << R"({"schemaVersion":1,"traceEvents":[)"
      << R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":")" << process << R"("}},)"
      << R"({"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"GPU 0"}},)" << "\n";
  int64_t ts = 1000;
  int64_t id = 0;
  for (int s = 0; s < steps; ++s) {
    out << R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" << s << R"(","pid":1,"tid":1,"ts":)" << ts
        << R"(,"dur":)" << int64_t{ops} * 12 + 2 << "},\n";
    for (int o = 0; o < ops; ++o, ++id, ts += 12) {
      const int k = o % 97;
      out << R"({"ph":"X","cat":"cpu_op","name":")" << op_prefix << k << R"(","pid":1,"tid":1,"ts":)" << ts + 1
          << R"(,"dur":10,"args":{"External id":)" << id << "}},\n"
          << R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" << ts + 2
          << R"(,"dur":3,"args":{"correlation":)" << id << "}},\n"
          << R"({"ph":"X","cat":"kernel","name":"kernel_)" << k << R"(","pid":0,"tid":7,"ts":)" << ts + 6
          << R"(,"dur":)" << 4 + slower << R"(,"args":{"correlation":)" << id << R"(,"stream":7,"device":0}},)" << "\n"
          << R"({"ph":"s","cat":"ac2g","name":"ac2g","id":)" << id << R"(,"pid":1,"tid":1,"ts":)" << ts + 2 << "},\n"
          << R"({"ph":"f","cat":"ac2g","name":"ac2g","id":)" << id << R"(,"pid":0,"tid":7,"ts":)" << ts + 6
          << R"(,"bp":"e"},)" << "\n";
    }
    ts += 2;
  }
  out << R"({"ph":"i","name":"end","pid":1,"tid":1,"ts":)" << ts << R"(,"s":"t"}]})" << "\n";
}

// --gate-* and --noise-floor-ms take a finite number >= 0: inf, nan and -1 are usage errors (exit 2);
// inf passed and made the gate incomparable (exit 4) before.
TEST(SafetyCli, GateValuesThatAreNotFiniteNumbersAreUsageErrors) {
  for (const char* option : {"--gate-e2e", "--gate-compute", "--gate-comm", "--gate-free", "--noise-floor-ms"}) {
    for (const char* value : {"inf", "-inf", "nan", "-1", "1e999"}) {
      const CliResult r = RunProfdiff({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "-q", option, value,
                                       "--whole-capture"});
      EXPECT_EQ(r.exit_code, 2) << option << " " << value << ": " << r.err;
    }
  }
}

// Runs profdiff and kills it after `seconds` (a read of a FIFO blocks forever); its exit code.
int RunWithTimeout(const std::vector<std::string>& args, int seconds, const std::string& err_path) {
  const pid_t pid = SpawnProfdiff(args, "/dev/null", err_path);
  for (int i = 0; i < seconds * 10; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(pid, SIGKILL);
  WaitProfdiff(pid);
  return -1;
}

// Only regular files are read: --config on a FIFO (it hung) or a directory ("missing required
// section") is an error saying what it is; a FIFO or a directory where a side file is expected is
// unreadable, not "missing".
TEST(SafetyCli, ReadsOnlyRegularFiles) {
  TempDir d;
  ASSERT_EQ(::mkfifo((d / "fifo.ini").c_str(), 0600), 0);
  fs::create_directories(d / "dir.ini");
  EXPECT_EQ(RunWithTimeout({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "--config", d / "fifo.ini"}, 20,
                           d / "err"),
            3);
  EXPECT_NE(ReadAll(d / "err").find("--config: " + d / "fifo.ini" + ": is a FIFO, not a regular file"),
            std::string::npos)
      << ReadAll(d / "err");
  const CliResult dir = RunProfdiff({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "--config", d / "dir.ini"});
  EXPECT_EQ(dir.exit_code, 3);
  EXPECT_NE(dir.err.find(d / "dir.ini" + ": is a directory, not a regular file"), std::string::npos) << dir.err;

  const std::string npu = d / "rank0_ascend_pt";
  fs::copy(kAscendDir, npu, fs::copy_options::recursive);
  const std::string out = npu + "/ASCEND_PROFILER_OUTPUT";
  fs::remove(out + "/kernel_details.csv");
  ASSERT_EQ(::mkfifo((out + "/kernel_details.csv").c_str(), 0600), 0);
  fs::remove(out + "/op_statistic.csv");
  fs::create_directories(out + "/op_statistic.csv");
  EXPECT_EQ(RunWithTimeout({"inspect", "--json", npu}, 20, d / "err"), 0) << ReadAll(d / "err");
  const CliResult r = RunProfdiff({"inspect", "--json", npu});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string diagnostics = nlohmann::json::parse(r.out)["diagnostics"].dump();
  EXPECT_NE(diagnostics.find("kernel_details.csv: is a FIFO, not a regular file"), std::string::npos) << diagnostics;
  EXPECT_NE(diagnostics.find("op_statistic.csv: is a directory, not a regular file"), std::string::npos) << diagnostics;
}

// A CSV text cell from the trace that a spreadsheet could take for a formula (=, +, -, @, a tab or
// a CR first, as OWASP lists them) gets a leading single quote in the default mode; --reference-compat
// keeps the reference's bytes (docs/deviations.md, Outputs 6).
TEST(SafetyCli, CsvTextIsNeverAFormula) {
  TempDir d;
  const std::vector<std::string> prefixes = {"=1+2", "+cmd", "-x", "@SUM(A1)", "\\t=t", "\\r@r", "\\tplain", "\\rplain"};
  for (const std::string& prefix : prefixes) {
    const std::string dir = d / std::to_string(&prefix - prefixes.data());
    fs::create_directories(dir);
    WriteBigTrace(dir + "/a.json", 1, 3, 0, prefix);
    WriteBigTrace(dir + "/b.json", 1, 3, 2, prefix);
    for (const bool compat : {false, true}) {
      std::vector<std::string> args = {"compare", "-bp", dir + "/a.json", "-d", dir + "/b.json", "--no-xlsx", "-q",
                                       "--csv", dir + (compat ? "/compat" : "/default")};
      if (compat) args.push_back("--reference-compat");
      const CliResult r = RunProfdiff(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string csv = ReadAll(dir + (compat ? "/compat" : "/default") + "/OperatorCompareStatistic.csv");
      std::string bare = prefix + "0";  // the trace's JSON escape \t or \r is the byte in the CSV
      if (bare.rfind("\\t", 0) == 0 || bare.rfind("\\r", 0) == 0) bare = (bare[1] == 't' ? "\t" : "\r") + bare.substr(2);
      const bool quoted = csv.find("'" + bare) != std::string::npos;
      EXPECT_EQ(quoted, !compat) << prefix << (compat ? " compat: " : " default: ") << csv;
      EXPECT_NE(csv.find(bare), std::string::npos) << prefix << ": " << csv;
    }
  }
}

// A 'ts' or 'dur' that is a number too big for int64 ns is out of range (a duration too long), not
// "not a number" as it was; a text that is no number still is.
TEST(SafetyCli, AnOutOfRangeNumberIsNotCalledNotANumber) {
  TempDir d;
  std::ofstream(d / "t.json") << R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":10,"dur":1},
{"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":99999999999999999999999,"dur":1},
{"ph":"X","cat":"cpu_op","name":"c","pid":1,"tid":1,"ts":"1e30","dur":1},
{"ph":"X","cat":"cpu_op","name":"d","pid":1,"tid":1,"ts":"abc","dur":1},
{"ph":"X","cat":"cpu_op","name":"e","pid":1,"tid":1,"ts":20,"dur":1e300}]})";
  const CliResult r = RunProfdiff({"inspect", "--json", d / "t.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, int64_t> counts;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& e : j["diagnostics"]["entries"])
    counts[e["id"].get<std::string>()] = e["count"].get<int64_t>();
  EXPECT_EQ(counts["time_out_of_range"], 2) << r.out;
  EXPECT_EQ(counts["bad_timestamp"], 1) << r.out;
  EXPECT_EQ(counts["duration_too_long"], 1) << r.out;
  EXPECT_EQ(counts.count("bad_duration"), 0u) << r.out;
}

// A repeated JSON key: one rule at the top level and in an event (the first value counts; a stream
// reads the first "traceEvents"), and a diagnostic naming the key. Before, the top level took the
// last "schemaVersion" and an event its last "ts" and "name", silently.
TEST(SafetyCli, DuplicateJsonKeysTakeTheFirstValueWithADiagnostic) {
  TempDir d;
  std::ofstream(d / "t.json") << R"({"schemaVersion":1,"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"first","pid":1,"tid":1,"ts":10,"dur":1,"ts":20,"name":"second"}],
"schemaVersion":2,"traceEvents":[]})";
  const CliResult r = RunProfdiff({"inspect", "--json", d / "t.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["time_span"]["first_ts_ns"], 10000) << j["time_span"];
  int64_t duplicates = -1;
  std::string details;
  for (const auto& e : j["diagnostics"]["entries"]) {
    if (e["id"] != "duplicate_key") continue;
    duplicates = e["count"].get<int64_t>();
    for (const auto& x : e["examples"]) details += x["detail"].get<std::string>() + " ";
  }
  EXPECT_EQ(duplicates, 3) << r.out;  // the event's first repeated key ("ts"), "schemaVersion", "traceEvents"
  for (const char* key : {"\"ts\"", "\"schemaVersion\"", "\"traceEvents\""})
    EXPECT_NE(details.find(key), std::string::npos) << key << " in " << details;
}

// A literal `_xHHHH_` in a name is written `_x005F_xHHHH_`: Excel would show "_x0041_op" as "Aop".
TEST(SafetyCli, WorkbookTextIsNeverDecodedByExcel) {
  std::string probe;
  if (report::testing::RunCommand("unzip -v >/dev/null 2>&1 && echo yes", &probe) != 0 || probe.find("yes") == std::string::npos)
    GTEST_SKIP() << "unzip is not installed; cannot inspect the workbook XML";
  TempDir d;
  WriteBigTrace(d / "a.json", 1, 5, 0, "_x0041_op");
  WriteBigTrace(d / "b.json", 1, 5, 2, "_x0041_op");
  const CliResult r = RunProfdiff({"compare", "-bp", d / "a.json", "-d", d / "b.json", "-o", d / "w.xlsx", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string sheets;
  ASSERT_EQ(report::testing::RunCommand("unzip -p '" + (d / "w.xlsx") + "' 'xl/worksheets/*.xml'", &sheets), 0);
  EXPECT_NE(sheets.find(">_x005F_x0041_op0<"), std::string::npos) << sheets.substr(0, 2000);
  EXPECT_EQ(sheets.find(">_x0041_op"), std::string::npos);
}

// True when `text` holds a byte that a terminal takes as a control: C0 but newline and tab, DEL, C1.
bool HasRawControls(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9F)
      return true;
  }
  return false;
}

// Names and paths from an input reach the terminal escaped (\xNN): a crafted trace's ESC, BEL, NUL
// or C1 CSI could retitle the window or clear the screen (they reached stdout and stderr raw before).
TEST(SafetyCli, ControlCharactersFromAnInputAreEscaped) {
  TempDir d;
  const std::string a = d / "a.json", b = d / "b.json";
  const std::string hostile = R"(\u001b]0;pwned\u0007\u001b[2J\u0000\u009b1m)";
  WriteBigTrace(a, 2, 20, 0, "aten::" + hostile + "op_", "py" + hostile);
  WriteBigTrace(b, 2, 20, 3, "other::" + hostile + "op_", "py" + hostile);
  const CliResult inspect = RunProfdiff({"inspect", a});
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_FALSE(HasRawControls(inspect.out));
  EXPECT_NE(inspect.out.find(R"(py\x1B]0;pwned\x07\x1B[2J\x00\xC2\x9B1m)"), std::string::npos) << inspect.out;
  // Operators of the summary (stdout) and the match-quality warning's names (stderr).
  for (const char* format : {"text", "md"}) {
    const CliResult compare = RunProfdiff({"compare", "-bp", a, "-d", b, "--no-xlsx", "--format", format});
    ASSERT_EQ(compare.exit_code, 0) << compare.err;
    EXPECT_FALSE(HasRawControls(compare.out)) << format;
    EXPECT_FALSE(HasRawControls(compare.err)) << format;
    EXPECT_NE(compare.err.find(R"(\x1B]0;pwned)"), std::string::npos) << compare.err;
  }
  // A path in an error message.
  const std::string path = d / "x\x1b[2Jy.json";
  const CliResult missing = RunProfdiff({"inspect", path});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_FALSE(HasRawControls(missing.err));
  EXPECT_NE(missing.err.find(R"(x\x1B[2Jy.json)"), std::string::npos) << missing.err;
}

// Runs profdiff with files limited to `max_file_bytes` (RLIMIT_FSIZE; SIGXFSZ ignored, so a write
// past it fails with EFBIG, as on a full disk); its exit code.
int RunWithFileLimit(const std::vector<std::string>& args, rlim_t max_file_bytes, const std::string& err_path) {
  std::vector<std::string> argv_s = {ProfdiffBin()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit limit{max_file_bytes, max_file_bytes};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::signal(SIGXFSZ, SIG_IGN);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(err, 2);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid > 0 ? WaitProfdiff(pid) : -1;
}

// A run that fails while writing its CSVs (a file over the size limit, as on a full disk) removes the
// CSVs it wrote, and the directory it made, as the docs promise (they stayed before).
TEST(SafetyCli, AFailedCsvRunRemovesTheCsvsItWrote) {
  TempDir d;
  const std::string base = d / "base.json", comparison = d / "comparison.json";
  WriteBigTrace(base, 2, 1500, 0);
  WriteBigTrace(comparison, 2, 1500, 1);
  const std::vector<std::string> args = {"compare", "-bp", base, "-d", comparison, "--no-xlsx", "--csv", d / "csv"};
  ASSERT_EQ(RunProfdiff(args).exit_code, 0);
  std::vector<uintmax_t> sizes;
  for (const auto& e : fs::directory_iterator(d / "csv")) sizes.push_back(fs::file_size(e.path()));
  std::sort(sizes.begin(), sizes.end());
  ASSERT_GE(sizes.size(), 3u);
  ASSERT_LT(sizes.front() * 2, sizes.back());
  fs::remove_all(d / "csv");
  // Room for the small CSVs, not for the largest.
  const int rc = RunWithFileLimit(args, static_cast<rlim_t>(sizes.back() - 1), d / "err");
  EXPECT_EQ(rc, 3) << ReadAll(d / "err");
  EXPECT_NE(ReadAll(d / "err").find("File too large"), std::string::npos) << ReadAll(d / "err");
  EXPECT_FALSE(fs::exists(d / "csv")) << ::testing::PrintToString(Tree(d / "csv"));
}

// SIGTERM and SIGINT at points spread over a run on a big pair (loading, comparing, writing each
// output): the run either finished (exit 0, every output whole) or died of the signal (130/143) and
// left nothing: no temporary file, no output, not the directories it made; a signal that lands after
// the run wrote every output, as it exits, leaves them whole (README). Before, hidden
// .NAME.tmp-XXXXXX files and a partial set of outputs stayed behind at most timings.
TEST(SafetyCli, ASignalLeavesNoDebrisAndNoPartialOutput) {
  TempDir d;
  const std::string base = d / "base.json", comparison = d / "comparison.json";
  WriteBigTrace(base, 40, 1500, 0);
  WriteBigTrace(comparison, 40, 1500, 1);
  const std::string out = d / "out";
  fs::create_directories(out);
  auto args = [&](const std::string& dir) {
    return std::vector<std::string>{"compare", "-bp", base, "-d", comparison, "-o", dir + "/wb.xlsx", "--json",
                                    dir + "/r.json", "--html", dir + "/r.html", "--csv", dir + "/csv", "-q"};
  };
  const auto start = std::chrono::steady_clock::now();
  const CliResult whole = RunProfdiff(args(d / "whole"));
  const double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const std::vector<std::string> all = Tree(d / "whole");
  int killed = 0;
  const std::vector<double> fractions = {0.01, 0.05, 0.15, 0.3, 0.45, 0.6, 0.7, 0.8, 0.88, 0.95, 0.99};
  for (size_t i = 0; i < fractions.size(); ++i) {
    const int sig = i % 2 == 0 ? SIGTERM : SIGINT;
    const std::string dir = out + "/" + std::to_string(i);
    const pid_t pid = SpawnProfdiff(args(dir), d / "stdout", d / "stderr");
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(fractions[i] * run_ms * 1000)));
    ::kill(pid, sig);
    const int rc = WaitProfdiff(pid);
    if (rc == 128 + sig) {
      ++killed;
      // Nothing, or (a signal after the run had written every output, while it exits: README) every
      // output whole; never a part of them nor a temporary file.
      if (fs::exists(dir) && Tree(dir) == all) continue;
      EXPECT_FALSE(fs::exists(dir)) << "after signal " << sig << " at " << fractions[i] << ": "
                                    << ::testing::PrintToString(Tree(dir));
    } else {
      EXPECT_EQ(rc, 0) << ReadAll(d / "stderr");
      EXPECT_EQ(Tree(dir), all) << "at " << fractions[i];
    }
  }
  EXPECT_GE(killed, 4) << "the run (" << run_ms << " ms) ended before most signals";
}

}  // namespace
}  // namespace profdiff::testing
