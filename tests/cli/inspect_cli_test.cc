// `profdiff inspect` on bad inputs, through the real binary: what a user sees.
//
// Policy (docs/architecture.md "Errors and diagnostics"):
//  * a file that is not a usable profile (empty, wrong JSON type, binary, cut inside a JSON event,
//    unreadable side file) fails: exit 3, "profdiff: error: <file>@byte N: ..." or "<file>:LINE: ...";
//  * a malformed record inside a good file (a bad event, a short CSV row, a trace array without its
//    closing ']') is a diagnostic naming file and line/offset: exit 0, and with --strict exit 3 when the
//    diagnostic is an error;
//  * invalid UTF-8 inside strings is kept as raw bytes and reported (real files have it).
#include <sys/resource.h>
#include <sys/wait.h>
#include <zlib.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "../common/gzip_util.h"
#include "run_profdiff.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;
using profdiff::testing::CliResult;
using profdiff::testing::RunProfdiff;

class InspectCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(PROFDIFF_BINARY_DIR) / "inspect_cli_test_tmp" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  std::string Write(const std::string& rel, const std::string& bytes) {
    const fs::path path = dir_ / rel;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  fs::path dir_;
};

using profdiff::testing::Gzip;

struct BadCase {
  std::string file;      // relative name (decides how the input is read)
  std::string bytes;     // content
  std::string where;     // expected location right after the path: "@byte 0", ":3", ":2 (byte 54)"
  std::string message;   // expected part of the message
};

// Each case must fail with exit 3 and "profdiff: error: ... <path><where>: ... <message>".
void ExpectRefused(InspectCli& t, const std::string& path, const BadCase& c) {
  SCOPED_TRACE(c.file);
  for (bool json : {false, true}) {
    std::vector<std::string> args = {"inspect", path};
    if (json) args.insert(args.begin() + 1, "--json");
    const CliResult r = RunProfdiff(args);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err.rfind("profdiff: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(path + c.where), std::string::npos) << "expected '" << path + c.where << "' in " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "expected '" << c.message << "' in " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
  (void)t;
}

TEST_F(InspectCli, BadTraceJsonIsRefusedNamingFileAndOffset) {
  const std::string event = R"({"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1})";
  const std::vector<BadCase> cases = {
      {"empty.json", "", "@byte 0", "the file is empty"},
      {"blank.json", "  \n\t\n", "@byte 5", "only white space"},
      {"number.json", "5", "@byte 0", "not a JSON trace: it starts with '5'"},
      {"string.json", "\n\"trace\"", "@byte 1", "not a JSON trace"},
      {"binary.json", std::string("\x00\x01\x02\xff\xfe", 5), "@byte 0", "byte 0x00"},
      {"bom_binary.json", "\xEF\xBB\xBF\x7f\x45\x4c\x46", "@byte 3", "byte 0x7f"},
      {"empty_object.json", "{}", "@byte 0", "no \"traceEvents\" array"},
      {"events_number.json", "{\"traceEvents\": 5}", ":1 (byte 16)", "\"traceEvents\" is not an array"},
      {"events_object.json", "{\"schemaVersion\": 1,\n \"traceEvents\": {}}", ":2 (byte 37)",
       "\"traceEvents\" is not an array"},
      {"array_of_numbers.json", "[1, 2, 3]", "@byte 1", "none of the 3 element(s)"},
      {"kineto_of_strings.json", "{\"traceEvents\": [\"a\", \"b\"]}", "@byte 17", "none of the 2 element(s)"},
      {"binary_after_bracket.json", std::string("[\x00\x01\xff garbage", 12), ":1 (byte 5)",
       "expected ',' or ']' after a trace event"},
      {"truncated_event.json", "{\"traceEvents\": [" + event + ",\n{\"ph\":\"X\",\"na", ":2 (byte 71)",
       "input ends inside a trace event"},
      {"truncated_header.json", "{\"schemaVersion\": 1, \"traceEvents\"", "@byte 21", "input ends after a member name"},
      {"truncated_object.json", "{\"schemaVersion\": 1, \"deviceProperties\": [{\"name\": \"H1", ":1 (byte 41)",
       "input ends inside the value of top-level member \"deviceProperties\""},
      {"garbage_between_events.json", "[" + event + " ;; " + event + "]", ":1 (byte 54)",
       "expected ',' or ']' after a trace event"},
      {"trace_view.json", "[" + event + ",\n" + event + "\n,\n{\"ph\": \"X\", \"ts\": \"17", ":4 (byte 110)",
       "input ends inside a trace event"},
  };
  for (const BadCase& c : cases) ExpectRefused(*this, Write(c.file, c.bytes), c);
}

TEST_F(InspectCli, TruncatedOrCorruptGzipIsRefusedNamingTheFile) {
  std::string trace = "{\"traceEvents\": [";
  for (int i = 0; i < 2000; ++i) {
    trace += (i == 0 ? "" : ",\n");
    trace += R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i) + R"(","ts":)" + std::to_string(i * 10) +
             R"(,"dur":5,"pid":0,"tid":7})";
  }
  trace += "]}";
  const std::string z = Gzip(trace);
  const std::string cut = Write("cut.json.gz", z.substr(0, z.size() / 2));
  CliResult r = RunProfdiff({"inspect", cut});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(cut), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("byte"), std::string::npos) << r.err;

  std::string bad = z;
  for (size_t i = 20; i < 60 && i < bad.size(); ++i) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
  const std::string corrupt = Write("corrupt.json.gz", bad);
  r = RunProfdiff({"inspect", corrupt});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find(corrupt), std::string::npos) << r.err;

  const std::string whole = Write("whole.json.gz", z);
  r = RunProfdiff({"inspect", "--json", whole});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["slice_count"], 2000);
}

// A damaged gzip file often decompresses to garbage long before its checksum fails: the error names
// the gzip damage (where the compressed stream breaks), never only a JSON syntax error at an offset of
// the decompressed data. 24 damaged copies (64 random bytes each, fixed seed) of one trace.
TEST_F(InspectCli, DamagedGzipIsNamedAsSuchNotAsAJsonError) {
  std::string trace = "{\"traceEvents\": [";
  for (int i = 0; i < 20000; ++i) {
    trace += (i == 0 ? "" : ",\n");
    trace += R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i) + R"(","ts":)" + std::to_string(i * 10) +
             R"(,"dur":5,"pid":0,"tid":7})";
  }
  trace += "]}";
  const std::string z = Gzip(trace);
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int t = 0; t < 24; ++t) {
    std::string bad = z;
    const size_t at = 1000 + next() % (bad.size() - 2000);
    for (size_t k = 0; k < 64; ++k) bad[at + k] = static_cast<char>(next() >> 24);
    const std::string path = Write("damaged" + std::to_string(t) + ".json.gz", bad);
    const CliResult r = RunProfdiff({"inspect", path});
    SCOPED_TRACE(path);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(r.err.find("profdiff: error: parse error: " + path + "@byte "), 0u) << r.err;
    EXPECT_TRUE(r.err.find("corrupt gzip data") != std::string::npos ||
                r.err.find("truncated gzip") != std::string::npos)
        << r.err;
  }
}

TEST_F(InspectCli, BadCsvSideFileIsRefusedNamingFileAndLine) {
  const std::vector<BadCase> cases = {
      {"empty/kernel_details.csv", "", "@byte 0", "the file is empty"},
      {"blank/op_statistic.csv", "\n\r\n", "@byte 3", "only white space"},
      {"binary/kernel_details.csv", std::string("Name,Start Time(us),Duration(us)\nconv,1,") + std::string("\x00\x02\n", 3), ":2",
       "binary data (NUL byte)"},
      {"json_text/kernel_details.csv", "{\"Name\": 1}\n", ":1", "required column 'Name' not in the header"},
      {"number/memory_record.csv", "5\n", ":1", "required column 'Total Reserved(MB)' not in the header"},
      {"wrong_table/op_statistic.csv", "Name,Start Time(us),Duration(us)\nconv,1,2\n", ":1",
       "required column 'OP Type' not in the header"},
      {"header_late/kernel_details.csv", "\n\nName,Duration(us)\n", ":3", "required column 'Start Time(us)'"},
      {"gzip_csv/operator_memory.csv", Gzip("Name,Size(KB)\nx,1\n"), ":1", "binary data (NUL byte)"},
  };
  for (const BadCase& c : cases) ExpectRefused(*this, Write(c.file, c.bytes), c);
}

TEST_F(InspectCli, BadJsonSideFileIsRefusedNamingFileAndOffset) {
  const std::vector<BadCase> cases = {
      {"empty/communication.json", "", "@byte 0", "the file is empty"},
      {"number/communication.json", "  5", "@byte 2", "top level is a JSON number, expected an object of steps"},
      {"array/communication.json", "[]", "@byte 0", "top level is a JSON array"},
      {"truncated/communication.json", "{\"step1\": {\"collective\": {", "@byte 27", "invalid JSON"},
      {"binary/communication.json", std::string("\x01\x02\xff", 3), "@byte 1", "invalid JSON"},
      {"utf8/communication.json", "{\"s\xff\": {}}", "@byte 4", "ill-formed UTF-8"},
      {"info_empty/profiler_info_0.json", "{}", "@byte 0", "invalid profiler info"},
      {"info_array/profiler_info_3.json", "\n[1]", "@byte 1", "top level is a JSON array"},
      {"metadata/profiler_metadata.json", "{\"parallel_group_info\": 5", "@byte 26", "invalid JSON"},
      {"metadata_type/profiler_metadata.json", "true", "@byte 0", "top level is a JSON boolean"},
  };
  for (const BadCase& c : cases) ExpectRefused(*this, Write(c.file, c.bytes), c);
}

TEST_F(InspectCli, PathsThatAreNotProfilesAreRefused) {
  const std::vector<BadCase> cases = {
      {"notes.txt", "hello", "", "invalid profiling path suffix"},
      {"other.db", "", "", "not a profiler database"},
      {"api_statistic.csv", "a,b\n1,2\n", "", "invalid profiling path suffix"},
  };
  for (const BadCase& c : cases) ExpectRefused(*this, Write(c.file, c.bytes), c);

  const CliResult missing = RunProfdiff({"inspect", (dir_ / "nope.json").string()});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_NE(missing.err.find((dir_ / "nope.json").string() + ": no such file or directory"), std::string::npos)
      << missing.err;

  fs::create_directories(dir_ / "empty_dir");
  const CliResult empty_dir = RunProfdiff({"inspect", (dir_ / "empty_dir").string()});
  EXPECT_EQ(empty_dir.exit_code, 3);
  EXPECT_NE(empty_dir.err.find((dir_ / "empty_dir").string() + ": not an Ascend profile: no trace_view.json"),
            std::string::npos)
      << empty_dir.err;

  // A cluster collection (one *_ascend_pt per rank below it): the error names them.
  for (const char* rank : {"rank0_ascend_pt", "rank1_ascend_pt", "rank2_ascend_ms", "rank3_ascend_pt"})
    fs::create_directories(dir_ / "cluster" / rank);
  const CliResult cluster = RunProfdiff({"inspect", (dir_ / "cluster").string()});
  EXPECT_EQ(cluster.exit_code, 3);
  EXPECT_NE(cluster.err.find("not an Ascend profile: no trace_view.json (the data is not collected by PyTorch or "
                             "MindSpore mode, or it is not parsed yet); it holds 4 profiles (rank0_ascend_pt, "
                             "rank1_ascend_pt, rank2_ascend_ms, ...): pass one of them (`profdiff cluster -d DIR` "
                             "reads them all)"),
            std::string::npos)
      << cluster.err;
}

// ---- inputs that load, with diagnostics -----------------------------------------------------------

// Runs inspect --json and returns the diagnostics entry `id` (null when absent).
nlohmann::json DiagEntry(const nlohmann::json& inspect, const std::string& id) {
  for (const auto& e : inspect["diagnostics"]["entries"])
    if (e["id"] == id) return e;
  return nullptr;
}

TEST_F(InspectCli, TraceViewWithoutClosingBracketLoadsWithADiagnostic) {
  const std::string ev1 = R"({"ph":"X","cat":"cpu_op","name":"a","ts":"1736408883688177.930","dur":2.5,"pid":1,"tid":1})";
  const std::string ev2 = R"({"ph":"X","cat":"cpu_op","name":"b","ts":"1736408883688180.001","dur":1,"pid":1,"tid":1})";
  for (const std::string& tail : {std::string("\n"), std::string(",\n"), std::string(""), std::string(" , \n\n")}) {
    SCOPED_TRACE("tail '" + tail + "'");
    const std::string text = "[" + ev1 + ",\n" + ev2 + tail;
    const std::string path = Write("ASCEND_PROFILER_OUTPUT/trace_view.json", text);
    const CliResult r = RunProfdiff({"inspect", "--json", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["format"], "ascend-trace-view");
    EXPECT_EQ(j["slice_count"], 2);
    EXPECT_EQ(j["time_span"]["first_ts_ns"], 1736408883688177930);
    const nlohmann::json e = DiagEntry(j, "missing_closing_bracket");
    ASSERT_FALSE(e.is_null()) << j["diagnostics"].dump();
    EXPECT_EQ(e["severity"], "warning");
    EXPECT_EQ(e["examples"][0]["where"], path + "@byte " + std::to_string(text.size()));
    // A warning: --strict still loads it.
    EXPECT_EQ(RunProfdiff({"inspect", "--strict", path}).exit_code, 0);
    // The directory form reads the same trace (side files absent: diagnostics, not errors).
    const CliResult d = RunProfdiff({"inspect", (dir_ / "ASCEND_PROFILER_OUTPUT").string()});
    EXPECT_EQ(d.exit_code, 0) << d.err;
    EXPECT_NE(d.out.find("missing_closing_bracket"), std::string::npos) << d.out;
  }
}

TEST_F(InspectCli, InvalidUtf8InStringsIsKeptAndReported) {
  const std::string trace = Write(
      "trace_view.json", "[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"conv\xff\xfe\",\"ts\":\"1.5\",\"dur\":2,\"pid\":1,"
                         "\"tid\":1},\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"ok\",\"ts\":\"2.5\",\"dur\":2,\"pid\":1,\"tid\":1}]");
  CliResult r = RunProfdiff({"inspect", "--json", trace});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);  // still valid JSON (U+FFFD replacements)
  EXPECT_EQ(j["slice_count"], 2);
  nlohmann::json e = DiagEntry(j, "invalid_utf8");
  ASSERT_FALSE(e.is_null());
  EXPECT_EQ(e["examples"][0]["where"], trace + ":1 (byte 1)");
  EXPECT_EQ(RunProfdiff({"inspect", "--strict", trace}).exit_code, 0);  // a note, not an error

  const std::string csv = Write("kd/kernel_details.csv", "Name,Start Time(us),Duration(us)\nconv\xff,1.5,2\nok,3,4\n");
  r = RunProfdiff({"inspect", "--json", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["side_tables"]["kernel_details"]["rows"], 2);
  e = DiagEntry(j, "invalid_utf8");
  ASSERT_FALSE(e.is_null());
  EXPECT_EQ(e["examples"][0]["where"], csv + ":2");
}

TEST_F(InspectCli, MalformedRecordsAreDiagnosedAndStrictFails) {
  struct Case {
    std::string file, bytes, diag, where;
  };
  const std::string good = R"({"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1})";
  const std::vector<Case> cases = {
      {"bad_event.json", "{\"traceEvents\": [" + good + ",\n{\"ph\":\"X\",\"ts\":1 \"dur\":2}]}", "json_event_malformed",
       ":2 (byte 88)"},
      {"bad_ts.json", "[" + good + ",\n{\"ph\":\"X\",\"name\":\"b\",\"ts\":\"abc\"}]", "bad_timestamp", ":2 (byte 55)"},
      {"short_row/kernel_details.csv", "Name,Start Time(us),Duration(us)\nconv,1.5,2\nmatmul,3", "csv_row_width", ":3"},
      {"open_quote/kernel_details.csv", "Name,Start Time(us),Duration(us)\nconv,1.5,2\n\"matmul,3", "csv_unterminated_quote",
       ":3"},
      {"bad_time/kernel_details.csv", "Name,Start Time(us),Duration(us)\nconv,abc,2\nok,1,1\n", "csv_bad_time", ":2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = Write(c.file, c.bytes);
    CliResult r = RunProfdiff({"inspect", "--json", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json e = DiagEntry(nlohmann::json::parse(r.out), c.diag);
    ASSERT_FALSE(e.is_null()) << r.out;
    EXPECT_EQ(e["severity"], "error");
    EXPECT_EQ(e["examples"][0]["where"], path + c.where);
    r = RunProfdiff({"inspect", "--strict", path});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.err.find(path + c.where), std::string::npos) << r.err;
  }
}

TEST_F(InspectCli, CompareKeepsTheReferenceInputsAndRefusesSideFiles) {
  const std::string kd = Write("ASCEND_PROFILER_OUTPUT/kernel_details.csv", "Name,Start Time(us),Duration(us)\nconv,1,2\n");
  ASSERT_EQ(RunProfdiff({"inspect", kd}).exit_code, 0);
  const CliResult r = RunProfdiff({"compare", "-d", kd, "-bp", kd, "--no-xlsx", "-q"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(kd + ": an Ascend side file (kernel_details.csv), not a profile"), std::string::npos) << r.err;
  // A trace-less ASCEND_PROFILER_OUTPUT: inspect shows its tables, compare refuses it.
  const std::string out_dir = (dir_ / "ASCEND_PROFILER_OUTPUT").string();
  ASSERT_EQ(RunProfdiff({"inspect", out_dir}).exit_code, 0);
  const CliResult c = RunProfdiff({"compare", "-d", out_dir, "-bp", out_dir, "--no-xlsx", "-q"});
  EXPECT_EQ(c.exit_code, 3);
  EXPECT_NE(c.err.find(out_dir + ": not an Ascend profile: no trace_view.json"), std::string::npos) << c.err;
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// inspect is linear in processes, as compare is: 300 k pids (a track each) in about a second; a pass
// over every track for each process took over a minute.
TEST_F(InspectCli, LinearInProcesses) {
  constexpr int kPids = 300000;
  std::string trace = "{\"traceEvents\":[\n";
  for (int i = 0; i < kPids; ++i)
    trace += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":" + std::to_string(i) +
             ",\"tid\":1,\"ts\":" + std::to_string(i) + ",\"dur\":1}" + (i + 1 < kPids ? ",\n" : "\n");
  const std::string path = Write("pids.json", trace + "]}\n");
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = RunProfdiff({"inspect", path});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("processes: 300000, tracks: 300000"), std::string::npos);
  EXPECT_NE(r.out.find("  pid 299999  name \"\"\n    tid 1  name \"\"  slices 1\n"), std::string::npos);
  EXPECT_LT(seconds, 30.0) << "inspect of " << kPids << " pids";
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// Runs profdiff; its exit code and its peak RSS in KiB (wait4).
int RunMeasured(const std::vector<std::string>& args, long* max_rss_kib, std::string* err) {
  const std::string err_path = (fs::temp_directory_path() / ("profdiff_rss_" + std::to_string(::getpid()))).string();
  const pid_t pid = testing::SpawnProfdiff(args, "/dev/null", err_path);
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  *max_rss_kib = usage.ru_maxrss;
  *err = testing::ReadAll(err_path);
  fs::remove(err_path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// NUL bytes after a valid start of a trace (a file cut and padded with zeros) are refused as soon as
// a run of them is seen: not buffered to the 1 GiB value cap with a peak of about 3x the NULs read
// (256 MiB of zeros in a 256 KiB .gz: 2.3 GB and 23 s for 768 MiB before), nor inflated to the end.
TEST_F(InspectCli, BinaryZerosAfterATraceStartAreRefusedAtOnce) {
  const std::string prefix =
      R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"X","name":")";
  const std::string zeros(size_t{1} << 20, '\0');
  const std::string gz = (dir_ / "zeros.json.gz").string();
  gzFile f = gzopen(gz.c_str(), "wb9");
  ASSERT_NE(f, nullptr);
  gzwrite(f, prefix.data(), static_cast<unsigned>(prefix.size()));
  for (int i = 0; i < 256; ++i) gzwrite(f, zeros.data(), static_cast<unsigned>(zeros.size()));
  gzclose(f);
  const std::string plain = (dir_ / "zeros.json").string();
  {
    std::ofstream out(plain, std::ios::binary);
    out << prefix;
    for (int i = 0; i < 96; ++i) out << zeros;  // 96 MiB: read by the parallel reader
  }
  for (const std::string& path : {gz, plain}) {
    long rss = 0;
    std::string err;
    EXPECT_EQ(RunMeasured({"inspect", path}, &rss, &err), 3) << err;
    EXPECT_NE(err.find("64 NUL bytes in a row inside a JSON value"), std::string::npos) << err;
    EXPECT_LT(rss, 200 * 1024) << path << ": peak RSS " << rss << " KiB";
  }
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// More white space in a row than a value may hold (1 GiB) is refused there: a 1.6 MB .gz of 1.5 GiB
// of spaces after a trace's first event loaded with a warning after inflating all of it (10 GiB in a
// 10 MB .gz took over a minute).
TEST_F(InspectCli, GigabytesOfWhiteSpaceAreRefusedAtTheValueCap) {
  const std::string start =
      Gzip(R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1},)");
  const std::string spaces = Gzip(std::string(size_t{16} << 20, ' '));  // one gzip member each
  const std::string path = (dir_ / "spaces.json.gz").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << start;
    for (int i = 0; i < 96; ++i) out << spaces;
  }
  const CliResult r = RunProfdiff({"inspect", path});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("more than 1073741824 bytes of white space in a row"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace profdiff
