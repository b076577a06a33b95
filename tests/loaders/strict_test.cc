// --strict is enforced in one place, LoadProfile, for every kind of input: a Kineto or trace_view
// file, an Ascend directory (its trace and its side files) and inspect's side-file mode. The file
// loaders themselves only count malformed records as diagnostics.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "profdiff/loaders/ascend_side_files.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/loaders/trace_json.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

// An Ascend-looking trace (string 'ts'); `bad` adds an event whose 'ts' is not a number.
std::string AscendTrace(bool bad) {
  std::string t = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"10.5","dur":1})";
  if (bad) t += R"(,{"ph":"X","name":"b","pid":1,"tid":1,"ts":"x"})";
  return t + "]";
}

const std::string kGoodKernels = "Name,Start Time(us),Duration(us)\nconv,1.5,2\n";
const std::string kBadKernels = "Name,Start Time(us),Duration(us)\nconv,abc,2\nok,1,1\n";

class Strict : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(PROFDIFF_BINARY_DIR) / "strict_test_tmp" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  // A *_ascend_pt directory: ASCEND_PROFILER_OUTPUT/{trace_view.json, kernel_details.csv}.
  std::string AscendDir(const std::string& trace, const std::string& kernels) {
    Write("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", trace);
    Write("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", kernels);
    return (dir_ / "rank0_ascend_pt").string();
  }

  static LoadOptions Options(bool strict, bool accept_side_files = false) {
    LoadOptions o;
    o.strict = strict;
    o.accept_side_files = accept_side_files;
    return o;
  }

  fs::path dir_;
};

TEST_F(Strict, TheTraceLoaderOnlyCountsLoadProfileFails) {
  const std::string path = Write("bad.json", AscendTrace(/*bad=*/true));
  Profile p;
  // The trace loader leaves --strict to LoadProfile.
  ASSERT_TRUE(LoadTraceJson(path, p, Options(true)).ok());
  EXPECT_EQ(p.diagnostics.count(DiagId::bad_timestamp), 1u);
  const Status expected = p.diagnostics.CheckStrict();
  ASSERT_FALSE(expected.ok());

  ASSERT_TRUE(LoadProfile(path, Options(false)).ok());
  auto strict = LoadProfile(path, Options(true));
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().code(), StatusCode::kParseError);
  EXPECT_EQ(strict.status().message(), expected.message());
  EXPECT_NE(strict.status().message().find(path + ":1 (byte "), std::string::npos)
      << strict.status().message();
}

TEST_F(Strict, SideFileLoadersIgnoreTheOption) {
  const std::string path = Write("kernel_details.csv", kBadKernels);
  Profile p;
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(path, p, Options(true)).ok());
  EXPECT_EQ(p.diagnostics.count(DiagId::csv_bad_time), 1u);
  EXPECT_EQ(p.npu.kernel_details.rows.size(), 1u);
}

TEST_F(Strict, AscendDirectoryChecksTheSideFilesToo) {
  const std::string dir = AscendDir(AscendTrace(false), kBadKernels);
  auto lenient = LoadProfile(dir, Options(false));
  ASSERT_TRUE(lenient.ok()) << lenient.status().ToString();
  EXPECT_EQ((*lenient)->diagnostics.count(DiagId::csv_bad_time), 1u);

  auto strict = LoadProfile(dir, Options(true));
  ASSERT_FALSE(strict.ok());
  const std::string& m = strict.status().message();
  EXPECT_NE(m.find("kernel_details.csv:2: CSV time cell is not a decimal number"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("--strict"), std::string::npos) << m;

  ASSERT_TRUE(LoadProfile(AscendDir(AscendTrace(false), kGoodKernels), Options(true)).ok());
}

TEST_F(Strict, TraceErrorsAreReportedBeforeSideFileErrors) {
  const std::string dir = AscendDir(AscendTrace(true), kBadKernels);
  auto strict = LoadProfile(dir, Options(true));
  ASSERT_FALSE(strict.ok());
  const std::string& m = strict.status().message();
  EXPECT_NE(m.find("trace_view.json:1 (byte "), std::string::npos) << m;
  EXPECT_NE(m.find("event 'ts' is not a number"), std::string::npos) << m;
}

TEST_F(Strict, InspectSideFileMode) {
  const std::string path = Write("only/kernel_details.csv", kBadKernels);
  ASSERT_TRUE(LoadProfile(path, Options(false, true)).ok());
  auto strict = LoadProfile(path, Options(true, true));
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find(path + ":2: CSV time cell"), std::string::npos)
      << strict.status().message();
}

// A directory whose trace_view.json reads as Kineto is refused; under --strict a malformed event in
// it is reported first, as the trace loader did when it checked --strict itself.
TEST_F(Strict, MalformedTraceIsReportedBeforeTheFormatMismatch) {
  const std::string kineto_bad =
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},)"
      R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":"x"}]})";
  const std::string dir = AscendDir(kineto_bad, kGoodKernels);
  auto lenient = LoadProfile(dir, Options(false));
  ASSERT_FALSE(lenient.ok());
  EXPECT_NE(lenient.status().message().find("is not an Ascend trace_view.json"), std::string::npos)
      << lenient.status().message();
  auto strict = LoadProfile(dir, Options(true));
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("event 'ts' is not a number"), std::string::npos)
      << strict.status().message();
}

}  // namespace
}  // namespace profdiff
