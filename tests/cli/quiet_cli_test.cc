// `-q` hides notes (the files written, what is not available) but never a warning.
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

std::string ErrOf(std::vector<std::string> args) {
  const testing::Result r = testing::RunCli(std::move(args));
  EXPECT_EQ(r.rc, 0) << r.err;
  return r.err;
}

TEST(QuietCli, KeepsWarnings) {
  const std::string before = kData + "/kineto_h100_tiny/before_fix_trace.json";
  const std::string after = kData + "/kineto_h100_tiny/after_fix_trace.json";
  // A step id on GPU data is ignored in the reference's mode: a warning, shown with -q.
  const std::string err = ErrOf({"compare", "-bp", before, "-d", after, "--no-xlsx", "-q", "--reference-compat",
                                 "--base_step", "1", "--comparison_step", "1"});
  EXPECT_NE(err.find("profdiff: warning: step id is invalid in GPU data"), std::string::npos) << err;
  // Nothing else: notes are hidden.
  EXPECT_EQ(err.find("profdiff: note"), std::string::npos) << err;
  EXPECT_EQ(ErrOf({"compare", "-bp", before, "-d", after, "--no-xlsx", "-q"}), "");
}

}  // namespace
}  // namespace profdiff::cli
