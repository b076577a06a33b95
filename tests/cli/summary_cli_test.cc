// The summary after the screen table through the CLI: default mode only, not with -q, and as
// Markdown with --format md.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/cli/app.h"
#include "run_cli.h"

namespace profdiff::cli {
namespace {

const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
const std::string kBefore = kData + "/kineto_h100_tiny/before_fix_trace.json";
const std::string kAfter = kData + "/kineto_h100_tiny/after_fix_trace.json";

std::string OutOf(std::vector<std::string> args) {
  const testing::Result r = testing::RunCli(std::move(args));
  EXPECT_EQ(r.rc, 0) << r.err;
  return r.out;
}

TEST(SummaryCli, DefaultModeNamesBothInputsAndTheE2eChange) {
  const std::string out = OutOf({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx"});
  const size_t at = out.find("\nSummary\n");
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_GT(at, out.find("Model Profiling Time Distribution"));  // after the table
  // The paths as given (their end kept if they are too long for 100 columns).
  EXPECT_NE(out.find("before_fix_trace.json\n  comparison: "), std::string::npos) << out;
  EXPECT_NE(out.find("  base:       " + (kBefore.size() <= 86 ? kBefore : "…")), std::string::npos) << out;
  EXPECT_NE(out.find("after_fix_trace.json\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  E2E: 20 ns -> 20 ns: ±0 ns (+0.0 %); whole captures, no step markers\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("operators matched: 100.0 % of base, 100.0 % of comparison"), std::string::npos) << out;

  EXPECT_EQ(OutOf({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "-q"}).find("Summary"), std::string::npos);
  EXPECT_EQ(OutOf({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "--reference-compat"}).find("Summary"),
            std::string::npos);  // the reference's screen, nothing added
}

TEST(SummaryCli, MarkdownForAPullRequest) {
  const std::string md = OutOf({"compare", "-bp", kBefore, "-d", kAfter, "--no-xlsx", "--format", "md",
                                "--gate-e2e", "5", "--whole-capture"});
  EXPECT_EQ(md.rfind("### profdiff: comparison vs base\n", 0), 0u) << md;
  EXPECT_NE(md.find("| computing | 20 ns | 20 ns | ±0 ns |"), std::string::npos) << md;
  EXPECT_NE(md.find("\n```\ngate: "), std::string::npos) << md;
  EXPECT_EQ(md.find("Model Profiling Time Distribution"), std::string::npos);  // no screen table
}

}  // namespace
}  // namespace profdiff::cli
